import Foundation
import Hummingbird
import TresorCore
import TresorDocuments
import TresorDomain
import TresorLedger

/// The self-service station's kiosk page (`/station`) on a terminal in a branch lobby. Idle, it
/// shows a pairing code as a QR code and as text, renewed every minute; once a phone pairs, the
/// customer's menu for at most five minutes: statements and certificates opened for the
/// station's printer, and payouts from a savings book, which only a station may make.
extension WebApp {
    func registerStation(on router: Router<TresorRequestContext>) {
        router.get("/station", use: stationPage)
        router.get("/station/code", use: stationCode)
        router.get("/station/pair", use: stationPairInfo)
        router.post("/station/done", use: stationDone)
        router.get("/station/statement", use: stationStatement)
        router.post("/station/certificate", use: stationCertificate)
        router.post("/station/payout", use: stationPayout)
    }

    /// The station behind the kiosk's cookie, and its key.
    func kiosk(_ request: Request) async throws -> (station: Station, key: String)? {
        guard let key = WebSupport.cookies(request)[WebSupport.stationCookie], let station = try await services.stations.station(key: key) else {
            return nil
        }
        return (station, key)
    }

    /// The customer at the station now, as the services see them.
    func stationCustomer(_ station: Station) async throws -> (visit: StationVisit, principal: Principal)? {
        guard let visit = try await services.stations.visit(at: station) else { return nil }
        return (visit, try await services.stations.principal(of: visit))
    }

    static func stationCSRF(key: String) -> String { WebSupport.csrfToken(forSession: "station|\(key)") }

    func stationPage(_ request: Request, context: TresorRequestContext) async throws -> Response {
        // Staff open `/station?key=…` once on the terminal; the key then lives in a cookie.
        if let key = request.uri.queryParameters.get("key").map({ String($0) }) {
            guard try await services.stations.station(key: key) != nil else { return stationUnknown(request) }
            let year = 365 * 86_400
            return WebSupport.redirect("/station", cookies: [WebSupport.cookie(WebSupport.stationCookie, key, request: request, maxAge: 10 * year)])
        }
        guard let (station, key) = try await kiosk(request) else { return stationUnknown(request) }
        return try await stationScreen(request, station: station, key: key, notice: nil, error: nil)
    }

    func stationUnknown(_ request: Request) -> Response {
        var page = page(request, csrf: nil)
        page.values["signed_in"] = false
        page.values["station_assets"] = true
        page.values["unknown_station"] = true
        return render("station", page, status: .forbidden)
    }

