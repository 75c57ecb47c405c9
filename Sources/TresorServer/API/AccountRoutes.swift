import Hummingbird
import TresorCore
import TresorDomain
import TresorLedger

/// Read-only account routes: list, one account, its transactions, its balance history.
struct AccountRoutes {
    let accounts: AccountService

    func list(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        return JSON.response(writing: AccountListDTO(accounts: try await accounts.accounts(of: principal).map(AccountDTO.init)))
    }

    func show(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        struct Body: Encodable { let account: AccountDTO }
        let account = try await accounts.account(try context.parameters.id("id"), of: principal)
        return try JSON.response(Body(account: AccountDTO(account)))
    }

    func transactions(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let query = request.uri.queryParameters
        let typeText = query.get("type").map { String($0) } ?? "all"
        guard let direction = EntryQuery.Direction(rawValue: typeText) else {
            throw DomainError(.invalidParameter, field: "type", "type is income, expense or all.")
        }
        let limitText = query.get("limit").map { String($0) } ?? "50"
        guard let limit = Int(limitText), (1...EntryQuery.limitMax).contains(limit) else {
            throw DomainError(.invalidParameter, field: "limit", "limit is 1 to \(EntryQuery.limitMax).")
        }
        let cursor = try query.get("cursor").map { try EntryCursor(token: String($0)) }
        let page = try await accounts.transactionPage(
            try context.parameters.id("id"), of: principal, from: try request.date("from"), to: try request.date("to"),
            direction: direction, limit: limit, cursor: cursor, receipts: true)
        let entries = page.entries.map { entry in
            var dto = EntryDTO(entry)
            dto.receiptID = page.receipts[entry.transactionID.rawValue]
            return dto
        }
        return JSON.response(writing: EntryPageDTO(transactions: entries, nextCursor: page.next?.token))
    }

    func balanceHistory(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let granularityText = request.uri.queryParameters.get("granularity").map { String($0) } ?? "month"
        guard let granularity = AccountService.Granularity(rawValue: granularityText) else {
            throw DomainError(.invalidParameter, field: "granularity", "granularity is day, week or month.")
        }
        let points = try await accounts.balanceHistory(
            try context.parameters.id("id"), of: principal, granularity: granularity, from: try request.date("from"), to: try request.date("to"))
        struct Body: Encodable { let points: [BalancePointDTO] }
        return try JSON.response(Body(points: points.map { BalancePointDTO(date: $0.date, balance: $0.balance) }))
    }
}
