import TresorDomain

extension BatchWriter {
    /// PostgreSQL: a set of bookings (distinct keys, no hold released) in one call of
    /// `tresor_book_set` (migration 17), which claims, locks, decides and writes as
    /// `bookSet` does in five statements. Replays are answered from the stored key, as there.
    static func bookSetByFunction(_ items: [BatchBooking], recordArrays: [String]? = nil, in session: any SQLSession) async throws
        -> [Outcome]
    {
        precondition(recordArrays == nil || recordArrays?.count == recordArrayCount, "tresor_book_set takes \(recordArrayCount) record arrays")
        let call = functionCall(items, recordArrays: recordArrays)
        let rows = try await session.query(SQL("SELECT booking, outcome, account, transaction_id, balances::text FROM \(call.sql)", call.binds))
        return try await outcomes(of: items, from: rows, in: session)
    }

    /// `bookSetByFunction` with the records of `records` written by the same statement; tells
    /// `records.written` the id recorded for each booking.
    static func bookSetByFunction(_ items: [BatchBooking], records: FunctionRecords, in session: any SQLSession) async throws -> [Outcome] {
        let call = functionCall(items, recordArrays: nil)
        let rows = try await session.query(
            SQL(
                """
                WITH RECURSIVE booked AS MATERIALIZED (SELECT * FROM \(call.sql))\(records.ctes) \
                SELECT b.booking, b.outcome, b.account, b.transaction_id, b.balances::text, r.id FROM booked AS b \
                LEFT JOIN recorded AS r ON r.booking = b.booking ORDER BY b.booking
                """, call.binds + records.binds))
        let outcomes = try await outcomes(of: items, from: rows, in: session)
        records.written(rows.map { $0.optionalInt(5) })
        return outcomes
    }

    /// The call of `tresor_book_set` for `items`: its SQL and binds.
    private static func functionCall(_ items: [BatchBooking], recordArrays: [String]?) -> (sql: String, binds: [SQLValue]) {
        var kinds: [String?] = []
        var bookingDates: [String?] = []
        var valueDates: [String?] = []
        var nows: [Int64] = []
        var scopes: [String?] = []
        var keys: [String?] = []
        var hashes: [String?] = []
        var firsts: [Int64] = []
        var counts: [Int64] = []
        var accounts: [Int64] = []
        var currencies: [String?] = []
        var amounts: [Int64] = []
        var counterparties: [String?] = []
        var remittances: [String?] = []
        for item in items {
            let draft = item.draft
            kinds.append(draft.kind)
            bookingDates.append(draft.bookingDate.description)
            valueDates.append(draft.valueDate.description)
            nows.append(item.now)
            scopes.append(item.claim?.scope)
            keys.append(item.claim?.key)
            hashes.append(item.claim?.requestHash)
            firsts.append(Int64(accounts.count + 1))
            counts.append(Int64(draft.lines.count))
            for line in draft.lines {
                accounts.append(line.accountID.rawValue)
                currencies.append(line.amount.currency.code)
                amounts.append(line.amount.minorUnits)
                counterparties.append(line.counterparty)
                remittances.append(line.remittance)
            }
        }
        let arrays: [String] = [
            PostgresArray.text(kinds), PostgresArray.text(bookingDates), PostgresArray.text(valueDates), PostgresArray.int(nows),
            PostgresArray.text(scopes), PostgresArray.text(keys), PostgresArray.text(hashes), PostgresArray.int(firsts),
            PostgresArray.int(counts), PostgresArray.int(accounts), PostgresArray.text(currencies), PostgresArray.int(amounts),
            PostgresArray.text(counterparties), PostgresArray.text(remittances),
        ]
        return (
            """
            tresor_book_set(?::text[], ?::text[], ?::text[], ?::bigint[], ?::text[], ?::text[], ?::text[], ?::int[], ?::int[], ?::bigint[], \
            ?::text[], ?::bigint[], ?::text[], ?::text[], ?::bigint[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[])
            """,
            arrays.map { .text($0) } + (recordArrays?.map { .text($0) } ?? Array(repeating: .null, count: recordArrayCount))
        )
    }

