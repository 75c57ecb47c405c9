import Foundation
import Hummingbird
import Logging
import TresorCore
import TresorScan

/// Builds the router: the seam tests drive directly (`app.test(.router)`).
public func buildRouter(
    services: Services, metrics: ServerMetrics, theme: WebTheme = .demo, languages: [String] = BankConfig.defaultLanguages,
    trustedProxies: TrustedProxies = .none, scanner: ScanWorkerPool? = ScanWorkerPool.locateWorker().map { ScanWorkerPool(executable: $0) },
    accessLogBank: String? = nil
) async throws -> Router<TresorRequestContext> {
    let router = Router(context: TresorRequestContext.self)
    router.add(middleware: FormQueryMiddleware())
    router.add(middleware: ClientAddressMiddleware(proxies: trustedProxies))
    if let accessLogBank { router.add(middleware: AccessLogMiddleware(bank: accessLogBank)) }
    router.add(middleware: MetricsMiddleware(metrics: metrics))
    router.add(middleware: ErrorMiddleware())
    router.add(middleware: RequestEncodingMiddleware())

    router.get("/healthz") { _, _ in
        try await services.database.read { _ = try await $0.query("SELECT 1") }
        return try JSON.response(["status": "ok"])
    }
    router.get("/metrics") { _, _ in
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; version=0.0.4"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: metrics.registry.emitToBuffer())))
    }
    router.get("/openapi.yaml") { _, _ in
        var headers = HTTPFields()
        headers[.contentType] = "application/yaml"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: OpenAPIDocument.bytes)))
    }

    let resources = ResourceRoutes(resources: services.resources)
    router.get("/v1/resources/manifest", use: resources.manifest)
    router.get("/v1/resources/files/{hash}", use: resources.file)

    // The branch in the pocket: the finder, slots, rates and quotes are public (a prospect finds
    // the bank too); booking, ordering and the loan calculator need a session.
    let branchRoutes = BranchRoutes(branches: services.branches, appointments: services.appointments, clock: services.clock)
    let fxRoutes = FXRoutes(fx: services.fx, orders: services.cashOrders)
    router.get("/v1/branches", use: branchRoutes.search)
    router.get("/v1/branches/{id}", use: branchRoutes.show)
    router.get("/v1/branches/{id}/slots", use: branchRoutes.slots)
    router.get("/v1/fx/rates", use: fxRoutes.rates)
    router.post("/v1/fx/quote", use: fxRoutes.quote)

    let certificateRoutes = CertificateRoutes(services: services, theme: theme, languages: languages)
    router.get("/v1/certificates/verify/{code}", use: certificateRoutes.verify)
    router.post("/v1/certificates/verify/{code}", use: certificateRoutes.verify)

    let sessions = SessionRoutes(auth: services.auth)
    let accounts = AccountRoutes(accounts: services.accounts, metrics: metrics)
    let transfers = TransferRoutes(transfers: services.transfers)
    router.post("/v1/sessions", use: sessions.login)
    let deviceRoutes = DeviceRoutes(devices: services.devices, auth: services.auth, staff: services.staff, secondFactors: services.secondFactors)
    router.post("/v1/devices", use: deviceRoutes.enrol)
    router.post("/v1/devices/{id}/challenge", use: deviceRoutes.challenge)
    router.post("/v1/sessions/device", use: deviceRoutes.login)
    router.post("/v1/staff/sessions", use: deviceRoutes.staffLogin)
    let staffAPI = router.group("/v1/staff").add(middleware: StaffAuthMiddleware(staff: services.staff))
    staffAPI.post("/activation-codes", use: deviceRoutes.issueCode)
    let customerRoutes = CustomerRoutes(customers: services.customers, bank: services.bank, theme: theme)
    router.post("/v1/sessions/activation", use: customerRoutes.activate)
    let passkeyRoutes = PasskeyRoutes(passkeys: services.passkeys, bank: services.bank)
    router.post("/v1/sessions/passkey/options", use: passkeyRoutes.loginOptions)
    router.post("/v1/sessions/passkey", use: passkeyRoutes.login)
    staffAPI.post("/customers", use: customerRoutes.add)
    staffAPI.get("/customers", use: customerRoutes.find)
    staffAPI.post("/customers/{contract}/reset-letter", use: customerRoutes.reset)
    let signingRoutes = SigningRoutes(signing: services.signing, auth: services.auth)
    staffAPI.post("/tan-lists", use: signingRoutes.issueTANList)
    staffAPI.get("/devices", use: deviceRoutes.staffDevices)
    staffAPI.post("/devices/{id}/lock", use: deviceRoutes.staffLock)
    staffAPI.post("/devices/{id}/unlock", use: deviceRoutes.staffUnlock)
    let cardRoutes = CardRoutes(cards: services.cards)
    staffAPI.post("/cards/{id}/unblock", use: cardRoutes.unblock)
    staffAPI.post("/branches", use: branchRoutes.save)
    staffAPI.post("/branches/{id}/closures", use: branchRoutes.close)
    staffAPI.put("/branches/{id}/stock", use: branchRoutes.setStock)
    staffAPI.get("/appointments", use: branchRoutes.staffDay)
    staffAPI.post("/appointments/{id}/confirm", use: branchRoutes.decide(confirm: true))
    staffAPI.post("/appointments/{id}/decline", use: branchRoutes.decide(confirm: false))
    staffAPI.get("/cash-orders", use: fxRoutes.staffList)
    staffAPI.get("/account-requests", use: certificateRoutes.accountRequests)
    staffAPI.post("/account-requests/{id}/approve", use: certificateRoutes.approve)
    staffAPI.post("/account-requests/{id}/decline", use: certificateRoutes.decline)
    let clearingRoutes = ClearingRoutes(clearing: services.clearing)
    staffAPI.post("/clearing/files", use: clearingRoutes.importFile)
    staffAPI.get("/clearing/credits", use: clearingRoutes.suspense)
    staffAPI.get("/clearing/credits/{id}", use: clearingRoutes.show)
    staffAPI.post("/clearing/credits/{id}/assign", use: clearingRoutes.assign)
    staffAPI.post("/clearing/credits/{id}/return", use: clearingRoutes.returnCredit)
    staffAPI.get("/clearing/documents/{id}", use: clearingRoutes.document)
    let advisorRoutes = AdvisorRoutes(advisors: services.advisors, resources: services.resources)
    staffAPI.get("/conversations", use: advisorRoutes.conversations)
    staffAPI.get("/conversations/{contract}", use: advisorRoutes.staffThread)
    staffAPI.post("/conversations/{contract}/messages", use: advisorRoutes.answer)
    staffAPI.post("/conversations/{contract}/attachments", use: advisorRoutes.answerWithFile)
    staffAPI.get("/conversations/{contract}/messages/{id}/attachment", use: advisorRoutes.staffFile)
    let holdRoutes = HoldRoutes(holds: services.holds)
    staffAPI.get("/holds", use: holdRoutes.list)
    staffAPI.get("/holds/{id}", use: holdRoutes.show)
    staffAPI.post("/holds/{id}/release", use: holdRoutes.release)
    staffAPI.post("/holds/{id}/reject", use: holdRoutes.reject)
    staffAPI.post("/cash-orders/{id}/ready", use: fxRoutes.staffStep(handOut: false))
    staffAPI.post("/cash-orders/{id}/handed-out", use: fxRoutes.staffStep(handOut: true))
    let v1 = router.group("/v1").add(middleware: BearerAuthMiddleware(auth: services.auth)).add(middleware: ETagMiddleware())
    v1.delete("/sessions/current", use: sessions.logout)
    v1.post("/sessions/current/step-up", use: deviceRoutes.stepUp)
    v1.post("/sessions/current/step-up/tan", use: deviceRoutes.tanPosition)
    v1.get("/devices", use: deviceRoutes.list)
    let secondFactorRoutes = SecondFactorRoutes(secondFactors: services.secondFactors, bank: services.bank)
    v1.put("/password", use: PasswordRoutes(auth: services.auth).change)
    let securityRoutes = SecurityRoutes(services: services)
    v1.get("/security", use: securityRoutes.show)
    v1.post("/sessions/end-others", use: securityRoutes.endOthers)
    v1.post("/passkeys/registration", use: passkeyRoutes.registrationOptions)
    v1.post("/passkeys", use: passkeyRoutes.register)
    v1.get("/passkeys", use: passkeyRoutes.list)
    v1.delete("/passkeys/{id}", use: passkeyRoutes.remove)
    v1.get("/second-factors", use: secondFactorRoutes.list)
    v1.post("/second-factors/totp", use: secondFactorRoutes.startTOTP)
    v1.post("/second-factors/totp/confirm", use: secondFactorRoutes.confirmTOTP)
    v1.delete("/second-factors/totp", use: secondFactorRoutes.removeTOTP)
    v1.get("/signing", use: signingRoutes.show)
    v1.put("/signing/provider", use: signingRoutes.choose)
    v1.put("/devices/{id}/pin", use: deviceRoutes.setPIN)
    v1.post("/devices/{id}/lock", use: deviceRoutes.lock)
    v1.post("/devices/{id}/unlock", use: deviceRoutes.unlock)
    v1.get("/advisor", use: advisorRoutes.show)
    v1.get("/advisor/messages", use: advisorRoutes.thread)
    v1.post("/advisor/messages", use: advisorRoutes.write)
    v1.post("/advisor/attachments", use: advisorRoutes.writeWithFile)
    v1.get("/advisor/messages/{id}/attachment", use: advisorRoutes.file)
    v1.get("/accounts", use: accounts.list)
    v1.get("/accounts/{id}", use: accounts.show)
    v1.get("/accounts/{id}/transactions", use: accounts.transactions)
    v1.get("/accounts/{id}/balance-history", use: accounts.balanceHistory)
    let invoiceRoutes = InvoiceRoutes(clearing: services.clearing, accounts: services.accounts)
    v1.get("/transactions/{id}", use: invoiceRoutes.transaction)
    v1.post("/invoices", use: invoiceRoutes.create)
    v1.get("/invoices", use: invoiceRoutes.list)
    v1.get("/certificates/types", use: certificateRoutes.types)
    v1.post("/certificates", use: certificateRoutes.issue)
    v1.get("/certificates", use: certificateRoutes.list)
    v1.get("/certificates/{id}/pdf", use: certificateRoutes.pdf)
    v1.get("/accounts/{id}/statements", use: StatementRoutes(services: services, theme: theme, languages: languages).statement)
    v1.post("/transfers", use: transfers.create)
    v1.post("/cards/{id}/block", use: cardRoutes.block)
    let appointmentRoutes = AppointmentRoutes(appointments: services.appointments, branches: services.branches)
    v1.post("/appointments", use: appointmentRoutes.book)
    v1.get("/appointments", use: appointmentRoutes.list)
    v1.patch("/appointments/{id}", use: appointmentRoutes.reschedule)
    v1.delete("/appointments/{id}", use: appointmentRoutes.cancel)
    v1.get("/appointments/{id}/calendar", use: appointmentRoutes.calendar)
    v1.post("/cash-orders", use: fxRoutes.place)
    v1.get("/cash-orders", use: fxRoutes.list)
    v1.delete("/cash-orders/{id}", use: fxRoutes.cancel)
    v1.post("/loans/quote", use: LoanRoutes(loans: services.loans).quote)
    let payments = PaymentRoutes(payments: services.payments, limiter: services.rateLimiter)
    v1.post("/payments", use: payments.create)
    v1.get("/payments", use: payments.list)
    v1.get("/payments/{id}", use: payments.show)
    v1.patch("/payments/{id}", use: payments.update)
    v1.delete("/payments/{id}", use: payments.delete)
    v1.post("/payments/{id}/repeat", use: payments.repeatPayment)
    v1.post("/payments/{id}/signature", use: payments.sign)
    v1.post("/qrbill/parse", use: payments.parseSlip)
    if let scanner {
        let scan = ScanRoutes(scanner: scanner, limiter: services.rateLimiter)
        v1.post("/scan/slip", use: scan.slip)
        let receipts = ReceiptRoutes(receipts: services.receipts, budgets: services.budgets, scanner: scanner, limiter: services.rateLimiter)
        v1.post("/receipts", use: receipts.create)
        v1.get("/receipts", use: receipts.list)
        v1.get("/receipts/{id}", use: receipts.show)
        v1.get("/receipts/{id}/image", use: receipts.image)
        v1.patch("/receipts/{id}", use: receipts.update)
        v1.put("/receipts/{id}/splits", use: receipts.split)
        v1.delete("/receipts/{id}", use: receipts.delete)
        v1.get("/receipt-categories", use: receipts.categories)
        v1.post("/receipt-categories", use: receipts.addCategory)
        v1.get("/budgets", use: receipts.showBudget)
        v1.put("/budgets", use: receipts.setBudget)
    }
    let standingOrders = StandingOrderRoutes(orders: services.standingOrders)
    v1.get("/standing-orders", use: standingOrders.list)
    v1.post("/standing-orders", use: standingOrders.create)
    v1.post("/standing-orders/preview", use: standingOrders.preview)
    v1.get("/standing-orders/{id}", use: standingOrders.show)
    v1.patch("/standing-orders/{id}", use: standingOrders.update)
    v1.delete("/standing-orders/{id}", use: standingOrders.delete)
    let templates = TemplateRoutes(templates: services.templates, payments: services.payments)
    v1.get("/template-folders", use: templates.folders)
    v1.post("/template-folders", use: templates.createFolder)
    v1.patch("/template-folders/{id}", use: templates.renameFolder)
    v1.delete("/template-folders/{id}", use: templates.deleteFolder)
    v1.get("/templates", use: templates.list)
    v1.post("/templates", use: templates.create)
    v1.get("/templates/{id}", use: templates.show)
    v1.patch("/templates/{id}", use: templates.update)
    v1.delete("/templates/{id}", use: templates.delete)
    v1.post("/templates/{id}/payments", use: templates.pay)
    let favorites = FavoriteRoutes(favorites: services.favorites, beneficiaries: services.beneficiaries)
    v1.get("/favorites", use: favorites.list)
    v1.put("/favorites/pins", use: favorites.pin)
    v1.get("/beneficiaries", use: favorites.beneficiaryList)
    let messageRoutes = MessageRoutes(messages: services.messages, clock: services.clock)
    v1.get("/messages", use: messageRoutes.list)
    v1.patch("/messages/{id}", use: messageRoutes.update)
    v1.delete("/messages/{id}", use: messageRoutes.delete)
    v1.get("/events", use: EventRoutes(messages: services.messages).events)
    let pushRoutes = PushRoutes(push: services.push)
    v1.get("/push/vapid-key", use: pushRoutes.vapidKey)
    v1.post("/push/subscriptions", use: pushRoutes.subscribe)
    v1.get("/push/subscriptions", use: pushRoutes.list)
    v1.delete("/push/subscriptions/{id}", use: pushRoutes.remove)
    v1.post("/push/devices", use: pushRoutes.registerDevice)
    v1.post("/stations/pairings", use: StationRoutes(stations: services.stations).pair)
    let settingsRoutes = SettingsAPIRoutes(messages: services.messages, debits: services.debitPreferences)
    v1.get("/settings", use: settingsRoutes.show)
    v1.put("/settings", use: settingsRoutes.update)
    XMLChannel(services: services, catalogues: try Catalogues.load(), languages: languages).register(on: router)
    try await WebApp.load(services: services, theme: theme, languages: languages, scanner: scanner).register(on: router)
    // why last: it needs every route; innermost, it sees the router's "not found" first.
    router.add(middleware: MethodNotAllowedMiddleware(routes: router.routes))
    return router
}