    /// The idle screen (code and QR) or the customer's menu.
    func stationScreen(_ request: Request, station: Station, key: String, notice: String?, error: DomainError?) async throws -> Response {
        var page = page(request, csrf: Self.stationCSRF(key: key))
        page.values["signed_in"] = false
        page.values["station_assets"] = true
        page.values["station_name"] = "\(station.branchName) · \(station.name)"
        guard let (visit, principal) = try await stationCustomer(station) else {
            let code = try await services.stations.code(for: station, showing: nil)
            page.values["pairing"] = pairingValues(code, station: station, request: request)
            page.values["ended"] = request.uri.queryParameters.get("ended") != nil
            return render("station", page)
        }
        let strings = page.strings
        let language = page.language
        page.values["customer"] = try await services.bank.customerName(principal.customerID) ?? principal.contract
        page.values["expires_ms"] = String(visit.expiresAtMillis - services.clock.unixMillis)
        let accounts = try await services.accounts.accounts(of: principal)
        let today = services.today
        let lastMonth = today.startOfMonth.adding(days: -1)
        let thisYear = LocalDate(year: today.year, month: 1, day: 1)!
        let periods: [(String, LocalDate, LocalDate)] = [
            ("statements_last_month", lastMonth.startOfMonth, lastMonth), ("statements_this_year", thisYear, today),
            ("statements_last_year", LocalDate(year: today.year - 1, month: 1, day: 1)!, thisYear.adding(days: -1)),
        ]
        page.values["statement_accounts"] = accounts.filter { !$0.kind.isBankOwn }.map { account in
            [
                "name": account.name, "balance": language.format(account.booked),
                "periods": periods.map { key, from, to in
                    ["label": strings[key] ?? key, "href": "/station/statement?account=\(account.id.rawValue)&from=\(from)&to=\(to)"]
                },
            ] as [String: Any]
        }
        let books = accounts.filter { $0.kind == .savingsBook }
        page.values["has_books"] = !books.isEmpty
        page.values["books"] = books.map { ["id": String($0.id.rawValue), "name": "\($0.name) · \(language.format($0.available))"] }
        page.values["payout_targets"] = accounts.filter { $0.kind == .current || $0.kind == .savings }.filter { target in
            books.contains { $0.currency == target.currency }
        }.map { ["id": String($0.id.rawValue), "name": "\($0.name) · \($0.currency.code)"] }
        page.values["idempotency"] = WebSupport.randomToken()
        page.values["date"] = lastMonth.description
        page.values["max_date"] = today.description
        page.values["years"] = (1...5).map { ["year": String(today.year - $0), "selected": $0 == 1] }
        page.values["kinds"] = ["current", "savings"].map { ["value": $0, "label": strings["document_kind_\($0)"] ?? $0] }
        page.values["currencies"] = ["CHF", "EUR"].map { ["value": $0] }
        page.values["form_action"] = "/station/certificate"
        page.values["form_target"] = "_blank"
        page.values["notice"] = notice
        if let error { page.values["error"] = Self.message(for: error, strings: strings) }
        return render("station", page, status: error == nil ? .ok : .badRequest)
    }

    /// What the idle screen shows: the code as text and as a QR code of the pairing link (a phone
    /// camera opens it; the app reads the station and the code from it).
    func pairingValues(_ code: StationCode, station: Station, request: Request) -> [String: Any] {
        let host = request.head.authority ?? "localhost"
        let scheme = Self.verifyURL(request).hasPrefix("https") ? "https" : "http"
        let link = "\(scheme)://\(host)/station/pair?s=\(station.id)&c=\(code.code)"
        let grouped = code.grouped
        return [
            "code": code.code, "code_grouped": grouped, "qr": QRMatrix(link)?.svg(title: grouped) ?? "", "link": link,
            "expires_at": String(code.expiresAtMillis), "expires_in": String(max(0, code.expiresAtMillis - services.clock.unixMillis)),
        ]
    }

    /// Polled by the idle screen every two seconds: paired (the page reloads into the menu), or
    /// the code to show (the same until it nears its end, then a new one).
    func stationCode(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (station, _) = try await kiosk(request) else { return Response(status: .forbidden) }
        if try await services.stations.visit(at: station) != nil { return try JSON.response(["paired": true]) }
        let query = request.uri.queryParameters
        let showing = query.get("showing").flatMap { code in
            query.get("expires").flatMap { Int64($0) }.map { StationCode(code: String(code), expiresAtMillis: $0) }
        }
        let code = try await services.stations.code(for: station, showing: showing)
        struct Body: Encodable {
            let paired: Bool
            let code: String
            let grouped: String
            let expiresAt: Int64
            let expiresIn: Int64
            let qr: String
            enum CodingKeys: String, CodingKey {
                case paired, code, grouped, qr
                case expiresAt = "expires_at"
                case expiresIn = "expires_in"
            }
        }
        // why no QR for the code already shown: the kiosk asks every two seconds and redraws only a new code.
        let values = code == showing ? nil : pairingValues(code, station: station, request: request)
        return try JSON.response(
            Body(
                paired: false, code: code.code, grouped: code.grouped, expiresAt: code.expiresAtMillis,
                expiresIn: max(0, code.expiresAtMillis - services.clock.unixMillis), qr: values?["qr"] as? String ?? ""))
    }

