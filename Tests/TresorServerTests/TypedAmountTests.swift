import Foundation
import Testing
import TresorDomain
import TresorTestSupport

@testable import TresorServer

@Suite("Web forms: amounts as customers type them")
struct TypedAmountTests {
    @Test(
        "a decimal comma and thousands groups become the decimal the services read",
        arguments: [
            ("12,50", "12.50"), ("12,5", "12.5"), (" 20 ", "20"), ("1’234.50", "1234.50"), ("1'234,50", "1234.50"),
            ("1 234,50", "1234.50"), ("1\u{202F}234,50", "1234.50"), ("12\u{00A0}345\u{00A0}678", "12345678"),
            ("1,234.50", "1234.50"), ("1,234", "1234"), ("1.234,50", "1234.50"), ("1’000’000", "1000000"), ("-1,5", "-1.5"),
            // An Arabic region's decimal pad, Persian and Devanagari digits, a full-width input method.
            ("٢٥٫٥٠", "25.50"), ("٢٬٥٠٠٫٥٠", "2500.50"), ("١٢,٥", "12.5"), ("۱۲۵٫۷۵", "125.75"), ("२५.५०", "25.50"), ("１２.５０", "12.50"),
        ])
    func read(typed: String, decimal: String) throws {
        #expect(TypedAmount.normalized(typed) == decimal, "\(typed)")
        #expect(
            try Money(parsing: TypedAmount.normalized(typed), currency: .chf).decimalString
                == (try Money(parsing: decimal, currency: .chf)).decimalString)
    }

    @Test(
        "what is not an amount stays as typed, so the form says what is wrong with it",
        arguments: ["12,345,67", "1’23", "12.50,3", "1.234", "CHF 20", "12,", ",5", "1 2", "12,345.6.7", ""])
    func left(typed: String) {
        #expect(TypedAmount.normalized(typed) == typed.trimmingCharacters(in: .whitespaces), "\(typed)")
        #expect(throws: DomainError.self, "\(typed)") {
            // "1.234" is a dot decimal to the parser: three decimals, refused for CHF.
            try Money(parsing: TypedAmount.normalized(typed), currency: .chf)
        }
    }

    @Test("every decimal digit Python's unicodedata knows reads as its value; other numbers and letters stay")
    func digitsOfEveryScript() throws {
        // why Python: a table of digits written elsewhere than the Unicode data Swift carries.
        let script =
            "import sys, unicodedata\nfor c in range(0x80, 0x110000):\n    ch = chr(c)\n"
            + "    if unicodedata.category(ch) == 'Nd': print(c, unicodedata.decimal(ch))"
        let run = try ToolRun.run("/usr/bin/python3", ["-c", script])
        #expect(run.status == 0, "\(run.output)")
        let digits = run.output.split(separator: "\n").map { $0.split(separator: " ").map { Int($0)! } }
        #expect(digits.count >= 600, "Unicode has over 600 decimal digits outside ASCII")
        for pair in digits {
            let scalar = try #require(Unicode.Scalar(pair[0]))
            #expect(Digits.ascii("x" + String(scalar) + "7") == "x\(pair[1])7", "U+\(String(pair[0], radix: 16, uppercase: true))")
        }
        #expect(Digits.ascii("²½Ⅻ٪ مرحبا 12") == "²½Ⅻ٪ مرحبا 12", "superscripts, fractions, Roman numerals and letters are no digits")
    }
}
