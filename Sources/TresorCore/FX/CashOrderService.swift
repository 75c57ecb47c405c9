import Foundation
import TresorDomain
import TresorLedger

/// An order of foreign banknotes to pick up at a branch (the "Sortenanfrage").
public struct CashOrder: Sendable, Hashable {
    public enum Status: String, Sendable {
        case ordered, ready
        case handedOut = "handed_out"
        case cancelled
    }
    public let id: Int64
    public let customerID: CustomerID
    public let branchID: Int64
    public let amount: Money
    public let debitAccount: AccountID
    public let debit: Money
    /// Units of the debit currency paid per banknote unit, margin included (decimal text).
    public let price: String
    public let rateDate: LocalDate
    public let pickupDate: LocalDate
    /// Delivered from the central vault (ordered three business days ahead) rather than from the branch's stock.
    public let fromVault: Bool
    public let holdID: HoldID?
    public let transactionID: TransactionID?
    public let status: Status
}

/// Not enough banknotes at the branch for that pickup date: what is there, where else, and when.
public struct CashShortage: Error, Sendable {
    public let available: Money
    /// Other branches with enough of the currency now, nearest to the asked branch first.
    public let alternatives: [(branch: Branch, available: Money)]
    /// The first pickup date the central vault can deliver to the asked branch.
    public let vaultDate: LocalDate
    public var availability: String { available.minorUnits > 0 ? "partly" : "none" }
}

/// Banknote orders: the price from the day's reference rates and the bank's margin, a hold on
/// the debit account for it, the branch's stock reserved, and at the end a booking at the
/// quoted price (the hold released in the same transaction) or a cancellation.
public struct CashOrderService: Sendable {
    let database: any SQLDatabase
    let ledger: Ledger
    let accounts: AccountService
    let branches: BranchService
    let fx: FXService
    let calendar: BankCalendar
    let clock: any Clock

    public init(
        database: any SQLDatabase, ledger: Ledger, accounts: AccountService, branches: BranchService, fx: FXService, calendar: BankCalendar,
        clock: any Clock
    ) {
        self.database = database
        self.ledger = ledger
        self.accounts = accounts
        self.branches = branches
        self.fx = fx
        self.calendar = calendar
        self.clock = clock
    }

    /// Business days the central vault needs to deliver banknotes to a branch.
    public static let vaultBusinessDays = 3
    public static let latestPickupDays = 60

    public func vaultDate(from today: LocalDate) -> LocalDate {
        var date = today
        for _ in 0..<Self.vaultBusinessDays { date = SwissBusinessDays.onOrAfter(date.adding(days: 1)) }
        return date
    }

    /// The price of `amount` in banknotes paid from the caller's `debitAccount`: whole notes, a
    /// current or savings account of another currency, the day's rate plus the bank's margin.
    /// The web app shows it before the order; `place` charges exactly this.
    public func price(_ amount: Money, debitAccount: AccountID, by principal: Principal) async throws -> (account: Account, quote: CashQuote) {
        let account = try await accounts.account(debitAccount, of: principal, field: "debit_account")
        if account.kind == .savingsBook {
            throw DomainError(.stationRequired, field: "debit_account", StationService.savingsBookRule)
        }
        guard account.kind == .current || account.kind == .savings else {
            throw DomainError(.invalidParameter, field: "debit_account", "Banknotes are paid from a current or savings account.")
        }
        guard amount.currency != account.currency else {
            throw DomainError(.currencyMismatch, field: "currency", "Choose a currency other than the account's.")
        }
        try Banknotes.check(amount)
        return (account, try await fx.quote(from: account.currency, to: amount.currency, amount: amount))
    }

