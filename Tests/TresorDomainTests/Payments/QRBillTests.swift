import Testing
import TresorDomain

@Suite("Swiss QR-bill payload")
struct QRBillTests {
    @Test("sample bill 1: QR-IBAN, QR reference, amount, debtor, billing information, two alternative procedures")
    func sample1() throws {
        let bill = try QRBill(payload: SIXSampleBills.qrReferenceWithAmount)
        #expect(bill.account.electronic == "CH4431999123000889012")
        #expect(bill.account.isQRIBAN)
        #expect(bill.creditor.name == "Robert Schneider AG")
        #expect(bill.creditor.buildingNumber == "1268")
        #expect(bill.amount == Money(minorUnits: 194_975, currency: .chf))
        #expect(bill.ultimateDebtor?.town == "Rorschach")
        #expect(bill.reference == .qrr("210000000003139471430009017"))
        #expect(bill.message == "Order dated 18.06.2020")
        #expect(bill.billingInformation?.hasPrefix("//S1/10/10201409") == true)
        #expect(bill.alternativeProcedures.count == 2)
    }

    @Test("the other sample bills parse, and each survives encoding and parsing again")
    func samples() throws {
        let withoutAmount = try QRBill(payload: SIXSampleBills.qrReferenceWithoutAmount)
        #expect(withoutAmount.amount == nil)
        let scor = try QRBill(payload: SIXSampleBills.creditorReference)
        #expect(scor.reference == .scor("RF18539007547034"))
        #expect(scor.currency == .eur)
        #expect(scor.message == nil)
        let donation = try QRBill(payload: SIXSampleBills.donation)
        #expect(donation.reference == nil && donation.ultimateDebtor == nil && donation.amount == nil)
        #expect(donation.creditor.street == nil)
        let plain = try QRBill(payload: SIXSampleBills.withoutReference)
        #expect(plain.reference == nil && plain.billingInformation != nil)
        for payload in [
            SIXSampleBills.qrReferenceWithAmount, SIXSampleBills.qrReferenceWithoutAmount, SIXSampleBills.creditorReference,
            SIXSampleBills.donation, SIXSampleBills.withoutReference,
        ] {
            let bill = try QRBill(payload: payload)
            #expect(try QRBill(payload: bill.payload) == bill)
        }
    }

    @Test("LF separators and a final separator are accepted")
    func separators() throws {
        let lf = SIXSampleBills.creditorReference.replacing("\r\n", with: "\n")
        #expect(try QRBill(payload: lf) == QRBill(payload: SIXSampleBills.creditorReference))
        #expect(try QRBill(payload: SIXSampleBills.creditorReference + "\r\n").reference == .scor("RF18539007547034"))
    }

    /// Each rule of the guidelines: element index (0-based) to replace, the bad value, the code
    /// and field expected.
    struct Violation: Sendable, CustomTestStringConvertible {
        let line: Int
        let value: String
        let code: DomainError.Code
        let field: String
        var testDescription: String { "\(code.rawValue) on \(field)" }
    }

    static let violations: [Violation] = [
        Violation(line: 0, value: "SPX", code: .qrbillInvalidHeader, field: "qr_type"),
        Violation(line: 1, value: "0100", code: .qrbillUnsupportedVersion, field: "version"),
        Violation(line: 2, value: "2", code: .qrbillInvalidCodingType, field: "coding_type"),
        Violation(line: 3, value: "CH4431999123000889013", code: .qrbillInvalidAccount, field: "account"),
        Violation(line: 3, value: "DE89370400440532013000", code: .qrbillInvalidAccount, field: "account"),
        Violation(line: 3, value: "CH44 3199 9123 0008 8901 2", code: .qrbillInvalidAccount, field: "account"),
        Violation(line: 4, value: "K", code: .qrbillCombinedAddress, field: "creditor.address_type"),
        Violation(line: 4, value: "X", code: .qrbillInvalidAddressType, field: "creditor.address_type"),
        Violation(line: 5, value: "", code: .missingField, field: "creditor.name"),
        Violation(line: 5, value: String(repeating: "n", count: 71), code: .fieldTooLong, field: "creditor.name"),
        Violation(line: 6, value: String(repeating: "s", count: 71), code: .fieldTooLong, field: "creditor.street"),
        Violation(line: 7, value: String(repeating: "1", count: 17), code: .fieldTooLong, field: "creditor.building_number"),
        Violation(line: 8, value: "", code: .missingField, field: "creditor.postal_code"),
        Violation(line: 9, value: "", code: .missingField, field: "creditor.town"),
        Violation(line: 9, value: String(repeating: "t", count: 36), code: .fieldTooLong, field: "creditor.town"),
        Violation(line: 10, value: "Schweiz", code: .invalidCountry, field: "creditor.country"),
        Violation(line: 12, value: "Someone", code: .qrbillUltimateCreditorNotEmpty, field: "ultimate_creditor"),
        Violation(line: 18, value: "0.00", code: .qrbillAmountOutOfRange, field: "amount"),
        Violation(line: 18, value: "1000000000", code: .qrbillAmountOutOfRange, field: "amount"),
        Violation(line: 18, value: "1949.755", code: .qrbillInvalidAmount, field: "amount"),
        Violation(line: 18, value: "1'949.75", code: .qrbillInvalidAmount, field: "amount"),
        Violation(line: 18, value: "1949,75", code: .qrbillInvalidAmount, field: "amount"),
        Violation(line: 19, value: "USD", code: .qrbillInvalidCurrency, field: "currency"),
        Violation(line: 20, value: "K", code: .qrbillCombinedAddress, field: "ultimate_debtor.address_type"),
        Violation(line: 24, value: "", code: .missingField, field: "ultimate_debtor.postal_code"),
        Violation(line: 27, value: "ESR", code: .qrbillInvalidReferenceType, field: "reference_type"),
        Violation(line: 27, value: "SCOR", code: .qrbillQRIBANRequiresQRR, field: "reference_type"),
        Violation(line: 27, value: "NON", code: .qrbillQRIBANRequiresQRR, field: "reference_type"),
        Violation(line: 28, value: "210000000003139471430009018", code: .invalidQRReference, field: "reference"),
        Violation(line: 28, value: "21000000000313947143000901A", code: .invalidQRReference, field: "reference"),
        Violation(line: 28, value: "", code: .missingField, field: "reference"),
        Violation(line: 29, value: String(repeating: "m", count: 141), code: .qrbillMessageTooLong, field: "message"),
        Violation(line: 30, value: "END", code: .qrbillMissingTrailer, field: "trailer"),
        Violation(line: 32, value: String(repeating: "a", count: 101), code: .fieldTooLong, field: "alternative_procedures[0]"),
    ]

