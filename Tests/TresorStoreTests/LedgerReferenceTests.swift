import Foundation
import GRDB
import Testing
import TresorDomain
import TresorSQLite
import TresorTestSupport

@testable import TresorLedger

/// The references of the ledger's rows hold on both stores: a posting or an idempotency key
/// naming a missing account or transaction is refused, a referenced account or transaction is
/// neither deleted nor renumbered. SQLite checks its foreign keys; PostgreSQL checks them per
/// statement with triggers (migration 20), and `tresor_book_set` writes keys last.
@Suite("Ledger references")
struct LedgerReferenceTests {
    struct RolledBack: Error {}

    /// `statements` in one transaction, rolled back after them: nil when the database took them
    /// all, else the error of the one it refused.
    static func refusal(of statements: String..., in database: any SQLDatabase) async -> (any Error)? {
        do {
            try await database.transaction { session in
                for statement in statements { try await session.execute(SQL(statement)) }
                throw RolledBack()
            }
            return nil
        } catch is RolledBack {
            return nil
        } catch {
            return error
        }
    }

    static func posting(account: Int64, transaction: Int64) -> String {
        """
        INSERT INTO postings (transaction_id, account_id, currency, amount_minor, balance_after_minor, booking_date, value_date) \
        VALUES (\(transaction), \(account), 'CHF', 1, 1, '2026-11-20', '2026-11-20')
        """
    }

    /// An idempotency key naming `transaction` (an id, or NULL).
    static func key(transaction: String) -> String {
        "INSERT INTO idempotency_keys (scope, idem_key, request_hash, transaction_id, created_at_ms) VALUES ('t', 'k', 'h', \(transaction), 0)"
    }

    @Test("a posting or key naming a missing row is refused; a referenced row is not deleted or renumbered", arguments: StoreKind.available)
    func references(kind: StoreKind) async throws {
        let fixture = try await LedgerFixture.make(kind)
        let current = try await fixture.open(fundedMinor: 10_000)
        let savings = try await fixture.open(.savings)
        let unused = try await fixture.open(.savings)
        let claim = IdempotencyClaim(scope: "customer:1", key: "ref-1", requestHash: "h")
        let booked = try await fixture.move(1_000, from: current.id, to: savings.id, claim: claim).transaction.id.rawValue
        let database = fixture.services.database
        let missing: Int64 = 9_999_999
        let account = current.id.rawValue

        // What names rows that exist is taken (the controls), what does not is refused.
        #expect(await Self.refusal(of: Self.posting(account: account, transaction: booked), in: database) == nil)
        #expect(await Self.refusal(of: Self.posting(account: missing, transaction: booked), in: database) != nil)
        #expect(await Self.refusal(of: Self.posting(account: account, transaction: missing), in: database) != nil)
        let mixed = Self.posting(account: account, transaction: booked) + ", (\(booked), \(missing), 'CHF', -1, 0, '2026-11-20', '2026-11-20')"
        #expect(await Self.refusal(of: mixed, in: database) != nil)
        #expect(await Self.refusal(of: Self.key(transaction: "\(booked)"), in: database) == nil)
        #expect(await Self.refusal(of: Self.key(transaction: "NULL"), in: database) == nil)
        #expect(await Self.refusal(of: Self.key(transaction: "\(missing)"), in: database) != nil)
        #expect(await Self.refusal(of: "UPDATE idempotency_keys SET transaction_id = \(missing) WHERE idem_key = 'ref-1'", in: database) != nil)
        #expect(await Self.refusal(of: "UPDATE postings SET account_id = \(missing) WHERE transaction_id = \(booked)", in: database) != nil)

        // Rows nothing names go; rows a posting or key names stay, with their ids.
        #expect(await Self.refusal(of: "DELETE FROM accounts WHERE id = \(unused.id.rawValue)", in: database) == nil)
        #expect(await Self.refusal(of: "DELETE FROM accounts WHERE id = \(savings.id.rawValue)", in: database) != nil)
        let lone =
            "INSERT INTO transactions (id, kind, booking_date, value_date, created_at_ms) VALUES (\(missing), 't', '2026-11-20', '2026-11-20', 0)"
        #expect(await Self.refusal(of: lone, "DELETE FROM transactions WHERE id = \(missing)", in: database) == nil)
        #expect(await Self.refusal(of: "DELETE FROM transactions WHERE id = \(booked)", in: database) != nil)
        #expect(
            await Self.refusal(
                of: lone, Self.key(transaction: "\(missing)"), "DELETE FROM transactions WHERE id = \(missing)", in: database)
                != nil)
        #expect(await Self.refusal(of: "UPDATE accounts SET id = \(missing) WHERE id = \(savings.id.rawValue)", in: database) != nil)
        #expect(await Self.refusal(of: "UPDATE transactions SET id = \(missing) WHERE id = \(booked)", in: database) != nil)

