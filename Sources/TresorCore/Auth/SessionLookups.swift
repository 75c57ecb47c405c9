import TresorLedger

/// Session lookups of concurrent requests answered by one statement (`Batches`): the first
/// caller that finds none running reads the sessions of every caller waiting (up to
/// `batchMax`), the callers that come meanwhile wait for the next statement.
///
/// why: a request whose data needs no read of its own (a transfer between accounts already
/// known, `KnownAccounts`) would otherwise pay a whole read for its session alone: on
/// PostgreSQL a connection checkout, a round trip and the server's per-statement work, which
/// was most of what a transfer cost beside its booking. Every caller is still checked against
/// the sessions as they are after it arrived (a revoked token is refused at once), not against
/// a copy kept in memory.
///
/// PostgreSQL only, as `JoinedReads`: on SQLite each caller reads alone, at once (server CPU per
/// transfer at 64 connections 167–192 → 159–165 µs, six alternated runs).
final class SessionLookups: Sendable {
    /// Tokens per statement at most. why 32: with the two times, 34 values, under the 64 up to
    /// which PostgreSQL statements are kept prepared (`PostgresSession.preparedBindsMax`).
    static let batchMax = 32

    private struct Waiter: Sendable {
        let hash: String
        let continuation: CheckedContinuation<SQLRow?, any Error>
    }

    private let waiting = Batches<Waiter>(batchMax: batchMax)
    private let sessions: LiveSessions
    private var database: any SQLDatabase { sessions.database }

    init(_ sessions: LiveSessions) {
        self.sessions = sessions
    }

    /// Callers waiting for the next statement (for the tests).
    var waitingCount: Int { waiting.pendingCount }

    /// The live session with this token hash (not revoked, not expired, not idle too long), as
    /// read after this call, or nil; its columns are those of `AuthService.sessionLookup`
    /// (decoded by `AuthService.caller(in:minimumLevel:)`). A lone caller reads at once, on its
    /// own thread.
    func row(hash: String) async throws -> SQLRow? {
        // why not batched where reads run on the caller (SQLite): no round trip to share, and
        // waiting for a batch costs two thread switches.
        guard !database.readsOnCaller else {
            let (now, idleCutoff) = sessions.window()
            return try await database.readStatement(AuthService.sessionLookup(hash: hash, now: now, idleCutoff: idleCutoff, joining: nil)).first
        }
        return try await withCheckedThrowingContinuation { continuation in
            waiting.submit(Waiter(hash: hash, continuation: continuation)) { [self] batch in await read(batch) }
        }
    }

    /// Reads one batch's sessions at the time it is read (after its callers came) and answers them.
    private func read(_ batch: [Waiter]) async {
        let (now, idleCutoff) = sessions.window()
        let query = Self.query(Array(Set(batch.map(\.hash))), now: now, idleCutoff: idleCutoff)
        do {
            let rows = try await database.read { session in try await session.query(query) }
            var found: [String: SQLRow] = [:]
            for row in rows { found[row.text(AuthService.sessionColumns)] = row }
            for waiter in batch { waiter.continuation.resume(returning: found[waiter.hash]) }
        } catch {
            for waiter in batch { waiter.continuation.resume(throwing: error) }
        }
    }

    /// The sessions of `hashes`, in the columns of `AuthService.sessionLookup` and the hash after
    /// them, with the list padded to a power of two by a hash no token has (the empty text).
    /// why: one statement text per size, six in all (1 to 32), so both stores keep them
    /// prepared; a text per count would crowd their caches.
    static func query(_ hashes: [String], now: Int64, idleCutoff: Int64) -> SQL {
        var size = 1
        while size < hashes.count { size *= 2 }
        let marks = Array(repeating: "?", count: size).joined(separator: ", ")
        let padded = hashes.map(SQLValue.text) + Array(repeating: .text(""), count: size - hashes.count)
        return SQL(
            """
            SELECT customer_id, contract, level, last_seen_ms, device_id, token_hash FROM sessions \
            WHERE token_hash IN (\(marks)) AND revoked = 0 AND expires_at_ms > ? AND last_seen_ms > ?
            """, padded + [.int(now), .int(idleCutoff)])
    }
}