/// One bank as a server serves it: its configuration, its services over its own database and
/// the look of its web app.
public struct BankSite: Sendable {
    public let config: BankConfig
    public let services: Services
    public let theme: WebTheme

    public init(config: BankConfig, services: Services, theme: WebTheme) {
        self.config = config
        self.services = services
        self.theme = theme
    }
}

/// The front door over several banks: each bank's router behind a `BankDispatcher`. The scan
/// workers are one pool for all banks, because they bound what the machine does at once.
/// `accessLog`: a line for every request (`AccessLogMiddleware`), for `--log-format json`.
public func buildResponder(
    sites: [BankSite], metrics: ServerMetrics, trustedProxies: TrustedProxies = .none,
    scanner: ScanWorkerPool? = ScanWorkerPool.locateWorker().map { ScanWorkerPool(executable: $0) }, accessLog: Bool = false
) async throws -> BankDispatcher {
    var banks: [(config: BankConfig, router: Router<TresorRequestContext>)] = []
    for site in sites {
        let router = try await buildRouter(
            services: site.services, metrics: metrics, theme: site.theme, languages: site.config.languages, trustedProxies: trustedProxies,
            scanner: scanner, accessLogBank: accessLog ? site.config.id : nil)
        banks.append((site.config, router))
    }
    return BankDispatcher(banks: banks)
}

/// The application `tresor serve` runs.
public func buildApplication(
    sites: [BankSite], metrics: ServerMetrics, host: String, port: Int, logger: Logger, trustedProxies: TrustedProxies = .none,
    tls: TLSCertificateFiles? = nil, accessLog: Bool = false, onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) async throws -> some ApplicationProtocol {
    var responder = try await buildResponder(sites: sites, metrics: metrics, trustedProxies: trustedProxies, accessLog: accessLog)
    responder.servesTLS = tls != nil
    return Application(
        responder: responder,
        server: tls.map { .tresorTLS($0) } ?? .tresor,
        configuration: .init(address: .hostname(host, port: port), serverName: "Tresor"),
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) },
        logger: logger)
}

/// The OpenAPI 3.1 document of the `/v1` API, shipped as a resource.
enum OpenAPIDocument {
    static let bytes: [UInt8] = {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml"), let data = try? Data(contentsOf: url) else {
            preconditionFailure("openapi.yaml resource missing from the bundle")
        }
        return Array(data)
    }()
}
