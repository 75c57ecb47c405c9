import Foundation
import TresorDomain
import TresorLedger

/// Branches and ATMs: the finder's answers (nearest first, open now), the week's hours, and
/// what the bank's staff change (branches, hours, closures, banknote stock).
public struct BranchService: Sendable {
    let database: any SQLDatabase
    let clock: any Clock

    public init(database: any SQLDatabase, clock: any Clock) {
        self.database = database
        self.clock = clock
    }

    static let columns =
        "id, code, kind, name, street, postcode, town, lat_micro, lon_micro, phone, services, hours, parent_id, currencies, deposit, time_zone"

    static func branch(_ row: SQLRow) -> Branch {
        Branch(
            id: row.int(0), code: row.text(1), kind: Branch.Kind(rawValue: row.text(2)) ?? .branch, name: row.text(3), street: row.text(4),
            postcode: row.text(5), town: row.text(6), position: GeoPoint(latitudeMicro: row.int(7), longitudeMicro: row.int(8))!,
            phone: row.optionalText(9), services: row.text(10).split(separator: ",").compactMap { Branch.Service(rawValue: String($0)) },
            hours: ParsedHours.of(row.text(11)), parentID: row.optionalInt(12),
            currencies: row.text(13).split(separator: ",").compactMap { Currency(code: String($0)) }, deposit: row.int(14) != 0,
            timeZone: TimeZone(identifier: row.text(15)) ?? TimeZone(identifier: "Europe/Zurich")!)
    }

    public func all() async throws -> [Branch] {
        try await database.read { session in
            try await session.query(SQL("SELECT \(Self.columns) FROM branches ORDER BY name, id")).map(Self.branch)
        }
    }

    public func branch(_ id: Int64) async throws -> Branch {
        let found = try await database.read { session in
            try await session.queryOne(SQL("SELECT \(Self.columns) FROM branches WHERE id = ?", [.int(id)])).map(Self.branch)
        }
        guard let found else { throw DomainError(.notFound, field: "id", "No such branch or ATM.") }
        return found
    }

    public func branch(code: String) async throws -> Branch? {
        try await database.read { session in
            try await session.queryOne(SQL("SELECT \(Self.columns) FROM branches WHERE code = ?", [.text(code)])).map(Self.branch)
        }
    }

    /// Special closures from `from` on, per branch id.
    func closures(from: LocalDate, days: Int) async throws -> [Int64: [LocalDate: String]] {
        let rows = try await database.read { session in
            try await session.query(
                SQL(
                    "SELECT branch_id, closed_on, reason FROM branch_closures WHERE closed_on >= ? AND closed_on <= ?",
                    [SQLValue(from), SQLValue(from.adding(days: days))]))
        }
        var result: [Int64: [LocalDate: String]] = [:]
        for row in rows {
            if let date = try? LocalDate(parsing: row.text(1)) { result[row.int(0), default: [:]][date] = row.text(2) }
        }
        return result
    }

    /// What keeps a place closed on a date: a Swiss public holiday or a special closure; an
    /// ATM outside a branch is never closed.
    static func closedReason(_ branch: Branch, on date: LocalDate, closures: [Int64: [LocalDate: String]]) -> String? {
        let keeper = branch.parentID ?? branch.id
        if branch.kind == .atm, branch.parentID == nil { return nil }
        if let reason = closures[keeper]?[date] { return reason }
        return SwissBusinessDays.holidays(in: date.year).contains(date) ? "public_holiday" : nil
    }

    /// The finder: nearest first when `near` is given (else by name), filtered by kind,
    /// service and open-now, at most `limit`.
    public func search(
        near: GeoPoint?, kind: Branch.Kind? = nil, openNow: Bool = false, service: Branch.Service? = nil, limit: Int = 50, at instant: Date? = nil
    ) async throws -> [BranchStatus] {
        let instant = instant ?? clock.now()
        let branches = try await all()
        let byID = Dictionary(uniqueKeysWithValues: branches.map { ($0.id, $0) })
        let today = BankCalendar().date(of: instant)
        let closures = try await closures(from: today.adding(days: -1), days: OpeningStatusHorizon.days + 2)
        var results: [BranchStatus] = []
        for branch in branches {
            if let kind, branch.kind != kind { continue }
            if let service, !branch.services.contains(service) { continue }
            let status = Self.status(of: branch, parent: branch.parentID.flatMap { byID[$0] }, at: instant, closures: closures)
            if openNow && !status.status.isOpen { continue }
            results.append(
                BranchStatus(branch: branch, distance: near.map { $0.distance(to: branch.position) }, status: status.status, hours: status.hours))
        }
        if near != nil {
            results.sort { ($0.distance!, $0.branch.name) < ($1.distance!, $1.branch.name) }
        }
        return Array(results.prefix(max(1, min(limit, 200))))
    }

