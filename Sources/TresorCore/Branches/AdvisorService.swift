import TresorDomain
import TresorLedger

/// The customer's personal advisor and the secure thread with them: the customer writes from
/// the app, staff answer for the advisor (`/v1/staff/conversations`, `tresor conversations`), both
/// read the same thread. An answer tells the customer in the inbox (and so by push).
public struct AdvisorService: Sendable {
    let database: any SQLDatabase
    let clock: any Clock
    let blobs: any BlobStore

    /// A file sent with a message: a PDF, a JPEG or a PNG, as the receipts' limit allows (10 MB).
    public struct Attachment: Sendable {
        public let name: String
        public let bytes: [UInt8]

        public init(name: String, bytes: [UInt8]) {
            self.name = name
            self.bytes = bytes
        }
    }

    public static let attachmentBytesMax = 10 * 1024 * 1024

    public struct PersonalAdvisor: Sendable, Hashable {
        public let id: Int64
        public let name: String
        public let phone: String?
        public let branchID: Int64
        public let branchName: String
        public let branchTown: String
    }

    public struct ThreadMessage: Sendable {
        public let id: Int64
        /// `customer`, or the staff login that answered (`staff:NAME`).
        public let author: String
        public let body: String
        public let atMillis: Int64
        /// The attached file's name and content type, when the message has one.
        public var attachment: (name: String, type: String)? = nil

        public var fromCustomer: Bool { author == "customer" }
    }

    /// A customer's thread as staff see it in their list.
    public struct Conversation: Sendable, Hashable {
        public let customerID: CustomerID
        public let customerName: String
        public let contract: String?
        public let advisorName: String?
        public let lastAtMillis: Int64
        /// The customer wrote last: an answer is due.
        public let waiting: Bool
    }

    /// Where the bank's resource pack keeps an advisor's photo (PNG, else SVG), if it has one.
    /// why from the pack: photos change with staff, and the pack is what clients already sync.
    public static func photoPaths(of advisor: Int64) -> [String] { ["images/advisors/\(advisor).png", "images/advisors/\(advisor).svg"] }

    /// The longest message, either way.
    public static let bodyMax = 2_000

    public func advisor(of customer: CustomerID) async throws -> PersonalAdvisor? {
        try await database.read { session in
            try await session.queryOne(
                SQL(
                    """
                    SELECT a.id, a.name, a.phone, b.id, b.name, b.town FROM customers c JOIN advisors a ON a.id = c.advisor_id \
                    JOIN branches b ON b.id = a.branch_id WHERE c.id = ?
                    """, [.int(customer.rawValue)])
            ).map {
                PersonalAdvisor(
                    id: $0.int(0), name: $0.text(1), phone: $0.optionalText(2), branchID: $0.int(3), branchName: $0.text(4), branchTown: $0.text(5))
            }
        }
    }

    /// Every advisor with their branch, by id (for `tresor advisors list`).
    public func all() async throws -> [PersonalAdvisor] {
        try await database.read { session in
            try await session.query(
                SQL("SELECT a.id, a.name, a.phone, b.id, b.name, b.town FROM advisors a JOIN branches b ON b.id = a.branch_id ORDER BY a.id")
            ).map {
                PersonalAdvisor(
                    id: $0.int(0), name: $0.text(1), phone: $0.optionalText(2), branchID: $0.int(3), branchName: $0.text(4), branchTown: $0.text(5))
            }
        }
    }

    /// Makes `advisor` the personal advisor of the customer of `contract`.
    public func assign(contract: String, advisor: Int64, staff: String) async throws -> PersonalAdvisor {
        let customer = try await customerID(contract: contract)
        let now = clock.unixMillis
        let dialect = database.dialect
        try await database.transaction { session in
            guard try await session.queryOne(SQL("SELECT 1 FROM advisors WHERE id = ?", [.int(advisor)])) != nil else {
                throw DomainError(.notFound, field: "advisor", "No advisor \(advisor).")
            }
            try await session.execute(SQL("UPDATE customers SET advisor_id = ? WHERE id = ?", [.int(advisor), .int(customer.rawValue)]))
            try await AuditLog.append(
                AuditEntry(
                    atMillis: now, actor: "staff:\(staff)", contract: contract, action: "advisor.assign", subject: "customer:\(customer)",
                    details: "advisor \(advisor)"), dialect: dialect, in: session)
        }
        return try await self.advisor(of: customer)!
    }