    public func place(
        branch branchID: Int64, amount: Money, pickupDate: LocalDate, debitAccount: AccountID, by principal: Principal
    ) async throws -> (order: CashOrder, quote: CashQuote) {
        let branch = try await branches.branch(branchID)
        guard branch.kind == .branch, branch.services.contains(.foreignCash) else {
            throw DomainError(.invalidParameter, field: "branch", "This branch has no foreign-cash desk.")
        }
        let (account, quote) = try await price(amount, debitAccount: debitAccount, by: principal)
        let today = calendar.date(of: clock.now())
        guard pickupDate > today, pickupDate.daysSinceEpoch - today.daysSinceEpoch <= Self.latestPickupDays else {
            throw DomainError(.invalidDate, field: "pickup_date", "Pick up from tomorrow to \(Self.latestPickupDays) days ahead.")
        }
        let closures = try await branches.closures(from: pickupDate, days: 0)
        guard BranchService.closedReason(branch, on: pickupDate, closures: closures) == nil, !branch.hours.intervals(on: pickupDate).isEmpty else {
            throw DomainError(.invalidDate, field: "pickup_date", "\(branch.name) is closed on \(pickupDate).")
        }
        let vault = vaultDate(from: today)
        let fromVault = pickupDate >= vault
        let now = clock.unixMillis
        let dialect = database.dialect
        let id: Int64? = try await database.transaction { session in
            if !fromVault {
                let reserved = try await session.queryOne(
                    SQL(
                        "UPDATE cash_stock SET minor = minor - ? WHERE branch_id = ? AND currency = ? AND minor >= ? RETURNING minor",
                        [.int(amount.minorUnits), .int(branchID), .text(amount.currency.code), .int(amount.minorUnits)]))
                guard reserved != nil else { return nil }
            }
            let hold: Hold
            do {
                hold = try await Ledger.placeHold(
                    on: account.id, amount: quote.debit, reason: "Banknotes \(amount) at \(branch.name)", now: now, in: session)
            } catch let error as LedgerError {
                throw DomainError(error.domainError.code, field: "debit_account", error.domainError.message)
            }
            let id = try await session.queryOne(
                SQL(
                    """
                    INSERT INTO cash_orders (customer_id, branch_id, currency, amount_minor, debit_account, debit_minor, price, rate_date, pickup_date, \
                    from_vault, hold_id, status, created_at_ms, updated_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'ordered', ?, ?) RETURNING id
                    """,
                    [
                        .int(principal.customerID.rawValue), .int(branchID), .text(amount.currency.code), .int(amount.minorUnits),
                        .int(account.id.rawValue),
                        .int(quote.debit.minorUnits), .text(CurrencyConversion.text(quote.pricePerUnit, places: 8)), SQLValue(quote.date),
                        SQLValue(pickupDate), .int(fromVault ? 1 : 0), .int(hold.id.rawValue), .int(now), .int(now),
                    ]))!.int(0)
            try await AuditLog.append(
                AuditEntry.customer(principal, at: now, action: "cash.order", subject: "cash_order:\(id)", details: "\(amount) for \(quote.debit)"),
                dialect: dialect, in: session)
            try await MessageService.post(
                to: principal.customerID, category: .payments,
                MessageText(
                    .cashOrdered,
                    [
                        "branch": branch.name, "date": pickupDate.swissFormat, "account": account.name, "rate_date": quote.date.swissFormat,
                        "margin": quote.marginBasisPoints.basisPointsAsPercent,
                    ], amounts: ["amount": amount, "debit": quote.debit]), now: now, in: session)
            return id
        }
        guard let id else {
            throw try await shortage(at: branch, amount: amount, vault: vault)
        }
        return (try await order(id)!, quote)
    }

    private func shortage(at branch: Branch, amount: Money, vault: LocalDate) async throws -> CashShortage {
        let rows = try await database.read { session in
            try await session.query(SQL("SELECT branch_id, minor FROM cash_stock WHERE currency = ?", [.text(amount.currency.code)]))
        }
        var here = Money(minorUnits: 0, currency: amount.currency)
        var alternatives: [(Branch, Money, Int)] = []
        for row in rows {
            let stock = Money(minorUnits: row.int(1), currency: amount.currency)
            if row.int(0) == branch.id {
                here = stock
            } else if stock.minorUnits >= amount.minorUnits, let other = try? await branches.branch(row.int(0)), other.services.contains(.foreignCash)
            {
                alternatives.append((other, stock, branch.position.distance(to: other.position)))
            }
        }
        alternatives.sort { $0.2 < $1.2 }
        return CashShortage(available: here, alternatives: alternatives.prefix(3).map { ($0.0, $0.1) }, vaultDate: vault)
    }