    /// The outcome of each of `items` from the function's rows (booking, outcome, account,
    /// transaction id, balances as text), in the order of `items`.
    private static func outcomes(of items: [BatchBooking], from rows: [SQLRow], in session: any SQLSession) async throws -> [Outcome] {
        precondition(rows.count == items.count, "tresor_book_set answered \(rows.count) rows for \(items.count) bookings")
        var outcomes: [Outcome] = []
        outcomes.reserveCapacity(items.count)
        for (item, row) in zip(items, rows) {
            let account = row.optionalInt(2).map(AccountID.init)
            switch row.text(1) {
            case "created":
                guard let balances = PostgresArray.ints(row.text(4)), balances.count == item.draft.lines.count else {
                    preconditionFailure("tresor_book_set answered balances \(row.text(4)) for \(item.draft.lines.count) lines")
                }
                outcomes.append(.success(.created(Ledger.posted(item.draft, id: TransactionID(row.int(3)), balances: balances))))
            case "replay":
                do {
                    outcomes.append(.success(.replayed(try await Ledger.replay(item.claim!, in: session))))
                } catch let error as LedgerError {
                    outcomes.append(.failure(error))
                }
            case "account_not_found": outcomes.append(.failure(LedgerError.accountNotFound(account!)))
            case "currency_mismatch": outcomes.append(.failure(LedgerError.currencyMismatch(account!)))
            case "debits_blocked": outcomes.append(.failure(LedgerError.debitsBlocked(account!)))
            case "account_closed": outcomes.append(.failure(LedgerError.accountClosed(account!)))
            case "insufficient_funds": outcomes.append(.failure(LedgerError.insufficientFunds(account!)))
            case "amount_too_large": outcomes.append(.failure(balanceTooLarge))
            case let other: preconditionFailure("tresor_book_set answered \(other)")
            }
        }
        return outcomes
    }
}

extension BatchWriter {
    /// How many record arrays `tresor_book_set` takes: an audit entry's time, actor, contract,
    /// action, device, address, result and details.
    public static let recordArrayCount = 8
}

/// PostgreSQL array literals, bound as one text parameter each and cast in the statement. why
/// text: the values travel in one parameter per column, whatever the batch's size, so the
/// statement's text (and the server's cached plans) never change; NULL elements are spelled.
public enum PostgresArray {
    // why bytes: these literals carry every column of a batch (a payment's 25); built by
    // appending to a `String` scalar by scalar they were ~3 % of a payment's server CPU.
    public static func int(_ values: [Int64?]) -> String { integers(values) }

    static func int(_ values: [Int64]) -> String { integers(values.lazy.map { $0 }) }

    private static func integers(_ values: some Sequence<Int64?>) -> String {
        var out: [UInt8] = [UInt8(ascii: "{")]
        out.reserveCapacity(2 + values.underestimatedCount * 8)
        for (index, value) in values.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            if let value { out.append(contentsOf: String(value).utf8) } else { out.append(contentsOf: "NULL".utf8) }
        }
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }

    /// Each text quoted, `"` and `\` escaped with a backslash; nil as NULL. Byte by byte: both
    /// are ASCII, which UTF-8 never uses inside the encoding of another character.
    public static func text(_ values: [String?]) -> String {
        var out: [UInt8] = [UInt8(ascii: "{")]
        out.reserveCapacity(2 + values.count * 24)
        for (index, value) in values.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            guard let value else {
                out.append(contentsOf: "NULL".utf8)
                continue
            }
            out.append(UInt8(ascii: "\""))
            for byte in value.utf8 {
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { out.append(UInt8(ascii: "\\")) }
                out.append(byte)
            }
            out.append(UInt8(ascii: "\""))
        }
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }

    /// Reads `{1,-2,3}` (an int8[] sent as text); nil for anything else.
    static func ints(_ literal: String) -> [Int64]? {
        guard literal.first == "{", literal.last == "}" else { return nil }
        let inner = literal.dropFirst().dropLast()
        if inner.isEmpty { return [] }
        var values: [Int64] = []
        for part in inner.split(separator: ",", omittingEmptySubsequences: false) {
            guard let value = Int64(part) else { return nil }
            values.append(value)
        }
        return values
    }
}
