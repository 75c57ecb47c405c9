import Foundation
import TresorDomain
import TresorLedger

/// A bank the size a bank runs (issue 68): `customers` customers, each with a current and a
/// savings account and every second one a credit card, `months` of history booked through the
/// ledger's batch path (`Ledger.commit(batch:)`, as a salary run or a clearing file is), a few
/// business accounts credited `businessBookings` times each, and pending payments due on the
/// last business day. Deterministic for a seed and an end date. Grows the bank the database
/// holds (the demo bank, for `make bench-scale`) or founds one.
public struct ScaleBank: Sendable {
    public struct Plan: Sendable, Hashable {
        public var customers: Int
        public var months: Int
        public var seed: UInt64
        public var businessAccounts: Int
        public var businessBookings: Int
        public var duePayments: Int
        /// The first person and every `contractEvery`-th after (and every company) get a login, so reads can be
        /// measured as a customer; why not all: a password hash costs milliseconds each.
        public var contractEvery: Int

        public init(
            customers: Int = 100_000, months: Int = 24, seed: UInt64 = 1, businessAccounts: Int = 2, businessBookings: Int = 1_000_000,
            duePayments: Int = 100_000, contractEvery: Int = 10_000
        ) {
            self.customers = customers
            self.months = months
            self.seed = seed
            self.businessAccounts = businessAccounts
            self.businessBookings = businessBookings
            self.duePayments = duePayments
            self.contractEvery = contractEvery
        }
    }

    /// What was made: counts, the logins (contract numbers) and the day the payments are due.
    public struct Made: Sendable, Hashable, Codable {
        public var customers = 0
        public var accounts = 0
        public var transactions = 0
        public var refused = 0
        public var duePayments = 0
        public var dueDate = ""
        public var retailContracts: [String] = []
        public var businessContracts: [String] = []
    }

    public static let password = "tresor-scale"
    /// The payee of the due payments: on the bank-wide whitelist, so they need no signature.
    static let payee = (name: "Stadtwerke Bern", iban: "CH5604835012345678009")

    let services: Services

    public init(services: Services) {
        self.services = services
    }

    public func seed(_ plan: Plan, today: LocalDate, progress: @Sendable (String) -> Void = { _ in }) async throws -> Made {
        precondition(plan.months > 0 && plan.businessAccounts < plan.customers && plan.duePayments <= plan.customers - plan.businessAccounts)
        var existing = try await services.bank.profile()
        if existing == nil { existing = try await services.bank.found(name: "Tresor Scale Bank", clearing: 9_997, currencies: [.chf]) }
        guard let profile = existing else { preconditionFailure("founded above") }
        guard let clearing = try await services.ledger.bankAccount(.clearing, currency: .chf) else {
            throw DomainError(.invalidParameter, field: "currency", "The bank keeps no CHF.")
        }
        var made = Made()
        let (retail, business) = try await open(plan, profile: profile, made: &made)
        progress("opened \(made.customers) customers, \(made.accounts) accounts")
        let start = today.adding(months: -plan.months)
        let history = ScaleHistory(
            seed: plan.seed, clearing: clearing.id, customers: retail, business: business, start: start,
            days: today.daysSinceEpoch - start.daysSinceEpoch, businessBookings: plan.businessBookings)
        for offset in 0..<history.days {
            let day = start.adding(days: offset)
            for first in stride(from: 0, to: retail.count, by: ScaleHistory.batch) {
                let range = first..<min(first + ScaleHistory.batch, retail.count)
                try await book(history.drafts(on: day, customers: range), on: day, made: &made)
            }
            if day.day == 1 { progress("booked to \(day): \(made.transactions) transactions") }
        }
        try await schedule(plan, retail: retail, today: today, made: &made)
        progress("scheduled \(made.duePayments) payments due \(made.dueDate)")
        return made
    }

