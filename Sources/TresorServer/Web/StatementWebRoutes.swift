import Foundation
import Hummingbird
import TresorCore
import TresorDocuments
import TresorDomain

/// The statements screen: pick an account and a period (last month, this year, last year, or
/// any dates), download the PDF, CSV or camt.053 file in the customer's language.
extension WebApp {
    func registerStatements(on router: Router<TresorRequestContext>) {
        router.get("/statements", use: statementsPage)
        router.get("/statements/download", use: downloadStatement)
    }

    func statementsPage(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        return try await statementsForm(request, principal: principal, token: token, error: nil)
    }

    func downloadStatement(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        do {
            let format = request.uri.queryParameters.get("format").flatMap { StatementFormat(rawValue: String($0)) } ?? .pdf
            return try await statementFile(request, of: principal, format: format, inline: false)
        } catch let error as DomainError {
            return try await statementsForm(request, principal: principal, token: token, error: error)
        }
    }

    /// The statement `?account&from&to` asks for, in the page's language: a download on the
    /// phone, a PDF shown for the printer at a station.
    func statementFile(_ request: Request, of principal: Principal, format: StatementFormat, inline: Bool) async throws -> Response {
        let query = request.uri.queryParameters
        guard let accountID = query.get("account").flatMap({ AccountID(text: $0) }) else {
            throw DomainError(.accountNotFound, field: "account", "No such account.")
        }
        let from = try LocalDate(parsing: query.get("from").map { String($0) } ?? "", field: "from")
        let to = try LocalDate(parsing: query.get("to").map { String($0) } ?? "", field: "to")
        let statement = try await services.statements.statement(accountID, of: principal, from: from, to: to)
        // why semicolons and words: the file is for the customer's spreadsheet, which in
        // Switzerland (and its neighbours) splits a CSV file into columns at semicolons, not
        // commas, and shows its header line to a person.
        let branding = theme.documentBranding(bankName: bankName)
        let language = page(request, csrf: nil).language.rawValue
        return WebSupport.download(
            parts: {
                StatementFiles.parts(statement, format: format, branding: branding, language: language, csvSeparator: .semicolon, csvColumns: .words)
            }, contentType: format.contentType, fileName: "\(statement.identifier).\(format.fileExtension)", inline: inline)
    }

    func statementsForm(_ request: Request, principal: Principal, token: String, error: DomainError?) async throws -> Response {
        var page = page(request, csrf: WebSupport.csrfToken(forSession: token))
        let strings = page.strings
        let query = request.uri.queryParameters
        let accounts = try await services.accounts.accounts(of: principal)
        let chosen = query.get("account").flatMap { AccountID(text: $0) } ?? (accounts.first { $0.kind == .current } ?? accounts.first)?.id
        let today = services.today
        let lastMonth = today.startOfMonth.adding(days: -1)
        let thisYear = LocalDate(year: today.year, month: 1, day: 1)!
        let presets: [(String, LocalDate, LocalDate)] = [
            ("statements_last_month", lastMonth.startOfMonth, lastMonth),
            ("statements_this_month", today.startOfMonth, today),
            ("statements_this_year", thisYear, today),
            ("statements_last_year", LocalDate(year: today.year - 1, month: 1, day: 1)!, thisYear.adding(days: -1)),
        ]
        let from = query.get("from").map { String($0) } ?? presets[0].1.description
        let to = query.get("to").map { String($0) } ?? presets[0].2.description
        page.values["accounts"] = accounts.map {
            ["id": String($0.id.rawValue), "name": $0.name, "iban_tail": " …" + String($0.iban.electronic.suffix(4)), "selected": $0.id == chosen]
        }
        page.values["presets"] = presets.map { key, start, end in
            [
                "label": strings[key] ?? key, "from": start.description, "to": end.description, "account": chosen.map { String($0.rawValue) } ?? "",
                "current": start.description == from && end.description == to,
            ]
        }
        page.values["from"] = from
        page.values["to"] = to
        let format = query.get("format").map { String($0) } ?? "pdf"
        page.values["formats"] = [("pdf", "PDF"), ("csv", "CSV"), ("camt053", "camt.053")].map {
            ["value": $0.0, "label": $0.1, "checked": $0.0 == format]
        }
        if let error {
            page.values["error"] = Self.message(for: error, strings: strings)
            page.values["from_error"] = error.field == "from"
            page.values["to_error"] = error.field == "to"
        }
        return render("statements", page, status: error == nil ? .ok : .badRequest)
    }
}
