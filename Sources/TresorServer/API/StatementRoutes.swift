import Foundation
import Hummingbird
import TresorCore
import TresorDocuments
import TresorDomain

/// `GET /v1/accounts/{id}/statements?from=&to=&format=pdf|csv|camt053&lang=&separator=`: the
/// statement of one of the caller's accounts for any period up to ten years.
struct StatementRoutes {
    let services: Services
    let theme: WebTheme
    let languages: [String]

    func statement(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let id: AccountID = try context.parameters.id("id")
        // why first: another customer's account is 404 whatever else the request gets wrong.
        _ = try await services.accounts.account(id, of: principal)
        let query = request.uri.queryParameters
        let formatText = query.get("format").map { String($0) } ?? "pdf"
        guard let format = StatementFormat(rawValue: formatText) else {
            throw DomainError(.invalidParameter, field: "format", "format is pdf, csv or camt053.")
        }
        guard let from = try request.date("from") else { throw DomainError(.invalidParameter, field: "from", "from is required (YYYY-MM-DD).") }
        guard let to = try request.date("to") else { throw DomainError(.invalidParameter, field: "to", "to is required (YYYY-MM-DD).") }
        let language = query.get("lang").map { String($0) } ?? languages.first ?? "en"
        guard languages.contains(language) else {
            throw DomainError(.invalidParameter, field: "lang", "lang is one of \(languages.joined(separator: ", ")).")
        }
        let separatorText = query.get("separator").map { String($0) } ?? "comma"
        guard let separator = StatementCSV.Separator(rawValue: separatorText) else {
            throw DomainError(.invalidParameter, field: "separator", "separator is comma or semicolon.")
        }
        let statement = try await services.statements.statement(id, of: principal, from: from, to: to)
        let branding = theme.documentBranding(bankName: statement.bank.name)
        return WebSupport.download(
            parts: { StatementFiles.parts(statement, format: format, branding: branding, language: language, csvSeparator: separator) },
            contentType: format.contentType, fileName: "\(statement.identifier).\(format.fileExtension)")
    }
}
