import ArgumentParser
import Foundation
import TresorCore
import TresorDomain
import TresorLedger
import TresorSQLite

/// `tresor bench …`: the pieces `make bench` (scripts/bench.sh) puts together.
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure ledger throughput (see `make bench`).", subcommands: [Setup.self, LedgerPath.self, RawSQLite.self, Seed.self])

    /// The bench customer's login and the size of its book.
    static let contract = "bench"
    static let password = "bench-password"
    static let transferMinor: Int64 = 100

    struct Setup: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a bank with one customer and many funded CHF accounts.")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "Accounts to open.") var accounts = 200

        func run() async throws {
            let made = try await database.withServices { try await Self.fund($0, accounts: accounts) }
            print(
                "{\"first_account\": \(made.accounts.first!), \"last_account\": \(made.accounts.last!), \"reader_account\": \(made.reader.rawValue)}")
        }

        /// Founds the bench bank on `services` with `accounts` funded accounts and the reader; in
        /// a bank that exists (the demo bank, for `make bench-scale`'s booking throughput before and
        /// after it grew) it adds them to it.
        static func fund(_ services: Services, accounts: Int) async throws -> (accounts: [Int64], reader: AccountID) {
            var profile = try await services.bank.profile()
            if profile == nil { profile = try await services.bank.found(name: "Bench Bank", clearing: 9_998, currencies: [.chf]) }
            guard let profile else { preconditionFailure("founded above") }
            let customer = try await services.bank.createCustomer(name: "Bench Customer")
            try await services.auth.createContract(Bench.contract, for: customer, password: Bench.password)
            let clearing = try await services.ledger.bankAccount(.clearing, currency: .chf)!
            var ids: [Int64] = []
            for index in 0..<accounts {
                let account = try await services.bank.openAccount(
                    NewAccount(customerID: customer, name: "Bench \(index)", kind: .current, currency: .chf), profile: profile)
                let amount = Money(minorUnits: 10_000_000_000_000, currency: .chf)
                let today = services.today
                _ = try await services.ledger.commit(
                    TransactionDraft(
                        kind: "funding", bookingDate: today, valueDate: today,
                        lines: [PostingLine(accountID: clearing.id, amount: amount.negated), PostingLine(accountID: account.id, amount: amount)]),
                    now: services.clock.unixMillis)
                ids.append(account.id.rawValue)
            }
            // why: the HTTP payment bench pays this IBAN; on the bank-wide whitelist and under the
            // signing limit, its payments execute without a signature, as a utility bill would.
            _ = try await services.beneficiaries.add(name: "Stadtwerke Bern", iban: try IBAN("CH5604835012345678009"), customer: nil)
            return (ids, try await Bench.reader(services, profile: profile, clearing: clearing))
        }
    }

    /// A customer as most are, for the read benchmarks: a current and a savings account, the
    /// current one with more bookings than a page holds.
    static let readerContract = "bench-reader"

    static func reader(_ services: Services, profile: BankProfile, clearing: Account) async throws -> AccountID {
        let customer = try await services.bank.createCustomer(name: "Reader Customer")
        try await services.auth.createContract(readerContract, for: customer, password: Bench.password)
        let current = try await services.bank.openAccount(
            NewAccount(customerID: customer, name: "Privatkonto", kind: .current, currency: .chf), profile: profile)
        let savings = try await services.bank.openAccount(
            NewAccount(customerID: customer, name: "Sparkonto", kind: .savings, currency: .chf), profile: profile)
        let today = services.today
        func move(_ minor: Int64, from: AccountID, to: AccountID, _ remittance: String) async throws {
            let amount = Money(minorUnits: minor, currency: .chf)
            _ = try await services.ledger.commit(
                TransactionDraft(
                    kind: "transfer", bookingDate: today, valueDate: today,
                    lines: [
                        PostingLine(accountID: from, amount: amount.negated, counterparty: "Bench", remittance: remittance),
                        PostingLine(accountID: to, amount: amount, counterparty: "Bench", remittance: remittance),
                    ]),
                now: services.clock.unixMillis)
        }
        try await move(1_000_000, from: clearing.id, to: current.id, "Lohn")
        for index in 0..<60 { try await move(1_000 + Int64(index), from: current.id, to: savings.id, "Sparen \(index)") }
        return current.id
    }

    /// Options every measured run shares.
    struct RunOptions: ParsableArguments {
        @Option(help: "Concurrent clients.") var clients = 1
        @Option(help: "Seconds to measure.") var seconds = 5.0
        @Option(help: "First bench account id.") var firstAccount: Int64
        @Option(help: "Last bench account id.") var lastAccount: Int64
    }

    struct LedgerPath: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "ledger", abstract: "(a) transfers through TresorLedger.")
        @OptionGroup var database: DatabaseOptions
        @OptionGroup var options: RunOptions
        @Flag(help: "One database transaction per booking instead of the default group commit.") var unbatched = false

        func run() async throws {
            let result = try await database.withDatabase { db in
                let ledger = Ledger(database: db, batching: unbatched ? Ledger.Batching.none : nil)
                let today = BankCalendar().date(of: Date())
                return try await Measurement.run(clients: options.clients, seconds: options.seconds) { client, sequence in
                    let (from, to) = Bench.pair(options, client: client, sequence: sequence)
                    let amount = Money(minorUnits: Bench.transferMinor, currency: .chf)
                    let draft = TransactionDraft(
                        kind: "transfer", bookingDate: today, valueDate: today,
                        lines: [
                            PostingLine(accountID: AccountID(from), amount: amount.negated, counterparty: "Bench", remittance: "bench"),
                            PostingLine(accountID: AccountID(to), amount: amount, counterparty: "Bench", remittance: "bench"),
                        ])
                    let claim = IdempotencyClaim(scope: "bench", key: "l-\(client)-\(sequence)-\(Bench.randomKey())", requestHash: "h")
                    _ = try await ledger.commit(draft, claim: claim, now: Int64(Date().timeIntervalSince1970 * 1000))
                }
            }
            print(result.json)
        }
    }

    /// A random UUID string, as a client's idempotency key. why not `UUID()`: Foundation on Linux
    /// opens, reads and closes /dev/urandom for each one (strace: one `openat` per transfer), a
    /// cost of the benchmark's clients, not of the ledger; random keys still land on random
    /// pages of the key index, as real clients' do.
    static func randomKey() -> String {
        var generator = SystemRandomNumberGenerator()
        let (high, low) = (generator.next() as UInt64, generator.next() as UInt64)
        let bytes = withUnsafeBytes(of: (high.bigEndian, low.bigEndian)) { Array($0) }
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6] & 0x0F | 0x40, bytes[7],
                bytes[8] & 0x3F | 0x80, bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            )
        ).uuidString
    }

    /// Two distinct bench accounts, lower id first (the order the ledger locks rows in).
    static func pair(_ options: RunOptions, client: Int, sequence: Int) -> (Int64, Int64) {
        var generator = SystemRandomNumberGenerator()
        let a = Int64.random(in: options.firstAccount...options.lastAccount, using: &generator)
        var b = Int64.random(in: options.firstAccount...options.lastAccount, using: &generator)
        if a == b { b = a == options.lastAccount ? options.firstAccount : a + 1 }
        return (min(a, b), max(a, b))
    }
}