    /// Where a phone's camera lands from the QR code without the app: it says to use the app.
    func stationPairInfo(_ request: Request, context: TresorRequestContext) async throws -> Response {
        var page = page(request, csrf: nil)
        page.values["signed_in"] = false
        page.values["station_assets"] = true
        page.values["pair_info"] = ["code": request.uri.queryParameters.get("c").map { String($0.prefix(StationService.codeLength)) } ?? ""]
        return render("station", page)
    }

    /// The kiosk's POST prologue: the station, its CSRF token, the customer at it.
    func stationForm(_ request: Request, bytes: Int) async throws -> (Station, String, [String: String], StationVisit, Principal)? {
        var request = request
        guard let (station, key) = try await kiosk(request) else { return nil }
        let form = WebSupport.form(try await request.collectBody(upTo: bytes))
        guard WebSupport.same(form["csrf"] ?? "", Self.stationCSRF(key: key)), let (visit, principal) = try await stationCustomer(station) else {
            return nil
        }
        return (station, key, form, visit, principal)
    }

    func stationDone(_ request: Request, context: TresorRequestContext) async throws -> Response {
        if let (_, _, _, visit, _) = try await stationForm(request, bytes: 1024) { try await services.stations.end(visit, reason: "done") }
        return WebSupport.redirect("/station?ended=1")
    }

    func stationStatement(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (station, key) = try await kiosk(request) else { return stationUnknown(request) }
        guard let (_, principal) = try await stationCustomer(station) else { return WebSupport.redirect("/station?ended=1") }
        do {
            return try await statementFile(request, of: principal, format: .pdf, inline: true)
        } catch let error as DomainError {
            return try await stationScreen(request, station: station, key: key, notice: nil, error: error)
        }
    }

    func stationCertificate(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (station, key, form, _, principal) = try await stationForm(request, bytes: 4 * 1024) else {
            return WebSupport.redirect("/station?ended=1")
        }
        do {
            let issued = try await issueCertificate(form, request: request, for: principal)
            let (_, bytes) = try await services.certificates.pdf(issued.id, of: principal)
            return WebSupport.download(bytes, contentType: "application/pdf", fileName: "\(issued.type.rawValue)-\(issued.code).pdf", inline: true)
        } catch let error as DomainError {
            return try await stationScreen(request, station: station, key: key, notice: nil, error: error)
        }
    }

    /// A payout from a savings book to one of the customer's accounts: a transfer made with the
    /// station's principal, which is what lets the money leave the book.
    func stationPayout(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (station, key, form, _, principal) = try await stationForm(request, bytes: 4 * 1024) else {
            return WebSupport.redirect("/station?ended=1")
        }
        let strings = page(request, csrf: nil).strings
        do {
            guard let from = form["from"].flatMap({ AccountID(text: $0) }), let book = try await services.ledger.account(from) else {
                throw DomainError(.accountNotFound, field: "from", "No such account.")
            }
            guard let to = form["to"].flatMap({ AccountID(text: $0) }) else { throw DomainError(.accountNotFound, field: "to", "No such account.") }
            let amount = try Money(parsing: TypedAmount.normalized(form["amount"] ?? ""), currency: book.currency)
            let transfer = TransferRequest(fromAccount: from, toAccount: to, amount: amount, message: strings["station_payout_text"])
            let body = "\(from.rawValue)|\(to.rawValue)|\(amount)"
            // why a key from the form: pressing the button twice pays out once.
            _ = try await services.transfers.transfer(
                transfer, by: principal, idempotencyKey: "station-" + (form["idempotency"] ?? WebSupport.randomToken()),
                requestHash: Hashing.sha256Hex(Array(body.utf8)))
            let notice = (strings["station_paid_out"] ?? "{amount}").replacingOccurrences(
                of: "{amount}", with: page(request, csrf: nil).language.format(amount))
            return try await stationScreen(request, station: station, key: key, notice: notice, error: nil)
        } catch let error as DomainError {
            return try await stationScreen(request, station: station, key: key, notice: nil, error: error)
        }
    }
}

extension StationCode {
    /// `K7M 4PX`: two groups of three, as the kiosk shows the code to be typed.
    var grouped: String { "\(code.prefix(3)) \(code.suffix(3))" }
}
