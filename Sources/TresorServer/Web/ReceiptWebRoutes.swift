import Foundation
import Hummingbird
import TresorCore
import TresorDomain
import TresorScan

/// The receipts screen (take a photo, list, correct, delete) and the budget screen (this month
/// per category, bars, remaining), over ReceiptService and BudgetService like the JSON API.
extension WebApp {
    func registerReceipts(on router: Router<TresorRequestContext>) {
        router.get("/receipts", use: receiptList)
        router.post("/receipts", use: receiptUpload)
        router.get("/receipts/{id}", use: receiptDetail)
        router.get("/receipts/{id}/image", use: receiptImage)
        router.post("/receipts/{id}", use: receiptSave)
        router.post("/receipts/{id}/delete", use: receiptDelete)
        router.post("/receipts/{id}/split", use: receiptSplit)
        router.get("/budget", use: budgetPage)
        router.post("/budget", use: budgetSave)
    }

    func categoryOptions(_ page: Page, customer: CustomerID, selected: String?) async throws -> [[String: Any]] {
        try await services.receipts.categories(of: customer).map {
            ["value": $0, "label": page.strings["category_\($0)"] ?? $0, "selected": $0 == selected]
        }
    }

    func receiptList(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var page = page(request, csrf: WebSupport.csrfToken(forSession: token))
        let language = page.language
        var query = try ReceiptQuery()
        do {
            query = try ReceiptRoutes.query(request, emptyIsAbsent: true)
        } catch let error as DomainError {
            page.values["search_error"] = Self.message(for: error, strings: page.strings)
        }
        for name in ["q", "min_amount", "max_amount", "from", "to"] { page.values["search_\(name)"] = request.text(name) ?? "" }
        page.values["search_open"] = !query.isEmpty || page.values["search_error"] != nil
        // why nothing when refused: a list of every receipt would read as the search's answer.
        let found = page.values["search_error"] == nil ? try await services.receipts.list(of: principal.customerID, matching: query) : []
        if !query.isEmpty {
            page.values["search_found"] = page.strings.text(found.count == 1 ? "receipts_found_one" : "receipts_found", ["n": String(found.count)])
        }
        page.values["receipts"] = found.map { receipt in
            [
                "id": String(receipt.id), "merchant": receipt.merchant ?? "?", "date": receipt.date.map(language.format) ?? "",
                "total": receipt.total.map(language.format) ?? "", "category": page.strings["category_\(receipt.category)"] ?? receipt.category,
            ]
        }
        if let failed = request.uri.queryParameters.get("error") { page.values["photo_error"] = page.strings["error_\(failed)"] ?? String(failed) }
        return render("receipts", page)
    }

    func receiptUpload(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        guard let scanner else { return WebSupport.redirect("/receipts") }
        do {
            let (images, form) = try await ImageBody.readPages(request, limits: scanner.limits)
            guard checkCSRF(form, token: token) else { return await formExpired(request) }
            let receipt = try await ReceiptIntake.store(
                images, for: principal.customerID, scanner: scanner, receipts: services.receipts, limiter: services.rateLimiter)
            return WebSupport.redirect("/receipts/\(receipt.id)")
        } catch {
            return WebSupport.redirect("/receipts?error=\(Self.scanErrorCode(error))")
        }
    }

    func receiptDetail(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        guard let id = Int64(context.parameters.get("id") ?? ""), let receipt = try? await services.receipts.get(id, of: principal.customerID)
        else { return await notFound(request) }
        let page = page(request, csrf: WebSupport.csrfToken(forSession: token))
        return try await renderReceipt(receipt, page: page, customer: principal.customerID, fields: [:], error: nil)
    }

    func renderReceipt(_ receipt: Receipt, page: Page, customer: CustomerID, fields: [String: String], error: (field: String, message: String)?)
        async throws -> Response
    {
        var page = page
        page.values["receipt"] = [
            "id": String(receipt.id), "merchant": fields["merchant"] ?? receipt.merchant ?? "",
            "date": fields["date"] ?? receipt.date?.description ?? "",
            "total": fields["total"] ?? receipt.total?.decimalString ?? "", "currency": receipt.currency.code, "text": receipt.text,
            "confidence": page.language.percent(String(receipt.confidence)), "matched": receipt.transactionID != nil,
            // A long receipt's parts one under the other, in the order taken, each named.
            "photos": (1...receipt.pages).map { n in
                [
                    "src": "/receipts/\(receipt.id)/image" + (n == 1 ? "" : "?page=\(n)"),
                    "label": receipt.pages == 1
                        ? page.strings["till_image"] ?? "" : page.strings.text("till_image_page", ["n": String(n), "of": String(receipt.pages)]),
                ]
            },
        ]
        page.values["categories"] = try await categoryOptions(page, customer: customer, selected: fields["category"] ?? receipt.category)
        // The split form: the parts saved (or as typed), and empty rows to add more, at least three rows.
        let rows = max(3, min(Self.splitRowsMax, receipt.splits.count + 1))
        var splitRows: [[String: Any]] = []
        for n in 1...rows {
            let saved = n <= receipt.splits.count ? receipt.splits[n - 1] : nil
            let category = fields["category_\(n)"] ?? saved?.category ?? ""
            splitRows.append([
                "n": String(n), "amount": fields["amount_\(n)"] ?? saved?.amount.decimalString ?? "",
                "options": try await categoryOptions(page, customer: customer, selected: category),
            ])
        }
        page.values["split_rows"] = splitRows
        page.values["split_parts"] = receipt.splits.map { split in
            ["category": page.strings["category_\(split.category)"] ?? split.category, "amount": page.language.format(split.amount)]
        }
        if let error, error.field.hasPrefix("split") {
            page.values["split_error"] = error.message
            return render("till", page, status: .unprocessableContent)
        }
        if let error {
            page.values["error"] = ["field": error.field, "message": error.message]
            page.values["error_\(error.field)"] = error.message
        }
        return render("till", page, status: error == nil ? .ok : .unprocessableContent)
    }

