/// The reference a creditor asks the payer to quote, as the QR-bill's `RefTp`/`Ref` pair and
/// ISO 20022 `CdtrRefInf` carry it.
public enum PaymentReference: Hashable, Sendable {
    /// QR reference: 27 digits, the last a mod 10 recursive check digit. Only with a QR-IBAN.
    case qrr(String)
    /// ISO 11649 creditor reference `RF` + 2 check digits + up to 21 letters and digits.
    case scor(String)

    public var kind: String {
        switch self {
        case .qrr: "QRR"
        case .scor: "SCOR"
        }
    }

    public var value: String {
        switch self {
        case .qrr(let value), .scor(let value): value
        }
    }

    /// The reference as a bill prints it, for reading and comparing with the paper: a QR
    /// reference in blocks of five from the right (`21 00000 00003 13947 14300 09017`), a creditor
    /// reference in blocks of four (`RF18 5390 0754 7034`), as SIX's QR-bill guidelines write them.
    /// why: 27 digits in one run break at random places on a phone and cannot be checked at a glance.
    public var formatted: String {
        switch self {
        case .qrr(let digits): digits.spacedBlocks(of: 5, fromEnd: true)
        case .scor(let reference): reference.spacedBlocks(of: 4)
        }
    }

    /// Validates a 27-digit QR/ESR reference. Spaces are a typing habit: they are refused with
    /// the compact form in `suggested`, as is a reference missing its leading zeros. why any
    /// space: a reference pasted from an invoice's PDF or web page carries no-break or narrow
    /// spaces and invisible characters (as an IBAN does), which are no fault of the digits.
    public static func qrReference(_ text: String, field: String = "reference") throws -> PaymentReference {
        let compact = IBAN.compact(text)
        guard !compact.isEmpty, compact.count <= 27, compact.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw DomainError(.invalidQRReference, field: field, "A QR reference has 27 digits.")
        }
        let padded = String(repeating: "0", count: 27 - compact.count) + compact
        guard CheckDigits.isValidMod10Recursive(padded) else {
            throw DomainError(.invalidQRReference, field: field, "The check digit of the reference is wrong.")
        }
        guard padded == text else {
            throw DomainError(.invalidQRReference, field: field, "Enter the reference as 27 digits.", suggested: padded, rewritten: true)
        }
        return .qrr(padded)
    }

    /// Validates an ISO 11649 creditor reference (`RF18 5390 0754 7034`); lower case and
    /// spaces are refused with the electronic form in `suggested`.
    public static func creditorReference(_ text: String, field: String = "reference") throws -> PaymentReference {
        let compact = IBAN.compact(text)
        guard compact.count >= 5, compact.count <= 25, compact.hasPrefix("RF"),
            compact.dropFirst(2).prefix(2).allSatisfy({ $0.isASCII && $0.isNumber }),
            compact.allSatisfy({ $0.isASCII && ($0.isNumber || $0.isUppercase) })
        else {
            throw DomainError(.invalidCreditorReference, field: field, "A creditor reference is RF, 2 check digits and up to 21 letters or digits.")
        }
        let rearranged = compact.dropFirst(4) + compact.prefix(4)
        guard CheckDigits.mod97(rearranged) == 1 else {
            throw DomainError(.invalidCreditorReference, field: field, "The check digits of the creditor reference are wrong.")
        }
        guard compact == text else {
            throw DomainError(.invalidCreditorReference, field: field, "Enter the reference without spaces.", suggested: compact, rewritten: true)
        }
        return .scor(compact)
    }

    /// Builds a valid ISO 11649 reference for `body` (letters and digits, at most 21).
    public static func makeCreditorReference(_ body: String) -> String {
        let check = 98 - (CheckDigits.mod97(body + "RF00") ?? 0)
        return "RF" + (check < 10 ? "0" : "") + String(check) + body
    }

    /// Builds a valid 27-digit QR reference from up to 26 digits of the creditor's own.
    public static func makeQRReference(_ digits: String) -> String {
        let body = String(repeating: "0", count: max(0, 26 - digits.count)) + digits
        return body + String(CheckDigits.mod10Recursive(body)!)
    }
}
