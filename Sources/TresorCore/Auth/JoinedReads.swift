import Synchronization
import TresorLedger

/// Joined reads (`AuthService.readJoined`) of concurrent requests answered by one statement, on
/// a store whose reads are round trips to a server (PostgreSQL): the first caller that finds
/// none running reads alone, at once; the callers that come meanwhile with the same query wait
/// and are read together by the next statement (`Batches`), each with its own token and its own
/// values, in one snapshot.
///
/// why: a read of the accounts overview or of a page's revision is one short statement, and on
/// PostgreSQL most of its cost is the statement itself, not its rows: the connection checkout,
/// the round trip, and the server's per-statement work (executor start, locks, plan checks).
/// At 64 connections PostgreSQL spent 50–90 µs of CPU per overview against 20–30 µs for the
/// health check's `SELECT 1`, and this server 95–145 µs against 75–105; the overview answered
/// 0.6–0.7 as many requests a second as the health check. Read together, PostgreSQL spent 6–10
/// µs per overview and the overview answered as many as the health check (interleaved runs).
///
/// Nothing is shared between the callers of a statement but the statement: each has its own
/// row of the `VALUES` list, so a token is checked against the sessions as they are after its
/// caller came, and two callers with the same token are read twice.
///
/// Only where a read is a round trip (`SQLDatabase.readsOnCaller` false: PostgreSQL, whose
/// `LATERAL` join the batch statement uses). why: on SQLite a read is a few C calls on the
/// caller's thread, no round trip to share.
final class JoinedReads: Sendable {
    /// Binds per statement at most: the 64 up to which PostgreSQL statements are kept prepared
    /// (`PostgresSession.preparedBindsMax`).
    static let bindsMax = 64
    /// Callers per statement at most.
    static let batchMax = 16
    /// Distinct queries batched at once; a read of any other query is read alone. why a bound:
    /// a query's text is fixed per route (`Ledger.callerAccounts`, `Ledger.callerRevision`), but
    /// one whose text varies would otherwise grow the table forever.
    static let queriesMax = 16

    struct Waiter: Sendable {
        let hash: String
        let binds: [SQLValue]
        let continuation: CheckedContinuation<[SQLRow], any Error>
    }

    /// One batcher per query text; nil for a text read alone (`batches(for:)`).
    private let queries = Mutex([String: Batches<Waiter>?]())
    private let sessions: LiveSessions
    private var database: any SQLDatabase { sessions.database }

    init(_ sessions: LiveSessions) {
        self.sessions = sessions
    }

    /// Callers of `data`'s text waiting for the next statement (for the tests).
    func waitingCount(for data: CallerQuery) -> Int {
        queries.withLock { $0[data.sql.text] ?? nil }?.pendingCount ?? 0
    }

    /// The rows of the session with this token hash joined to `data`'s, as
    /// `AuthService.sessionLookup` reads them alone: none when the session is not live, else the
    /// session's five columns and `data`'s after them (nulls when `data` found none).
    func rows(hash: String, data: CallerQuery) async throws -> [SQLRow] {
        guard !database.readsOnCaller, let batches = batches(for: data) else { return try await readAlone(hash: hash, data: data) }
        if batches.leadAlone() {
            defer { batches.endAlone { [self] waiters in await read(waiters, data: data) } }
            return try await readAlone(hash: hash, data: data)
        }
        return try await withCheckedThrowingContinuation { continuation in
            batches.submit(Waiter(hash: hash, binds: data.sql.binds, continuation: continuation)) { [self] waiters in
                await read(waiters, data: data)
            }
        }
    }

    private func readAlone(hash: String, data: CallerQuery) async throws -> [SQLRow] {
        let (now, idleCutoff) = sessions.window()
        return try await database.readStatement(AuthService.sessionLookup(hash: hash, now: now, idleCutoff: idleCutoff, joining: data))
    }

