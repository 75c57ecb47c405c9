import TresorDomain

/// What a slip photo says: a draft for `POST /v1/payments`, where it came from, and the
/// corrections the customer has to confirm.
public struct SlipScan: Sendable, Codable, Equatable {
    public let draft: SlipDraft
    public let source: String
    public let corrections: [CodeLineRepair.Correction]

    /// The QR code when there is one (the QR-bill parser decides whether it is a valid bill);
    /// otherwise the code line in the OCR text.
    public static func from(qrCodes: [String], ocrText: () throws -> String) throws -> SlipScan {
        var lastError: DomainError?
        for payload in qrCodes where payload.hasPrefix("SPC") {
            do {
                return SlipScan(draft: try SlipDraft(qrbill: payload), source: "qrbill", corrections: [])
            } catch let error as DomainError {
                lastError = error
            }
        }
        if let lastError { throw lastError }
        let found = try CodeLineRepair.find(in: try ocrText())
        return SlipScan(draft: try SlipDraft(codeLine: found.codeLine), source: "codeline", corrections: found.corrections)
    }
}