    func receiptImage(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, _) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        let page = Int(request.text("page") ?? "1") ?? 0
        guard let id = Int64(context.parameters.get("id") ?? ""), page >= 1,
            let bytes = try? await services.receipts.image(id, of: principal.customerID, page: page)
        else { return await notFound(request) }
        return ImageBody.response(bytes)
    }

    /// Rows of the split form. why five: a supermarket slip rarely mixes more kinds of goods.
    static let splitRowsMax = 5

    /// The split form: the rows with a category make the parts; none makes the receipt whole.
    func receiptSplit(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var request = request
        let form = WebSupport.form(try await request.collectBody(upTo: 16 * 1024))
        guard checkCSRF(form, token: token) else { return await formExpired(request) }
        guard let id = Int64(context.parameters.get("id") ?? ""), let receipt = try? await services.receipts.get(id, of: principal.customerID)
        else { return await notFound(request) }
        var parts: [ReceiptSplit] = []
        do {
            for n in 1...Self.splitRowsMax {
                let category = (form["category_\(n)"] ?? "").trimmingCharacters(in: .whitespaces)
                let typed = (form["amount_\(n)"] ?? "").trimmingCharacters(in: .whitespaces)
                if category.isEmpty && typed.isEmpty { continue }
                guard !category.isEmpty else { throw DomainError(.invalidParameter, field: "splits", "Choose a category for each amount.") }
                parts.append(
                    ReceiptSplit(
                        category: category,
                        amount: try Money(parsing: TypedAmount.normalized(typed), currency: receipt.currency, field: "splits[\(n - 1)].amount")))
            }
            _ = try await services.receipts.split(id, of: principal.customerID, into: parts)
            return WebSupport.redirect("/receipts/\(id)#split-form")
        } catch let error as DomainError {
            let page = page(request, csrf: WebSupport.csrfToken(forSession: token))
            var message = Self.message(for: error, strings: page.strings)
            // why worded here: the service refuses parts that miss the total; the screen says by how much.
            if error.code == .invalidAmount, error.field == "splits", let total = receipt.total, let sum = parts.total {
                message = page.strings.text("till_split_sum", ["parts": page.language.format(sum), "total": page.language.format(total)])
            }
            return try await renderReceipt(
                receipt, page: page, customer: principal.customerID, fields: form, error: (error.field ?? "splits", message))
        }
    }

    func receiptSave(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var request = request
        let form = WebSupport.form(try await request.collectBody(upTo: 64 * 1024))
        guard checkCSRF(form, token: token) else { return await formExpired(request) }
        guard let id = Int64(context.parameters.get("id") ?? ""), let receipt = try? await services.receipts.get(id, of: principal.customerID)
        else { return await notFound(request) }
        let page = page(request, csrf: WebSupport.csrfToken(forSession: token))
        do {
            func text(_ name: String) -> String? {
                let value = (form[name] ?? "").trimmingCharacters(in: .whitespaces)
                return value.isEmpty ? nil : value
            }
            let changes = ReceiptChanges(
                merchant: text("merchant"), date: try text("date").map { try LocalDate(parsing: $0, field: "date") },
                total: try text("total").map { try Money(parsing: TypedAmount.normalized($0), currency: receipt.currency, field: "total") },
                category: text("category"))
            _ = try await services.receipts.update(id, of: principal.customerID, changes)
            return WebSupport.redirect("/receipts/\(id)")
        } catch let error as DomainError {
            let field = Self.formField(error.field)
            return try await renderReceipt(
                receipt, page: page, customer: principal.customerID, fields: form, error: (field, Self.message(for: error, strings: page.strings)))
        }
    }

    func receiptDelete(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var request = request
        let form = WebSupport.form(try await request.collectBody(upTo: 64 * 1024))
        guard checkCSRF(form, token: token) else { return await formExpired(request) }
        if let id = Int64(context.parameters.get("id") ?? "") { try? await services.receipts.delete(id, of: principal.customerID) }
        return WebSupport.redirect("/receipts")
    }
}
