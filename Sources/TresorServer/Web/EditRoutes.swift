import Foundation
import Hummingbird
import TresorCore
import TresorDomain

/// Editing a pending payment, and managing template folders.
extension WebApp {
    func registerEdit(on router: Router<TresorRequestContext>) {
        router.get("/payments/{id}/edit", use: editForm)
        router.post("/payments/{id}/edit", use: saveEdit)
        router.post("/template-folders", use: createFolder)
        router.post("/template-folders/{id}/rename", use: renameFolder)
        router.post("/templates/{id}/move", use: moveTemplate)
        router.post("/templates/{id}/rename", use: renameTemplate)
    }

    func editPage(_ request: Request, principal: Principal, token: String, id: PaymentID, fields: [String: String]?) async throws -> Page? {
        guard let payment = try? await services.payments.payment(id, of: principal.customerID), payment.status.isOpen else { return nil }
        var page = page(request, csrf: WebSupport.csrfToken(forSession: token))
        page.values["payment"] = paymentValues(payment, page: page, accountNames: try await accountNames(of: principal))
        page.values["f"] =
            fields ?? [
                "amount": payment.instruction.amount.decimalString, "execution_date": payment.executionDate.description,
                "message": payment.instruction.message ?? "",
            ]
        page.values["today"] = services.today.description
        return page
    }

    func editForm(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        guard let id = PaymentID(text: context.parameters.get("id") ?? ""),
            let page = try await editPage(request, principal: principal, token: token, id: id, fields: nil)
        else { return WebSupport.redirect("/payments") }
        return render("edit", page)
    }

    func saveEdit(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var request = request
        let form = WebSupport.form(try await request.collectBody(upTo: 8 * 1024))
        guard checkCSRF(form, token: token) else { return await formExpired(request) }
        guard let id = PaymentID(text: context.parameters.get("id") ?? "") else { return await notFound(request) }
        do {
            let current = try await services.payments.payment(id, of: principal.customerID)
            let amount = try form["amount"].flatMap { $0.isEmpty ? nil : $0 }.map {
                try Money(parsing: TypedAmount.normalized($0), currency: current.instruction.amount.currency)
            }
            let date = try form["execution_date"].flatMap { $0.isEmpty ? nil : $0 }.map { try LocalDate(parsing: $0, field: "execution_date") }
            _ = try await services.payments.update(
                id, with: PaymentChange(amount: amount, executionDate: date, message: form["message"]), by: principal)
            return WebSupport.redirect("/payments/\(id)")
        } catch let error as DomainError {
            guard var page = try await editPage(request, principal: principal, token: token, id: id, fields: form) else {
                return WebSupport.redirect("/payments")
            }
            let field = Self.formField(error.field)
            page.values["error"] = ["field": field, "message": Self.message(for: error, strings: page.strings)]
            page.values["error_\(field)"] = Self.message(for: error, strings: page.strings)
            return render("edit", page, status: .unprocessableContent)
        }
    }

    /// Reads a form with a CSRF check; nil means refuse.
    func checkedForm(_ request: Request, token: String) async throws -> [String: String]? {
        var request = request
        let form = WebSupport.form(try await request.collectBody(upTo: 4 * 1024))
        return checkCSRF(form, token: token) ? form : nil
    }

    func createFolder(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        guard let form = try await checkedForm(request, token: token) else { return await formExpired(request) }
        do {
            _ = try await services.templates.createFolder(named: form["name"] ?? "", for: principal.customerID)
            return WebSupport.redirect("/templates")
        } catch let error as DomainError {
            return WebSupport.redirect("/templates?error=\(error.code.rawValue)")
        }
    }

    func renameFolder(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        guard let form = try await checkedForm(request, token: token), let id = FolderID(text: context.parameters.get("id") ?? "") else {
            return await formExpired(request)
        }
        do {
            _ = try await services.templates.renameFolder(id, to: form["name"] ?? "", for: principal.customerID)
            return WebSupport.redirect("/templates")
        } catch let error as DomainError {
            return WebSupport.redirect("/templates?error=\(error.code.rawValue)")
        }
    }

    func moveTemplate(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        guard let form = try await checkedForm(request, token: token), let id = TemplateID(text: context.parameters.get("id") ?? "") else {
            return await formExpired(request)
        }
        let folder: FolderID?? = .some(FolderID(text: form["folder"] ?? ""))
        do {
            _ = try await services.templates.update(id, name: nil, folder: folder, for: principal.customerID)
            return WebSupport.redirect("/templates")
        } catch let error as DomainError {
            return WebSupport.redirect("/templates?error=\(error.code.rawValue)")
        }
    }

    func renameTemplate(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        guard let form = try await checkedForm(request, token: token), let id = TemplateID(text: context.parameters.get("id") ?? "") else {
            return await formExpired(request)
        }
        do {
            _ = try await services.templates.update(id, name: form["name"] ?? "", folder: nil, for: principal.customerID)
            return WebSupport.redirect("/templates")
        } catch let error as DomainError {
            return WebSupport.redirect("/templates?error=\(error.code.rawValue)")
        }
    }
}
