import Testing
import TresorDomain

@Suite("ESR/ES slip code lines")
struct SlipCodeLineTests {
    @Test("an orange slip with amount: type, amount, reference and participant")
    func withAmount() throws {
        let slip = try SlipCodeLine("0100003949753>120000000000234478943216899+ 010001628>")
        #expect(slip.kind == .esr)
        #expect(slip.documentType == "01")
        #expect(slip.amount == Money(minorUnits: 394_975, currency: .chf))
        #expect(slip.reference == .qrr("120000000000234478943216899"))
        #expect(slip.participant == "010001628")
        #expect(slip.formattedParticipant == "01-162-8")
    }

    @Test("an orange slip without amount (ESR+) and a red slip")
    func withoutAmount() throws {
        let plus = try SlipCodeLine("042>120000000000234478943216899+ 010001628>")
        #expect(plus.amount == nil && plus.documentType == "04" && plus.currency == .chf)
        let red = try SlipCodeLine("010001628>")
        #expect(red.kind == .es && red.reference == nil && red.participant == "010001628")
        #expect(try SlipCodeLine(" 01 00003949753 > 120000000000234478943216899 + 010001628 > ").amount?.minorUnits == 394_975)
    }

    @Test("an EUR slip")
    func euro() throws {
        let line = SlipCodeLine.make(
            documentType: "21", amount: Money(minorUnits: 12_050, currency: .eur), reference: "120000000000234478943216899", participant: "010001628")
        let slip = try SlipCodeLine(line)
        #expect(slip.amount == Money(minorUnits: 12_050, currency: .eur))
    }

    @Test(
        "every wrong check digit is caught with its own code",
        arguments: [
            ("0100003949754>120000000000234478943216899+ 010001628>", DomainError.Code.slipAmountCheckDigit),
            ("0100003949853>120000000000234478943216899+ 010001628>", .slipAmountCheckDigit),
            ("0100003949753>120000000000234478943216898+ 010001628>", .slipReferenceCheckDigit),
            ("0100003949753>120000000000234478943216999+ 010001628>", .slipReferenceCheckDigit),
            ("0100003949753>120000000000234478943216899+ 010001627>", .slipParticipantCheckDigit),
            ("010001629>", .slipParticipantCheckDigit),
            ("043>120000000000234478943216899+ 010001628>", .slipAmountCheckDigit),
        ])
    func wrongCheckDigits(line: String, code: DomainError.Code) {
        let error = #expect(throws: DomainError.self) { try SlipCodeLine(line) }
        #expect(error?.code == code)
        #expect(error?.field == "code_line")
    }

    @Test(
        "malformed lines are refused",
        arguments: [
            "", "0100003949753>120000000000234478943216899+ 010001628", "0100003949753>12000000000023447894321689+ 010001628>",
            "01000039497X3>120000000000234478943216899+ 010001628>", "9900003949753>120000000000234478943216899+ 010001628>",
            "0400003949753>120000000000234478943216899+ 010001628>", "01000>1>2>", String(repeating: "1", count: 80) + ">",
        ])
    func malformed(line: String) {
        let error = #expect(throws: DomainError.self) { try SlipCodeLine(line) }
        #expect([.slipInvalidCodeLine, .slipUnknownDocumentType].contains(error?.code))
    }

    @Test("mod 10 recursive agrees with the published examples and catches every single-digit error")
    func mod10() {
        #expect(CheckDigits.mod10Recursive("21000000000313947143000901") == 7)
        #expect(CheckDigits.mod10Recursive("04") == 2)
        #expect(CheckDigits.mod10Recursive("01000394975") == nil || CheckDigits.mod10Recursive("010000394975") == 3)
        let valid = "210000000003139471430009017"
        var caught = 0
        var total = 0
        for (index, character) in valid.enumerated() {
            for digit in "0123456789" where digit != character {
                var chars = Array(valid)
                chars[index] = digit
                total += 1
                if !CheckDigits.isValidMod10Recursive(String(chars)) { caught += 1 }
            }
        }
        #expect(caught == total)
    }
}
