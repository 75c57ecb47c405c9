import Hummingbird
import TresorCore
import TresorDomain

/// `/v1/standing-orders`: payments repeated on a rhythm (Daueraufträge).
struct StandingOrderRoutes {
    let orders: StandingOrderService

    struct OrderBody: Encodable {
        let standingOrder: StandingOrderDTO
        enum CodingKeys: String, CodingKey { case standingOrder = "standing_order" }
    }

    /// `{"payment": {...without execution_date}, "schedule": {...}}` → the order and its first
    /// payment, made now (with its signature challenge when the payee needs one).
    func create(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let key = try IdempotencyKey.validate(request.headers[.idempotencyKey])
        let body = try await JSON.body(request)
        struct Input: Decodable {
            let payment: PaymentRequest
            let schedule: ScheduleDTO
        }
        let input = try JSON.decode(Input.self, from: body)
        let hash = IdempotencyKey.requestHash(method: "POST", path: "/v1/standing-orders", body: body.readableBytesView)
        let created = try await orders.create(
            input.payment, schedule: try input.schedule.schedule(), by: principal, idempotencyKey: key, requestHash: hash)
        struct Body: Encodable {
            let standingOrder: StandingOrderDTO
            let payment: PaymentDTO?
            enum CodingKeys: String, CodingKey {
                case standingOrder = "standing_order"
                case payment
            }
        }
        var response = try JSON.response(
            Body(
                standingOrder: StandingOrderDTO(created.order, today: orders.today),
                payment: created.firstPayment.map { PaymentDTO($0, challenge: created.challenge) }),
            status: .created)
        if created.replayed { response.headers[.idempotentReplayed] = "true" }
        return response
    }

    /// `{"schedule": {...}}` → the next five dates, as the order would pay them: shown before saving.
    func preview(_ request: Request, context: TresorRequestContext) async throws -> Response {
        _ = try context.requirePrincipal()
        struct Input: Decodable { let schedule: ScheduleDTO }
        let input = try JSON.decode(Input.self, from: try await JSON.body(request))
        struct Body: Encodable { let dates: [LocalDate] }
        return try JSON.response(Body(dates: try orders.preview(try input.schedule.schedule())))
    }

    func list(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        struct Body: Encodable {
            let standingOrders: [StandingOrderDTO]
            enum CodingKeys: String, CodingKey { case standingOrders = "standing_orders" }
        }
        return try JSON.response(
            Body(standingOrders: try await orders.orders(of: principal.customerID).map { StandingOrderDTO($0, today: orders.today) }))
    }

    /// The order and the payments it made, newest first.
    func show(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let order = try await orders.order(try context.parameters.standingOrderID(), of: principal.customerID)
        struct Body: Encodable {
            let standingOrder: StandingOrderDTO
            let payments: [PaymentDTO]
            enum CodingKeys: String, CodingKey {
                case standingOrder = "standing_order"
                case payments
            }
        }
        return try JSON.response(
            Body(standingOrder: StandingOrderDTO(order, today: orders.today), payments: try await orders.payments(of: order).map { PaymentDTO($0) }))
    }

    func update(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let id = try context.parameters.standingOrderID()
        let input = try JSON.decode(StandingOrderChangeDTO.self, from: try await JSON.body(request))
        return try JSON.response(
            OrderBody(standingOrder: StandingOrderDTO(try await orders.update(id, with: input.change, by: principal), today: orders.today)))
    }

    func delete(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        _ = try await orders.delete(try context.parameters.standingOrderID(), by: principal)
        return Response(status: .noContent)
    }
}

extension Parameters {
    func standingOrderID() throws -> Int64 {
        guard let text = get("id"), text.count <= 18, let id = Int64(text), id > 0 else {
            throw DomainError(.notFound, field: "id", "No such standing order.")
        }
        return id
    }
}
