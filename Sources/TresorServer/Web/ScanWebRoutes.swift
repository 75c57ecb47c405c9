import Foundation
import Hummingbird
import TresorCore
import TresorDomain
import TresorScan

/// The pay screen's photo button and camera: the photo goes to the same scan worker as
/// `POST /v1/scan/slip`, and its draft fills the QR-bill or slip form for the customer to check.
/// A camera whose browser read the QR code itself (`BarcodeDetector`) sends the code's text as
/// `qrbill_payload` instead of a photo.
extension WebApp {
    func registerScan(on router: Router<TresorRequestContext>) {
        router.post("/pay/scan", use: scanSlip)
    }

    func scanSlip(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        guard let scanner else { return WebSupport.redirect("/pay") }
        do {
            let (image, form) = try await ImageBody.readForm(request, limits: scanner.limits, imageRequired: false)
            guard checkCSRF(form, token: token) else { return await formExpired(request) }
            try await services.rateLimiter.hit(services.rateLimiter.limits.scanPerContract, key: "customer:\(principal.customerID.rawValue)")
            let slip = try await scanner.slip(image: image, orQRText: form["qrbill_payload"])
            let type: PaymentType = slip.source == "qrbill" ? .qrbill : .esr
            var values: [String: String] = ["debtor_account": form["debtor_account"] ?? ""].filter { !$0.value.isEmpty }
            if let payload = slip.draft.qrbillPayload { values["qrbill_payload"] = payload }
            if let line = slip.draft.codeLine { values["code_line"] = line }
            if let amount = slip.draft.amount { values["amount"] = amount.decimalString }
            var page = try await formPage(request, principal: principal, token: token, type: type, fields: values)
            page.values["idempotency"] = WebSupport.randomToken()
            page.values["scanned"] = page.strings["scan_read"] ?? ""
            page.values["corrections"] = slip.corrections.map { correction in
                (page.strings["scan_corrected"] ?? "")
                    .replacingOccurrences(of: "{position}", with: String(correction.position + 1))
                    .replacingOccurrences(of: "{read}", with: correction.read)
                    .replacingOccurrences(of: "{corrected}", with: correction.corrected)
            }
            return render("pay_form", page)
        } catch {
            // why no CSRF check here: this only renders the error; nothing was changed.
            var page = page(request, csrf: WebSupport.csrfToken(forSession: token))
            page.values["types"] = Self.payTypes.map { ["type": $0.rawValue, "label": page.strings["favorite_\($0.rawValue)"] ?? $0.rawValue] }
            let code = Self.scanErrorCode(error)
            // why its own words: here a PDF is taken too, which the receipts' message does not say.
            let key = code == "unsupported_image" ? "error_unsupported_bill" : "error_\(code)"
            page.values["photo_error"] = page.strings[key] ?? code
            return render("pay", page, status: .unprocessableContent)
        }
    }

    static func scanErrorCode(_ error: any Error) -> String {
        switch error {
        case let error as ScanError: error.code.rawValue
        case let error as ScanJob.Output.Failure: error.code
        case let error as DomainError: error.code.rawValue
        default: ScanErrorCode.unreadable.rawValue
        }
    }
}
