import Hummingbird
import TresorCore
import TresorDomain

/// `/v1/favorites` (ranked by use, pinned first) and `/v1/beneficiaries` (whitelists).
struct FavoriteRoutes {
    let favorites: FavoriteService
    let beneficiaries: BeneficiaryService

    struct FavoriteDTO: Encodable {
        let item: String
        let label: String
        let pinned: Bool
        let score: String
    }

    func list(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        struct Body: Encodable { let favorites: [FavoriteDTO] }
        let favorites = try await favorites.favorites(of: principal.customerID).map { favorite in
            // why a string: the score is a ranking aid, not money, but JSON doubles vary by platform in the last digits.
            FavoriteDTO(item: favorite.item, label: favorite.label, pinned: favorite.pinned, score: String(format: "%.3f", favorite.score))
        }
        return try JSON.response(Body(favorites: favorites))
    }

    /// `{"items": ["template:3", "type:qrbill"]}`: the pinned favourites in this order.
    func pin(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        struct Input: Decodable { let items: [String] }
        let input = try JSON.decode(Input.self, from: try await JSON.body(request))
        try await favorites.pin(input.items, for: principal.customerID)
        return try await list(request, context: context)
    }

    func beneficiaryList(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        struct DTO: Encodable {
            let id: BeneficiaryID
            let name: String
            let iban: IBAN
            let scope: String
        }
        struct Body: Encodable { let beneficiaries: [DTO] }
        let list = try await beneficiaries.list(for: principal.customerID).map {
            DTO(id: $0.id, name: $0.name, iban: $0.iban, scope: $0.bankWide ? "bank" : "customer")
        }
        return try JSON.response(Body(beneficiaries: list))
    }
}
