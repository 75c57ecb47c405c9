import Foundation
import Hummingbird
import TresorCore
import TresorDomain

/// Sorting the overview's favourites: the pinned ones in the customer's order (moved up or down,
/// unpinned), and every other template or payment type to pin. The overview shows the pinned
/// ones first, then the most used, six in all.
extension WebApp {
    func registerFavorites(on router: Router<TresorRequestContext>) {
        router.get("/favorites", use: favoritesPage)
        router.post("/favorites", use: favoritesChange)
    }

    func favoritesPage(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var page = page(request, csrf: WebSupport.csrfToken(forSession: token))
        let choices = try await services.favorites.choices(of: principal.customerID)
        let pinned = choices.filter(\.pinned)
        let strings = page.strings
        func row(_ favorite: Favorite, at index: Int) -> [String: Any] {
            [
                "item": favorite.item, "label": strings["favorite_\(favorite.label)"] ?? favorite.label, "icon": favorite.type?.rawValue ?? "",
                "first": index == 0, "last": index == pinned.count - 1,
            ]
        }
        page.values["pinned"] = pinned.enumerated().map { row($1, at: $0) }
        page.values["others"] = choices.filter { !$0.pinned }.enumerated().map { row($1, at: $0) }
        page.values["full"] = pinned.count >= FavoriteService.pinsMax
        page.values["explained"] = strings.text("favorites_explained", ["count": String(FavoriteService.count)])
        return render("favorites", page)
    }

    /// One change (`pin`, `unpin`, `up`, `down` of `item`), then the screen again.
    func favoritesChange(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var request = request
        let form = WebSupport.form(try await request.collectBody(upTo: 4 * 1024))
        guard checkCSRF(form, token: token) else { return await formExpired(request) }
        let item = form["item"] ?? ""
        var pins = try await services.favorites.choices(of: principal.customerID).filter(\.pinned).map(\.item)
        let index = pins.firstIndex(of: item)
        switch (form["action"], index) {
        case ("pin", nil) where pins.count < FavoriteService.pinsMax: pins.append(item)
        case ("unpin", let index?): pins.remove(at: index)
        case ("up", let index?) where index > 0: pins.swapAt(index, index - 1)
        case ("down", let index?) where index < pins.count - 1: pins.swapAt(index, index + 1)
        default: return WebSupport.redirect("/favorites")
        }
        // The service refuses an item that is not the customer's (a forged form): the screen shows again unchanged.
        do { try await services.favorites.pin(pins, for: principal.customerID) } catch is DomainError {}
        return WebSupport.redirect("/favorites")
    }
}
