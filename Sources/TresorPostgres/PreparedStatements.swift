import PostgresNIO
import Synchronization
import TresorLedger

/// The named statements prepared on each connection of one pool, by their text.
///
/// why: PostgreSQL parses and plans an unnamed statement on every call; perf put that at about
/// 15 % of the machine under payments on PostgreSQL. A statement prepared once on a connection
/// is bound and run in one round trip (Bind, Execute, Sync), its plan kept by the server.
///
/// A text is prepared on its second use on a connection: preparing is a round trip of its own,
/// which a statement run once (a migration, a text with values written into it) would pay for
/// nothing. (pgjdbc's `prepareThreshold` does the same, at 5.)
///
/// why not `PostgresPreparedStatement`: its name and text are static (one Swift type per
/// statement), and PostgresNIO 1.33.2 keeps a failed preparation as an error for the
/// connection's lifetime. Here a preparation that fails is not kept: the next use prepares again.
/// The statement is prepared with `PostgresConnection.prepare(query:)`, which sends Parse and
/// Describe outside any bookkeeping of its own.
final class PreparedStatements: Sendable {
    /// A bound per connection: texts whose number of `?` varies (batch VALUES lists) differ per
    /// size. When reached, the connection's statements are closed and prepared again on use.
    static let perConnectionMax = 128
    /// Uses of a text on a connection before it is prepared there.
    static let usesBeforePreparing = 2
    /// A bound on the texts counted per connection and not yet prepared.
    static let countedMax = 512

    private struct Connection {
        var prepared: [String: PreparedQuery] = [:]
        var uses: [String: Int] = [:]
    }

    private let connections = Mutex([PostgresConnection.ID: Connection]())

    /// A text as `PostgresSession.numbered(_:declaring:)` writes it for the kinds of its values
    /// (`numbered(_:)`).
    private struct Numbering: Hashable {
        let text: String
        let kinds: [UInt8]
    }
    private let numberings = Mutex([Numbering: String]())
    /// A bound on the texts kept numbered, as on those prepared.
    static let numberedMax = 1024

    /// `sql`'s text with `$1::int8`, `$2::text`, … for its `?` placeholders, rewritten once per
    /// text and kinds of values. why: the session lookup joined to a read is ~700 characters,
    /// rewritten byte by byte at every request: 3 % of the server's CPU under `GET /v1/accounts`
    /// on PostgreSQL (`perf`), where a lookup of the kept text costs a hash of it.
    func numbered(_ sql: SQL) -> String {
        let key = Numbering(
            text: sql.text,
            kinds: sql.binds.map {
                switch $0 {
                case .int: 0
                case .text: 1
                case .null: 2
                }
            })
        if let kept = numberings.withLock({ $0[key] }) { return kept }
        let text = PostgresSession.numbered(sql.text, declaring: sql.binds)
        numberings.withLock { numberings in
            if numberings.count >= Self.numberedMax { numberings = [:] }
            numberings[key] = text
        }
        return text
    }

    /// The statement for `text` on `connection`, prepared there on its second use; nil while
    /// it is to run unprepared.
    func statement(_ text: String, on connection: PostgresConnection) async throws -> PreparedQuery? {
        let id = connection.id
        let (found, prepare, isNewConnection) = connections.withLock { connections -> (PreparedQuery?, Bool, Bool) in
            let isNew = connections[id] == nil
            if let found = connections[id]?.prepared[text] { return (found, false, false) }
            var state = connections[id] ?? Connection()
            let uses = (state.uses[text] ?? 0) + 1
            if state.uses.count >= Self.countedMax { state.uses = [:] }
            state.uses[text] = uses
            connections[id] = state
            return (nil, uses >= Self.usesBeforePreparing, isNew)
        }
        if isNewConnection {
            connection.closeFuture.whenComplete { [weak self] _ in _ = self?.connections.withLock { $0.removeValue(forKey: id) } }
        }
        if let found { return found }
        guard prepare else { return nil }
        let prepared = try await connection.prepare(query: text).get()
        let evicted = connections.withLock { connections -> [PreparedQuery] in
            var state = connections[id] ?? Connection()
            var evicted: [PreparedQuery] = []
            if state.prepared.count >= Self.perConnectionMax {
                evicted = Array(state.prepared.values)
                state.prepared = [:]
            }
            state.prepared[text] = prepared
            state.uses[text] = nil
            connections[id] = state
            return evicted
        }
        // why not awaited: Close is queued on the connection behind this statement's Bind, and a
        // Close that fails (the connection is going away) leaves nothing to undo.
        for statement in evicted { _ = statement.deallocate() }
        return prepared
    }

