import Foundation
import Testing

@testable import TresorDomain

@Suite("IBAN")
struct IBANTests {
    @Test(
        "published example IBANs validate",
        arguments: [
            "CH9300762011623852957", "CH93 0076 2011 6238 5295 7", "DE89370400440532013000", "GB82WEST12345698765432",
            "fr1420041010050500013m02606", "LI21088100002324013AA", "NL91ABNA0417164300",
        ])
    func valid(text: String) throws {
        #expect(try IBAN(text).electronic == text.uppercased().filter { $0 != " " })
    }

    @Test(
        "typos are caught",
        arguments: ["CH9300762011623852958", "CH930076201162385295", "DE89370400440532013001", "XX", "CH93-0076", "1234567890123456"])
    func invalid(text: String) {
        #expect(throws: DomainError.self) { try IBAN(text) }
    }

    @Test(
        "an IBAN copied from a PDF or a web page reads, invisible characters and all",
        arguments: [
            "CH93\u{00A0}0076\u{00A0}2011\u{00A0}6238\u{00A0}5295\u{00A0}7", "CH93\u{202F}0076\u{2009}2011 6238 5295 7",
            "CH93\t0076 2011 6238 5295 7\n",
            "\u{200B}CH9300762011\u{200B}623852957", "CH93 00\u{00AD}76 2011 6238 5295 7", "\u{FEFF}CH93 0076 2011 6238 5295 7",
            // Typed on an Arabic region's or a Persian number pad.
            "CH٩٣ ٠٠٧٦ ٢٠١١ ٦٢٣٨ ٥٢٩٥ ٧", "CH۹۳۰۰۷۶۲۰۱۱۶۲۳۸۵۲۹۵۷",
        ])
    func pasted(text: String) throws {
        #expect(try IBAN(text).electronic == "CH9300762011623852957")
    }

    /// why: `compact` takes a byte path for ASCII text; it must give what the `Character` path
    /// gives (Unicode's whitespace, `uppercased`) for every ASCII text, CR LF and controls included.
    @Test("ASCII text compacts as the Character path compacts it, and mod 97 over bytes is the textbook one")
    func asciiPath() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = (0..<128).map { Character(Unicode.Scalar(UInt8($0))) } + ["\r\n"]
        for _ in 0..<5_000 {
            let text = String((0..<Int.random(in: 0...40, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
            let byCharacter = Digits.ascii(String(text.filter { !$0.isWhitespace && !IBAN.invisible.contains($0) }.uppercased()))
            #expect(IBAN.compact(text) == byCharacter, "\(Array(text.utf8))")
        }
        // ISO 7064 MOD 97-10 over the rearranged IBAN as one big number, letters A = 10 … Z = 35.
        for text in ["CH9300762011623852957", "GB82WEST12345698765432", "FR1420041010050500013M02606", "NL91ABNA0417164300", "CH9300762011623852958"]
        {
            let digits = (text.dropFirst(4) + text.prefix(4)).map { $0.isNumber ? String($0) : String(Int($0.asciiValue!) - 55) }.joined()
            let expected = digits.reduce(0) { ($0 * 10 + Int(String($1))!) % 97 }
            #expect(IBAN.mod97(text) == expected)
        }
        #expect(IBAN.mod97("CH93-0076") == -1 && IBAN.mod97("CH93\u{00E4}0076") == -1)
    }

    @Test("generated Swiss IBANs are valid and distinct")
    func generated() throws {
        let ibans = (1...500).map { IBAN.swiss(clearing: 9_999, accountNumber: Int64($0)) }
        #expect(Set(ibans).count == 500)
        for iban in ibans { #expect(try IBAN(iban.electronic) == iban) }
        #expect(IBAN.swiss(clearing: 762, accountNumber: 11_623_852_957).electronic == "CH9300762011623852957")
        #expect(try IBAN("CH9300762011623852957").formatted == "CH93 0076 2011 6238 5295 7")
    }

    /// IBANs of every country the PyPI package schwifty knows, and IBANs whose check digits add
    /// up but whose BBAN breaks its country's format, which schwifty refuses
    /// (`scripts/generate-bank-registry.py`).
    static let registryVectors: (valid: [String], broken: [String]) = {
        let document = Vectors.named("iban-registry")
        return (document["valid"] as? [String] ?? [], document["broken_bban"] as? [String] ?? [])
    }()

    @Test("schwifty's IBANs of 127 countries are taken; its refusals of a BBAN in the wrong format or an unknown country are ours too")
    func registry() throws {
        let vectors = Self.registryVectors
        #expect(vectors.valid.count > 300 && vectors.broken.count > 150)
        for iban in vectors.valid {
            #expect(throws: Never.self, "\(iban)") { try IBAN(iban) }
        }
        for iban in vectors.broken {
            #expect("\(iban)") {
                try IBAN(iban)
            } throws: { error in
                (error as? DomainError)?.code == .invalidIBAN && (error as? DomainError)?.message.contains("after its check digits") == true
            }
        }
        #expect {
            try IBAN("CH60F8CZ2KA7EDCMPB3U2")
        } throws: { error in
            (error as? DomainError)?.message == "A CH IBAN has 5 digits, then 12 letters or digits after its check digits."
        }
        #expect {
            try IBAN("XX57WEST12345698765432")
        } throws: { error in
            (error as? DomainError)?.message == "An IBAN starts with its country's ISO code; XX is none."
        }
        #expect(IBAN.bbanFault("A2345678901", format: "1!a10!n") == nil)
        #expect(IBAN.bbanFault("12345678901", format: "1!a10!n") == "1 capital letter, then 10 digits")
    }
}
