import Foundation

public typealias StandingOrder = Components.Schemas.StandingOrder

extension TresorClient {
    /// The next `count` dates of `schedule`, computed on the device with the server's own rules
    /// (Swiss business days), to show before saving; ``TresorError`` with the field at fault for
    /// a schedule without a next date.
    public static func nextDates(of schedule: StandingOrderSchedule, count: Int = 5) throws -> [LocalDate] {
        do {
            try schedule.validate()
        } catch let error as DomainError {
            throw TresorError(error)
        }
        return schedule.dates(count: count)
    }

    /// The customer's standing orders (Daueraufträge), each with its next date and amount.
    public func standingOrders() async throws -> [StandingOrder] {
        try await call { try await $0.getV1StandingOrders().ok.body.json.standingOrders }
    }

    /// Saves a standing order. Its first payment is made now: when it comes back as
    /// `needs_signature`, sign it with ``sign(_:code:trustPayee:)``, once for the whole order.
    /// Keep `idempotencyKey` from the tap on Save: a retry after a lost answer saves once.
    public func createStandingOrder(
        _ request: PaymentRequest, schedule: StandingOrderSchedule, idempotencyKey: String = UUID().uuidString
    ) async throws -> (order: StandingOrder, firstPayment: Payment?) {
        do {
            try schedule.validate()
        } catch let error as DomainError {
            throw TresorError(error)
        }
        let body = Operations.PostV1StandingOrders.Input.Body.JsonPayload(
            payment: try Wire.convert(request, to: Components.Schemas.PaymentRequest.self),
            schedule: try Wire.convert(schedule, to: Components.Schemas.Schedule.self))
        let created = try await call {
            try await $0.postV1StandingOrders(headers: .init(idempotencyKey: idempotencyKey), body: .json(body)).created.body.json
        }
        return (created.standingOrder, created.payment)
    }

    /// Pauses the order: payments dated before `until` are skipped (nil ends a pause).
    public func pauseStandingOrder(_ id: String, until: LocalDate?) async throws -> StandingOrder {
        try await call {
            try await $0.patchV1StandingOrdersId(path: .init(id: id), body: .json(.init(pausedUntil: until?.description))).ok.body.json
                .standingOrder
        }
    }

    /// A new amount from the next payment not made yet on.
    public func changeStandingOrder(_ id: String, amount: Money) async throws -> StandingOrder {
        let money = try Wire.convert(amount, to: Components.Schemas.PositiveMoney.self)
        return try await call {
            try await $0.patchV1StandingOrdersId(path: .init(id: id), body: .json(.init(amount: money))).ok.body.json.standingOrder
        }
    }

    public func deleteStandingOrder(_ id: String) async throws {
        _ = try await call { try await $0.deleteV1StandingOrdersId(path: .init(id: id)).noContent }
    }
}
