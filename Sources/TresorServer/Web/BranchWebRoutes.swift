import Foundation
import Hummingbird
import TresorCore
import TresorDomain

/// The finder (`/branches`) and a branch's page (`/branches/{id}`): public, like the API, so a
/// prospect finds the bank too; the nav shows when a customer is logged in.
extension WebApp {
    func registerBranches(on router: Router<TresorRequestContext>) {
        router.get("/branches", use: finder)
        router.get("/branches/{id}", use: branchPage)
    }

    /// A page for anyone: with the nav and CSRF token when a customer is logged in.
    func publicPage(_ request: Request) async -> Page {
        let signedIn = await session(request)
        var page = page(request, csrf: signedIn.map { WebSupport.csrfToken(forSession: $0.token) })
        page.values["signed_in"] = signedIn != nil
        // why: More is behind the login; someone not logged in goes back to the login page.
        if signedIn == nil, page.values["back"] as? String == "/more" { page.values["back"] = "/login" }
        return page
    }

    func finder(_ request: Request, context: TresorRequestContext) async throws -> Response {
        var page = await publicPage(request)
        let strings = page.strings
        let query = request.text("q")?.trimmingCharacters(in: .whitespaces) ?? ""
        let kind = request.text("kind").flatMap(Branch.Kind.init(rawValue:))
        let openNow = request.text("open") == "1"
        var origin: GeoPoint?
        if let lat = request.text("lat"), let lon = request.text("lon") { origin = try? GeoPoint(latitude: lat, longitude: lon) }
        let all = try await services.branches.all()
        if origin == nil, !query.isEmpty {
            origin = Self.locate(query, in: all)
            if origin == nil { page.values["notice"] = strings.text("finder_not_found", ["q": query]) }
        }
        let now = services.clock.now()
        let found = try await services.branches.search(near: origin, kind: kind, openNow: openNow, limit: origin == nil ? 200 : 10, at: now)
        let language = page.language
        page.values["q"] = query
        page.values["lat"] = origin?.latitudeText ?? ""
        page.values["lon"] = origin?.longitudeText ?? ""
        page.values["open"] = openNow
        page.values["kinds"] = [("", "finder_all"), ("branch", "finder_branches"), ("atm", "finder_atms")].map { value, key in
            ["value": value, "key": value.isEmpty ? "all" : value, "label": strings[key] ?? key, "current": (kind?.rawValue ?? "") == value]
        }
        page.values["results"] = found.enumerated().map { index, item -> [String: Any] in
            [
                "number": index + 1, "id": String(item.branch.id), "name": item.branch.name, "town": "\(item.branch.postcode) \(item.branch.town)",
                "kind": strings["finder_kind_\(item.branch.kind.rawValue)"] ?? item.branch.kind.rawValue, "is_branch": item.branch.kind == .branch,
                "distance": item.distance.map { Self.distanceText($0, language) } ?? "", "open": item.status.isOpen,
                "status": statusText(item.status, timeZone: item.branch.timeZone, now: now, strings: strings),
            ]
        }
        page.values["has_results"] = !found.isEmpty
        // A cluster on the country map leads to the finder around its town, with the same filters.
        let filters = (kind.map { "&kind=\($0.rawValue)" } ?? "") + (openNow ? "&open=1" : "")
        page.values["map"] = FinderMap.svg(
            pins: found.enumerated().map { index, item in
                FinderMap.Pin(
                    number: index + 1, point: item.branch.position, isBranch: item.branch.kind == .branch, isOpen: item.status.isOpen,
                    label: item.branch.name,
                    zoom: origin != nil
                        ? nil : "/branches?q=\(item.branch.town.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")\(filters)")
            }, you: origin, title: strings["finder_map_title"] ?? "", youLabel: query.isEmpty ? strings["finder_you"] ?? "" : query)
        return render("branches", page)
    }

