import Foundation
import TresorDomain
import TresorLedger

/// Receipts of one customer: stored with their image, categorised (learnt corrections first,
/// then the merchant rules), matched to a transaction of the same amount within ±3 days, and
/// counted against the month's budget.
public struct ReceiptService: Sendable {
    let database: any SQLDatabase
    let blobs: any BlobStore
    let clock: any Clock
    let budgets: BudgetService

    static let stored = "id, blob_hash, merchant, purchase_date, total_minor, currency, category, text, confidence, transaction_id, vat"
    /// The row and its count of photos (`Receipt.pages`), from `receipts` unaliased.
    static let columns = stored + ", 1 + (SELECT COUNT(*) FROM receipt_pages g WHERE g.receipt_id = receipts.id)"

    public func create(image: [UInt8], reading: ReceiptInput, for customer: CustomerID) async throws -> Receipt {
        try await create(images: [image], reading: reading, for: customer)
    }

    /// A receipt of one photo or of a long one's parts, top first: every photo into the store
    /// before the rows, the first as the receipt's image, the others as its pages 2, 3, ….
    public func create(images: [[UInt8]], reading: ReceiptInput, for customer: CustomerID) async throws -> Receipt {
        guard !images.isEmpty else { throw DomainError(.missingField, field: "image", "The form has no image file.") }
        var stored: [String] = []
        for image in images { stored.append(try await Self.store(image, in: blobs)) }
        let hashes = stored
        let hash = hashes[0]
        let now = clock.unixMillis
        let receipt = try await database.transaction { session in
            let category = try await Self.category(for: reading.merchant, customer: customer, in: session)
            let row = try await session.queryOne(
                SQL(
                    """
                    INSERT INTO receipts (customer_id, blob_hash, merchant, purchase_date, total_minor, currency, category, text, confidence, \
                    vat, created_at_ms, updated_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING \(Self.stored), 1
                    """,
                    [
                        .int(customer.rawValue), .text(hash), reading.merchant.map(SQLValue.text) ?? .null,
                        reading.date.map { .text($0.description) } ?? .null, reading.total.map { .int($0.minorUnits) } ?? .null,
                        .text((reading.total?.currency ?? reading.currency).code), .text(category), .text(reading.text),
                        .int(Int64(reading.confidence)), .text(String(decoding: try JSONEncoder().encode(reading.vat), as: UTF8.self)), .int(now),
                        .int(now),
                    ]))
            var created = try Self.receipt(row!)
            for (index, page) in hashes.enumerated().dropFirst() {
                try await session.execute(
                    SQL(
                        "INSERT INTO receipt_pages (receipt_id, page, blob_hash) VALUES (?, ?, ?)",
                        [.int(created.id), .int(Int64(index + 1)), .text(page)]))
            }
            created.pages = hashes.count
            let matched = try await Self.match(created, customer: customer, in: session)
            try await Ledger.pagesChanged(ofTransactions: matched.transactionID.map { [$0] } ?? [], in: session)
            return matched
        }
        try await budgets.sendAlerts(for: customer, around: receipt.date)
        return receipt
    }

    /// The image into the store first: a receipt row never names an image that is not there.
    /// A store that cannot take it (disk full, object store down) is a 503 the phone retries,
    /// with nothing saved.
    static func store(_ image: [UInt8], in blobs: any BlobStore) async throws -> String {
        do {
            return try await blobs.put(image)
        } catch let error as BlobStoreError {
            switch error {
            case .full, .remote, .io:
                throw DomainError(
                    .storageUnavailable, field: "image", "The image cannot be stored right now; please try again later.", suggested: "30")
            case .notFound, .corrupt: throw error
            }
        }
    }

    public func list(of customer: CustomerID, month: String? = nil) async throws -> [Receipt] {
        try await list(of: customer, matching: ReceiptQuery(month: month))
    }

    /// The customer's receipts that match every part of `query`, newest purchase first.
    public func list(of customer: CustomerID, matching query: ReceiptQuery) async throws -> [Receipt] {
        let (conditions, values) = query.sql
        return try await database.read { session in
            var receipts = try await session.query(
                SQL(
                    "SELECT \(Self.columns) FROM receipts WHERE customer_id = ?\(conditions) ORDER BY purchase_date DESC, id DESC",
                    [.int(customer.rawValue)] + values)
            ).map(Self.receipt)
            let splits = try await Self.splits(of: receipts.map(\.id), in: session)
            for index in receipts.indices { receipts[index].splits = splits[receipts[index].id] ?? [] }
            return receipts
        }
    }

    /// Transaction id → the customer's receipt matched to it, for the transaction lists.
    public func receiptIDs(forTransactions ids: [Int64], of customer: CustomerID) async throws -> [Int64: Int64] {
        try await database.read { try await Self.receiptIDs(forTransactions: ids, of: customer, in: $0) }
    }

