import Foundation
import TresorDomain
import TresorLedger

/// One line of the audit trail: who did what to which subject, from where, and how it ended.
public struct AuditEntry: Sendable, Hashable {
    public var id: Int64 = 0
    public var atMillis: Int64
    /// `customer:12`, `staff:anna.k`, `system`.
    public var actor: String
    public var contract: String?
    /// A stable verb: `payment.create`, `payment.sign`, `device.lock`, `login`, …
    public var action: String
    /// What it acted on: `payment:41`, `device:7`.
    public var subject: String?
    public var device: String?
    public var address: String?
    /// `ok`, or the error code that refused it.
    public var result: String
    public var details: String?
    public var previousHash: String = ""
    public var hash: String = ""

    public init(
        atMillis: Int64, actor: String, contract: String? = nil, action: String, subject: String? = nil, device: String? = nil,
        address: String? = nil, result: String = "ok", details: String? = nil
    ) {
        self.atMillis = atMillis
        self.actor = actor
        self.contract = contract
        self.action = action
        self.subject = subject
        self.device = device
        self.address = address
        self.result = result
        self.details = details
    }

    /// An action of the customer behind `principal`, with the device of the session.
    public static func customer(
        _ principal: Principal, at atMillis: Int64, action: String, subject: String? = nil, result: String = "ok", details: String? = nil
    ) -> AuditEntry {
        AuditEntry(
            atMillis: atMillis, actor: "customer:\(principal.customerID)", contract: principal.contract, action: action, subject: subject,
            device: principal.auditDevice, address: principal.address, result: result, details: details)
    }

    /// SHA-256 over the previous hash and every field, each length-prefixed so no two
    /// different entries serialise alike.
    /// why one buffer: an array per field and per length prefix were ~1 % of a transfer's server
    /// CPU on SQLite (`perf` at 64 connections); the bytes hashed are the same.
    func computedHash(previous: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(160 + previous.utf8.count + (details?.utf8.count ?? 0))
        func add(_ field: String?) {
            let utf8 = (field ?? "\u{0}").utf8
            bytes.append(contentsOf: String(utf8.count).utf8)
            bytes.append(58)
            bytes.append(contentsOf: utf8)
        }
        for field in [previous, String(atMillis), actor, contract, action, subject, device, address, result, details] { add(field) }
        return Hashing.sha256Hex(bytes)
    }
}

/// Appends to and verifies the hash-chained audit log. Entries are appended inside the
/// transaction of the action they record, so an action and its entry commit together.
public struct AuditLog: Sendable {
    let database: any SQLDatabase

    /// The hash the first entry chains to.
    static let genesis = String(repeating: "0", count: 64)

    /// Appends `entry` in the caller's transaction.
    public static func append(_ entry: AuditEntry, dialect: SQLDialect, in session: any SQLSession) async throws {
        try await append([entry], dialect: dialect, in: session)
    }

    /// Appends `entries`, in this order, in the caller's transaction: one read of the chain's
    /// end that holds the log until commit, one INSERT per 500 entries, one update of the head.
    /// On PostgreSQL, up to 500 entries, the read, the INSERT and the head are one statement,
    /// sent and not waited for (`appendChained`).
    public static func append(_ entries: [AuditEntry], dialect: SQLDialect, in session: any SQLSession) async throws {
        guard !entries.isEmpty else { return }
        if dialect == .postgres && entries.count == 1 { return try await appendChained(entries[0], in: session) }
        if dialect == .postgres && entries.count <= 500 { return try await appendChained(entries, in: session) }
        var previous = try await chainEnd(dialect: dialect, in: session)
        let columns = "INSERT INTO audit_log (at_ms, actor, contract, action, subject, device, address, result, details, prev_hash, hash)"
        let head = """
            INSERT INTO audit_head (id, last_id, last_hash) VALUES (1, ?, ?) \
            ON CONFLICT (id) DO UPDATE SET last_id = excluded.last_id, last_hash = excluded.last_hash
            """
        var lastID: Int64 = 0
        for start in stride(from: 0, to: entries.count, by: 500) {
            let chunk = entries[start..<min(start + 500, entries.count)]
            var binds: [SQLValue] = []
            binds.reserveCapacity(chunk.count * 11)
            for entry in chunk {
                let hash = entry.computedHash(previous: previous)
                binds += [
                    .int(entry.atMillis), .text(entry.actor), SQLValue(entry.contract), .text(entry.action), SQLValue(entry.subject),
                    SQLValue(entry.device), SQLValue(entry.address), .text(entry.result), SQLValue(entry.details), .text(previous), .text(hash),
                ]
                previous = hash
            }
            let values = Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", count: chunk.count).joined(separator: ", ")
            // why one statement keeps the chain: a multi-row INSERT takes ids in the order of its
            // VALUES, on both stores, and the read of the chain's end keeps other appenders out
            // until commit.
            let ids = try await session.query(SQL("\(columns) VALUES \(values) RETURNING id", binds)).map { $0.int(0) }
            assert(ids == ids.sorted() && ids.count == chunk.count, "audit ids follow the order of the entries")
            lastID = ids.max() ?? lastID
        }
        // why a head row: without it, deleting the newest entries would leave a valid, shorter chain.
        try await session.execute(SQL(head, [.int(lastID), .text(previous)]))
    }