    /// Sets the number customers call their advisor on (shown as a tel: link).
    public func setPhone(advisor: Int64, phone: String) async throws {
        let phone = phone.trimmingCharacters(in: .whitespaces)
        guard phone.count <= 30, phone.wholeMatch(of: /\+?[0-9 ]{6,30}/) != nil else {
            throw DomainError(.invalidParameter, field: "phone", "A phone number: digits and spaces, an optional leading +.")
        }
        let changed = try await database.transaction { session in
            try await session.query(SQL("UPDATE advisors SET phone = ? WHERE id = ? RETURNING id", [.text(phone), .int(advisor)]))
        }
        guard !changed.isEmpty else { throw DomainError(.notFound, field: "advisor", "No advisor \(advisor).") }
    }

    /// The thread, oldest first (the last `limit` messages).
    public func thread(of customer: CustomerID, limit: Int = 200) async throws -> [ThreadMessage] {
        try await database.read { session in
            try await session.query(
                SQL(
                    """
                    SELECT id, author, body, created_at_ms, attachment_name, attachment_type FROM advisor_messages WHERE customer_id = ? \
                    ORDER BY id DESC LIMIT ?
                    """,
                    [.int(customer.rawValue), .int(Int64(min(max(limit, 1), 500)))])
            ).map { row in
                var message = ThreadMessage(id: row.int(0), author: row.text(1), body: row.text(2), atMillis: row.int(3))
                if let name = row.optionalText(4), let type = row.optionalText(5) { message.attachment = (name, type) }
                return message
            }.reversed()
        }
    }

    /// The customer writes to their advisor (refused while they have none).
    public func write(_ body: String, attachment: Attachment? = nil, by principal: Principal) async throws -> ThreadMessage {
        let body = try Self.validBody(body, attached: attachment != nil)
        guard try await advisor(of: principal.customerID) != nil else {
            throw DomainError(.notFound, field: "advisor", "No personal advisor yet: your branch assigns one.")
        }
        // why after the check: a refused message leaves no file in the store.
        let stored = try await store(attachment)
        let now = clock.unixMillis
        let dialect = database.dialect
        return try await database.transaction { session in
            let id = try await Self.insert(body, stored, by: "customer", to: principal.customerID, at: now, in: session)
            try await AuditLog.append(
                AuditEntry.customer(principal, at: now, action: "advisor.message", subject: "advisor_message:\(id)"), dialect: dialect, in: session)
            return ThreadMessage(id: id, author: "customer", body: body, atMillis: now, attachment: stored.map { ($0.name, $0.type) })
        }
    }

    /// Staff answer in the thread of the customer of `contract`; the customer is told.
    public func answer(contract: String, body: String, attachment: Attachment? = nil, staff: String) async throws -> ThreadMessage {
        let body = try Self.validBody(body, attached: attachment != nil)
        let customer = try await customerID(contract: contract)
        let advisor = try await advisor(of: customer)
        let stored = try await store(attachment)
        let now = clock.unixMillis
        let dialect = database.dialect
        return try await database.transaction { session in
            let id = try await Self.insert(body, stored, by: "staff:\(staff)", to: customer, at: now, in: session)
            try await AuditLog.append(
                AuditEntry(
                    atMillis: now, actor: "staff:\(staff)", contract: contract, action: "advisor.answer", subject: "advisor_message:\(id)"),
                dialect: dialect, in: session)
            try await MessageService.post(
                to: customer, category: .appointments, MessageText(.advisorAnswered, ["advisor": advisor?.name ?? staff]), now: now, in: session)
            return ThreadMessage(id: id, author: "staff:\(staff)", body: body, atMillis: now, attachment: stored.map { ($0.name, $0.type) })
        }
    }

