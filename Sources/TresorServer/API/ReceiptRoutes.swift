import Foundation
import Hummingbird
import TresorCore
import TresorDomain
import TresorScan

/// Receipts (`/v1/receipts`: photo in, reading out, corrections, the image back), the
/// categories, and the monthly budgets (`/v1/budgets?month=YYYY-MM`).
struct ReceiptRoutes {
    let receipts: ReceiptService
    let budgets: BudgetService
    let scanner: ScanWorkerPool
    let limiter: RateLimiter

    struct ReceiptDTO: Encodable {
        let id: String
        let merchant: String?
        let date: LocalDate?
        let total: Money?
        let category: String
        let text: String
        let confidence: Int
        let transactionID: String?
        let vat: [VATAmount]
        let splits: [SplitDTO]
        /// Photos of the receipt (`GET …/image?page=n`): more than 1 for a long one taken in parts.
        let pages: Int

        struct SplitDTO: Codable {
            let category: String
            let amount: Money
        }

        init(_ receipt: Receipt) {
            id = String(receipt.id)
            merchant = receipt.merchant
            date = receipt.date
            total = receipt.total
            category = receipt.category
            text = receipt.text
            confidence = receipt.confidence
            transactionID = receipt.transactionID.map(String.init)
            vat = receipt.vat
            splits = receipt.splits.map { SplitDTO(category: $0.category, amount: $0.amount) }
            pages = receipt.pages
        }

        enum CodingKeys: String, CodingKey {
            case id, merchant, date, total, category, text, confidence, vat, splits, pages
            case transactionID = "transaction_id"
        }
    }

    struct One: Encodable { let receipt: ReceiptDTO }

    func create(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let (images, _) = try await ImageBody.readPages(request, limits: scanner.limits)
        let receipt = try await ReceiptIntake.store(
            images, for: principal.customerID, scanner: scanner, receipts: receipts, limiter: limiter)
        return try JSON.response(One(receipt: ReceiptDTO(receipt)), status: .created)
    }

    func list(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let query = try Self.query(request, emptyIsAbsent: false)
        struct Many: Encodable { let receipts: [ReceiptDTO] }
        return try JSON.response(Many(receipts: try await receipts.list(of: principal.customerID, matching: query).map { ReceiptDTO($0) }))
    }

    /// `?q=&min_amount=&max_amount=&from=&to=&month=`. `emptyIsAbsent`: the web app's search
    /// form sends every field, an empty one meaning no condition; the API, as its document
    /// says, refuses an empty value (it is no amount, no date, no month).
    static func query(_ request: Request, emptyIsAbsent: Bool) throws -> ReceiptQuery {
        func given(_ name: String) -> String? { request.text(name).flatMap { $0.isEmpty && emptyIsAbsent ? nil : $0 } }
        func amount(_ name: String) throws -> Int64? {
            try given(name).map { try Money(parsing: TypedAmount.normalized($0), currency: .chf, field: name).minorUnits }
        }
        let month = given("month")
        if let month { _ = try BudgetService.validate(month: month) }
        return try ReceiptQuery(
            text: given("q"), minMinor: try amount("min_amount"), maxMinor: try amount("max_amount"),
            from: try given("from").map { try LocalDate(parsing: $0, field: "from") },
            to: try given("to").map { try LocalDate(parsing: $0, field: "to") },
            month: month)
    }

    func show(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        return try JSON.response(One(receipt: ReceiptDTO(try await receipts.get(try context.parameters.receiptID(), of: principal.customerID))))
    }

    func image(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let page = try await request.integer("page", default: 1, range: 1...scanner.limits.maxPages)
        return ImageBody.response(try await receipts.image(try context.parameters.receiptID(), of: principal.customerID, page: page))
    }

    func update(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        struct Input: Decodable {
            let merchant: String?
            let date: LocalDate?
            let total: Money?
            let category: String?
        }
        let input = try JSON.decode(Input.self, from: try await JSON.body(request))
        let receipt = try await receipts.update(
            try context.parameters.receiptID(), of: principal.customerID,
            ReceiptChanges(merchant: input.merchant, date: input.date, total: input.total, category: input.category))
        return try JSON.response(One(receipt: ReceiptDTO(receipt)))
    }

    /// `PUT /v1/receipts/{id}/splits {"splits": [{"category", "amount"}]}`; an empty list makes it whole.
    func split(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let id = try context.parameters.receiptID()
        // why first: another customer's id answers 404 whatever the body, as on every route.
        _ = try await receipts.get(id, of: principal.customerID)
        struct Input: Decodable { let splits: [ReceiptDTO.SplitDTO] }
        let input = try JSON.decode(Input.self, from: try await JSON.body(request))
        let receipt = try await receipts.split(
            id, of: principal.customerID, into: input.splits.map { ReceiptSplit(category: $0.category, amount: $0.amount) })
        return try JSON.response(One(receipt: ReceiptDTO(receipt)))
    }

    func delete(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        try await receipts.delete(try context.parameters.receiptID(), of: principal.customerID)
        return Response(status: .noContent)
    }

    func categories(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        return try JSON.response(["categories": try await receipts.categories(of: principal.customerID)])
    }

    func addCategory(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        struct Input: Decodable { let name: String }
        try await receipts.addCategory(try JSON.decode(Input.self, from: try await JSON.body(request)).name, for: principal.customerID)
        return try JSON.response(["categories": try await receipts.categories(of: principal.customerID)], status: .created)
    }

    struct BudgetDTO: Encodable {
        struct Line: Encodable {
            let category: String?
            let limit: Money?
            let spent: Money
            let remaining: Money?
            let percent: Int?
        }
        let month: String
        let carriedFrom: String?
        let currency: String
        let overall: Line
        let categories: [Line]
        let notCounted: [Money]

        enum CodingKeys: String, CodingKey {
            case month, currency, overall, categories
            case carriedFrom = "carried_from"
            case notCounted = "not_counted"
        }

        init(_ report: BudgetService.Report) {
            func line(_ line: BudgetService.Line) -> Line {
                Line(category: line.category, limit: line.limit, spent: line.spent, remaining: line.remaining, percent: line.percent)
            }
            month = report.month
            carriedFrom = report.carriedFrom
            currency = report.currency.code
            overall = line(report.overall)
            categories = report.categories.map(line)
            notCounted = report.notCounted
        }
    }

    static func month(_ request: Request) throws -> String {
        guard let month = request.uri.queryParameters.get("month") else {
            throw DomainError(.missingField, field: "month", "Name the month: ?month=YYYY-MM.")
        }
        return String(month)
    }

    func showBudget(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        struct Body: Encodable { let budget: BudgetDTO }
        let report = try await budgets.report(month: try Self.month(request), for: principal.customerID)
        return try JSON.response(Body(budget: BudgetDTO(report)))
    }

    func setBudget(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        struct Input: Decodable {
            let overall: Money?
            let categories: [String: Money]?
        }
        let month = try Self.month(request)
        let input = try JSON.decode(Input.self, from: try await JSON.body(request))
        try await budgets.set(
            month: month, overall: input.overall, categories: input.categories ?? [:],
            known: try await receipts.categories(of: principal.customerID), for: principal.customerID)
        struct Body: Encodable { let budget: BudgetDTO }
        return try JSON.response(Body(budget: BudgetDTO(try await budgets.report(month: month, for: principal.customerID))))
    }
}

extension Parameters {
    func receiptID() throws -> Int64 {
        guard let text = get("id"), let id = Int64(text), id > 0 else { throw DomainError(.notFound, field: "id", "No such receipt.") }
        return id
    }
}
