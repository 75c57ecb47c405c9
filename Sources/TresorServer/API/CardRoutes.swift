import Foundation
import Hummingbird
import TresorCore
import TresorDomain

/// `POST /v1/cards/{id}/block {reason}`: the customer blocks a card at once;
/// `POST /v1/staff/cards/{id}/unblock`: the branch unblocks it.
struct CardRoutes {
    let cards: CardService

    struct BlockInput: Decodable {
        let reason: String
    }

    func block(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let id = try context.parameters.id("id", as: AccountID.self)
        // why first: another customer's id answers 404 whatever the body, as on every route.
        _ = try await cards.ownCard(id, of: principal)
        let input = try JSON.decode(BlockInput.self, from: try await JSON.body(request))
        guard let reason = CardService.Reason(rawValue: input.reason) else {
            throw DomainError(.invalidParameter, field: "reason", "The reason is lost, stolen, damaged or other.")
        }
        let card = try await cards.block(id, reason: reason, by: principal)
        return try JSON.response(["account": AccountDTO(card)])
    }

    func unblock(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let staff = try context.requireStaff()
        let id = try context.parameters.id("id", as: AccountID.self)
        return try JSON.response(["account": AccountDTO(try await cards.unblock(id, staff: staff))])
    }
}
