/// The OCR code line printed at the bottom right of a legacy Swiss payment slip: the orange
/// ESR/ISR slip (with a 27-digit reference) and the red ES/IS slip (postal account only).
///
/// Orange, with amount:   `0100003949753>120000000000234478943216899+ 010001628>`
/// Orange, without:       `042>120000000000234478943216899+ 010001628>`
/// Red, postal account:   `010001628>`
/// Each block ends in a mod 10 recursive check digit, which is what lets a scan repair a misread.
public struct SlipCodeLine: Hashable, Sendable {
    public enum Kind: String, Sendable, Codable {
        /// Orange slip with reference (ESR / ISR).
        case esr
        /// Red slip without reference (ES / IS).
        case es
    }

    public let kind: Kind
    /// Two-digit document type of an orange slip (01 ESR CHF, 04 ESR+ CHF, 21 ESR EUR, …).
    public let documentType: String?
    public let amount: Money?
    public let currency: Currency
    public let reference: PaymentReference?
    /// Nine digits: 2-digit prefix, 6-digit number, check digit (`010001628` = 01-162-8).
    public let participant: String

    /// Document types of orange slips: with an amount, and their currency.
    static let documentTypes: [String: (hasAmount: Bool, currency: Currency)] = [
        "01": (true, .chf), "03": (true, .chf), "11": (true, .chf), "04": (false, .chf), "14": (false, .chf),
        "21": (true, .eur), "23": (true, .eur), "31": (false, .eur), "33": (false, .eur),
    ]

    /// The largest amount an orange slip's code line carries: ten digits, 99'999'999.99.
    public static let amountMinorMax: Int64 = 9_999_999_999

    /// Throws unless `amount` fits a slip's amount block: more than zero, at most
    /// `amountMinorMax` (`amount_not_positive`, `amount_too_large` on `field`).
    public static func checkAmount(_ amount: Money, field: String = "amount") throws {
        guard amount.minorUnits > 0 else { throw DomainError(.amountNotPositive, field: field, "The amount must be more than zero.") }
        guard amount.minorUnits <= amountMinorMax else {
            throw DomainError(.amountTooLarge, field: field, "An orange slip is for at most 99999999.99.")
        }
    }

    /// Parses and checks every check digit. Whitespace is ignored, as OCR and people insert it.
    public init(_ text: String, field: String = "code_line") throws {
        let compact = Digits.ascii(String(text.filter { !$0.isWhitespace }))
        guard compact.count <= 60, compact.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ">" || $0 == "+") }), compact.hasSuffix(">")
        else {
            throw DomainError(.slipInvalidCodeLine, field: field, "A code line holds only digits, > and +, and ends with >.")
        }
        let blocks = compact.dropLast().split(separator: ">", omittingEmptySubsequences: false)
        if blocks.count == 1, !blocks[0].contains("+") {
            // Red slip: the postal account alone.
            participant = try Self.participant(blocks[0], field: field)
            kind = .es
            documentType = nil
            amount = nil
            currency = .chf
            reference = nil
            return
        }
        guard blocks.count == 2, let plus = blocks[1].firstIndex(of: "+") else {
            throw DomainError(.slipInvalidCodeLine, field: field, "Expected type and amount > reference + participant >.")
        }
        let head = blocks[0]
        let referenceDigits = blocks[1][..<plus]
        participant = try Self.participant(blocks[1][blocks[1].index(after: plus)...], field: field)
        guard head.count == 13 || head.count == 3 else {
            throw DomainError(.slipInvalidCodeLine, field: field, "The first block has 3 or 13 digits.")
        }
        let type = String(head.prefix(2))
        guard let spec = Self.documentTypes[type], spec.hasAmount == (head.count == 13) else {
            throw DomainError(.slipUnknownDocumentType, field: field, "Unknown slip type \(type).")
        }
        guard CheckDigits.isValidMod10Recursive(head) else {
            throw DomainError(.slipAmountCheckDigit, field: field, "The check digit of the amount block is wrong.")
        }
        guard referenceDigits.count == 27 else {
            throw DomainError(.slipInvalidCodeLine, field: field, "The reference has 27 digits.")
        }
        guard CheckDigits.isValidMod10Recursive(referenceDigits) else {
            throw DomainError(.slipReferenceCheckDigit, field: field, "The check digit of the reference is wrong.")
        }
        kind = .esr
        documentType = type
        currency = spec.currency
        reference = .qrr(String(referenceDigits))
        if spec.hasAmount, let minor = Int64(head.dropFirst(2).prefix(10)), minor > 0 {
            amount = Money(minorUnits: minor, currency: spec.currency)
        } else {
            amount = nil
        }
    }

    static func participant(_ digits: Substring, field: String) throws -> String {
        guard digits.count == 9, digits.allSatisfy(\.isNumber) else {
            throw DomainError(.slipInvalidCodeLine, field: field, "The participant number has 9 digits.")
        }
        guard CheckDigits.isValidMod10Recursive(digits) else {
            throw DomainError(.slipParticipantCheckDigit, field: field, "The check digit of the participant number is wrong.")
        }
        return String(digits)
    }

    /// The IBAN of a postal account (nine digits): PostFinance's clearing number 9000 and the
    /// account zero-padded (`010001628` is CH.. 0900 0000 0100 0162 8).
    public static func postalIBAN(_ participant: String) -> IBAN? {
        guard participant.count == 9, participant.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int64(participant) else { return nil }
        return IBAN.swiss(clearing: 9000, accountNumber: number)
    }

    /// The nine digits of a postal account as printed (`01-162-8` is `010001628`); nil when
    /// the text is not written so. The check digit is the caller's to check (or to offer repaired).
    public static func participantDigits(printed text: String) -> String? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 2, (1...6).contains(parts[1].count), parts[2].count == 1,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } })
        else { return nil }
        return String(parts[0]) + String(repeating: "0", count: 6 - parts[1].count) + String(parts[1]) + String(parts[2])
    }

    /// The participant number as printed on the slip: `01-162-8`.
    public var formattedParticipant: String {
        let middle = String(Int(participant.dropFirst(2).prefix(6)) ?? 0)
        return "\(participant.prefix(2))-\(middle)-\(participant.suffix(1))"
    }

    /// The code line in its printed form, e.g. for a test corpus or an orange slip typed in
    /// parts (its amount checked with `checkAmount` first). An amount that is no slip's or a
    /// document type that is not digits gives a line without its check digit, which `init`
    /// refuses.
    ///
    /// why not a trap: the XML channel builds the line from what a client typed, and a negative
    /// amount (no digits for the check) or an eleven-digit one (a negative count of zeros)
    /// stopped the server here.
    public static func make(documentType: String, amount: Money?, reference: String, participant: String) -> String {
        var head = documentType
        if let amount {
            let minor = String(amount.minorUnits)
            head += String(repeating: "0", count: max(0, 10 - minor.count)) + minor
        }
        head += CheckDigits.mod10Recursive(head).map(String.init) ?? ""
        return "\(head)>\(reference)+ \(participant)>"
    }
}