    static func status(of branch: Branch, parent: Branch?, at instant: Date, closures: [Int64: [LocalDate: String]]) -> (
        status: OpeningStatus, hours: WeeklyHours
    ) {
        let hours = parent?.hours ?? branch.hours
        let status = OpeningStatus.at(instant, hours: hours, timeZone: branch.timeZone) { closedReason(branch, on: $0, closures: closures) != nil }
        return (status, hours)
    }

    /// One place with its status now and its next seven days' hours (closures named).
    public func details(_ id: Int64, at instant: Date? = nil) async throws -> (
        BranchStatus, week: [(date: LocalDate, intervals: [OpeningInterval], closed: String?)]
    ) {
        let instant = instant ?? clock.now()
        let branch = try await branch(id)
        let parent = try await branch.parentID.asyncMap { try await self.branch($0) }
        let today = BankCalendar(timeZone: branch.timeZone).date(of: instant)
        let closures = try await closures(from: today.adding(days: -1), days: OpeningStatusHorizon.days + 2)
        let status = Self.status(of: branch, parent: parent, at: instant, closures: closures)
        let week = (0..<7).map { offset -> (LocalDate, [OpeningInterval], String?) in
            let date = today.adding(days: offset)
            let closed = Self.closedReason(branch, on: date, closures: closures)
            return (date, closed == nil ? status.hours.intervals(on: date) : [], closed)
        }
        return (BranchStatus(branch: branch, distance: nil, status: status.status, hours: status.hours), week)
    }

    /// Adds or replaces (by code) a branch or ATM.
    @discardableResult
    public func save(_ branch: Branch, staff: String) async throws -> Branch {
        try Self.validate(branch)
        let now = clock.unixMillis
        let dialect = database.dialect
        let id = try await database.transaction { session in
            try await Self.upsert(branch, staff: staff, now: now, dialect: dialect, in: session)
        }
        return try await self.branch(id)
    }

    /// Saves many (a CSV import) in one transaction: all of them or, on the first fault, none.
    /// An ATM names the branch it stands in by code (`parentCode`), which may be in the same batch.
    public func saveAll(_ items: [(branch: Branch, parentCode: String?)], staff: String) async throws -> Int {
        for item in items { try Self.validate(item.branch) }
        let now = clock.unixMillis
        let dialect = database.dialect
        return try await database.transaction { session in
            var ids: [String: Int64] = [:]
            for (offset, item) in items.enumerated() {
                var branch = item.branch
                if let code = item.parentCode {
                    let known = try await session.queryOne(SQL("SELECT id FROM branches WHERE code = ? AND kind = 'branch'", [.text(code)]))
                    guard let parent = ids[code] ?? known?.int(0) else {
                        throw DomainError(.invalidParameter, field: "line \(offset + 2): inside_branch", "No branch with code \(code.prefix(32)).")
                    }
                    branch.parentID = parent
                }
                ids[branch.code] = try await Self.upsert(branch, staff: staff, now: now, dialect: dialect, in: session)
            }
            return items.count
        }
    }

    static func upsert(_ branch: Branch, staff: String, now: Int64, dialect: SQLDialect, in session: any SQLSession) async throws -> Int64 {
        let binds: [SQLValue] = [
            .text(branch.kind.rawValue), .text(branch.name), .text(branch.street), .text(branch.postcode), .text(branch.town),
            .int(branch.position.latitudeMicro), .int(branch.position.longitudeMicro), SQLValue(branch.phone),
            .text(branch.services.map(\.rawValue).joined(separator: ",")), .text(branch.hours.description), SQLValue(branch.parentID),
            .text(branch.currencies.map(\.code).joined(separator: ",")), .int(branch.deposit ? 1 : 0), .text(branch.timeZone.identifier),
        ]
        if let parent = branch.parentID,
            try await session.queryOne(SQL("SELECT id FROM branches WHERE id = ? AND kind = 'branch'", [.int(parent)])) == nil
        {
            throw DomainError(.invalidParameter, field: "inside_branch", "An ATM can only stand in a branch of the bank.")
        }
        let id: Int64
        if let existing = try await session.queryOne(SQL("SELECT id FROM branches WHERE code = ?", [.text(branch.code)])) {
            id = existing.int(0)
            try await session.execute(
                SQL(
                    """
                    UPDATE branches SET kind = ?, name = ?, street = ?, postcode = ?, town = ?, lat_micro = ?, lon_micro = ?, phone = ?, \
                    services = ?, hours = ?, parent_id = ?, currencies = ?, deposit = ?, time_zone = ? WHERE id = ?
                    """, binds + [.int(id)]))
        } else {
            id = try await session.queryOne(
                SQL(
                    """
                    INSERT INTO branches (kind, name, street, postcode, town, lat_micro, lon_micro, phone, services, hours, parent_id, \
                    currencies, deposit, time_zone, code) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
                    """, binds + [.text(branch.code)]))!.int(0)
        }
        try await AuditLog.append(
            AuditEntry(atMillis: now, actor: "staff:\(staff)", action: "branch.save", subject: "branch:\(id)", details: branch.code),
            dialect: dialect, in: session)
        return id
    }

