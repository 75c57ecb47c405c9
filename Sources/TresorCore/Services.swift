import Foundation
import TresorDomain
import TresorLedger

/// Every service of one Tresor instance, wired to one database. The server, the CLI and the
/// tests build this and nothing else, so all three run the same rules.
public struct Services: Sendable {
    public let database: any SQLDatabase
    public let ledger: Ledger
    public let bank: BankService
    public let auth: AuthService
    public let accounts: AccountService
    public let transfers: TransferService
    public let payments: PaymentService
    public let holds: HoldService
    public let scheduler: PaymentScheduler
    public let templates: TemplateService
    public let favorites: FavoriteService
    public let debitPreferences: DebitPreferenceService
    public let welcomeTour: WelcomeTour
    public let beneficiaries: BeneficiaryService
    public let bankMaster: BankMasterService
    public let messages: MessageService
    public let push: PushService
    public let pushOutbox: PushOutbox
    public let pain001: Pain001Exporter
    public let signing: SigningService
    public let audit: AuditLog
    public let devices: DeviceService
    public let staff: StaffService
    public let receipts: ReceiptService
    public let rememberedBrowsers: RememberedBrowsers
    public let knownBrowsers: KnownBrowsers
    public let budgets: BudgetService
    public let resources: ResourceService
    public let cards: CardService
    public let accountStatus: AccountStatusService
    public let settings: BankSettings
    public let branches: BranchService
    public let appointments: AppointmentService
    public let advisors: AdvisorService
    public let fx: FXService
    public let cashOrders: CashOrderService
    public let loans: LoanService
    public let statements: StatementService
    public let certificates: CertificateService
    public let stations: StationService
    public let clearing: ClearingService
    public let standingOrders: StandingOrderService
    public let customers: CustomerService
    public let secondFactors: SecondFactorService
    public let passkeys: PasskeyService
    public let clock: any Clock
    public let calendar: BankCalendar

    public init(
        database: any SQLDatabase, clock: any Clock = SystemClock(), calendar: BankCalendar = BankCalendar(),
        random: any RandomSource = SystemRandom(), auth authConfig: AuthConfig = AuthConfig(), observer: (any LedgerObserver)? = nil,
        blobs: (any BlobStore)? = nil, signingPolicy: SigningPolicy = SigningPolicy(), secrets: SecretKeys = .ephemeral(),
        clearingGateway: any ClearingGateway = ISO20022FileGateway()
    ) {
        self.database = database
        self.clock = clock
        self.calendar = calendar
        ledger = Ledger(database: database, observer: observer, recorder: AuditRecorder())
        if let observer { database.observeWrites(observer) }
        bank = BankService(ledger: ledger, clock: clock)
        auth = AuthService(database: database, clock: clock, random: random, config: authConfig)
        accounts = AccountService(ledger: ledger, calendar: calendar, clock: clock)
        transfers = TransferService(accounts: accounts, calendar: calendar, clock: clock)
        beneficiaries = BeneficiaryService(database: database, clock: clock)
        bankMaster = BankMasterService(database: database, clock: clock)
        signing = SigningService(database: database, clock: clock, random: random, policy: signingPolicy, secrets: secrets)
        audit = AuditLog(database: database)
        devices = DeviceService(database: database, clock: clock, random: random, auth: auth)
        staff = StaffService(database: database, clock: clock, random: random, auth: auth)
        stations = StationService(database: database, clock: clock, random: random, auth: auth)
        payments = PaymentService(ledger: ledger, bank: bank, calendar: calendar, clock: clock, signing: signing)
        holds = HoldService(payments: payments)
        templates = TemplateService(database: database, clock: clock)
        favorites = FavoriteService(database: database, clock: clock)
        debitPreferences = DebitPreferenceService(database: database, ledger: ledger)
        welcomeTour = WelcomeTour(database: database, clock: clock)
        messages = MessageService(database: database)
        push = PushService(database: database, clock: clock)
        pushOutbox = PushOutbox(database: database, clock: clock)
        pain001 = Pain001Exporter(database: database, bank: bank, clock: clock)
        clearing = ClearingService(ledger: ledger, bank: bank, calendar: calendar, clock: clock, gateway: clearingGateway)
        budgets = BudgetService(database: database, clock: clock)
        resources = ResourceService(database: database, clock: clock)
        cards = CardService(database: database, ledger: ledger, clock: clock)
        accountStatus = AccountStatusService(database: database, ledger: ledger, clock: clock)
        settings = BankSettings(database: database)
        standingOrders = StandingOrderService(payments: payments, settings: settings)
        scheduler = PaymentScheduler(payments: payments, standingOrders: standingOrders)
        branches = BranchService(database: database, clock: clock)
        appointments = AppointmentService(database: database, branches: branches, clock: clock)
        fx = FXService(database: database, settings: settings, clock: clock)
        cashOrders = CashOrderService(
            database: database, ledger: ledger, accounts: accounts, branches: branches, fx: fx, calendar: calendar, clock: clock)
        certificates = CertificateService(
            database: database, ledger: ledger, bank: bank, calendar: calendar, clock: clock, random: random)
        statements = StatementService(ledger: ledger, accounts: accounts, bank: bank, calendar: calendar, clock: clock)
        loans = LoanService(database: database, settings: settings, calendar: calendar, clock: clock)
        passkeys = PasskeyService(database: database, auth: auth, clock: clock, random: random)
        secondFactors = SecondFactorService(database: database, auth: auth, clock: clock, random: random, secrets: secrets)
        customers = CustomerService(database: database, bank: bank, auth: auth, clock: clock, random: random)
        rememberedBrowsers = RememberedBrowsers(database: database, clock: clock, random: random)
        knownBrowsers = KnownBrowsers(database: database, clock: clock, random: random)
        // why: a store in a private temporary directory with a fresh key when none is given
        // (tests, tools); `tresor serve` passes the configured one.
        let store =
            blobs
            ?? (try! FileBlobStore(
                directory: scratchBlobDirectory.appendingPathComponent(UUID().uuidString), key: .init(size: .bits256)))
        receipts = ReceiptService(database: database, blobs: store, clock: clock, budgets: budgets)
        advisors = AdvisorService(database: database, clock: clock, blobs: store)
    }

    /// The bank's rate limits (`AuthConfig.rateLimits`), counted in its database.
    public var rateLimiter: RateLimiter { auth.limiter }

    public var demo: DemoBank { demo(.tresor) }
    public func demo(_ edition: DemoBank.Edition) -> DemoBank {
        DemoBank(
            bank: bank, auth: auth, clearing: clearing, edition: edition,
            network: DemoBranchNetwork(branches: branches, appointments: appointments, fx: fx, loans: loans))
    }
    public var today: LocalDate { calendar.date(of: clock.now()) }
}

/// The folder of this process's throwaway blob stores (`Services` without a configured one),
/// removed when the process exits. why: their key dies with the process, so nothing in them can
/// be read afterwards; one folder per `Services` was left in /tmp, 16,000 after a few test runs.
let scratchBlobDirectory: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("tresor-blobs-\(getpid())", isDirectory: true)
    atexit { try? FileManager.default.removeItem(at: scratchBlobDirectory) }
    return url
}()
