import Foundation
import Testing
import TresorDomain

@Suite("Money")
struct MoneyTests {
    @Test(
        "decimal strings parse exactly into minor units",
        arguments: [
            ("12.30", Int64(1_230)), ("-12.3", -1_230), ("0.05", 5), ("1234567", 123_456_700), ("999999999999.99", 99_999_999_999_999),
        ])
    func parses(text: String, minor: Int64) throws {
        #expect(try Money(parsing: text, currency: .chf).minorUnits == minor)
    }

    @Test(
        "malformed amounts are refused with a stable code",
        arguments: [
            ("", "invalid_amount"), ("1e3", "invalid_amount"), ("1,50", "invalid_amount"), ("12.", "invalid_amount"), (".5", "invalid_amount"),
            ("--1", "invalid_amount"), (" 1", "invalid_amount"), ("1.234", "too_many_decimals"), ("1000000000000.00", "amount_too_large"),
            ("9999999999999999999999", "amount_too_large"),
            // Twenty decimals overflowed the fraction's Int64 and stopped the server.
            ("0.99999999999999999999", "too_many_decimals"), ("-9.9999999999999999999", "too_many_decimals"),
        ])
    func refuses(text: String, code: String) {
        #expect {
            try Money(parsing: text, currency: .chf)
        } throws: { ($0 as? DomainError)?.code.rawValue == code }
    }

    @Test("JSON uses the Berlin Group shape and round-trips")
    func json() throws {
        let money = Money(minorUnits: -1_230, currency: .chf)
        let data = try JSONEncoder().encode(money)
        #expect(String(decoding: data, as: UTF8.self).contains(#""amount":"-12.30""#))
        #expect(try JSONDecoder().decode(Money.self, from: data) == money)
        #expect(Money(minorUnits: 5, currency: Currency(code: "JPY")!).decimalString == "5")
        #expect(Money(minorUnits: -5, currency: .eur).decimalString == "-0.05")
    }

    @Test("too many decimals suggests the half-up rounded amount")
    func suggestion() {
        #expect {
            try Money(parsing: "10.005", currency: .chf)
        } throws: { ($0 as? DomainError)?.suggested == "10.01" }
        #expect {
            try Money(parsing: "10.004", currency: .chf)
        } throws: { ($0 as? DomainError)?.suggested == "10.00" }
    }

    /// Amounts as customers type them (apostrophe, typographic apostrophe, no-break and narrow
    /// no-break spaces, decimal comma, German and English grouping, Arabic-Indic digits with the
    /// Arabic separators) and what each reads as.
    @Test(
        "an amount written as people type it is refused, with what it reads as suggested",
        arguments: [
            ("1'250.00", "1250.00"), ("1\u{2019}250.5", "1250.50"), ("1\u{00A0}250,50", "1250.50"), ("1\u{202F}250", "1250.00"),
            ("12,5", "12.50"), ("1.234,50", "1234.50"), ("1,234.50", "1234.50"),
            ("\u{0661}\u{066C}\u{0662}\u{0665}\u{0660}\u{066B}\u{0665}", "1250.50"),
            (" 7.00 ", "7.00"), ("-1'000", "-1000.00"),
        ])
    func typedAmountSuggested(typed: String, reading: String) {
        #expect {
            try Money(parsing: typed, currency: .chf)
        } throws: { error in
            let error = error as? DomainError
            return error?.code == .invalidAmount && error?.field == "amount" && error?.suggested == reading
        }
    }

    @Test("no suggestion where the text reads as no amount, or as one the currency refuses")
    func unreadableAmountHasNoSuggestion() {
        for text in ["abc", "1e3", "12.", ".5", "1'25.00", "CHF 12.00", "1'250.005"] {
            #expect {
                try Money(parsing: text, currency: .chf)
            } throws: { ($0 as? DomainError)?.code == .invalidAmount && ($0 as? DomainError)?.suggested == nil }
        }
        #expect {
            try Money(parsing: "12,50", currency: Currency(code: "JPY")!)
        } throws: { ($0 as? DomainError)?.code == .invalidAmount && ($0 as? DomainError)?.suggested == nil }
    }

    @Test("a currency code in small letters is refused with the code in capitals suggested")
    func currencyInSmallLetters() throws {
        let refusal = { (json: String) -> DomainError? in
            do {
                _ = try JSONDecoder().decode(Money.self, from: Data(json.utf8))
                return nil
            } catch { return error as? DomainError }
        }
        let chf = refusal(#"{"amount": "1.00", "currency": "chf"}"#)
        #expect(chf?.code == .unsupportedCurrency && chf?.suggested == "CHF" && chf?.rewritten == true)
        let unknown = refusal(#"{"amount": "1.00", "currency": "xyz"}"#)
        #expect(unknown?.code == .unsupportedCurrency && unknown?.suggested == nil)
    }

    /// An amount sent as a JSON number, as JavaScript and Python clients write one.
    @Test("an amount sent as a number is refused, with the string it means suggested")
    func amountAsNumber() throws {
        struct Wrapped: Decodable { let amount: Money }
        let refusal = { (json: String) -> (any Error)? in
            do {
                _ = try JSONDecoder().decode(Wrapped.self, from: Data(json.utf8))
                return nil
            } catch { return error }
        }
        let number = refusal(#"{"amount": {"amount": 12.5, "currency": "CHF"}}"#) as? DomainError
        #expect(number?.code == .invalidParameter && number?.field == "amount.amount" && number?.suggested == "12.50")
        let exponent = refusal(#"{"amount": {"amount": 1e3, "currency": "EUR"}}"#) as? DomainError
        #expect(exponent?.suggested == "1000.00")
        // No string means 12.505 francs, and true is no amount: the decoder's own refusal.
        #expect(refusal(#"{"amount": {"amount": 12.505, "currency": "CHF"}}"#) is DecodingError)
        #expect(refusal(#"{"amount": {"amount": true, "currency": "CHF"}}"#) is DecodingError)
    }
}