    /// The same, read in `session` beside the page of transactions it annotates.
    static func receiptIDs(forTransactions ids: [Int64], of customer: CustomerID, in session: any SQLSession) async throws -> [Int64: Int64] {
        guard !ids.isEmpty else { return [:] }
        let marks = Array(repeating: "?", count: ids.count).joined(separator: ", ")
        let rows = try await session.query(
            SQL(
                "SELECT transaction_id, id FROM receipts WHERE customer_id = ? AND transaction_id IN (\(marks))",
                [.int(customer.rawValue)] + ids.map { .int($0) }))
        return Dictionary(rows.map { ($0.int(0), $0.int(1)) }, uniquingKeysWith: { first, _ in first })
    }

    public func get(_ id: Int64, of customer: CustomerID) async throws -> Receipt {
        try await database.read { try await Self.load(id, customer: customer, in: $0) }
    }

    /// The receipt's photo `page` (1 the first; a long receipt has more).
    public func image(_ id: Int64, of customer: CustomerID, page: Int = 1) async throws -> [UInt8] {
        let hash = try await database.read { session in
            guard
                let first = try await session.queryOne(
                    SQL("SELECT blob_hash FROM receipts WHERE id = ? AND customer_id = ?", [.int(id), .int(customer.rawValue)]))
            else { throw DomainError(.notFound, field: "id", "No such receipt.") }
            guard page != 1 else { return first.text(0) }
            guard
                let row = try await session.queryOne(
                    SQL("SELECT blob_hash FROM receipt_pages WHERE receipt_id = ? AND page = ?", [.int(id), .int(Int64(page))]))
            else {
                let more = try await session.queryOne(SQL("SELECT COUNT(*) FROM receipt_pages WHERE receipt_id = ?", [.int(id)]))
                throw DomainError(.notFound, field: "page", "The receipt has \(1 + (more?.int(0) ?? 0)) photo(s).")
            }
            return row.text(0)
        }
        return try await blobs.get(hash)
    }

    /// Applies the corrections. A new category is learnt for the merchant; a new amount or date
    /// is matched again.
    public func update(_ id: Int64, of customer: CustomerID, _ changes: ReceiptChanges) async throws -> Receipt {
        let now = clock.unixMillis
        let updated = try await database.transaction { session in
            var receipt = try await Self.load(id, customer: customer, in: session)
            let linkedBefore = receipt.transactionID
            if let category = changes.category {
                try await Self.validate(category: category, customer: customer, in: session)
                receipt.category = category
            }
            if let merchant = changes.merchant {
                let trimmed = merchant.trimmingCharacters(in: .whitespaces)
                guard !trimmed.isEmpty, TextLength.of(trimmed) <= 100 else {
                    throw DomainError(.invalidParameter, field: "merchant", "The merchant has 1 to 100 characters.")
                }
                receipt.merchant = trimmed
            }
            if let date = changes.date { receipt.date = date }
            if let total = changes.total {
                guard total.minorUnits > 0 else { throw DomainError(.invalidAmount, field: "total", "The total is more than zero.") }
                receipt.total = total
                receipt.currency = total.currency
            }
            if changes.category != nil, let merchant = receipt.merchant {
                try await session.execute(
                    SQL(
                        """
                        INSERT INTO merchant_categories (customer_id, merchant_key, category) VALUES (?, ?, ?) \
                        ON CONFLICT (customer_id, merchant_key) DO UPDATE SET category = excluded.category
                        """, [.int(customer.rawValue), .text(ReceiptCategories.merchantKey(merchant)), .text(receipt.category)]))
            }
            if changes.total != nil || changes.date != nil { receipt.transactionID = nil }
            // why dropped: its parts no longer add up to the new total; the customer splits again.
            if let total = changes.total, !receipt.splits.isEmpty, total != receipt.splits.total {
                try await session.execute(SQL("DELETE FROM receipt_splits WHERE receipt_id = ?", [.int(id)]))
                receipt.splits = []
            }
            try await session.execute(
                SQL(
                    """
                    UPDATE receipts SET merchant = ?, purchase_date = ?, total_minor = ?, currency = ?, category = ?, transaction_id = ?, \
                    updated_at_ms = ? WHERE id = ? AND customer_id = ?
                    """,
                    [
                        receipt.merchant.map(SQLValue.text) ?? .null, receipt.date.map { .text($0.description) } ?? .null,
                        receipt.total.map { .int($0.minorUnits) } ?? .null, .text(receipt.currency.code), .text(receipt.category),
                        receipt.transactionID.map(SQLValue.int) ?? .null, .int(now), .int(id), .int(customer.rawValue),
                    ]))
            let result = receipt.transactionID == nil ? try await Self.match(receipt, customer: customer, in: session) : receipt
            // why: the transaction pages of both the old and the new link show the receipt's id.
            if result.transactionID != linkedBefore {
                try await Ledger.pagesChanged(ofTransactions: [linkedBefore, result.transactionID].compactMap { $0 }, in: session)
            }
            return result
        }
        try await budgets.sendAlerts(for: customer, around: updated.date)
        return updated
    }

