import TresorDomain
import TresorLedger

/// The bank's data a new payment's checks read (`PaymentPlanner.plan`,
/// `PaymentService.signingDecision`): what the route read ahead with the caller's session lookup
/// (`PaymentReadAhead`) from those rows, the rest by a query each in `session`.
struct PaymentReads: Sendable {
    let session: any SQLSession
    var ahead: PaymentReadAhead? = nil

    func account(_ id: AccountID) async throws -> Account? {
        if let ahead, ahead.accountIDs.contains(id) { return ahead.accounts[id] }
        return try await Ledger.account(id, in: session)
    }

    /// The bank's clearing account in `currency`, where money leaving the bank is booked.
    func clearing(_ currency: Currency) async throws -> Account? {
        if let ahead, ahead.clearingCurrency == currency { return ahead.clearing }
        return try await Ledger.bankAccount(.clearing, currency: currency, in: session)
    }

    /// The bank's own clearing number (nil before the bank is founded).
    func bankClearing() async throws -> Int? {
        if let ahead, ahead.readsBank { return ahead.bankClearing }
        return try await BankService.profile(in: session)?.clearing
    }

    func signingSettings(of customer: CustomerID, policy: SigningPolicy) async throws -> SigningSettings {
        guard let ahead else { return try await SigningService.settings(of: customer, policy: policy, in: session) }
        guard let settings = ahead.settings else { return SigningSettings(provider: nil, limitMinor: policy.defaultLimitMinor) }
        return SigningSettings(provider: SigningProviderKind(rawValue: settings.provider), limitMinor: settings.limitMinor)
    }

    func isWhitelisted(_ payee: WhitelistPayee, for customer: CustomerID) async throws -> Bool {
        if let ahead, ahead.whitelist == payee { return ahead.whitelisted }
        return try await BeneficiaryService.isWhitelisted(payee, for: customer, in: session)
    }

    /// The payer's debit advice threshold, nil when they want none.
    func debitAdvice(of customer: CustomerID) async throws -> Int64? {
        if let ahead { return ahead.debitAdviceMinor }
        return try await DebitPreferenceService.adviceFrom(customer, in: session)
    }

    func riskFacts(for instruction: PaymentInstruction, customer: CustomerID, rules: RiskRules) async throws -> RiskFacts {
        if let facts = ahead?.risk { return facts }
        return try await RiskFacts.read(for: instruction, customer: customer, rules: rules, in: session)
    }

    func deviceIsNew(_ device: Int64?, now: Int64) async throws -> Bool {
        guard let ahead else { return try await DeviceService.isNew(device: device, in: session, now: now) }
        return DeviceService.isNew(createdAtMillis: ahead.deviceCreatedAtMillis, now: now)
    }
}

/// What a new payment's checks read, read in the statement that looks the caller's session up
/// (`CallerQuery`): the accounts the payment names (and, when it may leave the bank, the
/// clearing account of its currency), whether its idempotency key is taken, the caller's signing
/// settings and device, and for a payment to an IBAN the whitelist and the bank's clearing
/// number. why: read one by one, a payment paid five queries before its first write (seven to an
/// IBAN), on PostgreSQL each a round trip and the server's work of a statement; a transfer, whose
/// reads are joined the same way, paid one.
public struct PaymentReadAhead: Sendable {
    /// The accounts asked for: one of them missing from `accounts` does not exist.
    let accountIDs: Set<AccountID>
    let accounts: [AccountID: Account]
    /// The currency whose clearing account was asked for, if one was, and that account.
    let clearingCurrency: Currency?
    let clearing: Account?
    let keyTaken: Bool
    let settings: (provider: String, limitMinor: Int64)?
    let deviceCreatedAtMillis: Int64?
    let whitelist: WhitelistPayee?
    let whitelisted: Bool
    let readsBank: Bool
    let bankClearing: Int?
    let debitAdviceMinor: Int64?
    /// The risk check's facts, for a payment to someone else (`RiskFacts.columns`).
    let risk: RiskFacts?

    /// Columns after the account's: key taken, signing provider and limit, device created,
    /// whitelisted, bank clearing number, debit advice threshold.
    private static let extraColumns = 7

