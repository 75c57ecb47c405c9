import Hummingbird
import TresorCore
import TresorDomain

/// `/v1/payments`: create (idempotent), list, show, edit and delete pending ones, repeat; and
/// `/v1/qrbill/parse` to turn a QR payload or a slip code line into a draft.
struct PaymentRoutes {
    let payments: PaymentService
    let limiter: RateLimiter

    struct PaymentBody: Encodable { let payment: PaymentDTO }

    /// why everything is read with the session: the replay check, the accounts and the signing
    /// settings are one read with the session lookup (`BearerAuthMiddleware.looksUpInRoute`),
    /// not one read each, and where `PaymentReadAhead` knows them one statement: on SQLite one
    /// hop to a reader instead of five, on PostgreSQL one round trip instead of five to seven.
    func create(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let body = try await JSON.body(request)
        // why parsed first, thrown inside the read: a caller without a valid session hears 401
        // before anything about its request.
        let payments = payments
        let intake = Result { () throws -> PaymentService.Intake in
            let key = try IdempotencyKey.validate(request.headers[.idempotencyKey])
            let payment = try JSON.decode(PaymentRequest.self, from: body)
            let hash = IdempotencyKey.requestHash(method: "POST", path: "/v1/payments", body: body.readableBytesView)
            return payments.intake(payment, idempotencyKey: key, requestHash: hash)
        }
        let (principal, prepared) = try await context.readAsCaller(joining: try? intake.get().readAhead) { principal, rows, session in
            try await payments.prepare(try intake.get(), by: principal, readAhead: rows, in: session)
        }
        let accepted = try intake.get()
        let created = try await payments.create(prepared, by: principal, idempotencyKey: accepted.idempotencyKey, requestHash: accepted.requestHash)
        var response = JSON.response(writing: PaymentBody(payment: PaymentDTO(created.payment, challenge: created.challenge)), status: .created)
        if created.replayed { response.headers[.idempotentReplayed] = "true" }
        return response
    }

    func list(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let query = request.uri.queryParameters
        let statusText = query.get("status").map { String($0) } ?? "all"
        guard let filter = PaymentService.ListFilter(rawValue: statusText) else {
            throw DomainError(.invalidParameter, field: "status", "Use pending, processed or all.")
        }
        let limit =
            try query.get("limit").map { text -> Int in
                guard let limit = Int(text), (1...PaymentService.pageSizeMax).contains(limit) else {
                    throw DomainError(.invalidParameter, field: "limit", "A number from 1 to \(PaymentService.pageSizeMax).")
                }
                return limit
            } ?? 50
        let before = try query.get("cursor").map { text -> PaymentID in
            guard let id = PaymentID(text: text) else { throw DomainError(.invalidCursor, field: "cursor", "Use next_cursor from the last page.") }
            return id
        }
        let page = try await payments.payments(of: principal.customerID, filter: filter, limit: limit, before: before)
        struct Body: Encodable {
            let payments: [PaymentDTO]
            let nextCursor: String?
            enum CodingKeys: String, CodingKey {
                case payments
                case nextCursor = "next_cursor"
            }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(payments, forKey: .payments)
                try container.encode(nextCursor, forKey: .nextCursor)
            }
        }
        let next = page.count == limit ? page.last.map { String($0.id.rawValue) } : nil
        return try JSON.response(Body(payments: page.map { PaymentDTO($0) }, nextCursor: next))
    }

    func show(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let payment = try await payments.payment(try context.parameters.paymentID(), of: principal.customerID)
        return JSON.response(writing: PaymentBody(payment: PaymentDTO(payment, challenge: try await payments.openChallenge(of: payment))))
    }

    /// `{"code": "…", "trust_payee": false}`: signs a payment awaiting signature.
    func sign(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        try await limiter.hit(limiter.limits.signingPerContract, key: "customer:\(principal.customerID.rawValue)")
        struct Input: Decodable {
            let code: String
            let trustPayee: Bool?
            enum CodingKeys: String, CodingKey {
                case code
                case trustPayee = "trust_payee"
            }
        }
        let input = try JSON.decode(Input.self, from: try await JSON.body(request))
        let payment = try await payments.sign(
            try context.parameters.paymentID(), response: input.code, trustPayee: input.trustPayee ?? false, by: principal)
        return JSON.response(writing: PaymentBody(payment: PaymentDTO(payment)))
    }

    func update(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let id = try context.parameters.paymentID()
        let change = try JSON.decode(PaymentChange.self, from: try await JSON.body(request))
        let payment = try await payments.update(id, with: change, by: principal)
        return JSON.response(writing: PaymentBody(payment: PaymentDTO(payment, challenge: try await payments.openChallenge(of: payment))))
    }

    func delete(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let payment = try await payments.cancel(try context.parameters.paymentID(), by: principal)
        return JSON.response(writing: PaymentBody(payment: PaymentDTO(payment)))
    }

    func repeatPayment(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        struct Body: Encodable { let draft: PaymentRequest }
        return try JSON.response(Body(draft: try await payments.repeatDraft(try context.parameters.paymentID(), by: principal)))
    }

    /// `{"payload": "SPC…"}` or `{"code_line": "…"}` → a draft for `POST /v1/payments`.
    func parseSlip(_ request: Request, context: TresorRequestContext) async throws -> Response {
        _ = try context.requirePrincipal()
        struct Input: Decodable {
            let payload: String?
            let codeLine: String?
            enum CodingKeys: String, CodingKey {
                case payload
                case codeLine = "code_line"
            }
        }
        let input = try JSON.decode(Input.self, from: try await JSON.body(request))
        struct Body: Encodable {
            let draft: SlipDraft
            let source: String
        }
        if let payload = input.payload {
            return try JSON.response(Body(draft: try SlipDraft(qrbill: payload), source: "qrbill"))
        }
        if let codeLine = input.codeLine {
            return try JSON.response(Body(draft: try SlipDraft(codeLine: codeLine), source: "codeline"))
        }
        throw DomainError(.missingField, field: "payload", "Send payload (the QR-bill text) or code_line.")
    }
}

extension Parameters {
    func paymentID() throws -> PaymentID {
        guard let text = get("id"), let id = PaymentID(text: text) else { throw DomainError(.notFound, field: "id", "No such payment.") }
        return id
    }
}