    static let columns = """
        SELECT id, customer_id, branch_id, currency, amount_minor, debit_account, debit_minor, price, rate_date, pickup_date, from_vault, hold_id, \
        transaction_id, status FROM cash_orders
        """

    func order(_ id: Int64) async throws -> CashOrder? {
        let row = try await database.read { session in try await session.queryOne(SQL("\(Self.columns) WHERE id = ?", [.int(id)])) }
        guard let row else { return nil }
        return try await Self.order(row, ledger: ledger)
    }

    static func order(_ row: SQLRow, ledger: Ledger) async throws -> CashOrder {
        let currency = Currency(code: row.text(3))!
        let debitAccount = AccountID(row.int(5))
        let debitCurrency = try await ledger.account(debitAccount)?.currency ?? .chf
        return CashOrder(
            id: row.int(0), customerID: CustomerID(row.int(1)), branchID: row.int(2), amount: Money(minorUnits: row.int(4), currency: currency),
            debitAccount: debitAccount, debit: Money(minorUnits: row.int(6), currency: debitCurrency), price: row.text(7),
            rateDate: try LocalDate(parsing: row.text(8)), pickupDate: try LocalDate(parsing: row.text(9)), fromVault: row.int(10) != 0,
            holdID: row.optionalInt(11).map(HoldID.init), transactionID: row.optionalInt(12).map(TransactionID.init),
            status: CashOrder.Status(rawValue: row.text(13)) ?? .ordered)
    }

    public func orders(of principal: Principal) async throws -> [CashOrder] {
        let rows = try await database.read { session in
            try await session.query(SQL("\(Self.columns) WHERE customer_id = ? ORDER BY id DESC", [.int(principal.customerID.rawValue)]))
        }
        var result: [CashOrder] = []
        for row in rows { result.append(try await Self.order(row, ledger: ledger)) }
        return result
    }

    public func orders(branch: Int64) async throws -> [CashOrder] {
        let rows = try await database.read { session in
            try await session.query(
                SQL("\(Self.columns) WHERE branch_id = ? AND status IN ('ordered', 'ready') ORDER BY pickup_date, id", [.int(branch)]))
        }
        var result: [CashOrder] = []
        for row in rows { result.append(try await Self.order(row, ledger: ledger)) }
        return result
    }

    public func order(_ id: Int64, of principal: Principal) async throws -> CashOrder {
        guard let order = try await order(id), order.customerID == principal.customerID else {
            throw DomainError(.notFound, field: "id", "No such order.")
        }
        return order
    }

    /// The customer cancels before pickup: the hold is released and the notes go back to stock.
    public func cancel(_ id: Int64, by principal: Principal) async throws -> CashOrder {
        let order = try await order(id, of: principal)
        try await close(order, to: .cancelled, actor: "customer:\(principal.customerID)", principal: principal)
        return try await self.order(id)!
    }

    /// The cash desk has the notes counted out.
    public func markReady(_ id: Int64, staff: String) async throws -> CashOrder {
        guard let order = try await order(id) else { throw DomainError(.notFound, field: "id", "No such order.") }
        let branch = try await branches.branch(order.branchID)
        let now = clock.unixMillis
        let dialect = database.dialect
        try await database.transaction { session in
            guard
                try await session.queryOne(
                    SQL(
                        "UPDATE cash_orders SET status = 'ready', updated_at_ms = ? WHERE id = ? AND status = 'ordered' RETURNING id",
                        [.int(now), .int(id)]))
                    != nil
            else { throw DomainError(.orderNotOpen, field: "id", "This order is \(order.status.rawValue).") }
            try await AuditLog.append(
                AuditEntry(atMillis: now, actor: "staff:\(staff)", action: "cash.ready", subject: "cash_order:\(id)"), dialect: dialect, in: session)
            try await MessageService.post(
                to: order.customerID, category: .payments,
                MessageText(.cashReady, ["branch": branch.name, "date": order.pickupDate.swissFormat], amounts: ["amount": order.amount]),
                now: now, in: session)
        }
        return try await self.order(id)!
    }

