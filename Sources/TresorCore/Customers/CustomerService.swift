import Foundation
import TresorDomain
import TresorLedger

/// The customer lifecycle at the bank's side: staff take a customer on (record, contract,
/// accounts, activation letter), find one by name and birth date, and issue a reset letter; the
/// customer comes in with the letter's code and chooses a password. Every step is audited.
public struct CustomerService: Sendable {
    let database: any SQLDatabase
    let bank: BankService
    let auth: AuthService
    let clock: any Clock
    let random: any RandomSource

    /// An activation letter is posted, so it lives a month; a reset letter is handed over at
    /// the counter or sent after a call, so a week (the issue's bar).
    public static let activationLifetimeSeconds: Int64 = 30 * 86_400
    public static let resetLifetimeSeconds: Int64 = 7 * 86_400
    /// Wrong codes tried against one letter before it stops working.
    public static let codeAttemptsMax = 5
    static let codeAlphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
    static let codeLength = 12
    /// Stored instead of a password hash until the customer chooses one: no password verifies.
    static let noPassword = "!"

    var dialect: SQLDialect { database.dialect }

    /// Takes a customer on: the record, a new contract number, the accounts asked for (IBANs
    /// from the bank's IID and the account's id, so never reused) and the activation letter, in
    /// one transaction.
    public func add(_ new: NewCustomer, staff: String) async throws -> Onboarded {
        let name = try Self.checkedName(new.name)
        let today = LocalDate(unixSeconds: clock.unixMillis / 1000)
        guard new.birthDate.year >= 1900, new.birthDate < today else {
            throw DomainError(.invalidDate, field: "birth_date", "A birth date after 1900 and before today.")
        }
        guard BankConfig.knownLanguages.contains(new.language) else {
            throw DomainError(.invalidParameter, field: "language", "One of \(BankConfig.knownLanguages.joined(separator: ", ")).")
        }
        let address = try Self.optionalText(new.address, field: "address", max: 200)
        let email = try Self.optionalText(new.email, field: "email", max: 254)
        if let email, !Self.looksLikeEmail(email) { throw DomainError(.invalidParameter, field: "email", "An e-mail address, name@example.ch.") }
        let phone = try Self.optionalText(new.phone, field: "phone", max: 24).map(Self.checkedPhone)
        guard !new.accounts.isEmpty, new.accounts.count <= 6 else {
            throw DomainError(.invalidParameter, field: "accounts", "Name one to six accounts.")
        }
        let profile = try await bank.foundedProfile()
        let kept = try await bank.currencies()
        if let missing = new.accounts.first(where: { !kept.contains($0.currency) }) {
            throw DomainError(.unsupportedCurrency, field: "accounts", "This bank keeps no \(missing.currency.code) accounts.")
        }
        let now = clock.unixMillis
        let code = newCode()
        let dialect = dialect
        let (record, accounts) = try await database.transaction { session in
            let customer = CustomerID(
                try await session.queryOne(
                    SQL(
                        """
                        INSERT INTO customers (name, created_at_ms, language, birth_date, email, phone, address, created_by) \
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
                        """,
                        [
                            .text(name), .int(now), .text(new.language), .text(new.birthDate.description), SQLValue(email), SQLValue(phone),
                            SQLValue(address), .text(staff),
                        ]))!.int(0))
            let contract = try await newContractNumber(in: session)
            try await session.execute(
                SQL(
                    "INSERT INTO contracts (number, customer_id, password_hash, created_at_ms) VALUES (?, ?, ?, ?)",
                    [.text(contract), .int(customer.rawValue), .text(Self.noPassword), .int(now)]))
            var accounts: [Account] = []
            for request in new.accounts {
                let accountName = Self.accountName(request, language: new.language)
                accounts.append(
                    try await Ledger.openAccount(
                        NewAccount(
                            customerID: customer, name: accountName, kind: request.kind, currency: request.currency,
                            cardExpires: request.kind == .card ? CardService.expiry(issuedOn: LocalDate(unixSeconds: now / 1000)) : nil),
                        iban: { IBAN.swiss(clearing: profile.clearing, accountNumber: $0.rawValue) }, in: session))
            }
            try await insertLetter(.activation, code: code, customer: customer, staff: staff, now: now, in: session)
            try await AuditLog.append(
                AuditEntry(
                    atMillis: now, actor: "staff:\(staff)", contract: contract, action: "customer.create", subject: "customer:\(customer)",
                    details: accounts.map { "\($0.kind.rawValue):\($0.currency.code)" }.joined(separator: ",")),
                dialect: dialect, in: session)
            let record = try await session.queryOne(
                SQL(
                    "SELECT \(CustomerRecord.columns) FROM customers c JOIN contracts k ON k.customer_id = c.id WHERE c.id = ?",
                    [.int(customer.rawValue)]))!
            return (CustomerRecord(row: record), accounts)
        }
        let letter = LoginLetter(
            purpose: .activation, contract: record.contract, customerName: record.name, address: record.address, language: new.language,
            code: Self.grouped(code), issuedOn: today, expiresAtMillis: now + Self.activationLifetimeSeconds * 1000, accounts: accounts)
        return Onboarded(record: record, accounts: accounts, letter: letter)
    }

