import Foundation
import Hummingbird
import TresorCore
import TresorDomain
import TresorLedger

/// Transactions grouped by day with date and income/expense filters, a detail view, and
/// "repeat this payment".
extension WebApp {
    func registerTimeline(on router: Router<TresorRequestContext>) {
        router.get("/transactions", use: timeline)
        router.get("/transactions/{id}", use: transactionDetail)
        router.post("/payments/{id}/repeat", use: repeatPayment)
    }

    func timeline(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var page = page(request, csrf: WebSupport.csrfToken(forSession: token))
        let language = page.language
        let query = request.uri.queryParameters
        let accounts = try await services.accounts.accounts(of: principal)
        guard let fallback = accounts.first(where: { $0.kind == .current }) ?? accounts.first else { return render("transactions", page) }
        let accountID = query.get("account").flatMap { AccountID(text: $0) } ?? fallback.id
        let direction = query.get("type").flatMap { EntryQuery.Direction(rawValue: String($0)) } ?? .all
        let from = query.get("from").flatMap { try? LocalDate(parsing: String($0)) }
        let to = query.get("to").flatMap { try? LocalDate(parsing: String($0)) }
        do {
            let entries = try await services.accounts.transactions(
                accountID, of: principal, from: from, to: to, direction: direction, limit: 100, cursor: nil
            ).entries
            var days: [[String: Any]] = []
            for entry in entries {
                let row: [String: Any] = [
                    "id": String(entry.transactionID.rawValue), "counterparty": entry.counterparty ?? entry.remittance ?? "",
                    "amount": language.format(entry.amount), "income": entry.amount.minorUnits > 0, "account": String(accountID.rawValue),
                ]
                if let last = days.last, last["date"] as? String == language.format(entry.bookingDate) {
                    var day = last
                    day["entries"] = (last["entries"] as! [[String: Any]]) + [row]
                    days[days.count - 1] = day
                } else {
                    days.append(["date": language.format(entry.bookingDate), "entries": [row]])
                }
            }
            page.values["days"] = days
        } catch let error as DomainError {
            page.values["error"] = Self.message(for: error, strings: page.strings)
        }
        page.values["accounts"] = accounts.map { ["id": String($0.id.rawValue), "name": $0.name, "selected": $0.id == accountID] }
        page.values["from"] = from?.description ?? ""
        page.values["to"] = to?.description ?? ""
        page.values["types"] = EntryQuery.Direction.allCases.map {
            ["value": $0.rawValue, "label": page.strings["timeline_\($0.rawValue)"] ?? $0.rawValue, "selected": $0 == direction]
        }
        return render("transactions", page)
    }

    func transactionDetail(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var page = page(request, csrf: WebSupport.csrfToken(forSession: token))
        let language = page.language
        guard let id = TransactionID(text: context.parameters.get("id") ?? ""), let posted = try await services.ledger.transaction(id) else {
            return WebSupport.html("Not found", status: .notFound)
        }
        let mine = Set(try await services.accounts.accounts(of: principal).map(\.id))
        // why: a transaction is shown only through a posting on one of the caller's accounts.
        guard let line = posted.postings.first(where: { mine.contains($0.accountID) }) else { return WebSupport.html("Not found", status: .notFound) }
        page.values["detail"] = [
            "date": language.format(posted.bookingDate), "value_date": language.format(posted.valueDate), "amount": language.format(line.amount),
            "counterparty": line.counterparty ?? "", "remittance": line.remittance ?? "", "balance": language.format(line.balanceAfter),
        ]
        if let payment = try await services.payments.payment(forTransaction: id, of: principal.customerID) {
            page.values["repeat_id"] = String(payment.id.rawValue)
        }
        return render("transaction", page)
    }

    /// Opens the pay form of the payment's type filled with everything but the date.
    func repeatPayment(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var request = request
        let form = WebSupport.form(try await request.collectBody(upTo: 4 * 1024))
        guard checkCSRF(form, token: token), let id = PaymentID(text: context.parameters.get("id") ?? "") else {
            return WebSupport.html("Forbidden", status: .forbidden)
        }
        let draft = try await services.payments.repeatDraft(id, by: principal)
        var page = try await formPage(request, principal: principal, token: token, type: draft.type, fields: Self.formFields(of: draft))
        page.values["idempotency"] = WebSupport.randomToken()
        return render("pay_form", page)
    }

    /// A payment request as the pay form's field values.
    static func formFields(of draft: PaymentRequest) -> [String: String] {
        var fields: [String: String] = ["debtor_account": String(draft.debtorAccount.rawValue)]
        fields["amount"] = draft.amount?.decimalString
        fields["message"] = draft.message
        fields["reference"] = draft.reference
        fields["qrbill_payload"] = draft.qrbillPayload
        fields["code_line"] = draft.codeLine
        if let creditor = draft.creditor {
            fields["creditor_account"] = creditor.account.map { String($0.rawValue) }
            fields["creditor_name"] = creditor.name
            fields["creditor_iban"] = creditor.iban
            fields["creditor_street"] = creditor.street
            fields["creditor_building_number"] = creditor.buildingNumber
            fields["creditor_postal_code"] = creditor.postalCode
            fields["creditor_town"] = creditor.town
            fields["creditor_country"] = creditor.country
        }
        fields["topup_operator"] = draft.topup?.operator
        fields["topup_phone"] = draft.topup?.phone
        return fields
    }
}