    /// The notes are handed out: the hold becomes a booking at the quoted price.
    public func handOut(_ id: Int64, staff: String) async throws -> CashOrder {
        guard let order = try await order(id) else { throw DomainError(.notFound, field: "id", "No such order.") }
        try await close(order, to: .handedOut, actor: "staff:\(staff)", principal: nil)
        return try await self.order(id)!
    }

    private func close(_ order: CashOrder, to status: CashOrder.Status, actor: String, principal: Principal?) async throws {
        guard order.status == .ordered || order.status == .ready else {
            throw DomainError(.orderNotOpen, field: "id", "This order is \(order.status.rawValue).")
        }
        let branch = try await branches.branch(order.branchID)
        let position = try await ledger.bankAccount(.fxPosition, currency: order.debit.currency)
        let now = clock.unixMillis
        let today = calendar.date(of: clock.now())
        let dialect = database.dialect
        let booked = try await database.transaction { session -> Bool in
            guard
                try await session.queryOne(
                    SQL(
                        "UPDATE cash_orders SET status = ?, updated_at_ms = ? WHERE id = ? AND status IN ('ordered', 'ready') RETURNING id",
                        [.text(status.rawValue), .int(now), .int(order.id)])) != nil
            else { throw DomainError(.orderNotOpen, field: "id", "This order was closed meanwhile.") }
            var booked = false
            if status == .handedOut {
                guard let position else {
                    throw DomainError(.accountNotFound, field: "debit_account", "The bank keeps no \(order.debit.currency) FX position.")
                }
                let draft = TransactionDraft(
                    kind: "fx_cash", bookingDate: today, valueDate: today,
                    lines: [
                        PostingLine(
                            accountID: order.debitAccount, amount: order.debit.negated, counterparty: branch.name,
                            remittance: "Banknotes \(order.amount) at \(order.price)"),
                        PostingLine(accountID: position.id, amount: order.debit, counterparty: nil, remittance: "Banknotes order \(order.id)"),
                    ], releasingHold: order.holdID)
                let posted: PostedTransaction
                do {
                    posted = try await Ledger.book(draft, now: now, in: session)
                } catch let error as LedgerError {
                    throw DomainError(error.domainError.code, field: "debit_account", error.domainError.message)
                }
                try await session.execute(SQL("UPDATE cash_orders SET transaction_id = ? WHERE id = ?", [.int(posted.id.rawValue), .int(order.id)]))
                booked = true
            } else {
                if let hold = order.holdID { try await Ledger.releaseHold(hold, status: .released, in: session) }
                if !order.fromVault {
                    try await session.execute(
                        SQL(
                            "UPDATE cash_stock SET minor = minor + ? WHERE branch_id = ? AND currency = ?",
                            [.int(order.amount.minorUnits), .int(order.branchID), .text(order.amount.currency.code)]))
                }
            }
            let entry =
                principal.map { AuditEntry.customer($0, at: now, action: "cash.\(status.rawValue)", subject: "cash_order:\(order.id)") }
                ?? AuditEntry(atMillis: now, actor: actor, action: "cash.\(status.rawValue)", subject: "cash_order:\(order.id)")
            try await AuditLog.append(entry, dialect: dialect, in: session)
            try await MessageService.post(
                to: order.customerID, category: .payments,
                MessageText(
                    status == .handedOut ? .cashCollected : .cashCancelled, ["branch": branch.name],
                    amounts: ["amount": order.amount, "debit": order.debit]), now: now, in: session)
            return booked
        }
        if booked { ledger.didCommit(1) }
    }
}