    static func validate(_ branch: Branch) throws {
        guard (1...32).contains(branch.code.count), branch.code.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        else { throw DomainError(.invalidParameter, field: "code", "A code is 1–32 letters, digits, - or _.") }
        for (field, value, limit) in [
            ("name", branch.name, 80), ("street", branch.street, 80), ("postcode", branch.postcode, 10), ("town", branch.town, 60),
        ] {
            guard !value.trimmingCharacters(in: .whitespaces).isEmpty else { throw DomainError(.missingField, field: field, "\(field) is required.") }
            guard value.count <= limit else { throw DomainError(.fieldTooLong, field: field, "\(field) has at most \(limit) characters.") }
        }
        if branch.kind == .branch, branch.parentID != nil {
            throw DomainError(.invalidParameter, field: "inside_branch", "Only an ATM stands in a branch.")
        }
    }

    /// Closes a branch (and the ATMs inside it) for a day, with the reason customers see.
    public func close(_ id: Int64, on date: LocalDate, reason: String, staff: String) async throws {
        let branch = try await branch(id)
        guard branch.kind == .branch else { throw DomainError(.invalidParameter, field: "branch", "Closures are set on branches.") }
        guard !reason.isEmpty, TextLength.of(reason) <= 120 else {
            throw DomainError(.invalidParameter, field: "reason", "Say why in 1–120 characters.")
        }
        let now = clock.unixMillis
        let dialect = database.dialect
        try await database.transaction { session in
            try await session.execute(SQL("DELETE FROM branch_closures WHERE branch_id = ? AND closed_on = ?", [.int(id), SQLValue(date)]))
            try await session.execute(
                SQL("INSERT INTO branch_closures (branch_id, closed_on, reason) VALUES (?, ?, ?)", [.int(id), SQLValue(date), .text(reason)]))
            try await AuditLog.append(
                AuditEntry(atMillis: now, actor: "staff:\(staff)", action: "branch.close", subject: "branch:\(id)", details: "\(date) \(reason)"),
                dialect: dialect, in: session)
        }
    }

    /// Sets a branch's banknote stock of one currency (what the cash desk counted).
    public func setStock(_ id: Int64, _ amount: Money, staff: String) async throws {
        guard try await branch(id).services.contains(.foreignCash) else {
            throw DomainError(.invalidParameter, field: "branch", "This branch has no foreign-cash desk.")
        }
        guard amount.minorUnits >= 0 else { throw DomainError(.amountNotPositive, field: "amount", "Stock is zero or more.") }
        let now = clock.unixMillis
        let dialect = database.dialect
        try await database.transaction { session in
            try await session.execute(SQL("DELETE FROM cash_stock WHERE branch_id = ? AND currency = ?", [.int(id), .text(amount.currency.code)]))
            try await session.execute(
                SQL(
                    "INSERT INTO cash_stock (branch_id, currency, minor) VALUES (?, ?, ?)",
                    [.int(id), .text(amount.currency.code), .int(amount.minorUnits)]))
            try await AuditLog.append(
                AuditEntry(atMillis: now, actor: "staff:\(staff)", action: "cash.stock", subject: "branch:\(id)", details: amount.description),
                dialect: dialect, in: session)
        }
    }

    public func stock(_ id: Int64) async throws -> [Money] {
        try await database.read { session in
            try await session.query(SQL("SELECT currency, minor FROM cash_stock WHERE branch_id = ? ORDER BY currency", [.int(id)])).compactMap {
                row in
                Currency(code: row.text(0)).map { Money(minorUnits: row.int(1), currency: $0) }
            }
        }
    }
}

/// How far ahead closures are read for an opening status (the status looks two weeks ahead).
enum OpeningStatusHorizon {
    static let days = 15
}

extension Optional {
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