    /// PostgreSQL: one entry appended in one statement that locks the head, chains the entry
    /// to it (its hash computed by the server, as `AuditEntry.computedHash` does, with the
    /// `tresor_audit_field` of migrations 17 and 19) and moves the head; sent, not waited for
    /// (`SQLSession.send`): it goes out with the COMMIT. why: the head stays locked from its read
    /// to COMMIT, and every other appender waits that long; reading it and writing the entry in
    /// two round trips, then waiting for the answer before sending COMMIT, held it longer for
    /// every payment. Without a head row (migration 17 writes it; only a hand that deleted it
    /// removes it) the statement fails on the head's CHECK (`audit_head_id_check`), and so the
    /// transaction: an action is not committed without its entry.
    static func appendChained(_ entry: AuditEntry, in session: any SQLSession) async throws {
        let fields = ["e.actor", "e.contract", "e.action", "e.subject", "e.device", "e.address", "e.result", "e.details"]
        let hashed = (["locked.last_hash", "e.at_ms::text"] + fields).map { "tresor_audit_field(\($0))" }.joined(separator: " || ")
        try await session.send(
            SQL(
                """
                WITH e (at_ms, actor, contract, action, subject, device, address, result, details) AS \
                (VALUES (?::bigint, ?::text, ?::text, ?::text, ?::text, ?::text, ?::text, ?::text, ?::text)), \
                locked AS (SELECT last_hash FROM audit_head WHERE id = 1 FOR UPDATE), \
                inserted AS (INSERT INTO audit_log (at_ms, actor, contract, action, subject, device, address, result, details, prev_hash, hash) \
                SELECT e.at_ms, \(fields.joined(separator: ", ")), locked.last_hash, encode(sha256(\(hashed)), 'hex') FROM e, locked \
                RETURNING id, hash), \
                missing AS (INSERT INTO audit_head (id, last_id, last_hash) SELECT 2, 0, '' WHERE NOT EXISTS (SELECT 1 FROM locked)) \
                INSERT INTO audit_head (id, last_id, last_hash) SELECT 1, id, hash FROM inserted \
                ON CONFLICT (id) DO UPDATE SET last_id = excluded.last_id, last_hash = excluded.last_hash
                """,
                [
                    .int(entry.atMillis), .text(entry.actor), SQLValue(entry.contract), .text(entry.action), SQLValue(entry.subject),
                    SQLValue(entry.device), SQLValue(entry.address), .text(entry.result), SQLValue(entry.details),
                ]))
    }

    /// PostgreSQL: `entries` (at most 500) appended in one statement, sent like `appendChained`
    /// of one (`chainingCTEs`). why: a batch's entries appended with a read of the head and an
    /// INSERT were two round trips more of its transaction, with every other batch waiting.
    static func appendChained(_ entries: [AuditEntry], in session: any SQLSession) async throws {
        try await session.send(
            SQL(
                """
                WITH RECURSIVE e AS (SELECT * FROM unnest(?::bigint[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], \
                ?::text[], ?::text[]) WITH ORDINALITY AS u (at_ms, actor, contract, action, subject, device, address, result, details, n))\
                \(chainingCTEs) SELECT count(*) FROM moved
                """,
                [
                    .text(PostgresArray.int(entries.map { $0.atMillis })), .text(PostgresArray.text(entries.map { $0.actor })),
                    .text(PostgresArray.text(entries.map { $0.contract })), .text(PostgresArray.text(entries.map { $0.action })),
                    .text(PostgresArray.text(entries.map { $0.subject })), .text(PostgresArray.text(entries.map { $0.device })),
                    .text(PostgresArray.text(entries.map { $0.address })), .text(PostgresArray.text(entries.map { $0.result })),
                    .text(PostgresArray.text(entries.map { $0.details })),
                ]))
    }

    /// PostgreSQL: the common table expressions that append the entries of a CTE `e` (n from 1
    /// in their order, at_ms, actor, contract, action, subject, device, address, result,
    /// details), for a `WITH RECURSIVE` that defines `e` first. They lock the head, chain the
    /// entries to it and to each other (a recursive step per entry, hashed by the server as
    /// `AuditEntry.computedHash` does, with `tresor_audit_field`), insert them in that order
    /// (`logged`) and move the head (`moved`). Without a head row they fail on its CHECK, as
    /// `appendChained` of one does, and the statement with them.
    static let chainingCTEs: String = {
        let fields = ["e.actor", "e.contract", "e.action", "e.subject", "e.device", "e.address", "e.result", "e.details"]
        let hashed = (["chain.hash", "e.at_ms::text"] + fields).map { "tresor_audit_field(\($0))" }.joined(separator: " || ")
        return """
            , locked AS (SELECT last_hash FROM audit_head WHERE id = 1 FOR UPDATE), \
            chain (n, prev_hash, hash) AS (SELECT 0::bigint, NULL::text, last_hash FROM locked \
            UNION ALL SELECT e.n, chain.hash, encode(sha256(\(hashed)), 'hex') FROM chain JOIN e ON e.n = chain.n + 1), \
            logged AS (INSERT INTO audit_log (at_ms, actor, contract, action, subject, device, address, result, details, prev_hash, hash) \
            SELECT e.at_ms, \(fields.joined(separator: ", ")), chain.prev_hash, chain.hash FROM e JOIN chain ON chain.n = e.n \
            ORDER BY e.n RETURNING id), \
            missing AS (INSERT INTO audit_head (id, last_id, last_hash) SELECT 2, 0, '' WHERE NOT EXISTS (SELECT 1 FROM locked)), \
            moved AS (INSERT INTO audit_head (id, last_id, last_hash) SELECT 1, max(id), (SELECT hash FROM chain ORDER BY n DESC LIMIT 1) \
            FROM logged HAVING count(*) > 0 ON CONFLICT (id) DO UPDATE SET last_id = excluded.last_id, last_hash = excluded.last_hash \
            RETURNING id)
            """
    }()