    /// Every customer who wrote or was written to, those waiting for an answer first, then newest.
    public func conversations(limit: Int = 200) async throws -> [Conversation] {
        try await database.read { session in
            try await session.query(
                SQL(
                    """
                    SELECT m.customer_id, c.name, (SELECT MIN(number) FROM contracts WHERE customer_id = c.id), a.name, m.created_at_ms, \
                    m.author FROM advisor_messages m JOIN customers c ON c.id = m.customer_id LEFT JOIN advisors a ON a.id = c.advisor_id \
                    WHERE m.id = (SELECT MAX(id) FROM advisor_messages WHERE customer_id = m.customer_id) \
                    ORDER BY CASE WHEN m.author = 'customer' THEN 0 ELSE 1 END, m.id DESC LIMIT ?
                    """, [.int(Int64(min(max(limit, 1), 500)))])
            ).map {
                Conversation(
                    customerID: CustomerID($0.int(0)), customerName: $0.text(1), contract: $0.optionalText(2), advisorName: $0.optionalText(3),
                    lastAtMillis: $0.int(4), waiting: $0.text(5) == "customer")
            }
        }
    }

    /// The customer of `contract`, or `not_found`.
    public func customerID(contract: String) async throws -> CustomerID {
        let row = try await database.read { session in
            try await session.queryOne(SQL("SELECT customer_id FROM contracts WHERE number = ?", [.text(contract)]))
        }
        guard let row else { throw DomainError(.notFound, field: "contract", "No contract \(contract).") }
        return CustomerID(row.int(0))
    }

    /// Adds a message to the thread of `customer`; its id.
    private static func insert(
        _ body: String, _ attachment: StoredAttachment?, by author: String, to customer: CustomerID, at now: Int64, in session: any SQLSession
    ) async throws -> Int64 {
        try await session.queryOne(
            SQL(
                """
                INSERT INTO advisor_messages (customer_id, author, body, created_at_ms, attachment_hash, attachment_type, attachment_name) \
                VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id
                """,
                [
                    .int(customer.rawValue), .text(author), .text(body), .int(now), SQLValue(attachment?.hash), SQLValue(attachment?.type),
                    SQLValue(attachment?.name),
                ]))!.int(0)
    }

    struct StoredAttachment {
        let hash: String
        let type: String
        let name: String
    }

    /// Checks the file and keeps it (encrypted) in the blob store, before the message's transaction.
    private func store(_ attachment: Attachment?) async throws -> StoredAttachment? {
        guard let attachment else { return nil }
        guard !attachment.bytes.isEmpty, attachment.bytes.count <= Self.attachmentBytesMax else {
            throw DomainError(.invalidParameter, field: "file", "A file of 1 byte to \(Self.attachmentBytesMax / 1_048_576) MB.")
        }
        guard let type = FileKind.contentType(of: attachment.bytes) else {
            throw DomainError(.invalidParameter, field: "file", "Attach a PDF, a JPEG or a PNG.")
        }
        // why a name of safe characters: it is shown and sent back in a Content-Disposition header.
        var name = String(
            attachment.name.unicodeScalars.filter {
                $0.properties.isAlphabetic || $0.properties.numericType != nil || "._- ".unicodeScalars.contains($0)
            }.prefix(80))
        name = name.trimmingCharacters(in: .whitespaces)
        if name.isEmpty { name = type == "application/pdf" ? "document.pdf" : type == "image/png" ? "image.png" : "image.jpg" }
        return StoredAttachment(hash: try await blobs.put(attachment.bytes), type: type, name: name)
    }

    /// The file of message `id` in the thread of `customer` (`not_found` for another's).
    public func attachment(of id: Int64, customer: CustomerID) async throws -> (name: String, type: String, bytes: [UInt8]) {
        let row = try await database.read { session in
            try await session.queryOne(
                SQL(
                    """
                    SELECT attachment_hash, attachment_type, attachment_name FROM advisor_messages \
                    WHERE id = ? AND customer_id = ? AND attachment_hash IS NOT NULL
                    """, [.int(id), .int(customer.rawValue)]))
        }
        guard let row else { throw DomainError(.notFound, field: "id", "No such attachment.") }
        return (row.text(2), row.text(1), try await blobs.get(row.text(0)))
    }

    /// The message's text, trimmed; empty only beside a file.
    static func validBody(_ body: String, attached: Bool = false) throws -> String {
        let body = body.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !body.isEmpty || attached, TextLength.of(body) <= bodyMax,
            !RefusedCharacters.occur(in: body)
        else {
            throw DomainError(.invalidParameter, field: "body", "Write 1 to \(bodyMax) characters.")
        }
        return body
    }
}