    /// Where a postcode, town or place typed in the search is: an exact postcode or town of one of
    /// the bank's places, else a town it begins, else places whose name holds it, else the middle
    /// of the places sharing the postcode's first two digits (Swiss postcodes run by region), else nil.
    static func locate(_ query: String, in places: [Branch]) -> GeoPoint? {
        func fold(_ text: String) -> String { text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil) }
        let wanted = fold(query)
        let digits = query.filter(\.isNumber)
        var matches = places.filter { fold($0.town) == wanted || $0.postcode == digits || fold("\($0.postcode) \($0.town)") == wanted }
        if matches.isEmpty { matches = places.filter { fold($0.town).hasPrefix(wanted) && wanted.count >= 3 } }
        // A place's own name ("Zürich HB", "Paradeplatz") when no town is called so.
        if matches.isEmpty, wanted.count >= 3 { matches = places.filter { fold($0.name).contains(wanted) } }
        if matches.isEmpty, digits.count == 4 { matches = places.filter { $0.postcode.prefix(2) == digits.prefix(2) } }
        guard !matches.isEmpty else { return nil }
        let lat = matches.map(\.position.latitudeMicro).reduce(0, +) / Int64(matches.count)
        let lon = matches.map(\.position.longitudeMicro).reduce(0, +) / Int64(matches.count)
        return GeoPoint(latitudeMicro: lat, longitudeMicro: lon)
    }

    static func distanceText(_ metres: Int, _ language: WebLanguage) -> String {
        if metres < 1_000 { return language.isolated("\(max(10, (metres + 5) / 10 * 10)) m") }
        let tenths = (metres + 50) / 100
        let decimal = [.de, .fr, .it].contains(language) ? "," : "."
        return language.isolated(tenths >= 100 ? "\(tenths / 10) km" : "\(tenths / 10)\(decimal)\(tenths % 10) km")
    }

    /// "Open · closes 17:30", "Closed · opens Mon 08:30" in the page's language.
    func statusText(_ status: OpeningStatus, timeZone: TimeZone, now: Date, strings: [String: String]) -> String {
        let state = strings[status.isOpen ? "finder_open" : "finder_closed"] ?? ""
        guard let change = status.nextChange else { return status.isOpen ? strings["finder_always"] ?? state : state }
        let today = BankCalendar(timeZone: timeZone).date(of: now)
        let day = change.local == today ? "" : (strings["day_\(change.local.isoWeekday)"] ?? "")
        let key = change.kind == .closes ? "finder_closes" : (day.isEmpty ? "finder_opens_today" : "finder_opens")
        return "\(state) · " + strings.text(key, ["day": day, "time": change.time.description])
    }

    func branchPage(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let id = context.parameters.get("id").flatMap({ Int64($0) }), let (status, week) = try? await services.branches.details(id) else {
            return await notFound(request)
        }
        var page = await publicPage(request)
        let strings = page.strings
        let branch = status.branch
        let now = services.clock.now()
        var values: [String: Any] = [
            "id": String(branch.id), "name": branch.name, "street": branch.street, "town": "\(branch.postcode) \(branch.town)",
            "is_branch": branch.kind == .branch, "open": status.status.isOpen,
            "status": statusText(status.status, timeZone: branch.timeZone, now: now, strings: strings),
            "services": branch.services.map { strings["service_\($0.rawValue)"] ?? $0.rawValue }, "deposit": branch.deposit,
            "currencies": branch.currencies.map(\.code).joined(separator: ", "), "advice": branch.services.contains(.advice),
            "foreign_cash": branch.services.contains(.foreignCash),
        ]
        if let phone = branch.phone {
            values["phone"] = phone
            values["tel"] = phone.filter { $0 == "+" || $0.isNumber }
        }
        if let parent = branch.parentID { values["inside"] = String(parent) }
        values["route"] = Self.routeLink(to: branch.position, name: branch.name, userAgent: request.headers[.userAgent])
        page.values["branch"] = values
        page.values["week"] = week.map { day -> [String: Any] in
            [
                "day": strings["day_\(day.date.isoWeekday)"] ?? "", "date": page.language.format(day.date),
                "today": day.date == BankCalendar(timeZone: branch.timeZone).date(of: now),
                "hours": day.closed != nil
                    ? (day.closed == "public_holiday" ? strings["branch_holiday"] ?? "" : "\(strings["finder_closed"] ?? "") · \(day.closed!)")
                    : day.intervals.isEmpty
                        ? strings["finder_closed"] ?? "" : day.intervals.map { "\($0.opens)–\($0.closes)" }.joined(separator: ", "),
            ]
        }
        page.values["map"] = FinderMap.svg(
            pins: [
                FinderMap.Pin(number: 1, point: branch.position, isBranch: branch.kind == .branch, isOpen: status.status.isOpen, label: branch.name)
            ],
            you: nil, title: strings["finder_map_title"] ?? "", youLabel: "")
        return render("branch", page)
    }

    /// Directions to `point` in the phone's own maps app: Apple Maps on an iPhone, iPad or Mac,
    /// the `geo:` URI Android hands to the maps app the customer chose, OpenStreetMap elsewhere.
    static func routeLink(to point: GeoPoint, name: String, userAgent: String?) -> String {
        let (lat, lon) = (point.latitudeText, point.longitudeText)
        let agent = userAgent ?? ""
        if agent.contains("Android") {
            let label = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            return "geo:\(lat),\(lon)?q=\(lat),\(lon)(\(label))"
        }
        if ["iPhone", "iPad", "Macintosh"].contains(where: agent.contains) { return "https://maps.apple.com/?daddr=\(lat),\(lon)" }
        return "https://www.openstreetmap.org/directions?route=%3B\(lat)%2C\(lon)"
    }
}