    /// The statement joined to the session lookup for a validated request (`PaymentService.Intake`
    /// builds it); nil for a top-up (its operator's account is looked up by name).
    static func query(for instruction: PaymentInstruction, idempotencyKey: String, risk rules: RiskRules) -> CallerQuery? {
        guard instruction.type != .topup else { return nil }
        let shape = Shape(instruction)
        let customer = CallerQuery.customer
        var binds: [SQLValue] = [.text(idempotencyKey)]
        var whitelist = "NULL"
        if let payee = shape.whitelist {
            let (sql, whitelistBinds) = BeneficiaryService.whitelisted(payee, customer: (customer, []))
            whitelist = sql
            binds += whitelistBinds
        }
        var riskColumns = ""
        if shape.readsRisk {
            let (sql, riskBinds) = RiskFacts.columns(for: instruction, customer: customer, customerBinds: [], rules: rules)
            riskColumns = ", " + sql
            binds += riskBinds
        }
        let named = shape.accountIDs.sorted { $0.rawValue < $1.rawValue }
        var ids = named.map { _ in "?" }
        binds += named.map { .int($0.rawValue) }
        if let currency = shape.clearingCurrency {
            ids.append("(SELECT id FROM accounts WHERE customer_id IS NULL AND kind = ? AND currency = ? ORDER BY id LIMIT 1)")
            binds += [.text(AccountKind.clearing.rawValue), .text(currency.code)]
        }
        let sql = SQL(
            """
            SELECT \(Ledger.accountColumns), \
            (SELECT 1 FROM payments WHERE idem_scope = \(Principal.idempotencyScopeSQL) AND idem_key = ?), \
            (SELECT provider FROM signing_settings WHERE customer_id = \(customer)), \
            (SELECT limit_minor FROM signing_settings WHERE customer_id = \(customer)), \
            (SELECT created_at_ms FROM devices WHERE id = (SELECT device_id FROM caller)), \
            \(whitelist), \
            \(shape.readsBank ? "(SELECT clearing FROM bank WHERE id = 1)" : "NULL"), \
            (SELECT debit_advice_minor FROM customers WHERE id = \(customer))\(riskColumns) \
            FROM accounts WHERE id IN (\(ids.joined(separator: ", ")))
            """, binds)
        return CallerQuery(sql)
    }

    /// The read-ahead in the joined rows of `query(for:idempotencyKey:)`; nil when there are none
    /// (no account it asked for exists): the checks then read one by one, and refuse.
    init?(rows: [SQLRow], for instruction: PaymentInstruction) {
        guard let first = rows.first else { return nil }
        let shape = Shape(instruction)
        let riskCount = shape.readsRisk ? RiskFacts.columnCount : 0
        let extra = first.values.count - Self.extraColumns - riskCount
        accountIDs = shape.accountIDs
        clearingCurrency = shape.clearingCurrency
        whitelist = shape.whitelist
        readsBank = shape.readsBank
        var accounts: [AccountID: Account] = [:]
        for row in rows {
            let account = Ledger.account(from: SQLRow(Array(row.values[..<extra])))
            accounts[account.id] = account
        }
        self.accounts = accounts
        // why the lowest id: the subquery's `ORDER BY id LIMIT 1`; the rows hold the named accounts too.
        clearing =
            shape.clearingCurrency.flatMap { currency in
                accounts.values.filter { $0.kind == .clearing && $0.customerID == nil && $0.currency == currency }.min { $0.id < $1.id }
            }
        keyTaken = first.optionalInt(extra) != nil
        settings = first.optionalText(extra + 1).map { ($0, first.int(extra + 2)) }
        deviceCreatedAtMillis = first.optionalInt(extra + 3)
        whitelisted = first.optionalInt(extra + 4) != nil
        bankClearing = first.optionalInt(extra + 5).map { Int($0) }
        debitAdviceMinor = first.optionalInt(extra + 6)
        risk = shape.readsRisk ? RiskFacts(row: first, from: extra + Self.extraColumns) : nil
    }

    /// What the checks of `instruction` read, by its type.
    private struct Shape {
        var accountIDs: Set<AccountID> = []
        var clearingCurrency: Currency?
        var whitelist: WhitelistPayee?
        var readsBank = false
        /// A payment to someone else: the risk check's facts are read too.
        var readsRisk: Bool

        init(_ instruction: PaymentInstruction) {
            readsRisk = instruction.type != .internal
            accountIDs = [instruction.debtorAccount]
            whitelist = instruction.whitelistPayee
            switch instruction.type {
            case .internal:
                if let creditor = instruction.creditorAccount { accountIDs.insert(creditor) }
            case .iban, .qrbill:
                // why both the bank and the clearing account: whether the IBAN is this bank's
                // decides between them, and one statement reads both.
                clearingCurrency = instruction.amount.currency
                readsBank = true
            case .esr:
                clearingCurrency = instruction.amount.currency
            case .topup:
                break
            }
        }
    }
}
