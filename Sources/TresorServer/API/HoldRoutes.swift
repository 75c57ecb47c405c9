import Foundation
import Hummingbird
import TresorCore
import TresorDomain

/// The staff queue of payments the risk check held: `GET /v1/staff/holds[?decided=true]`,
/// `GET /v1/staff/holds/{id}`, `POST /v1/staff/holds/{id}/release`,
/// `POST /v1/staff/holds/{id}/reject {message}`.
struct HoldRoutes {
    let holds: HoldService

    struct ReviewDTO: Encodable {
        let payment: PaymentDTO
        let customer: Customer
        let signals: [String]
        let rules: [String]
        let heldAt: String
        let decision: String?
        let decidedBy: String?
        let decidedAt: String?
        let message: String?

        struct Customer: Encodable {
            let id: String
            let name: String
        }

        init(_ review: HoldService.Review) {
            payment = PaymentDTO(review.payment)
            customer = Customer(id: String(review.payment.customerID.rawValue), name: review.customerName)
            signals = review.signals
            rules = review.rules
            heldAt = Timestamp.iso(review.heldAtMillis)
            decision = review.decision?.rawValue
            decidedBy = review.decidedBy
            decidedAt = review.decidedAtMillis.map(Timestamp.iso)
            message = review.message
        }

        enum CodingKeys: String, CodingKey {
            case payment, customer, signals, rules, decision, message
            case heldAt = "held_at"
            case decidedBy = "decided_by"
            case decidedAt = "decided_at"
        }
    }

    func list(_ request: Request, context: TresorRequestContext) async throws -> Response {
        _ = try context.requireStaff()
        let decided = try request.flag("decided") ?? false
        let limit = try request.integer("limit", default: 100, range: 1...500)
        return try JSON.response(["holds": try await holds.list(decided: decided, limit: limit).map(ReviewDTO.init)])
    }

    func show(_ request: Request, context: TresorRequestContext) async throws -> Response {
        _ = try context.requireStaff()
        let id = try context.parameters.id("id", as: PaymentID.self)
        return try JSON.response(["hold": ReviewDTO(try await holds.review(id))])
    }

    func release(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let staff = try context.requireStaff()
        let id = try context.parameters.id("id", as: PaymentID.self)
        return try JSON.response(["hold": ReviewDTO(try await holds.release(id, staff: staff))])
    }

    func reject(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let staff = try context.requireStaff()
        let id = try context.parameters.id("id", as: PaymentID.self)
        struct Input: Decodable { let message: String }
        let input = try JSON.decode(Input.self, from: try await JSON.body(request))
        return try JSON.response(["hold": ReviewDTO(try await holds.reject(id, staff: staff, message: input.message))])
    }
}