    @Test("every rule has its code and names its element", arguments: violations)
    func violation(_ violation: Violation) {
        var lines = SIXSampleBills.qrReferenceWithAmount.components(separatedBy: "\r\n")
        lines[violation.line] = violation.value
        let error = #expect(throws: DomainError.self) { try QRBill(payload: lines.joined(separator: "\r\n")) }
        #expect(error?.code == violation.code)
        #expect(error?.field == violation.field)
    }

    @Test("reference rules that depend on the account type")
    func referenceRules() {
        var withIBAN = SIXSampleBills.creditorReference.components(separatedBy: "\r\n")
        withIBAN[27] = "QRR"
        withIBAN[28] = "210000000003139471430009017"
        let qrr = #expect(throws: DomainError.self) { try QRBill(payload: withIBAN.joined(separator: "\r\n")) }
        #expect(qrr?.code == .qrbillQRRRequiresQRIBAN && qrr?.field == "reference_type")
        var nonWithRef = SIXSampleBills.donation.components(separatedBy: "\r\n")
        nonWithRef[28] = "RF18539007547034"
        let error = #expect(throws: DomainError.self) { try QRBill(payload: nonWithRef.joined(separator: "\r\n")) }
        #expect(error?.code == .qrbillReferenceNotAllowed)
        var badScor = SIXSampleBills.creditorReference.components(separatedBy: "\r\n")
        badScor[28] = "RF19539007547034"
        #expect((#expect(throws: DomainError.self) { try QRBill(payload: badScor.joined(separator: "\r\n")) })?.code == .invalidCreditorReference)
    }

    @Test("structure: too few or too many elements, oversized payload, control characters, message plus billing over 140")
    func structure() {
        let lines = SIXSampleBills.qrReferenceWithAmount.components(separatedBy: "\r\n")
        func code(_ payload: String) -> DomainError.Code? {
            (#expect(throws: DomainError.self) { try QRBill(payload: payload) })?.code
        }
        #expect(code(lines.prefix(30).joined(separator: "\r\n")) == .qrbillInvalidStructure)
        #expect(code((lines + ["third alternative"]).joined(separator: "\r\n")) == .qrbillInvalidStructure)
        #expect(code(SIXSampleBills.donation + String(repeating: "x", count: 1000)) == .qrbillPayloadTooLarge)
        #expect(code(SIXSampleBills.donation.replacing("Bern", with: "Be\u{7}rn")) == .qrbillInvalidCharacter)
        var long = lines
        long[29] = String(repeating: "m", count: 60)
        long[31] = String(repeating: "b", count: 81)
        #expect(code(long.joined(separator: "\r\n")) == .qrbillMessageTooLong)
        #expect(code("not a bill") == .qrbillInvalidHeader)
    }

    @Test("the largest and smallest amounts the guidelines allow are accepted")
    func amountBounds() throws {
        var lines = SIXSampleBills.qrReferenceWithAmount.components(separatedBy: "\r\n")
        lines[18] = "999999999.99"
        #expect(try QRBill(payload: lines.joined(separator: "\r\n")).amount?.minorUnits == 99_999_999_999)
        lines[18] = "0.01"
        #expect(try QRBill(payload: lines.joined(separator: "\r\n")).amount?.minorUnits == 1)
        lines[18] = "12.5"
        #expect(try QRBill(payload: lines.joined(separator: "\r\n")).amount?.minorUnits == 1250)
    }
}