    /// Issues a reset letter for a customer who lost the password: the old password, every
    /// session, every remembered browser and every earlier letter stop working at once.
    public func issueResetLetter(contract typed: String, staff: String) async throws -> LoginLetter {
        let contract = Digits.ascii(typed)
        guard let record = try await record(contract: contract) else {
            throw DomainError(.notFound, field: "contract", "No contract \(contract).")
        }
        let now = clock.unixMillis
        let code = newCode()
        let dialect = dialect
        let accounts = try await database.transaction { session in
            let customer = record.id.rawValue
            try await session.execute(
                SQL("UPDATE contracts SET password_hash = ? WHERE customer_id = ?", [.text(Self.noPassword), .int(customer)]))
            try await session.execute(SQL("UPDATE sessions SET revoked = 1 WHERE customer_id = ?", [.int(customer)]))
            try await session.execute(SQL("UPDATE remembered_browsers SET revoked = 1 WHERE customer_id = ?", [.int(customer)]))
            try await session.execute(
                SQL("UPDATE login_letters SET used_at_ms = ? WHERE customer_id = ? AND used_at_ms IS NULL", [.int(now), .int(customer)]))
            try await insertLetter(.reset, code: code, customer: record.id, staff: staff, now: now, in: session)
            try await AuditLog.append(
                AuditEntry(
                    atMillis: now, actor: "staff:\(staff)", contract: contract, action: "customer.reset_letter", subject: "customer:\(customer)",
                    details: "sessions, remembered browsers and the password ended"),
                dialect: dialect, in: session)
            return try await session.query(
                SQL("SELECT \(Ledger.accountColumns) FROM accounts WHERE customer_id = ? ORDER BY id", [.int(customer)])
            ).map(Ledger.account(from:))
        }
        return LoginLetter(
            purpose: .reset, contract: contract, customerName: record.name, address: record.address, language: record.language ?? "de",
            code: Self.grouped(code), issuedOn: LocalDate(unixSeconds: now / 1000), expiresAtMillis: now + Self.resetLifetimeSeconds * 1000,
            accounts: accounts)
    }

    /// Customers born on `birthDate` whose name holds `name` (any case and accents), for staff
    /// who must tell a customer the contract number they forgot. Audited: a lookup reveals data.
    public func find(name: String, birthDate: LocalDate, staff: String) async throws -> [CustomerRecord] {
        let wanted = Self.folded(name)
        guard wanted.count >= 2 else { throw DomainError(.invalidParameter, field: "name", "Type at least two letters of the name.") }
        let now = clock.unixMillis
        let dialect = dialect
        return try await database.transaction { session in
            let born = try await session.query(
                SQL(
                    "SELECT \(CustomerRecord.columns) FROM customers c JOIN contracts k ON k.customer_id = c.id WHERE c.birth_date = ? ORDER BY c.id",
                    [.text(birthDate.description)]))
            let found = born.map(CustomerRecord.init(row:)).filter { Self.folded($0.name).contains(wanted) }
            try await AuditLog.append(
                AuditEntry(
                    atMillis: now, actor: "staff:\(staff)", action: "customer.find", details: "\(found.count) found for \(birthDate)"),
                dialect: dialect, in: session)
            return found
        }
    }