    /// Splits the receipt across categories: at least two parts, each of a known category, more
    /// than zero and in the receipt's currency, adding up to its total exactly. No parts: the
    /// receipt is whole again. The receipt's own category becomes its largest part's.
    public func split(_ id: Int64, of customer: CustomerID, into parts: [ReceiptSplit]) async throws -> Receipt {
        let updated = try await database.transaction { session in
            var receipt = try await Self.load(id, customer: customer, in: session)
            if !parts.isEmpty {
                guard let total = receipt.total else {
                    throw DomainError(.invalidParameter, field: "splits", "Set the receipt's total before splitting it.")
                }
                guard (2...20).contains(parts.count) else {
                    throw DomainError(.invalidParameter, field: "splits", "A split has two parts or more, at most 20.")
                }
                guard Set(parts.map(\.category)).count == parts.count else {
                    throw DomainError(.invalidParameter, field: "splits", "Each category once: add its amounts together.")
                }
                for (index, part) in parts.enumerated() {
                    try await Self.validate(category: part.category, customer: customer, in: session, field: "splits[\(index)].category")
                    guard part.amount.currency == total.currency, part.amount.minorUnits > 0 else {
                        throw DomainError(
                            .invalidAmount, field: "splits[\(index)].amount", "Each part is more than zero, in \(total.currency.code).")
                    }
                }
                guard parts.total == total else {
                    throw DomainError(
                        .invalidAmount, field: "splits",
                        "The parts add up to \(parts.total?.decimalString ?? "?"), the total is \(total.decimalString).")
                }
            }
            try await session.execute(SQL("DELETE FROM receipt_splits WHERE receipt_id = ?", [.int(id)]))
            for part in parts {
                try await session.execute(
                    SQL(
                        "INSERT INTO receipt_splits (receipt_id, category, amount_minor) VALUES (?, ?, ?)",
                        [.int(id), .text(part.category), .int(part.amount.minorUnits)]))
            }
            if let largest = parts.max(by: { ($0.amount.minorUnits, $1.category) < ($1.amount.minorUnits, $0.category) }) {
                receipt.category = largest.category
                try await session.execute(SQL("UPDATE receipts SET category = ? WHERE id = ?", [.text(largest.category), .int(id)]))
            }
            receipt.splits = try await Self.splits(of: [id], in: session)[id] ?? []
            return receipt
        }
        try await budgets.sendAlerts(for: customer, around: updated.date)
        return updated
    }

    /// Deletes the receipt. The image stays in the store: it is content-addressed and may be
    /// another receipt's too; backups keep every object.
    public func delete(_ id: Int64, of customer: CustomerID) async throws {
        try await database.transaction { session in
            let receipt = try await Self.load(id, customer: customer, in: session)
            try await session.execute(SQL("DELETE FROM receipt_splits WHERE receipt_id = ?", [.int(id)]))
            try await session.execute(SQL("DELETE FROM receipt_pages WHERE receipt_id = ?", [.int(id)]))
            try await session.execute(SQL("DELETE FROM receipts WHERE id = ? AND customer_id = ?", [.int(id), .int(customer.rawValue)]))
            try await Ledger.pagesChanged(ofTransactions: receipt.transactionID.map { [$0] } ?? [], in: session)
        }
    }

    /// The built-in categories and the customer's own.
    public func categories(of customer: CustomerID) async throws -> [String] {
        let own = try await database.read { session in
            try await session.query(SQL("SELECT name FROM custom_categories WHERE customer_id = ? ORDER BY name", [.int(customer.rawValue)]))
                .map { $0.text(0) }
        }
        return ReceiptCategories.builtIn + own
    }

    public func addCategory(_ name: String, for customer: CustomerID) async throws {
        let trimmed = name.trimmingCharacters(in: .whitespaces).lowercased()
        guard !trimmed.isEmpty, TextLength.of(trimmed) <= 40, !ReceiptCategories.builtIn.contains(trimmed) else {
            throw DomainError(.invalidParameter, field: "name", "A new category has 1 to 40 characters and is not a built-in one.")
        }
        try await database.transaction { session in
            try await session.execute(
                SQL(
                    "INSERT INTO custom_categories (customer_id, name) VALUES (?, ?) ON CONFLICT DO NOTHING",
                    [.int(customer.rawValue), .text(trimmed)]))
        }
    }

