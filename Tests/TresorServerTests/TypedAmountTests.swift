import Foundation
import Testing
import TresorDomain

@testable import TresorServer

@Suite("Web forms: amounts as customers type them")
struct TypedAmountTests {
    @Test(
        "a decimal comma and thousands groups become the decimal the services read",
        arguments: [
            ("12,50", "12.50"), ("12,5", "12.5"), (" 20 ", "20"), ("1’234.50", "1234.50"), ("1'234,50", "1234.50"),
            ("1 234,50", "1234.50"), ("1\u{202F}234,50", "1234.50"), ("12\u{00A0}345\u{00A0}678", "12345678"),
            ("1,234.50", "1234.50"), ("1,234", "1234"), ("1.234,50", "1234.50"), ("1’000’000", "1000000"), ("-1,5", "-1.5"),
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
}
