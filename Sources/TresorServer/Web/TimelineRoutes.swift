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

    /// Entries per page of the timeline. why not all: a salaried customer books a few hundred
    /// a year; a page a phone scrolls through, then "older transactions", as banking apps do.
    static let timelinePage = 30

    func timeline(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var page = page(request, csrf: WebSupport.csrfToken(forSession: token))
        let language = page.language
        let strings = page.strings
        let query = request.uri.queryParameters
        let accounts = try await services.accounts.accounts(of: principal)
        guard let fallback = accounts.first(where: { $0.kind == .current }) ?? accounts.first else { return render("transactions", page) }
        let accountID = query.get("account").flatMap { AccountID(text: $0) } ?? fallback.id
        let direction = query.get("type").flatMap { EntryQuery.Direction(rawValue: String($0)) } ?? .all
        let from = query.get("from").flatMap { try? LocalDate(parsing: String($0)) }
        let to = query.get("to").flatMap { try? LocalDate(parsing: String($0)) }
        let filter = TimelineFilter(account: accountID, direction: direction, from: from, to: to)
        do {
            let cursor = try query.get("cursor").map { try EntryCursor(token: String($0)) }
            let found = try await services.accounts.transactions(
                accountID, of: principal, from: from, to: to, direction: direction, limit: Self.timelinePage, cursor: cursor)
            let kinds = try await services.accounts.bookingKinds(of: found.entries.map(\.transactionID))
            let today = services.today
            var days: [(date: LocalDate, entries: [[String: Any]])] = []
            for entry in found.entries {
                var row = Self.entryRow(entry, kind: kinds[entry.transactionID], of: accountID, language: language, strings: strings)
                // why the message beside the category: two payments to one shop differ by it;
                // not when it says the category again ("Lohn · Lohn").
                let message = entry.counterparty == nil ? "" : entry.remittance ?? ""
                row["message"] = message.caseInsensitiveCompare(row["category"] as? String ?? "") == .orderedSame ? "" : message
                if days.last?.date == entry.bookingDate {
                    days[days.count - 1].entries.append(row)
                } else {
                    days.append((entry.bookingDate, [row]))
                }
            }
            page.values["days"] = days.map { ["date": language.friendly($0.date, today: today, strings: strings), "entries": $0.entries] }
            page.values["older"] = found.next.map { filter.href(cursor: $0) }
            page.values["newest"] = cursor == nil ? nil : filter.href(cursor: nil)
        } catch let error as DomainError {
            page.values["error"] = Self.message(for: error, strings: strings)
            page.values["filters_open"] = true
        }
        let account = accounts.first { $0.id == accountID }
        page.values["accounts"] = accounts.map { ["id": String($0.id.rawValue), "name": $0.name, "selected": $0.id == accountID] }
        page.values["from"] = from?.description ?? ""
        page.values["to"] = to?.description ?? ""
        page.values["type"] = direction.rawValue
        page.values["types"] = [EntryQuery.Direction.all, .income, .expense].map {
            var chip = filter
            chip.direction = $0
            return ["href": chip.href(cursor: nil), "label": strings["timeline_\($0.rawValue)"] ?? $0.rawValue, "current": $0 == direction]
        }
        let period: String? =
            switch (from, to) {
            case (nil, nil): nil
            case (let from?, nil): "\(strings["timeline_from"] ?? "") \(language.format(from))"
            case (nil, let to?): "\(strings["timeline_to"] ?? "") \(language.format(to))"
            case (let from?, let to?): "\(language.format(from)) – \(language.format(to))"
            }
        page.values["filter_summary"] = ([account?.name] + [period]).compactMap { $0 }.joined(separator: " · ")
        return render("transactions", page)
    }

    /// A booking as a row of a list (the timeline, the overview's latest): who, the signed amount,
    /// its category in words and as an icon, and the link to it from `account`'s side.
    static func entryRow(_ entry: Entry, kind: String?, of account: AccountID, language: WebLanguage, strings: [String: String]) -> [String: Any] {
        let category = TransactionCategory.of(
            kind: kind, counterparty: entry.counterparty, remittance: entry.remittance, incoming: entry.amount.minorUnits > 0)
        return [
            "id": String(entry.transactionID.rawValue), "account": String(account.rawValue),
            "counterparty": entry.counterparty ?? entry.remittance ?? "", "amount": language.formatSigned(entry.amount),
            "income": entry.amount.minorUnits > 0, "icon": TransactionCategory.icon(category),
            "category": strings["category_\(category)"] ?? category,
        ]
    }

    func transactionDetail(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var page = page(request, csrf: WebSupport.csrfToken(forSession: token))
        let language = page.language
        // why the account of the list it was opened from first: an own-account transfer has a
        // posting on both of the customer's accounts, and from the savings account's list the
        // customer expects the credit to it, not the debit of the other.
        let asked = request.uri.queryParameters.get("account").flatMap { AccountID(text: $0) }
        guard let id = TransactionID(text: context.parameters.get("id") ?? ""),
            let detail = try await services.accounts.transactionDetail(id, from: asked, of: principal)
        else { return await notFound(request) }
        let (posted, line) = (detail.transaction, detail.line)
        // why back to this account's list, not the default one: the customer came from it.
        page.values["back"] = TimelineFilter(account: line.accountID, direction: .all).href(cursor: nil)
        page.values["detail"] = [
            "account": detail.account.name, "date": language.format(posted.bookingDate), "value_date": language.format(posted.valueDate),
            "amount": language.formatSigned(line.amount), "income": line.amount.minorUnits > 0,
            "counterparty": line.counterparty ?? "", "remittance": line.remittance ?? "", "balance": language.format(line.balanceAfter),
        ]
        if let credit = detail.credit { page.values["credit"] = Self.creditValues(credit) }
        if let payment = try await services.payments.payment(forTransaction: id, of: principal.customerID) {
            page.values["repeat_id"] = String(payment.id.rawValue)
        }
        return render("transaction", page)
    }

    /// What the sender of a credit from another bank wrote, as the detail shows it.
    static func creditValues(_ credit: ClearingCredit) -> [String: Any] {
        var values: [String: Any] = ["name": credit.debtorName ?? "—", "address": credit.debtorAddress]
        if let iban = credit.debtorIBAN { values["iban"] = (try? IBAN(iban))?.formatted ?? iban }
        if let reference = credit.reference {
            let formatted =
                switch reference.kind {
                case .qrr: PaymentReference.qrr(reference.value).formatted
                case .scor: PaymentReference.scor(reference.value).formatted
                case .other: reference.value
                }
            values["reference"] = formatted
            values["unchecked"] = credit.referenceFlag != nil
        }
        if let message = credit.message { values["message"] = message }
        if let id = credit.endToEndID, id.uppercased() != "NOTPROVIDED" { values["end_to_end"] = id }
        return values
    }

    /// Opens the pay form of the payment's type filled with everything but the date.
    func repeatPayment(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var request = request
        let form = WebSupport.form(try await request.collectBody(upTo: 4 * 1024))
        guard checkCSRF(form, token: token) else { return await formExpired(request) }
        guard let id = PaymentID(text: context.parameters.get("id") ?? "") else { return await notFound(request) }
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

/// What the timeline shows: one account, one direction, an optional period; as a link that keeps
/// it (the type chips, "older transactions").
struct TimelineFilter {
    var account: AccountID
    var direction: EntryQuery.Direction
    var from: LocalDate? = nil
    var to: LocalDate? = nil

    func href(cursor: EntryCursor?) -> String {
        var items = ["account=\(account.rawValue)", "type=\(direction.rawValue)"]
        if let from { items.append("from=\(from)") }
        if let to { items.append("to=\(to)") }
        if let cursor { items.append("cursor=\(cursor.token)") }
        return "/transactions?" + items.joined(separator: "&")
    }
}
