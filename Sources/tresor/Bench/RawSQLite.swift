import ArgumentParser
import Foundation
import GRDB
import TresorSQLite

extension Bench {
    /// (b) for SQLite: the ledger's statements for one transfer, as plain GRDB calls in a loop on
    /// the writer connection (no async hops per statement, no Swift model types).
    struct RawSQLite: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "raw-sqlite", abstract: "(b) the same statements as raw SQL on SQLite.")
        @OptionGroup var database: DatabaseOptions
        @OptionGroup var options: RunOptions
        @Option(help: "Transfers per transaction (the raw batched limit; figures count transfers).") var perTransaction = 1

        func run() async throws {
            let db = try SQLiteDatabase(path: try database.location)
            let today = String(ISO8601DateFormatter().string(from: Date()).prefix(10))
            let options = self.options
            let perTransaction = self.perTransaction
            let result = try await Measurement.run(clients: options.clients, seconds: options.seconds) { client, sequence in
                let transfers = (0..<perTransaction).map { index in
                    let (from, to) = Bench.pair(options, client: client, sequence: sequence)
                    return (from, to, "r-\(client)-\(sequence)-\(index)-\(Bench.randomKey())")
                }
                // why BEGIN and COMMIT prepared once: the ledger's are (`SQLiteStatements`), and
                // the limit must not pay for parsing them every time either.
                try await db.withWriterConnection { db in
                    try db.cachedStatement(sql: "BEGIN IMMEDIATE").execute()
                    do {
                        for (from, to, key) in transfers { try Self.transfer(db, from: from, to: to, key: key, today: today) }
                        try db.cachedStatement(sql: "COMMIT").execute()
                    } catch {
                        try? db.execute(sql: "ROLLBACK")
                        throw error
                    }
                }
            }
            try await db.close()
            print(result.scaled(by: perTransaction).json)
        }

        /// The statements of one transfer, inside a transaction the caller opened; prepared once
        /// per connection, as the ledger's are.
        static func transfer(_ db: Database, from: Int64, to: Int64, key: String, today: String) throws {
            let amount = Bench.transferMinor
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            try db.cachedStatement(
                sql: """
                    INSERT INTO idempotency_keys (scope, idem_key, request_hash, transaction_id, created_at_ms) \
                    VALUES (?, ?, ?, NULL, ?) ON CONFLICT DO NOTHING RETURNING scope
                    """
            ).execute(arguments: ["bench", key, "h", now])
            let update = try db.cachedStatement(
                sql: """
                    UPDATE accounts SET booked_minor = booked_minor + ?, revision = revision + 1 WHERE id = ? AND currency = ? \
                    AND (? > 0 OR enforce_limit = 0 OR booked_minor + ? - held_minor >= -overdraft_limit_minor) \
                    AND (? > 0 OR debits_blocked = 0) RETURNING booked_minor
                    """)
            let fromBalance = try Int64.fetchOne(update, arguments: [-amount, from, "CHF", -amount, -amount, -amount])!
            let toBalance = try Int64.fetchOne(update, arguments: [amount, to, "CHF", amount, amount, amount])!
            let transactionID = try Int64.fetchOne(
                db.cachedStatement(sql: "INSERT INTO transactions (kind, booking_date, value_date, created_at_ms) VALUES (?, ?, ?, ?) RETURNING id"),
                arguments: ["transfer", today, today, now])!
            try db.cachedStatement(
                sql: """
                    INSERT INTO postings (transaction_id, account_id, currency, amount_minor, balance_after_minor, booking_date, value_date, \
                    counterparty, remittance) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(arguments: [
                transactionID, from, "CHF", -amount, fromBalance, today, today, "Bench", "bench",
                transactionID, to, "CHF", amount, toBalance, today, today, "Bench", "bench",
            ])
            try db.cachedStatement(sql: "UPDATE idempotency_keys SET transaction_id = ? WHERE scope = ? AND idem_key = ?")
                .execute(arguments: [transactionID, "bench", key])
        }
    }
}