        #expect(try await fixture.ledger.invariantViolations() == [])
    }

    @Test("ledger check names a posting whose account is gone", arguments: StoreKind.available)
    func orphanFound(kind: StoreKind) async throws {
        let fixture = try await LedgerFixture.make(kind)
        let current = try await fixture.open(fundedMinor: 10_000)
        let savings = try await fixture.open(.savings)
        try await fixture.move(1_000, from: current.id, to: savings.id)
        #expect(try await fixture.ledger.invariantViolations() == [])
        // A repair by hand with the checks off, as a restore of part of the tables would leave it.
        let delete = "DELETE FROM accounts WHERE id = \(savings.id.rawValue)"
        if kind == .sqlite {
            var configuration = Configuration()
            configuration.foreignKeysEnabled = false
            let repair = try DatabaseQueue(path: (fixture.services.database as! SQLiteDatabase).path, configuration: configuration)
            try await repair.write { try $0.execute(sql: delete) }
            try repair.close()
        } else {
            try await fixture.services.database.transaction { session in
                try await session.execute(SQL("SET LOCAL session_replication_role = replica"))
                try await session.execute(SQL(delete))
            }
        }
        let broken = try await fixture.ledger.invariantViolations().filter { $0.rule == "postings name their account and transaction" }
        #expect(broken.count == 1)
        #expect(broken.first?.detail.contains("account \(savings.id.rawValue)") == true)
    }

    @Test(
        "PostgreSQL: a key another instance writes while a set is being booked makes the set replay it, booking nothing",
        .enabled(if: StoreKind.available.contains(.postgres)))
    func keyWrittenMeanwhile() async throws {
        let fixture = try await LedgerFixture.make(.postgres)
        let current = try await fixture.open(fundedMinor: 10_000)
        let savings = try await fixture.open(.savings)
        let other = try await fixture.open(fundedMinor: 10_000)
        let otherSavings = try await fixture.open(.savings)
        let claim = IdempotencyClaim(scope: "customer:1", key: "raced", requestHash: "h")
        let database = fixture.services.database
        let otherInstance = try StoreKind.postgres.openAgain(database)
        let (booked, bookedSignal) = AsyncStream<Void>.makeStream()

        // The other instance books the key and holds its transaction open until this one's
        // booking waits on the key's row.
        let first = Task {
            try await otherInstance.transaction { session in
                let outcome = try await Ledger.commit(fixture.draft(1_000, from: current.id, to: savings.id), claim: claim, now: 0, in: session)
                bookedSignal.yield()
                let deadline = ContinuousClock.now + .seconds(20)
                while ContinuousClock.now < deadline {
                    let waiting = try await database.read { reader in
                        try await reader.queryOne(
                            SQL("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()"))
                    }
                    if (waiting?.int(0) ?? 0) > 0 { break }
                    try await Task.sleep(for: .milliseconds(10))
                }
                return outcome
            }
        }
        for await _ in booked { break }
        let second = try await fixture.move(700, from: other.id, to: otherSavings.id, claim: claim)
        let firstOutcome = try await first.value

        guard case .created(let created) = firstOutcome, case .replayed(let replayed) = second else {
            Issue.record("expected the other instance's booking created and this one replayed, got \(firstOutcome) and \(second)")
            return
        }
        #expect(replayed.id == created.id)
        #expect(try await fixture.ledger.account(other.id)?.bookedMinor == 10_000)
        #expect(try await fixture.ledger.account(current.id)?.bookedMinor == 9_000)
        #expect(try await fixture.ledger.invariantViolations() == [])
        try await otherInstance.close()
    }
}