    static func validate(category: String, customer: CustomerID, in session: any SQLSession, field: String = "category") async throws {
        if ReceiptCategories.builtIn.contains(category) { return }
        let own = try await session.queryOne(
            SQL("SELECT 1 FROM custom_categories WHERE customer_id = ? AND name = ?", [.int(customer.rawValue), .text(category)]))
        guard own != nil else {
            throw DomainError(.invalidParameter, field: field, "Unknown category \(category); add it first or use a built-in one.")
        }
    }

    /// What this customer taught for the merchant, else the rules, else `other`.
    static func category(for merchant: String?, customer: CustomerID, in session: any SQLSession) async throws -> String {
        if let merchant,
            let learnt = try await session.queryOne(
                SQL(
                    "SELECT category FROM merchant_categories WHERE customer_id = ? AND merchant_key = ?",
                    [.int(customer.rawValue), .text(ReceiptCategories.merchantKey(merchant))]))
        {
            return learnt.text(0)
        }
        return ReceiptCategories.byRule(merchant) ?? "other"
    }

    /// Links the receipt to the customer's debit of the same amount booked closest to its date,
    /// within ±3 days, that no other receipt has.
    static func match(_ receipt: Receipt, customer: CustomerID, in session: any SQLSession) async throws -> Receipt {
        guard let total = receipt.total, let date = receipt.date else { return receipt }
        let candidates = try await session.query(
            SQL(
                """
                SELECT p.transaction_id, p.booking_date FROM postings p JOIN accounts a ON a.id = p.account_id \
                WHERE a.customer_id = ? AND p.currency = ? AND p.amount_minor = ? AND p.booking_date >= ? AND p.booking_date <= ? \
                AND NOT EXISTS (SELECT 1 FROM receipts r WHERE r.transaction_id = p.transaction_id AND r.id <> ?)
                """,
                [
                    .int(customer.rawValue), .text(total.currency.code), .int(-total.minorUnits), .text(date.adding(days: -3).description),
                    .text(date.adding(days: 3).description), .int(receipt.id),
                ]))
        let best = candidates.min { first, second in
            func distance(_ row: SQLRow) -> Int {
                abs(((try? LocalDate(parsing: row.text(1)))?.daysSinceEpoch ?? date.daysSinceEpoch) - date.daysSinceEpoch)
            }
            return distance(first) < distance(second)
        }
        guard let best else { return receipt }
        var matched = receipt
        matched.transactionID = best.int(0)
        try await session.execute(SQL("UPDATE receipts SET transaction_id = ? WHERE id = ?", [.int(best.int(0)), .int(receipt.id)]))
        return matched
    }

    static func load(_ id: Int64, customer: CustomerID, in session: any SQLSession) async throws -> Receipt {
        guard
            let row = try await session.queryOne(
                SQL("SELECT \(columns) FROM receipts WHERE id = ? AND customer_id = ?", [.int(id), .int(customer.rawValue)]))
        else { throw DomainError(.notFound, field: "id", "No such receipt.") }
        var receipt = try receipt(row)
        receipt.splits = try await splits(of: [id], in: session)[id] ?? []
        return receipt
    }

    /// The parts of the split receipts among `ids`, by receipt, largest part first.
    static func splits(of ids: [Int64], in session: any SQLSession) async throws -> [Int64: [ReceiptSplit]] {
        guard !ids.isEmpty else { return [:] }
        let rows = try await session.query(
            SQL(
                """
                SELECT s.receipt_id, s.category, s.amount_minor, r.currency FROM receipt_splits s JOIN receipts r ON r.id = s.receipt_id \
                WHERE s.receipt_id IN (\(Array(repeating: "?", count: ids.count).joined(separator: ", "))) \
                ORDER BY s.receipt_id, s.amount_minor DESC, s.category
                """, ids.map { .int($0) }))
        return Dictionary(grouping: rows, by: { $0.int(0) }).mapValues { parts in
            parts.map { ReceiptSplit(category: $0.text(1), amount: Money(minorUnits: $0.int(2), currency: Currency(code: $0.text(3)) ?? .chf)) }
        }
    }

    static func receipt(_ row: SQLRow) throws -> Receipt {
        let currency = Currency(code: row.text(5)) ?? .chf
        return Receipt(
            id: row.int(0), blobHash: row.text(1), merchant: row.optionalText(2), date: try row.optionalText(3).map { try LocalDate(parsing: $0) },
            total: row.optionalInt(4).map { Money(minorUnits: $0, currency: currency) }, currency: currency, category: row.text(6),
            text: row.text(7), confidence: Int(row.int(8)), transactionID: row.optionalInt(9),
            vat: (try? JSONDecoder().decode([VATAmount].self, from: Data(row.text(10).utf8))) ?? [], pages: Int(row.int(11)))
    }
}
