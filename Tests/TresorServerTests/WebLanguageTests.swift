import Testing
import TresorDomain

@testable import TresorServer

@Suite("Web app: the language a browser asks for")
struct WebLanguageChoiceTests {
    @Test(
        "Accept-Language as browsers send it: the spoken language of highest weight, q=0 never, else the bank's first",
        arguments: [
            ("de-CH,de;q=0.9,fr-CH;q=0.8,fr;q=0.7,en;q=0.6", WebLanguage.de),  // Chrome in Swiss German
            ("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5", .fr),  // Firefox in Swiss French
            ("it-IT,it;q=0.9", .it), ("en-GB,en-US;q=0.9,en;q=0.8", .en), ("ar-SA,ar;q=0.9,en-US;q=0.8,en;q=0.7", .ar),
            ("ja-JP,ja;q=0.9,fr;q=0.5", .fr),  // the first the bank speaks, not the first asked
            ("fr;q=0.1, it;q=0.8", .it),  // weights, not order
            ("fr;q=0, en", .en),  // q=0: not French
            ("fr;q=0.000, it", .it), ("eng, es, ja", .de), ("*", .de), ("", .de), ("de;q=abc, fr", .fr),
        ])
    func choose(header: String, expected: WebLanguage) {
        #expect(WebLanguage.choose(cookie: nil, acceptLanguage: header) == expected, "\(header)")
    }

    @Test("the cookie wins over the header; a bank's languages bound the choice")
    func cookieAndBank() {
        #expect(WebLanguage.choose(cookie: "it", acceptLanguage: "fr") == .it)
        #expect(WebLanguage.choose(cookie: "xx", acceptLanguage: "fr") == .fr)
        #expect(WebLanguage.choose(cookie: nil, acceptLanguage: "de-CH,de;q=0.9,en;q=0.5", among: [.fr, .en]) == .en)
        #expect(WebLanguage.choose(cookie: nil, acceptLanguage: "ja", among: [.fr, .en]) == .fr)
    }

    @Test("a share as each language writes it; in Arabic the sign stays after the number, read right to left")
    func percent() {
        #expect(WebLanguage.de.percent("4.50") == "4.50\u{00A0}%")
        #expect(WebLanguage.it.percent("92") == "92\u{00A0}%")
        #expect(WebLanguage.fr.percent("4.50") == "4,50\u{00A0}%")
        #expect(WebLanguage.en.percent("92") == "92%")
        #expect(WebLanguage.ar.percent("92") == "\u{2066}92%\u{2069}")
    }
}

@Suite("Web app: every refusal a customer can meet is said in the page's language")
struct WebErrorWordingTests {
    /// The codes no page shows, and why: they are about how an API request is made (JSON,
    /// bearer token, idempotency header, body size, control characters, the method, a compressed body: a form gets those right
    /// itself), which bank a request is for (decided before any page), a ledger invariant (a
    /// fault, not input), a payment type (each pay form is one type), or the clearing desk (files
    /// from the payment provider and the suspense account are staff's, in the API and the CLI).
    static let apiOnly: Set<DomainError.Code> = [
        .invalidJSON, .unauthorized, .idempotencyKeyRequired, .idempotencyKeyReused, .invalidIdempotencyKey, .payloadTooLarge,
        .unbalancedTransaction, .invalidPaymentType, .unknownBank, .invalidCharacter, .methodNotAllowed,
        .unsupportedContentEncoding, .invalidContentEncoding, .clearingNotWellFormed, .clearingSchemaInvalid, .clearingDTDRefused,
        .clearingFileTooLarge, .clearingTotalsMismatch, .clearingMixedCurrencies, .clearingUnknownMessage, .clearingInvalidValue,
        .clearingUnreadable, .creditNotInSuspense, .paymentNotHeld,
    ]

    /// why: a code without words of its own shows the domain's English message in a German page
    /// ("The cursor is not one this server handed out."); the QR-bill and slip codes share their
    /// family's words, followed by the detail.
    @Test("German, French, Italian and Arabic have words for every other code")
    func everyCode() throws {
        let catalogues = try Catalogues.load()
        for language in [WebLanguage.de, .fr, .it, .ar] {
            let own = catalogues.messages[language] ?? [:]
            for code in DomainError.Code.allCases where !Self.apiOnly.contains(code) {
                let family = ["qrbill", "slip"].first { code.rawValue.hasPrefix($0 + "_") }
                let key = "error_" + (family ?? code.rawValue)
                #expect(own[key] != nil, "\(language.rawValue): \(key)")
            }
        }
        for language in WebLanguage.allCases {
            for code in [DomainError.Code.invalidIBAN, .invalidCreditorReference, .invalidQRReference, .invalidPhoneNumber] {
                #expect(catalogues.messages[language]?["error_\(code.rawValue)_rewritten"] != nil, "\(language.rawValue): \(code)")
            }
        }
        let german = catalogues.strings(.de)
        #expect(
            WebApp.message(for: DomainError(.invalidCursor, field: "cursor", "The cursor is not one this server handed out."), strings: german)
                == german["error_invalid_cursor"])
    }
}

@Suite("Web app: a repair that only writes the input another way is not called invalid")
struct WebRewrittenInputTests {
    static let german = (try? Catalogues.load())?.strings(.de) ?? [:]

    /// What the page says of the refusal `check` throws.
    static func said(_ check: () throws -> Void) -> String? {
        do {
            try check()
            return nil
        } catch let error as DomainError {
            return WebApp.message(for: error, strings: german)
        } catch {
            return nil
        }
    }

    @Test("spaces, capitals, leading zeros and the international form are rewritings; changed digits are not")
    func rewritten() {
        #expect(Self.said { _ = try IBAN(strict: "ch56 0483 5012 3456 7800 9") } == Self.german["error_invalid_iban_rewritten"])
        // A check-digit repair changes digits: the IBAN as typed is invalid, and is called so.
        #expect(Self.said { _ = try IBAN(strict: "CH65 0483 5012 3456 7800 9") } == Self.german["error_invalid_iban"])
        #expect(
            Self.said { _ = try PaymentReference.creditorReference("RF18 5390 0754 7034") }
                == Self.german["error_invalid_creditor_reference_rewritten"])
        #expect(
            Self.said { _ = try PaymentReference.qrReference("21 00000 00003 13947 14300 09017") }
                == Self.german["error_invalid_qr_reference_rewritten"])
        #expect(
            Self.said { _ = try PaymentReference.qrReference("12345676") } == Self.german["error_invalid_qr_reference_rewritten"])
        #expect(Self.said { _ = try TopUpOperator.phoneNumber("079 123 45 67") } == Self.german["error_invalid_phone_number_rewritten"])
        // A number that is no Swiss mobile number is refused as such.
        #expect(Self.said { _ = try TopUpOperator.phoneNumber("044 123 45 67") } == Self.german["error_invalid_phone_number"])
    }
}
