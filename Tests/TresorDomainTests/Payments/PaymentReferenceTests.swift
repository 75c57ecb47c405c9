import Testing
import TresorDomain

@Suite("References and repairs")
struct PaymentReferenceTests {
    @Test("ISO 11649 creditor references")
    func scor() throws {
        #expect(try PaymentReference.creditorReference("RF18539007547034") == .scor("RF18539007547034"))
        let spaced = #expect(throws: DomainError.self) { try PaymentReference.creditorReference("rf18 5390 0754 7034") }
        #expect(spaced?.suggested == "RF18539007547034")
        #expect(throws: DomainError.self) { try PaymentReference.creditorReference("RF19539007547034") }
        #expect(throws: DomainError.self) { try PaymentReference.creditorReference("RF18") }
        let made = PaymentReference.makeCreditorReference("INVOICE2026")
        #expect(try PaymentReference.creditorReference(made).value == made)
    }

    @Test("a QR reference missing its leading zeros is offered padded, never accepted as typed")
    func qrrPadding() throws {
        let full = PaymentReference.makeQRReference("12345")
        #expect(full.count == 27)
        #expect(try PaymentReference.qrReference(full) == .qrr(full))
        let short = String(full.drop { $0 == "0" })
        let error = #expect(throws: DomainError.self) { try PaymentReference.qrReference(short) }
        #expect(error?.suggested == full)
        #expect(error?.code == .invalidQRReference)
    }

    @Test("references are shown in the blocks a bill prints them in, and read back from them")
    func formatted() throws {
        // The QR reference of SIX's sample bills, as printed on them.
        #expect(try PaymentReference.qrReference("210000000003139471430009017").formatted == "21 00000 00003 13947 14300 09017")
        #expect(try PaymentReference.creditorReference("RF18539007547034").formatted == "RF18 5390 0754 7034")
        let odd = try PaymentReference.creditorReference(PaymentReference.makeCreditorReference("INVOICE2026"))
        #expect(odd.formatted.split(separator: " ").map(\.count) == [4, 4, 4, 3])
        // What a customer copies from the screen is offered back in its electronic form.
        for reference in [try PaymentReference.qrReference("210000000003139471430009017"), odd] {
            let read = #expect(throws: DomainError.self) {
                if case .qrr = reference {
                    _ = try PaymentReference.qrReference(reference.formatted)
                } else {
                    _ = try PaymentReference.creditorReference(reference.formatted)
                }
            }
            #expect(read?.suggested == reference.value)
        }
    }

    @Test(
        "a reference pasted from a PDF or a web page (no-break, narrow or zero-width spaces) is offered in its electronic form",
        arguments: ["\u{00A0}", "\u{202F}", "\u{2009}", " \u{200B}", "\t"])
    func pastedReferences(space: String) {
        let qrr = ["21", "00000", "00003", "13947", "14300", "09017"].joined(separator: space)
        let qrrRead = #expect(throws: DomainError.self) { try PaymentReference.qrReference(qrr) }
        #expect(qrrRead?.suggested == "210000000003139471430009017")
        let scor = ["RF18", "5390", "0754", "7034"].joined(separator: space)
        let scorRead = #expect(throws: DomainError.self) { try PaymentReference.creditorReference(scor) }
        #expect(scorRead?.suggested == "RF18539007547034")
    }

    @Test("an IBAN with spaces or lower case is refused with the electronic form suggested")
    func ibanFormatting() throws {
        #expect(try IBAN(strict: "CH9300762011623852957").electronic == "CH9300762011623852957")
        let error = #expect(throws: DomainError.self) { try IBAN(strict: "ch93 0076 2011 6238 5295 7", field: "creditor.iban") }
        #expect(error?.suggested == "CH9300762011623852957")
        #expect(error?.field == "creditor.iban")
    }

    @Test("a CH IBAN with one mistyped check digit gets the one valid fix; a typo elsewhere gets none")
    func ibanCheckPair() {
        let checkTypo = #expect(throws: DomainError.self) { try IBAN(strict: "CH9400762011623852957") }
        #expect(checkTypo?.suggested == "CH9300762011623852957")
        let bodyTypo = #expect(throws: DomainError.self) { try IBAN(strict: "CH9300762011623852958") }
        #expect(bodyTypo?.code == .invalidIBAN)
        #expect(bodyTypo?.suggested == nil)
        let german = #expect(throws: DomainError.self) { try IBAN(strict: "DE88370400440532013000") }
        #expect(german?.suggested == nil)
    }

    @Test("BIC shapes")
    func bic() throws {
        #expect(try BIC("UBSWCHZH80A").code == "UBSWCHZH80A")
        #expect(try BIC("POFICHBE").code == "POFICHBE")
        #expect((#expect(throws: DomainError.self) { try BIC("pofichbe") })?.suggested == "POFICHBE")
        #expect(throws: DomainError.self) { try BIC("POFI1HBE") }
    }

    @Test("phone numbers for top-ups")
    func phone() throws {
        #expect(try TopUpOperator.phoneNumber("+41791234567") == "+41791234567")
        #expect((#expect(throws: DomainError.self) { try TopUpOperator.phoneNumber("079 123 45 67") })?.suggested == "+41791234567")
        #expect((#expect(throws: DomainError.self) { try TopUpOperator.phoneNumber("0041 79 123 45 67") })?.suggested == "+41791234567")
        #expect((#expect(throws: DomainError.self) { try TopUpOperator.phoneNumber("+41 31 123 45 67") })?.suggested == nil)
        // As Swiss letterheads and web pages write it: the trunk 0 in brackets, non-breaking spaces.
        #expect((#expect(throws: DomainError.self) { try TopUpOperator.phoneNumber("+41 (0)79 123 45 67") })?.suggested == "+41791234567")
        #expect(
            (#expect(throws: DomainError.self) { try TopUpOperator.phoneNumber("079\u{00A0}123\u{00A0}45\u{00A0}67") })?.suggested == "+41791234567")
        #expect((#expect(throws: DomainError.self) { try TopUpOperator.phoneNumber("+41 (0)31 123 45 67") })?.suggested == nil)
    }
}
