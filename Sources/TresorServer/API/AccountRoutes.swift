import Hummingbird
import TresorCore
import TresorDomain
import TresorLedger

/// Read-only account routes: list, one account, its transactions, its balance history.
struct AccountRoutes {
    let accounts: AccountService
    let metrics: ServerMetrics
    /// This bank's kept transaction pages, by their query.
    let pages = KeptPages<EntryQuery>(bytesMax: 8 << 20)
    /// This bank's kept accounts overviews, by customer. why 2 MiB: ~3,800 overviews of two
    /// accounts, the customers active in the last minutes of a mid-sized bank.
    let overviews = KeptPages<CustomerID>(bytesMax: 2 << 20)

    /// why `readAsCaller`: these three are the reads an app makes most; each looks the session
    /// up in the same read as its data (see `BearerAuthMiddleware.looksUpInRoute`), the list
    /// and a page's revision in the same statement.
    func list(_ request: Request, context: TresorRequestContext) async throws -> Response {
        // why the revision first while any overview is kept: it is one row of one statement with
        // the session (the customer is not known before it); an overview still current is
        // answered from that, else the accounts are read with the session again.
        if !overviews.isEmpty {
            let (principal, rows) = try await context.readJoined(Ledger.callerOverviewRevision)
            if let kept = overviews.page(principal.customerID, at: rows.first?.int(0) ?? 0) {
                metrics.overviewCacheUsed(hit: true)
                return Self.response(kept)
            }
        }
        let (principal, rows) = try await context.readJoined(Ledger.callerAccountsWithRevisions)
        let accounts = AccountService.shown(Ledger.accounts(from: rows))
        let body = JSON.bytes(writing: AccountListDTO(accounts: accounts.map(AccountDTO.init)))
        let overview = KeptPage(revision: Ledger.overviewRevision(ofAccountRows: rows), body: body, tag: ETagMiddleware.tag(of: body))
        overviews.keep(overview, for: principal.customerID)
        metrics.overviewCacheUsed(hit: false)
        return Self.response(overview)
    }

    func show(_ request: Request, context: TresorRequestContext) async throws -> Response {
        struct Body: Encodable { let account: AccountDTO }
        let id = Result<AccountID, any Error> { try context.parameters.id("id") }
        let account = try await context.readAsCaller { principal, session in
            try await AccountService.account(try id.get(), of: principal, in: session)
        }.value
        return try JSON.response(Body(account: AccountDTO(account)))
    }

    func transactions(_ request: Request, context: TresorRequestContext) async throws -> Response {
        // why parsed first, thrown inside the read: a caller without a valid session hears 401
        // before anything about its parameters.
        let parsed = Result { try PageRequest(request, context: context) }
        let pages = self.pages
        let revisionQuery = (try? parsed.get()).map { Ledger.callerRevision(of: $0.account) }
        // why first alone when a page is kept: the session and the revision are one statement,
        // on SQLite without the BEGIN and COMMIT of a read around it; a page still current is
        // answered from that. Otherwise the read below looks them up again with the page.
        if let query = try? parsed.get(), let revisionQuery, pages.keeps(query.key) {
            let rows = try await context.readJoined(revisionQuery).rows
            if let kept = pages.page(query.key, at: try AccountService.revision(from: rows)) {
                metrics.pageCacheUsed(hit: true)
                return Self.response(kept)
            }
        }
        let read = try await context.readAsCaller(joining: revisionQuery) { principal, rows, session -> PageRead in
            let query = try parsed.get()
            let revision = try AccountService.revision(from: rows)
            if let kept = pages.page(query.key, at: revision) { return .kept(kept) }
            let page = try await AccountService.transactionPage(
                query.account, of: principal, from: query.from, to: query.to, direction: query.direction, limit: query.limit,
                cursor: query.cursor, receipts: true, in: session)
            return .read(page, revision: revision)
        }.value
        let page: KeptPage
        switch read {
        case .kept(let kept):
            metrics.pageCacheUsed(hit: true)
            page = kept
        case .read(let read, let revision):
            metrics.pageCacheUsed(hit: false)
            let entries = read.entries.map { entry in
                var dto = EntryDTO(entry)
                dto.receiptID = read.receipts[entry.transactionID.rawValue]
                return dto
            }
            let body = JSON.bytes(writing: EntryPageDTO(transactions: entries, nextCursor: read.next?.token))
            page = KeptPage(revision: revision, body: body, tag: ETagMiddleware.tag(of: body))
            pages.keep(page, for: try parsed.get().key)
        }
        return Self.response(page)
    }

    static func response(_ page: KeptPage) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.eTag] = page.tag
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: page.body))
    }

    /// What the read of a transactions page found: the kept page still current, or the page read anew.
    enum PageRead: Sendable {
        case kept(KeptPage)
        case read(AccountService.TransactionPage, revision: Int64)
    }

    /// The query of `GET /v1/accounts/{id}/transactions`.
    struct PageRequest: Sendable {
        let account: AccountID
        let from: LocalDate?
        let to: LocalDate?
        let direction: EntryQuery.Direction
        let limit: Int
        let cursor: EntryCursor?

        /// What the page is kept under: everything that chooses its entries.
        var key: EntryQuery { EntryQuery(accountID: account, from: from, to: to, direction: direction, limit: limit, after: cursor) }

        init(_ request: Request, context: TresorRequestContext) throws {
            let query = request.uri.queryParameters
            let typeText = query.get("type").map { String($0) } ?? "all"
            guard let direction = EntryQuery.Direction(rawValue: typeText) else {
                throw DomainError(.invalidParameter, field: "type", "type is income, expense or all.")
            }
            let limitText = query.get("limit").map { String($0) } ?? "50"
            guard let limit = Int(limitText), (1...EntryQuery.limitMax).contains(limit) else {
                throw DomainError(.invalidParameter, field: "limit", "limit is 1 to \(EntryQuery.limitMax).")
            }
            self.direction = direction
            self.limit = limit
            cursor = try query.get("cursor").map { try EntryCursor(token: String($0)) }
            account = try context.parameters.id("id")
            from = try request.date("from")
            to = try request.date("to")
        }
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