    /// The hash the next entry chains to. On PostgreSQL the head row read `FOR UPDATE`: one
    /// statement both waits for an appender before us and reads what it committed (a locked
    /// row is read in its newest version), and keeps the next appender waiting until our
    /// commit, so two instances never chain to the same predecessor. Where there is no head row
    /// yet (nothing appended since migration 17 created it), an advisory lock and the log's last
    /// entry do the same in two statements. SQLite has one writer.
    static func chainEnd(dialect: SQLDialect, in session: any SQLSession) async throws -> String {
        if dialect == .postgres {
            if let head = try await session.queryOne(SQL("SELECT last_hash FROM audit_head WHERE id = 1 FOR UPDATE")) {
                return head.text(0)
            }
            try await session.execute(SQL("SELECT pg_advisory_xact_lock(7472658)"))
        }
        return try await session.queryOne(SQL("SELECT hash FROM audit_log ORDER BY id DESC LIMIT 1"))?.text(0) ?? genesis
    }

    /// Appends `entry` in a transaction of its own (for actions that wrote nothing else, such
    /// as a refused login).
    public func append(_ entry: AuditEntry) async throws {
        let dialect = database.dialect
        try await database.transaction { session in try await Self.append(entry, dialect: dialect, in: session) }
    }

    static let columns = "id, at_ms, actor, contract, action, subject, device, address, result, details, prev_hash, hash"

    static func entry(from row: SQLRow) -> AuditEntry {
        var entry = AuditEntry(
            atMillis: row.int(1), actor: row.text(2), contract: row.optionalText(3), action: row.text(4), subject: row.optionalText(5),
            device: row.optionalText(6), address: row.optionalText(7), result: row.text(8), details: row.optionalText(9))
        entry.id = row.int(0)
        entry.previousHash = row.text(10)
        entry.hash = row.text(11)
        return entry
    }

    public struct Break: Sendable, Hashable, CustomStringConvertible {
        public let entryID: Int64
        public let reason: String
        public var description: String { "entry \(entryID): \(reason)" }
    }

    /// Walks the chain in pages; returns the first entry that was edited, deleted or inserted
    /// out of order, or nil when the whole log is intact.
    public func verify(pageSize: Int = 1_000) async throws -> Break? {
        var previous = Self.genesis
        var after: Int64 = 0
        while true {
            let start = after
            let rows = try await database.read { session in
                try await session.query(
                    SQL("SELECT \(Self.columns) FROM audit_log WHERE id > ? ORDER BY id LIMIT ?", [.int(start), .int(Int64(pageSize))]))
            }
            if rows.isEmpty {
                let head = try await database.read { session in
                    try await session.queryOne(SQL("SELECT last_id, last_hash FROM audit_head WHERE id = 1"))
                }
                guard let head else { return after == 0 ? nil : Break(entryID: after, reason: "the log's head record is missing") }
                guard head.int(0) == after, head.text(1) == previous else {
                    return Break(entryID: head.int(0), reason: "the newest entries were deleted (the log ends before its head record)")
                }
                return nil
            }
            for row in rows {
                let entry = Self.entry(from: row)
                guard entry.previousHash == previous else {
                    return Break(entryID: entry.id, reason: "does not follow the entry before it (one was deleted or inserted)")
                }
                guard entry.computedHash(previous: previous) == entry.hash else {
                    return Break(entryID: entry.id, reason: "its content does not match its hash (edited)")
                }
                previous = entry.hash
                after = entry.id
            }
        }
    }

    /// The trail of one contract between two instants, oldest first, at most `limit`.
    public func trail(contract: String, fromMillis: Int64, toMillis: Int64, limit: Int = 10_000) async throws -> [AuditEntry] {
        try await database.read { session in
            try await session.query(
                SQL(
                    "SELECT \(Self.columns) FROM audit_log WHERE contract = ? AND at_ms >= ? AND at_ms < ? ORDER BY id LIMIT ?",
                    [.text(contract), .int(fromMillis), .int(toMillis), .int(Int64(limit))])
            ).map(Self.entry(from:))
        }
    }
}
