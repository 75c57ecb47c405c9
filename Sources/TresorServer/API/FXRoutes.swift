import Foundation
import Hummingbird
import TresorCore
import TresorDomain

struct CashQuoteDTO: Encodable {
    let from: String
    let to: String
    let rateDate: String
    let referenceRate: String
    let marginPercent: String
    let price: String
    let debit: Money
    let receive: Money

    init(_ quote: CashQuote) {
        from = quote.debit.currency.code
        to = quote.receive.currency.code
        rateDate = quote.date.description
        referenceRate = CurrencyConversion.text(quote.referenceRate)
        marginPercent = quote.marginBasisPoints.basisPointsAsPercent
        price = CurrencyConversion.text(quote.pricePerUnit)
        debit = quote.debit
        receive = quote.receive
    }

    enum CodingKeys: String, CodingKey {
        case from, to, price, debit, receive
        case rateDate = "rate_date"
        case referenceRate = "reference_rate"
        case marginPercent = "margin_percent"
    }
}

struct CashOrderDTO: Encodable {
    let id: String
    let branchID: String
    let amount: Money
    let debitAccount: String
    let debit: Money
    let price: String
    let rateDate: String
    let pickupDate: String
    let fromVault: Bool
    let status: String

    init(_ order: CashOrder) {
        id = String(order.id)
        branchID = String(order.branchID)
        amount = order.amount
        debitAccount = String(order.debitAccount.rawValue)
        debit = order.debit
        price = order.price
        rateDate = order.rateDate.description
        pickupDate = order.pickupDate.description
        fromVault = order.fromVault
        status = order.status.rawValue
    }

    enum CodingKeys: String, CodingKey {
        case id, amount, debit, price, status
        case branchID = "branch_id"
        case debitAccount = "debit_account"
        case rateDate = "rate_date"
        case pickupDate = "pickup_date"
        case fromVault = "from_vault"
    }
}

/// Reference rates and banknote quotes (public), banknote orders (customers) and the cash
/// desk's steps (staff).
struct FXRoutes {
    let fx: FXService
    let orders: CashOrderService

    func rates(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let conversion = try await fx.conversion(on: try request.date("date"))
        let baseCode = request.text("base") ?? "EUR"
        guard let base = Currency(code: baseCode) ?? (baseCode == "EUR" ? .eur : nil) else {
            throw DomainError(.unsupportedCurrency, field: "base", "Unsupported currency \(baseCode.prefix(8)).")
        }
        let baseRate = try conversion.rate(base, field: "base")
        var rates: [String: String] = [:]
        for (code, perEUR) in conversion.perEUR where code != base.code { rates[code] = CurrencyConversion.text(perEUR / baseRate) }
        struct Body: Encodable {
            let date: String
            let base: String
            let rates: [String: String]
            let source: String
        }
        return try JSON.response(Body(date: conversion.date.description, base: base.code, rates: rates, source: "ECB euro reference rates"))
    }

    func quote(_ request: Request, context: TresorRequestContext) async throws -> Response {
        struct Input: Decodable {
            let from: Currency
            let to: Currency
            let amount: Money
        }
        let input = try JSON.decode(Input.self, from: try await JSON.body(request))
        return try JSON.response(["quote": CashQuoteDTO(try await fx.quote(from: input.from, to: input.to, amount: input.amount))])
    }

    struct OrderInput: Decodable {
        let branch: String
        let currency: Currency
        let amount: String
        let pickupDate: String
        let debitAccount: String

        enum CodingKeys: String, CodingKey {
            case branch, currency, amount
            case pickupDate = "pickup_date"
            case debitAccount = "debit_account"
        }
    }

    func place(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let input = try JSON.decode(OrderInput.self, from: try await JSON.body(request))
        guard let branch = Int64(input.branch) else { throw DomainError(.notFound, field: "branch", "No such branch.") }
        guard let account = AccountID(text: input.debitAccount) else {
            throw DomainError(.accountNotFound, field: "debit_account", "No such account.")
        }
        do {
            let (order, quote) = try await orders.place(
                branch: branch, amount: try Money(parsing: input.amount, currency: input.currency),
                pickupDate: try LocalDate(parsing: input.pickupDate, field: "pickup_date"),
                debitAccount: account, by: principal)
            struct Body: Encodable {
                let order: CashOrderDTO
                let quote: CashQuoteDTO
                let availability: String
            }
            return try JSON.response(Body(order: CashOrderDTO(order), quote: CashQuoteDTO(quote), availability: "available"), status: .created)
        } catch let shortage as CashShortage {
            return try Self.shortageResponse(shortage)
        }
    }

    /// `409 cash_not_available` in the usual error shape, plus what the branch has, where else
    /// there is enough, and from when the central vault can deliver.
    static func shortageResponse(_ shortage: CashShortage) throws -> Response {
        struct Alternative: Encodable {
            let branchID: String
            let name: String
            let available: Money
            enum CodingKeys: String, CodingKey {
                case name, available
                case branchID = "branch_id"
            }
        }
        struct Body: Encodable {
            let error: ErrorBody
            let availability: String
            let available: Money
            let alternatives: [Alternative]
            let vaultDate: String
            enum CodingKeys: String, CodingKey {
                case error, availability, available, alternatives
                case vaultDate = "vault_date"
            }
        }
        let message =
            shortage.available.minorUnits > 0
            ? "The branch has only \(shortage.available) for that day; pick up from \(shortage.vaultDate) or at another branch."
            : "The branch has none for that day; pick up from \(shortage.vaultDate) or at another branch."
        return try JSON.response(
            Body(
                error: ErrorBody(
                    code: DomainError.Code.cashNotAvailable.rawValue, field: "amount", message: message, suggested: shortage.vaultDate.description),
                availability: shortage.availability, available: shortage.available,
                alternatives: shortage.alternatives.map {
                    Alternative(branchID: String($0.branch.id), name: $0.branch.name, available: $0.available)
                },
                vaultDate: shortage.vaultDate.description), status: .conflict)
    }

    func list(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        return try JSON.response(["orders": try await orders.orders(of: principal).map(CashOrderDTO.init)])
    }

    func cancel(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let id = try context.parameters.number("id", what: "order")
        return try JSON.response(["order": CashOrderDTO(try await orders.cancel(id, by: principal))])
    }

    func staffList(_ request: Request, context: TresorRequestContext) async throws -> Response {
        _ = try context.requireStaff()
        guard let text = request.text("branch"), let branch = Int64(text) else {
            throw DomainError(.missingField, field: "branch", "Say which branch (its id).")
        }
        return try JSON.response(["orders": try await orders.orders(branch: branch).map(CashOrderDTO.init)])
    }

    func staffStep(handOut: Bool) -> @Sendable (Request, TresorRequestContext) async throws -> Response {
        { _, context in
            let staff = try context.requireStaff()
            let id = try context.parameters.number("id", what: "order")
            let order = handOut ? try await orders.handOut(id, staff: staff) : try await orders.markReady(id, staff: staff)
            return try JSON.response(["order": CashOrderDTO(order)])
        }
    }
}