    /// Forgets `text` on `connection`: the server no longer has it (a `DISCARD`), or its result
    /// columns changed under it (another instance migrated the table).
    func forget(_ text: String, on connection: PostgresConnection) {
        _ = connections.withLock { $0[connection.id]?.prepared.removeValue(forKey: text) }
    }
}

extension PostgresSession {
    /// Runs `sql` as a statement prepared on this connection; nil when it is to run unprepared
    /// this time (`PreparedStatements`). The text declares each bound value's type with a cast
    /// (`$1::int8`, `$2::text`), as the unprepared path declares them in its Parse message, so
    /// both paths read a statement alike.
    func queryPrepared(_ sql: SQL, statements: PreparedStatements) async throws -> [SQLRow]? {
        let text = statements.numbered(sql)
        do {
            guard let statement = try await statements.statement(text, on: connection) else { return nil }
            return try Self.rows(ofPrepared: try await statement.execute(Self.preparedValues(sql.binds)).get())
        } catch {
            throw preparedError(error, text: text, statements: statements)
        }
    }

    /// `binds` as the older API of `PreparedQuery` takes them.
    static func preparedValues(_ binds: [SQLValue]) -> [PostgresData] {
        var values: [PostgresData] = []
        values.reserveCapacity(binds.count)
        for value in binds {
            switch value {
            case .int(let int): values.append(PostgresData(int64: int))
            case .text(let text): values.append(PostgresData(string: text))
            case .null: values.append(.null)
            }
        }
        return values
    }

    /// The rows a `PreparedQuery` answered.
    static func rows(ofPrepared rows: [PostgresRow]) throws -> [SQLRow] {
        try rows.map { row in
            SQLRow(
                try row.map { cell in
                    // why: PostgresNIO 1.33.2 asks for every result column in binary but
                    // hands `PreparedQuery` the statement's row description as Describe
                    // answered it, each column marked text; an int8 then fails to decode.
                    var cell = cell
                    cell.format = .binary
                    return try value(of: cell)
                })
        }
    }

    /// An error of a prepared statement (`text`) as the rest of the adapter knows it.
    func preparedError(_ error: any Error, text: String, statements: PreparedStatements) -> any Error {
        if let error = error as? PostgresError {
            return Self.translated(error, forgetting: { statements.forget(text, on: connection) })
        }
        if error is ChannelError || error is IOError || connection.isClosed {
            // why: the older path hands a lost connection's NIO error on as it came (PSQLError's
            // `connectionError` unwrapped), where the unprepared path answers a PSQLError.
            return DatabaseUnavailable(String(describing: error))
        }
        return error
    }

    /// PostgresNIO's `prepare(query:)` and `PreparedQuery` answer the older `PostgresError`;
    /// the rest of the adapter (and `PostgresDatabase.reachable`) knows `PSQLError`'s cases.
    static func translated(_ error: PostgresError, forgetting: () -> Void) -> any Error {
        switch error {
        case .connectionClosed:
            return DatabaseUnavailable(error.description)
        case .protocol(let message):
            return message == "Unexpected connection close" ? DatabaseUnavailable(message) : error
        case .server(let message):
            let state = message.fields[.sqlState] ?? ""
            if state.hasPrefix("08") || state.hasPrefix("57") { return DatabaseUnavailable(state) }
            if ["40P01", "40001"].contains(state) { return TransactionConflict(state) }
            if state == "23505" { return UniqueViolation(message.fields[.constraintName] ?? "") }
            // why a conflict: the statement is gone (26000) or its plan no longer fits the table
            // (0A000, "cached plan must not change result type"); nothing was done, and the
            // retry prepares it again.
            let cachedPlanChanged = state == "0A000" && (message.fields[.message] ?? "").hasPrefix("cached plan")
            if state == "26000" || cachedPlanChanged {
                forgetting()
                return TransactionConflict(state)
            }
            return error
        }
    }

    /// Turns `?` placeholders into `$1`, `$2`, … (outside quoted literals), each followed by its
    /// value's type as a cast where `binds` has one. A null keeps an undeclared type, as the
    /// unprepared path sends it: the server infers it. why bytes: walking a batch statement of a
    /// few thousand characters as `Character`s showed in profiles.
    static func numbered(_ text: String, declaring binds: [SQLValue]) -> String {
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count + 10 * binds.count)
        var index = 0
        var quoted = false
        for byte in text.utf8 {
            if byte == UInt8(ascii: "'") { quoted.toggle() }
            if byte == UInt8(ascii: "?") && !quoted {
                result.append(UInt8(ascii: "$"))
                result += String(index + 1).utf8
                if index < binds.count {
                    switch binds[index] {
                    case .int: result += "::int8".utf8
                    case .text: result += "::text".utf8
                    case .null: break
                    }
                }
                index += 1
            } else {
                result.append(byte)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
