import Foundation
import Hummingbird
import TresorCore
import TresorDomain

/// The XML channel of the payments app (`POST /xml/v1/{Service}`, schemas at
/// `GET /xml/v1/schemas/{name}.xsd`): the same core services as the JSON API, answered with
/// `State` 1 (done), 2 (refused: `Wrongfield`, `Message` in the session's language,
/// `CorrectedValue` when a repair can be offered) or 3 (signature needed: the payee is not on
/// the whitelist). Nothing of a rule is implemented twice: each service turns the XML fields
/// into the request the JSON API would build and reads the answer back.
struct XMLChannel: Sendable {
    let services: Services
    let catalogues: Catalogues
    let languages: [String]

    static let serviceNames: Set<String> = [
        "Login", "AccountList", "OCRPayment", "OrangePayment", "RedPayment", "QRBillPayment", "SignPayment", "PaymentList", "TemplateList",
    ]
    static let schemaNames = serviceNames.union(["Common"])

    func register(on router: Router<TresorRequestContext>) {
        router.post("/xml/v1/{service}", use: handle)
        router.get("/xml/v1/schemas/{file}", use: schema)
    }

    func schema(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let file = context.parameters.get("file") ?? ""
        guard file.hasSuffix(".xsd"), Self.schemaNames.contains(String(file.dropLast(4))),
            let url = Bundle.module.url(forResource: "xml/\(file)", withExtension: nil), let data = try? Data(contentsOf: url)
        else { throw DomainError(.notFound, field: "file", "No such schema.") }
        var headers = HTTPFields()
        headers[.contentType] = "application/xml; charset=utf-8"
        headers[.cacheControl] = "max-age=3600"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    func handle(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let service = context.parameters.get("service") ?? ""
        guard Self.serviceNames.contains(service) else { throw DomainError(.notFound, field: "service", "No such service.") }
        let root = "\(service)Response"
        var request = request
        let parsed: XMLRequest
        do {
            let body = try await request.collectBody(upTo: XMLRequest.bytesMax + 1)
            parsed = try XMLRequest.parse(Array(buffer: body))
        } catch let refusal as XMLRefusal {
            return Self.refused(root, refusal.code, refusal.message, status: refusal == .tooLarge ? .contentTooLarge : .badRequest)
        } catch {
            // The body was longer than the limit (collectBody refuses it).
            return Self.refused(root, XMLRefusal.tooLarge.code, XMLRefusal.tooLarge.message, status: .contentTooLarge)
        }
        guard parsed.root == "\(service)Request" else {
            // why said apart: a library that puts its elements in a namespace sends the right
            // name with a prefix, and "send <LoginRequest>" alone would not tell it what differs.
            let prefixed = parsed.root.hasSuffix(":\(service)Request")
            let message =
                prefixed
                ? "Elements of this channel have no namespace: send <\(service)Request> without a prefix."
                : "Send <\(service)Request> to this service."
            return Self.refused(root, "xml_wrong_root", message, status: .badRequest)
        }
        var language = languages.first ?? "en"
        do {
            if service == "Login" { return try await login(parsed, address: context.address).response() }
            let principal = try await services.auth.authenticate(token: parsed["SessionToken"] ?? "")
            language = try await services.messages.language(of: principal.customerID) ?? language
            guard principal.level >= 2 || service == "AccountList" else {
                throw DomainError(.stepUpRequired, "Log in with your password to do this.")
            }
            let answer: XMLResponse =
                switch service {
                case "AccountList": try await accountList(principal)
                case "OCRPayment": try await ocrPayment(parsed, for: principal)
                case "OrangePayment", "RedPayment", "QRBillPayment": try await pay(service, parsed, by: principal)
                case "SignPayment": try await sign(parsed, by: principal)
                case "PaymentList": try await paymentList(principal)
                default: try await templateList(principal)
                }
            return answer.response()
        } catch let error as DomainError {
            return refused(root, error, service: service, request: parsed, language: language)
        }
    }

    static func refused(_ root: String, _ code: String, _ message: String, status: HTTPResponse.Status) -> Response {
        XMLResponse(root, state: 2, code: code, message: message).response(status: status)
    }

    /// State 2 for a rule the core refused: the element at fault, the message in the session's
    /// language, and a repair when one can be offered (a check digit, a shortened text).
    func refused(_ root: String, _ error: DomainError, service: String, request: XMLRequest, language: String) -> Response {
        let element = XMLFields.element(for: error, service: service)
        let strings = catalogues.strings(WebLanguage(rawValue: language) ?? .en)
        let message = WebApp.message(for: error, strings: strings)
        let corrected = XMLFields.correctedValue(for: error, element: element, request: request) ?? error.suggested
        return XMLResponse(root, state: 2, code: error.code.rawValue, wrongfield: element, message: message, correctedValue: corrected)
            .response(status: ErrorMiddleware.status(for: error.code))
    }

    // MARK: services

    func login(_ request: XMLRequest, address: String?) async throws -> XMLResponse {
        let grant = try await services.auth.login(
            contract: request["Contract"] ?? "", password: request["Password"] ?? "", address: address, channel: "xml")
        if let language = request["Language"] {
            guard languages.contains(language) else {
                throw DomainError(.invalidParameter, field: "language", "Language is one of \(languages.joined(separator: ", ")).")
            }
            try await services.messages.setLanguage(language, of: try await services.auth.authenticate(token: grant.token).customerID)
        }
        var answer = XMLResponse("LoginResponse", state: 1)
        answer.element("SessionToken", grant.token)
        answer.element("Level", String(grant.level))
        return answer
    }

    func accountList(_ principal: Principal) async throws -> XMLResponse {
        var answer = XMLResponse("AccountListResponse", state: 1)
        for account in try await services.accounts.accounts(of: principal) {
            answer.group("Account") {
                $0.element("AccountId", String(account.id.rawValue))
                $0.element("IBAN", account.iban.electronic)
                $0.element("Name", account.name)
                $0.element("Kind", account.kind.rawValue)
                $0.element("Currency", account.currency.code)
                $0.element("Balance", account.booked.decimalString)
                $0.element("Available", account.available.decimalString)
            }
        }
        return answer
    }

    func ocrPayment(_ request: XMLRequest, for principal: Principal) async throws -> XMLResponse {
        let slip = try SlipCodeLine(request["CodeLine"] ?? "", field: "code_line")
        var answer = XMLResponse("OCRPaymentResponse", state: 1)
        answer.element("SlipKind", slip.kind == .esr ? "orange" : "red")
        answer.element("BeneficiaryAccount", slip.formattedParticipant)
        answer.element("Amount", slip.amount?.decimalString)
        answer.element("Currency", slip.currency.code)
        answer.element("Reference", slip.reference?.value)
        if let payee = try await services.payments.knownPayee(participant: slip.participant, of: principal.customerID) {
            answer.element("BeneficiaryName", payee.name)
            answer.element("BeneficiaryStreet", payee.street)
            answer.element("BeneficiaryBuildingNumber", payee.buildingNumber)
            answer.element("BeneficiaryPostalCode", payee.postalCode)
            answer.element("BeneficiaryTown", payee.town)
            answer.element("BeneficiaryCountry", payee.country)
        }
        // why the reference system's words: its clients show `notwhitelisted` as "a signature will be asked".
        var trusted = false
        if let payee = WhitelistPayee.slip(participant: slip.participant, reference: slip.reference) {
            trusted = try await services.beneficiaries.isWhitelisted(payee, for: principal.customerID)
        }
        answer.element("PayeeState", trusted ? "whitelisted" : "notwhitelisted")
        if slip.kind == .es, let bank = try await services.bankMaster.bank(postalAccount: slip.participant) {
            answer.element("BankClearing", String(bank.clearing))
            answer.element("BankBIC", bank.bic)
            answer.element("BankName", bank.name)
            answer.element("BankStreet", bank.street.isEmpty ? nil : bank.street)
            answer.element("BankPostalCode", bank.postalCode)
            answer.element("BankTown", bank.town)
            answer.element("BankCountry", bank.country)
        }
        return answer
    }

    func pay(_ service: String, _ request: XMLRequest, by principal: Principal) async throws -> XMLResponse {
        let payment = try XMLFields.paymentRequest(service, request)
        guard let requestID = request["RequestId"] else { throw DomainError(.missingField, field: "request_id", "RequestId is required.") }
        // why a digest of the fields: the same RequestId with other content is refused, as the
        // JSON API refuses a reused Idempotency-Key.
        let digest = Hashing.sha256Hex(Array(request.fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "\n").utf8))
        let created = try await services.payments.create(payment, by: principal, idempotencyKey: "xml-\(requestID)", requestHash: digest)
        return Self.paymentAnswer("\(service)Response", created.payment, challenge: created.challenge)
    }

