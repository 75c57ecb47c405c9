import TresorDomain
import TresorLedger

/// What the bank knows about a payment's customer and payee when the risk check runs; the
/// signals (`RiskRules.signals`) are measured from it. Read by one statement (`read`), or built
/// from a history replayed in memory (the replay of the demo year).
public struct RiskFacts: Sendable, Hashable {
    public var newestDeviceAtMillis: Int64? = nil
    public var newestPasskeyAtMillis: Int64? = nil
    public var lastResetAtMillis: Int64? = nil
    /// When the newest browser was first used; nil while the customer has used only one.
    public var newestBrowserAtMillis: Int64? = nil
    public var payeePaidBefore = false
    /// When the customer (or the bank, for everyone: 0) whitelisted the payee; nil if not.
    public var whitelistedAtMillis: Int64? = nil
    public var countryIsNew = false
    /// The largest debit among the paying account's last `history_size` bookings (0 if none);
    /// read only for an amount of `unusual_floor_minor` or more, the only ones it is compared with.
    public var largestRecentDebitMinor: Int64 = 0
    /// When the customer made their (`burst_count` − 1)th latest payment to someone else (nil
    /// with fewer): within `burst_minutes`, this one makes `burst_count`.
    public var burstStartAtMillis: Int64? = nil

    public init() {}

    /// The key `payments.payee` holds: the payee as the signature binds it.
    static func payeeKey(_ instruction: PaymentInstruction) -> String { instruction.payeeIdentity }

    /// The payee's country, when its account is an IBAN (a slip participant is Swiss).
    static func country(_ instruction: PaymentInstruction) -> String? {
        instruction.creditorIBAN.map { String($0.electronic.prefix(2)) }
    }

    /// The facts for `instruction` by `customer`, in one statement of scalar subqueries
    /// (`columns`), each an index read. A payment through `POST /v1/payments` reads them with its
    /// other reads instead (`PaymentReadAhead`).
    static func read(
        for instruction: PaymentInstruction, customer: CustomerID, rules: RiskRules, in session: any SQLSession
    ) async throws -> RiskFacts {
        let (sql, binds) = columns(for: instruction, customer: "?", customerBinds: [.int(customer.rawValue)], rules: rules)
        return RiskFacts(row: try await session.queryOne(SQL("SELECT \(sql)", binds))!, from: 0)
    }

    /// How many columns `columns` selects.
    static let columnCount = 9

    /// The subqueries of the facts, one column each, and their binds in order. `customer` is the
    /// SQL that names the customer (`?` with `customerBinds`, or the session lookup's
    /// `CallerQuery.customer` with none). None depends on the time: the signals compare the
    /// times read with the time of the check.
    /// why index reads only: they run before every payment to someone else, on the path
    /// `make bench` measures (`payments_payee`, `payments_recent_out`, `postings_account` backwards).
    static func columns(
        for instruction: PaymentInstruction, customer: String, customerBinds: [SQLValue], rules: RiskRules
    ) -> (sql: String, binds: [SQLValue]) {
        let paid = "('executed', 'pending')"
        var binds: [SQLValue] = Array(repeating: customerBinds, count: 5).flatMap { $0 } + [.text(payeeKey(instruction))]
        let countryKnown: String
        if let code = country(instruction) {
            // why a range on `payee`: an IBAN payee's key starts `iban:` and its country, so the
            // index on (customer_id, payee) answers "ever paid to this country" too.
            countryKnown = """
                (SELECT CASE WHEN country = ? THEN 1 ELSE (SELECT 1 FROM payments WHERE customer_id = \(customer) AND payee >= ? \
                AND payee < ? AND status IN \(paid) LIMIT 1) END FROM bank WHERE id = 1)
                """
            binds += [.text(code)] + customerBinds + [.text("iban:\(code)"), .text("iban:\(code)~")]
        } else {
            countryKnown = "1"
        }
        let whitelist: String
        if let iban = instruction.creditorIBAN {
            whitelist = """
                (SELECT MIN(CASE WHEN owner = ? THEN 0 ELSE created_at_ms END) FROM beneficiaries WHERE iban = ? AND owner IN (\(customer), ?))
                """
            binds += [.int(BeneficiaryService.bankWideOwner), .text(iban.electronic)] + customerBinds + [.int(BeneficiaryService.bankWideOwner)]
        } else {
            whitelist = "NULL"
        }
        // why only for an amount the unusual-amount rule looks at: the last `history_size`
        // bookings are read row by row (the amount is not in `postings_account`), 100 page reads
        // on an account whose bookings lie among others'; strace counted 70 reads of the file a
        // payment to an IBAN, 6 for one to an own account, and its server CPU had doubled.
        let largestDebit: String
        if instruction.amount.minorUnits >= rules.unusualFloorMinor {
            largestDebit = """
                (SELECT MAX(-amount_minor) FROM (SELECT amount_minor FROM postings WHERE account_id = ? \
                ORDER BY booking_date DESC, id DESC LIMIT ?) recent WHERE amount_minor < 0)
                """
            binds += [.int(instruction.debtorAccount.rawValue), .int(Int64(rules.historySize))]
        } else {
            largestDebit = "NULL"
        }
        binds += customerBinds + [.int(Int64(rules.burstCount - 2))]
        let sql = """
            (SELECT MAX(created_at_ms) FROM devices WHERE customer_id = \(customer)), \
            (SELECT MAX(created_at_ms) FROM passkeys WHERE customer_id = \(customer)), \
            (SELECT MAX(used_at_ms) FROM login_letters WHERE customer_id = \(customer) AND purpose = 'reset'), \
            (SELECT CASE WHEN COUNT(*) > 1 THEN MAX(first_at_ms) END FROM known_browsers WHERE customer_id = \(customer)), \
            (SELECT 1 FROM payments WHERE customer_id = \(customer) AND payee = ? AND status IN \(paid) LIMIT 1), \
            \(countryKnown), \(whitelist), \(largestDebit), \
            (SELECT created_at_ms FROM payments WHERE customer_id = \(customer) AND type <> 'internal' \
            ORDER BY created_at_ms DESC LIMIT 1 OFFSET ?)
            """
        return (sql, binds)
    }

    /// The facts in the `columnCount` columns of `row` from `offset` on.
    init(row: SQLRow, from offset: Int) {
        newestDeviceAtMillis = row.optionalInt(offset)
        newestPasskeyAtMillis = row.optionalInt(offset + 1)
        lastResetAtMillis = row.optionalInt(offset + 2)
        newestBrowserAtMillis = row.optionalInt(offset + 3)
        payeePaidBefore = row.optionalInt(offset + 4) != nil
        countryIsNew = row.optionalInt(offset + 5) == nil
        whitelistedAtMillis = row.optionalInt(offset + 6)
        largestRecentDebitMinor = row.optionalInt(offset + 7) ?? 0
        burstStartAtMillis = row.optionalInt(offset + 8)
    }
}
