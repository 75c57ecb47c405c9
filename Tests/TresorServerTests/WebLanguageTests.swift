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
}

@Suite("Web app: every refusal a customer can meet is said in the page's language")
struct WebErrorWordingTests {
    /// The codes no page shows, and why: they are about how an API request is made (JSON,
    /// bearer token, idempotency header, body size, control characters: a form drops those
    /// itself), which bank a request is for (decided before any page), a ledger invariant (a
    /// fault, not input), or a payment type (each pay form is one type).
    static let apiOnly: Set<DomainError.Code> = [
        .invalidJSON, .unauthorized, .idempotencyKeyRequired, .idempotencyKeyReused, .invalidIdempotencyKey, .payloadTooLarge,
        .unbalancedTransaction, .invalidPaymentType, .unknownBank, .invalidCharacter,
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

    static func said(_ code: DomainError.Code, typed: String, suggested: String) -> String {
        WebApp.message(for: DomainError(code, field: "x", "English detail", suggested: suggested), strings: german, typed: typed)
    }

    @Test("spaces, capitals, leading zeros and the international form are rewritings; changed digits are not")
    func rewritten() {
        #expect(
            Self.said(.invalidIBAN, typed: "ch56 0483 5012 3456 7800 9", suggested: "CH5604835012345678009")
                == Self.german["error_invalid_iban_rewritten"])
        // A check-digit repair changes digits: the IBAN as typed is invalid, and is called so.
        #expect(Self.said(.invalidIBAN, typed: "CH65 0483 5012 3456 7800 9", suggested: "CH5604835012345678009") == Self.german["error_invalid_iban"])
        #expect(
            Self.said(.invalidCreditorReference, typed: "RF18 5390 0754 7034", suggested: "RF18539007547034")
                == Self.german["error_invalid_creditor_reference_rewritten"])
        #expect(
            Self.said(.invalidQRReference, typed: "21 00000 00003 13947 14300 09017", suggested: "210000000003139471430009017")
                == Self.german["error_invalid_qr_reference_rewritten"])
        #expect(
            Self.said(.invalidQRReference, typed: "3139471430009017", suggested: "000000000003139471430009017")
                == Self.german["error_invalid_qr_reference_rewritten"])
        #expect(
            Self.said(.invalidPhoneNumber, typed: "079 123 45 67", suggested: "+41791234567") == Self.german["error_invalid_phone_number_rewritten"])
        // Without the typed text (the edit form), the code's own words.
        #expect(
            WebApp.message(for: DomainError(.invalidIBAN, field: "x", "d", suggested: "CH5604835012345678009"), strings: Self.german)
                == Self.german["error_invalid_iban"])
    }
}