    /// The batcher of `data`'s text, or nil when its callers are read alone: past
    /// `queriesMax` texts, with too many values for two callers a statement, or when the text
    /// names the session row other than by `CallerQuery.customer` (the batch has no `caller`).
    private func batches(for data: CallerQuery) -> Batches<Waiter>? {
        queries.withLock { queries in
            if let found = queries[data.sql.text] { return found }
            guard queries.count < Self.queriesMax else { return nil }
            let size = Self.batchSize(binds: data.sql.binds.count)
            let batchable = size > 1 && !data.sql.text.replacing(CallerQuery.customer, with: "").contains("caller")
            let batches = batchable ? Batches<Waiter>(batchMax: size) : nil
            queries[data.sql.text] = batches
            return batches
        }
    }

    /// Callers per statement for a query with `binds` values of its own: each caller binds its
    /// index, its token hash and those; the statement two times besides. A power of two, as the
    /// list is padded to one (`query`).
    static func batchSize(binds: Int) -> Int {
        let fitting = min(batchMax, (bindsMax - 2) / (binds + 2))
        var size = 1
        while size * 2 <= fitting { size *= 2 }
        return size
    }

    /// Reads `waiters` in one statement and answers each with its rows.
    private func read(_ waiters: [Waiter], data: CallerQuery) async {
        let (now, idleCutoff) = sessions.window()
        do {
            let rows = try await database.readStatement(
                Self.query(waiters.map { ($0.hash, $0.binds) }, data: data, now: now, idleCutoff: idleCutoff))
            var found = [[SQLRow]](repeating: [], count: waiters.count)
            for row in rows {
                let index = Int(row.int(0))
                guard index < waiters.count else { continue }
                found[index].append(SQLRow(Array(row.values.dropFirst())))
            }
            for (waiter, rows) in zip(waiters, found) { waiter.continuation.resume(returning: rows) }
        } catch {
            for waiter in waiters { waiter.continuation.resume(throwing: error) }
        }
    }

    /// One statement for several callers: a `VALUES` row per caller (its index, token hash and
    /// `data`'s values), each joined to its live session and, through `LATERAL`, to `data` read
    /// for that session's customer with that row's values. Rows come in the callers' order, each
    /// caller's first column its index, then `AuthService.sessionLookup`'s columns.
    ///
    /// The list is padded to a power of two with rows of a hash no token has (the empty text).
    /// why: one text per size (1, 2, 4, …), so PostgreSQL keeps each prepared.
    static func query(_ callers: [(hash: String, binds: [SQLValue])], data: CallerQuery, now: Int64, idleCutoff: Int64) -> SQL {
        precondition(!callers.isEmpty)
        var size = 1
        while size < callers.count { size *= 2 }
        let width = callers[0].binds.count
        let row = "(" + Array(repeating: "?", count: width + 2).joined(separator: ", ") + ")"
        var binds: [SQLValue] = []
        binds.reserveCapacity(size * (width + 2) + 2)
        for index in 0..<size {
            let caller = index < callers.count ? callers[index] : (hash: "", binds: callers[0].binds)
            binds.append(.int(Int64(index)))
            binds.append(.text(caller.hash))
            binds += caller.binds
        }
        let columns = (["i", "h"] + (0..<width).map { "p\($0)" }).joined(separator: ", ")
        return SQL(
            """
            WITH req (\(columns)) AS (VALUES \(Array(repeating: row, count: size).joined(separator: ", "))) \
            SELECT req.i, s.customer_id, s.contract, s.level, s.last_seen_ms, s.device_id, d.* FROM req \
            JOIN sessions s ON s.token_hash = req.h AND s.revoked = 0 AND s.expires_at_ms > ? AND s.last_seen_ms > ? \
            LEFT JOIN LATERAL (\(perCaller(data.sql.text))) AS d ON true \
            ORDER BY req.i\(data.order.map { ", \($0)" } ?? "")
            """, binds + [.int(now), .int(idleCutoff)])
    }

    /// `text` read for each row of `req`: the caller's customer is that row's session's, and
    /// the n-th `?` that row's n-th value. (`?` inside a quoted literal is left alone, as
    /// PostgreSQL's numbering leaves it.)
    static func perCaller(_ text: String) -> String {
        var result = ""
        var index = 0
        var quoted = false
        for character in text.replacing(CallerQuery.customer, with: "s.customer_id") {
            if character == "'" { quoted.toggle() }
            if character == "?" && !quoted {
                result += "req.p\(index)"
                index += 1
            } else {
                result.append(character)
            }
        }
        return result
    }
}