    public func record(contract: String) async throws -> CustomerRecord? {
        try await database.read { session in
            try await session.queryOne(
                SQL(
                    "SELECT \(CustomerRecord.columns) FROM customers c JOIN contracts k ON k.customer_id = c.id WHERE k.number = ?",
                    [.text(contract)]))
        }.map(CustomerRecord.init(row:))
    }

    /// Checks a letter's code without using it up: the web app's first step, before the
    /// customer chooses a password. A wrong code counts as in `activate`.
    public func letterHolder(contract typed: String, code typedCode: String, address: String? = nil) async throws -> CustomerRecord {
        try await openLetter(contract: typed, code: typedCode, address: address).record
    }

    /// The first login with a letter: checks the code, then the new password against the
    /// policy, and opens a session. A wrong code counts against the letter (five, then it is
    /// void) and the address; a refused password does not use the letter up.
    public func activate(
        contract typed: String, code typedCode: String, password: String, address: String? = nil, channel: String = "api"
    ) async throws -> SessionGrant {
        let (record, letter) = try await openLetter(contract: typed, code: typedCode, address: address)
        let contract = record.contract
        try PasswordPolicy.enforce(
            password, field: "password", contract: contract, name: record.name, lengthMax: auth.config.passwordLengthMax)
        let passwordHash = auth.hash(password)
        let now = clock.unixMillis
        let dialect = dialect
        let used = try await database.transaction { session -> Bool in
            guard
                try await session.queryOne(
                    SQL("UPDATE login_letters SET used_at_ms = ? WHERE id = ? AND used_at_ms IS NULL RETURNING id", [.int(now), .int(letter.id)]))
                    != nil
            else { return false }
            try await session.execute(SQL("UPDATE contracts SET password_hash = ? WHERE number = ?", [.text(passwordHash), .text(contract)]))
            try await session.execute(SQL("DELETE FROM login_failures WHERE contract = ?", [.text(contract)]))
            try await AuditLog.append(
                AuditEntry(
                    atMillis: now, actor: "customer:\(record.id)", contract: contract, action: "customer.activate", subject: "letter:\(letter.id)",
                    address: address, details: "\(letter.purpose): password chosen"),
                dialect: dialect, in: session)
            return true
        }
        // why: two tabs sending the same letter at once; only one chooses the password.
        guard used else { throw Self.invalidCode }
        return try await auth.openSession(customer: record.id, contract: contract, level: 2, channel: channel)
    }

    static let invalidCode = DomainError(.invalidActivationCode, field: "activation_code", "The code is wrong, used or expired.")

    /// The customer and the open letter a code belongs to, or `invalid_activation_code` after
    /// counting the attempt (committed, so a refusal cannot be retried for free).
    func openLetter(contract typed: String, code typedCode: String, address: String?) async throws -> (
        record: CustomerRecord, letter: (id: Int64, purpose: String)
    ) {
        if let address { try await auth.limiter.hit(auth.config.rateLimits.activationPerAddress, key: address) }
        let contract = Digits.ascii(typed).filter { $0 != " " }
        let code = Self.normalised(typedCode)
        guard ContractNumber.isValid(contract), code.count == Self.codeLength, let record = try await record(contract: contract) else {
            throw Self.invalidCode
        }
        let now = clock.unixMillis
        let dialect = dialect
        let hash = Hashing.sha256Hex(Array(code.utf8))
        let letter: (id: Int64, purpose: String)? = try await database.transaction { session in
            guard
                let open = try await session.queryOne(
                    SQL(
                        """
                        SELECT id, code_hash, attempts, purpose FROM login_letters WHERE customer_id = ? AND used_at_ms IS NULL \
                        AND expires_at_ms > ? ORDER BY id DESC LIMIT 1
                        """, [.int(record.id.rawValue), .int(now)])),
                open.int(2) < Int64(Self.codeAttemptsMax)
            else { return nil }
            guard open.text(1) == hash else {
                try await session.execute(SQL("UPDATE login_letters SET attempts = attempts + 1 WHERE id = ?", [.int(open.int(0))]))
                try await AuditLog.append(
                    AuditEntry(
                        atMillis: now, actor: "customer:\(record.id)", contract: contract, action: "customer.activate", address: address,
                        result: DomainError.Code.invalidActivationCode.rawValue, details: "wrong code, attempt \(open.int(2) + 1)"),
                    dialect: dialect, in: session)
                return nil
            }
            return (open.int(0), open.text(3))
        }
        guard let letter else { throw Self.invalidCode }
        return (record, letter)
    }

