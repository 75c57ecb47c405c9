import Foundation
import OpenAPIRuntime

extension TresorClient {
    /// Checks `request` on the device with the server's own rules (``TresorError`` with the
    /// domain's code, field and message, nothing sent), then sends it.
    ///
    /// Keep `idempotencyKey` from the moment the customer taps Pay: when the answer is lost
    /// (`offline`), sending again with the same key pays once. Nothing is queued for later.
    /// A payment the bank wants signed comes back with status `needs_signature`; call ``sign(_:code:trustPayee:)``.
    /// One the bank's risk check holds comes back `held`: show "being checked" (the amount is
    /// reserved, nothing has left); the customer gets a message when staff release or stop it.
    public func pay(_ request: PaymentRequest, idempotencyKey: String = UUID().uuidString) async throws -> Payment {
        do {
            _ = try request.validated()
        } catch let error as DomainError {
            throw TresorError(error)
        }
        let body = try Wire.convert(request, to: Components.Schemas.PaymentRequest.self)
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try await call {
                    try await $0.postV1Payments(headers: .init(idempotencyKey: idempotencyKey), body: .json(body)).created.body.json.payment
                }
            } catch let error as TresorError where error.code == TresorError.offline && attempt < 3 {
                // why: the request may have arrived; the same key makes the retry safe.
                try await Task.sleep(for: .milliseconds(200 * attempt))
            }
        }
    }

    /// Signs a payment waiting for a signature with the code its challenge asks for (a TAN);
    /// `trustPayee` adds the payee to the whitelist for next time.
    public func sign(_ paymentID: String, code: String, trustPayee: Bool = false) async throws -> Payment {
        try await call {
            try await $0.postV1PaymentsIdSignature(path: .init(id: paymentID), body: .json(.init(code: code, trustPayee: trustPayee))).ok.body.json
                .payment
        }
    }

    /// Signs a payment whose challenge asks for this phone's key (`signature.provider` is
    /// `.deviceKey`, the customer chose it under signing): the enrolled key signs the challenge's
    /// `message` (amount and payee, and a fresh nonce), and the signature goes to the bank as the code.
    /// Show `signature.summary` and ask the customer to confirm (Face ID, the PIN) before calling.
    public func sign(_ payment: Payment, with key: any DeviceKey, trustPayee: Bool = false) async throws -> Payment {
        guard let challenge = payment.signature, challenge.provider == .deviceKey, let message = challenge.message else {
            throw TresorError(
                status: nil, code: "signing_unavailable", field: "signature.provider",
                message: "This payment's challenge is not for the device key; sign it with the code it asks for.")
        }
        let code = try key.signature(for: Data(message.utf8)).base64EncodedString()
        return try await sign(payment.id, code: code, trustPayee: trustPayee)
    }

    /// A photo of a QR-bill or an orange/red slip, or a QR-bill's PDF, becomes a draft to
    /// confirm. JPEG, PNG and HEIC (as an iPhone's camera stores a photo) are sent as they are:
    /// the format is read from the bytes, so a picked photo needs no converting first.
    public func scanSlip(image: Data) async throws -> ScannedSlip {
        let body = HTTPBody(image)
        let sent: Operations.PostV1ScanSlip.Input.Body =
            switch Self.format(of: image) {
            case "png": .png(body)
            case "heic": .imageHeic(body)
            case "pdf": .pdf(body)
            default: .jpeg(body)
            }
        let answer = try await call { try await $0.postV1ScanSlip(body: sent).ok.body.json }
        return ScannedSlip(
            draft: try Wire.convert(answer.draft, to: SlipDraft.self), source: answer.source.rawValue,
            corrections: answer.corrections.map { .init(field: $0.field, position: $0.position, read: $0.read, corrected: $0.corrected) })
    }

    @available(*, deprecated, message: "The format is read from the bytes: use scanSlip(image:).")
    public func scanSlip(image: Data, isPNG: Bool) async throws -> ScannedSlip {
        try await scanSlip(image: image)
    }

    /// "png", "heic", "pdf" or "jpeg" (anything else: the server names what it takes).
    static func format(of data: Data) -> String {
        let head = [UInt8](data.prefix(12))
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "png" }
        if head.starts(with: Array("%PDF".utf8)) { return "pdf" }
        if head.count == 12, head[4..<8].elementsEqual("ftyp".utf8) { return "heic" }
        return "jpeg"
    }
}