    func sign(_ request: XMLRequest, by principal: Principal) async throws -> XMLResponse {
        guard let id = request["PaymentId"].flatMap({ PaymentID(text: $0) }) else {
            throw DomainError(.notFound, field: "id", "No such payment.")
        }
        let payment = try await services.payments.sign(id, response: request["Response"] ?? "", trustPayee: false, by: principal)
        return Self.paymentAnswer("SignPaymentResponse", payment, challenge: nil)
    }

    func paymentList(_ principal: Principal) async throws -> XMLResponse {
        var answer = XMLResponse("PaymentListResponse", state: 1)
        for payment in try await services.payments.payments(of: principal.customerID, filter: .all, limit: PaymentService.pageSizeMax, before: nil) {
            answer.group("Payment") { Self.write(payment, challenge: nil, into: &$0) }
        }
        let today = services.today
        for order in try await services.standingOrders.orders(of: principal.customerID) where order.status == .active {
            answer.group("StandingOrder") {
                $0.element("StandingOrderId", String(order.id))
                $0.element("Type", order.request.type.rawValue)
                $0.element("Amount", order.amount.decimalString)
                $0.element("Currency", order.amount.currency.code)
                $0.element("Payee", order.payeeDisplay)
                $0.element("Rhythm", order.schedule.rhythm.rawValue)
                $0.element("Interval", String(order.schedule.interval))
                $0.element("Day", order.schedule.day.map(String.init))
                $0.element("FirstDate", order.schedule.first.description)
                $0.element("NextDate", order.upcoming(1, from: today).first?.description)
                $0.element("PausedUntil", order.pausedUntil?.description)
            }
        }
        return answer
    }