    /// Customers, their accounts and logins, in transactions of 500 customers.
    private func open(_ plan: Plan, profile: BankProfile, made: inout Made) async throws -> ([ScaleHistory.Customer], [AccountID]) {
        let now = services.clock.unixMillis
        var retail: [ScaleHistory.Customer] = []
        var business: [AccountID] = []
        var logins: [(CustomerID, String)] = []
        var first = 0
        while first < plan.customers {
            let range = first..<min(first + 500, plan.customers)
            let opened = try await services.database.transaction { session in
                var opened: [(index: Int, customer: CustomerID, accounts: [AccountID])] = []
                for index in range {
                    let isBusiness = index < plan.businessAccounts
                    let name = isBusiness ? "Scale Business \(index + 1) AG" : Self.name(index)
                    let customer = try await BankService.createCustomer(name: name, now: now, in: session)
                    var kinds: [(AccountKind, String, Int64)] = [(.current, isBusiness ? "Geschäftskonto" : "Privatkonto", 100_000)]
                    if !isBusiness {
                        kinds.append((.savings, "Sparkonto", 0))
                        if index % 2 == 0 { kinds.append((.card, "Visa", 500_000)) }
                    }
                    var accounts: [AccountID] = []
                    for (kind, accountName, overdraft) in kinds {
                        accounts.append(
                            try await BankService.openAccount(
                                NewAccount(customerID: customer, name: accountName, kind: kind, currency: .chf, overdraftLimitMinor: overdraft),
                                profile: profile, now: now, in: session
                            ).id)
                    }
                    opened.append((index, customer, accounts))
                }
                return opened
            }
            for (index, customer, accounts) in opened {
                made.customers += 1
                made.accounts += accounts.count
                if index < plan.businessAccounts {
                    business.append(accounts[0])
                    logins.append((customer, String(format: "8%07d", index + 1)))
                } else {
                    retail.append(
                        ScaleHistory.Customer(
                            customer: customer, current: accounts[0], savings: accounts[1], card: accounts.count > 2 ? accounts[2] : nil))
                    if (index - plan.businessAccounts) % plan.contractEvery == 0 { logins.append((customer, String(format: "9%07d", index))) }
                }
            }
            first = range.upperBound
        }
        for (customer, contract) in logins {
            try await services.auth.createContract(contract, for: customer, password: Self.password)
            if contract.hasPrefix("8") { made.businessContracts.append(contract) } else { made.retailContracts.append(contract) }
        }
        return (retail, business)
    }

    /// Books `drafts` through the ledger's batch path, 1,000 a batch; a refused booking (none
    /// expected: every debit is covered) is counted, not booked.
    private func book(_ drafts: [TransactionDraft], on day: LocalDate, made: inout Made) async throws {
        let noon = Int64(day.daysSinceEpoch) * 86_400_000 + 43_200_000
        for batchStart in stride(from: 0, to: drafts.count, by: ScaleHistory.batch) {
            let batch = drafts[batchStart..<min(batchStart + ScaleHistory.batch, drafts.count)].map { BatchBooking($0, now: noon) }
            for outcome in try await services.ledger.commit(batch: batch) {
                if case .success(.created) = outcome { made.transactions += 1 } else { made.refused += 1 }
            }
        }
    }

    /// `duePayments` payments to a whitelisted payee, one from each of as many customers,
    /// created the business day before the last business day up to `today` for that day (the
    /// service schedules them with a hold), so `payments run-due` today executes them all.
    private func schedule(_ plan: Plan, retail: [ScaleHistory.Customer], today: LocalDate, made: inout Made) async throws {
        guard plan.duePayments > 0 else { return }
        var lastBusinessDay = today
        while !SwissBusinessDays.isBusinessDay(lastBusinessDay) { lastBusinessDay = lastBusinessDay.adding(days: -1) }
        let due = lastBusinessDay
        var created = due.adding(days: -1)
        while !SwissBusinessDays.isBusinessDay(created) { created = created.adding(days: -1) }
        let clock = ManualClock(Date(timeIntervalSince1970: Double(created.daysSinceEpoch) * 86_400 + 36_000))
        let services = Services(database: self.services.database, clock: clock)
        _ = try await services.beneficiaries.add(name: Self.payee.name, iban: try IBAN(Self.payee.iban), customer: nil, actor: "staff:scale-bank")
        let payers = retail.prefix(plan.duePayments).map { ($0.current, $0.customer) }
        let width = 16
        for chunkStart in stride(from: 0, to: payers.count, by: width) {
            let chunk = Array(payers[chunkStart..<min(chunkStart + width, payers.count)])
            let pending = try await withThrowingTaskGroup(of: Bool.self) { group in
                for (offset, (account, customer)) in chunk.enumerated() {
                    let number = chunkStart + offset
                    group.addTask {
                        let request = PaymentRequest(
                            type: .iban, debtorAccount: account, amount: Money(minorUnits: 5_000 + Int64(number % 45) * 1_000, currency: .chf),
                            executionDate: due,
                            creditor: CreditorInput(name: Self.payee.name, iban: Self.payee.iban, postalCode: "3001", town: "Bern", country: "CH"),
                            message: "Strom \(number + 1)")
                        let key = "scale-due-\(number)"
                        let principal = Principal(customerID: customer, contract: "scale", level: 2)
                        let result = try await services.payments.create(request, by: principal, idempotencyKey: key, requestHash: key)
                        return result.payment.status == .pending
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            made.duePayments += pending
        }
        made.dueDate = due.description
    }

    static func name(_ index: Int) -> String {
        let first = ["Anna", "Luca", "Claire", "Marco", "Sofia", "Jonas", "Lea", "Noah", "Mia", "Elias", "Laura", "David", "Chiara", "Yves"]
        let last = ["Meier", "Bernasconi", "Dubois", "Müller", "Keller", "Rossi", "Favre", "Huber", "Schmid", "Weber", "Fontana", "Brunner"]
        return "\(first[index % first.count]) \(last[(index / first.count) % last.count])"
    }
}