    // MARK: - Parts

    func newCode() -> String {
        String(random.bytes(Self.codeLength).map { Self.codeAlphabet[Int($0) % Self.codeAlphabet.count] })
    }

    func insertLetter(_ purpose: LoginLetter.Purpose, code: String, customer: CustomerID, staff: String, now: Int64, in session: any SQLSession)
        async throws
    {
        let lifetime = purpose == .activation ? Self.activationLifetimeSeconds : Self.resetLifetimeSeconds
        try await session.execute(
            SQL(
                """
                INSERT INTO login_letters (customer_id, purpose, code_hash, attempts, issued_by, expires_at_ms, created_at_ms) \
                VALUES (?, ?, ?, 0, ?, ?, ?)
                """,
                [
                    .int(customer.rawValue), .text(purpose.rawValue), .text(Hashing.sha256Hex(Array(code.utf8))), .text(staff),
                    .int(now + lifetime * 1000), .int(now),
                ]))
    }

    /// A contract number not yet given: seven random digits and the check digit. why random:
    /// a sequence would let anyone who holds one contract number guess the neighbours' to try
    /// passwords against.
    func newContractNumber(in session: any SQLSession) async throws -> String {
        for _ in 0..<20 {
            let bytes = random.bytes(4)
            let value = bytes.reduce(0) { $0 << 8 | Int($1) }
            let number = ContractNumber.make(serial: 1_000_000 + value % 9_000_000)
            if try await session.queryOne(SQL("SELECT 1 FROM contracts WHERE number = ?", [.text(number)])) == nil { return number }
        }
        throw DomainError(.invalidParameter, field: "contract", "No free contract number found; try again.")
    }

    /// `ABCDEFGHJKMN` → `ABCD-EFGH-JKMN`, as printed on the letter.
    static func grouped(_ code: String) -> String { code.spacedBlocks(of: 4, separator: "-") }

    /// What a customer types of a code: any case, with or without dashes and spaces.
    static func normalised(_ typed: String) -> String {
        String(typed.uppercased().filter { $0 != "-" && $0 != " " }.prefix(64))
    }

    static func folded(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).filter { !$0.isWhitespace }
    }

    static func checkedName(_ typed: String) throws -> String {
        let name = typed.trimmingCharacters(in: .whitespacesAndNewlines)
        guard TextLength.of(name) >= 2, TextLength.of(name) <= 70, !name.contains(where: { $0.isNewline }) else {
            throw DomainError(.invalidParameter, field: "name", "The customer's name, 2 to 70 characters on one line.")
        }
        return name
    }

    static func optionalText(_ typed: String?, field: String, max: Int) throws -> String? {
        guard let text = typed?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        guard TextLength.of(text) <= max else { throw DomainError(.fieldTooLong, field: field, "At most \(max) characters.") }
        return text
    }

    static func looksLikeEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".") && !text.contains(where: \.isWhitespace)
    }

    /// `+41 79 123 45 67` kept as typed with its digits checked: a `+`, 8 to 15 digits (E.164).
    static func checkedPhone(_ text: String) throws -> String {
        let digits = Digits.ascii(text).filter { $0 != " " && $0 != "-" && $0 != "." && $0 != "(" && $0 != ")" }
        guard digits.hasPrefix("+"), (8...15).contains(digits.count - 1), digits.dropFirst().allSatisfy(\.isASCII),
            digits.dropFirst().allSatisfy(\.isNumber)
        else {
            throw DomainError(.invalidPhoneNumber, field: "phone", "A phone number with its country code, +41 79 123 45 67.")
        }
        return digits
    }

    /// The account's name in the customer's language, as the bank's own accounts are named.
    static func accountName(_ request: AccountToOpen, language: String) -> String {
        let names: [String: (current: String, savings: String)] = [
            "de": ("Privatkonto", "Sparkonto"), "fr": ("Compte privé", "Compte épargne"), "it": ("Conto privato", "Conto risparmio"),
            "en": ("Current account", "Savings account"), "ar": ("حساب جاري", "حساب توفير"),
        ]
        let pair = names[language] ?? names["en"]!
        let base = request.kind == .savings ? pair.savings : pair.current
        return request.currency == .chf ? base : "\(base) \(request.currency.code)"
    }
}