    func templateList(_ principal: Principal) async throws -> XMLResponse {
        let folders = Dictionary(uniqueKeysWithValues: try await services.templates.folders(of: principal.customerID).map { ($0.id, $0.name) })
        var answer = XMLResponse("TemplateListResponse", state: 1)
        for template in try await services.templates.templates(of: principal.customerID) {
            answer.group("Template") {
                $0.element("TemplateId", String(template.id.rawValue))
                $0.element("Name", template.name)
                $0.element("Folder", template.folderID.flatMap { folders[$0] })
                $0.element("Type", template.request.type.rawValue)
                $0.element("Payee", template.request.creditor?.name)
                $0.element("Amount", template.request.amount?.decimalString)
                $0.element("Currency", template.request.amount?.currency.code)
            }
        }
        return answer
    }

    /// State 3 while the payment waits for a signature (with what to answer), else 1.
    static func paymentAnswer(_ root: String, _ payment: Payment, challenge: ChallengePrompt?) -> XMLResponse {
        var answer = XMLResponse(root, state: payment.status == .needsSignature ? 3 : 1)
        answer.group("Payment") { write(payment, challenge: challenge, into: &$0) }
        return answer
    }

    static func write(_ payment: Payment, challenge: ChallengePrompt?, into answer: inout XMLResponse) {
        answer.element("PaymentId", String(payment.id.rawValue))
        answer.element("Status", payment.status.rawValue)
        answer.element("Type", payment.instruction.type.rawValue)
        answer.element("Amount", payment.instruction.amount.decimalString)
        answer.element("Currency", payment.instruction.amount.currency.code)
        answer.element("Payee", payment.instruction.payeeDisplay)
        answer.element("ExecutionDate", payment.executionDate.description)
        answer.element("SignaturePosition", challenge?.position.map(String.init))
        answer.element("SignatureQuestion", challenge?.question)
    }
}
