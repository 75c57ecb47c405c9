import NIOCore
import PostgresNIO
import Synchronization
import TresorLedger

/// Statements a transaction sent without waiting for their answer (`PostgresSession.send`),
/// held until its next statement or its COMMIT goes out with them.
final class PendingStatements: Sendable {
    private let statements = Mutex([SQL]())

    func append(_ sql: SQL) { statements.withLock { $0.append(sql) } }

    /// The statements held, in the order sent; none are held afterwards.
    func take() -> [SQL] {
        statements.withLock { held in
            defer { held = [] }
            return held
        }
    }
}

/// A COMMIT the server answered ROLLBACK: it had aborted the transaction.
struct CommitRefused: Error {}

extension PostgresSession {
    /// Holds `sql` for the transaction's next statement or its COMMIT (`SQLSession.send`).
    /// why: a statement whose answer nothing reads (a payment row's last UPDATE, its audit
    /// entry) cost a return to this task before the next one was sent; under load that return
    /// waits for a thread, while the rows the transaction locked (the clearing account, the
    /// audit head) stay locked for every other payment.
    func send(_ sql: SQL) async throws {
        guard let pending else { return try await execute(sql) }
        pending.append(sql)
    }

    /// What is held, then COMMIT, back to back.
    func commit() async throws {
        _ = try await pipelined(pending?.take() ?? [], then: nil)
    }

    /// `earlier`, then `next` (nil: COMMIT), queued on the connection at once: PostgresNIO sends
    /// each when the one before it is answered, on the connection's event loop, with no return
    /// to this task in between. Returns `next`'s rows; throws the first statement's error (after
    /// it the server refuses the rest of the transaction, and answers COMMIT with ROLLBACK).
    func pipelined(_ earlier: [SQL], then next: SQL?) async throws -> [SQLRow] {
        try ensureOpen()
        var answers: [EventLoopFuture<[SQLRow]>] = []
        answers.reserveCapacity(earlier.count + 1)
        for sql in earlier { answers.append(try await start(sql)) }
        if let next {
            answers.append(try await start(next))
        } else {
            answers.append(startCommit())
        }
        let outcomes = try await EventLoopFuture.whenAllComplete(answers, on: connection.eventLoop).get()
        for outcome in outcomes {
            if case .failure(let error) = outcome { throw error }
        }
        return try outcomes[outcomes.count - 1].get()
    }

    /// Queues `sql` on the connection, prepared as `query` would run it.
    private func start(_ sql: SQL) async throws -> EventLoopFuture<[SQLRow]> {
        if let statements, sql.binds.count <= Self.preparedBindsMax {
            let text = statements.numbered(sql)
            let statement: PreparedQuery?
            do {
                statement = try await statements.statement(text, on: connection)
            } catch {
                throw preparedError(error, text: text, statements: statements)
            }
            if let statement {
                return statement.execute(Self.preparedValues(sql.binds))
                    .flatMapThrowing { try Self.rows(ofPrepared: $0) }
                    .flatMapErrorThrowing { throw preparedError($0, text: text, statements: statements) }
            }
        }
        return connection.query(PostgresQuery(unsafeSQL: Self.numbered(sql.text), binds: Self.bindings(sql.binds)), logger: logger)
            .flatMapThrowing { result in try result.rows.map { SQLRow(try $0.map(Self.value(of:))) } }
    }

    private func startCommit() -> EventLoopFuture<[SQLRow]> {
        connection.query(PostgresQuery(unsafeSQL: "COMMIT"), logger: logger).flatMapThrowing { result in
            guard result.metadata.command == "COMMIT" else { throw CommitRefused() }
            return []
        }
    }
}
