import Foundation
import NIOCore
import Testing
import TresorCore
import TresorDomain
import TresorTestSupport

@testable import TresorServer

/// `JSONFields`, the reading of transfer bodies without `JSONDecoder`: whatever it reads, it
/// reads as `JSONDecoder` does; what it cannot read it leaves to it (nil). Checked on bodies as
/// clients write them, on the edge cases of JSON, and on thousands of bodies mangled at random
/// (a fixed seed).
@Suite("JSON fields of a request body")
struct JSONFieldsTests {
    static func fast(_ body: [UInt8]) -> TransferRequest? {
        JSONFields.read(ByteBuffer(bytes: body)).flatMap(TransferRequest.init(fields:))
    }

    static func foundation(_ body: [UInt8]) -> TransferRequest? {
        try? JSONDecoder().decode(TransferRequest.self, from: Data(body))
    }

    static let written = [
        #"{"from_account": "5", "to_account": "7", "amount": {"amount": "1.00", "currency": "CHF"}}"#,
        #"{"from_account":"5","to_account":"7","amount":{"amount":"12.30","currency":"EUR"},"message":"Rent März"}"#,
        "{\n  \"amount\" : {\n    \"currency\" : \"CHF\",\n    \"amount\" : \"0.05\"\n  },\n  \"to_account\" : \"12\",\n  \"from_account\" : \"9\"\n}\n",
        #"{"from_account": "5", "to_account": "7", "amount": {"amount": "1", "currency": "CHF"}, "message": null}"#,
        #"{"from_account": "5", "to_account": "7", "amount": {"amount": "1.00", "currency": "CHF", "note": "x"}, "extra": {"a": "b"}}"#,
        #"{"from_account": "5", "to_account": "7", "amount": {"amount": "1.00", "currency": "CHF"}, "message": "漢字 🏦"}"#,
    ]

    @Test("bodies as clients write them are read without JSONDecoder, to the value it decodes")
    func written() throws {
        for body in Self.written {
            let bytes = Array(body.utf8)
            let fast = try #require(Self.fast(bytes), "not read: \(body)")
            #expect(fast == Self.foundation(bytes), "\(body)")
        }
    }

    @Test("what it does not read, or reads otherwise than JSONDecoder would, it leaves to JSONDecoder")
    func leftToJSONDecoder() {
        let bodies = [
            // Escapes, numbers, booleans, arrays, deeper objects: JSONDecoder's to read or refuse.
            #"{"from_account": "5", "to_account": "7", "amount": {"amount": "1.00", "currency": "CHF"}, "message": "a\"b"}"#,
            #"{"from_account": "5", "to_account": "7", "amount": {"amount": "1.00", "currency": "CHF"}, "message": "\u0041"}"#,
            #"{"from_account": 5, "to_account": "7", "amount": {"amount": "1.00", "currency": "CHF"}}"#,
            #"{"from_account": "5", "to_account": "7", "amount": {"amount": 1.00, "currency": "CHF"}}"#,
            #"{"from_account": "5", "to_account": "7", "amount": {"amount": "1.00", "currency": "CHF"}, "flag": true}"#,
            #"{"from_account": "5", "to_account": "7", "amount": {"amount": "1.00", "currency": "CHF"}, "tags": []}"#,
            #"{"from_account": "5", "to_account": "7", "amount": {"amount": "1.00", "currency": "CHF", "x": {"y": "z"}}}"#,
            // A key twice, one of them null; a dotted key that would stand for a nested member.
            #"{"from_account": "5", "from_account": "6", "to_account": "7", "amount": {"amount": "1.00", "currency": "CHF"}}"#,
            #"{"from_account": "5", "to_account": "7", "amount": {"amount": "1.00", "currency": "CHF"}, "message": null, "message": "x"}"#,
            #"{"from_account": "5", "to_account": "7", "amount": {}, "amount.amount": "1.00", "amount.currency": "CHF"}"#,
            // Missing or invalid values: JSONDecoder names the field.
            #"{"from_account": "5", "to_account": "7"}"#,
            #"{"from_account": "x", "to_account": "7", "amount": {"amount": "1.00", "currency": "CHF"}}"#,
            #"{"from_account": "5", "to_account": "7", "amount": {"amount": "1.001", "currency": "CHF"}}"#,
            #"{"from_account": "5", "to_account": "7", "amount": {"amount": "1.00", "currency": "XYZ"}}"#,
            #"{"from_account": "5", "to_account": "7", "amount": null}"#,
            // Not one JSON object.
            #"{"from_account": "5", "to_account": "7", "amount": {"amount": "1.00", "currency": "CHF"}} {}"#,
            #"[{"from_account": "5"}]"#, "", "{", #"{"from_account": "5",}"#,
        ]
        for body in bodies {
            #expect(Self.fast(Array(body.utf8)) == nil, "\(body)")
        }
        // Raw control characters and invalid UTF-8 inside a text.
        var control = Array(Self.written[1].utf8)
        control.insert(0x01, at: control.count - 3)
        #expect(Self.fast(control) == nil)
        var invalid = Array(Self.written[1].utf8)
        invalid.insert(0xFF, at: invalid.count - 3)
        #expect(Self.fast(invalid) == nil)
    }

    @Test("bodies mangled at random: whatever is read equals what JSONDecoder decodes")
    func mangled() {
        var random = SplitMix(seed: 20_261_126)
        let pieces: [[UInt8]] = [
            Array(#"""#.utf8), Array("{".utf8), Array("}".utf8), Array(":".utf8), Array(",".utf8), Array("\\".utf8), Array(" ".utf8),
            Array(".".utf8), Array("null".utf8), Array("0".utf8), Array("-".utf8), Array("é".utf8), [0x00], [0xC3], Array("\n".utf8),
            Array(#""message": "x""#.utf8), Array(#""amount": {}"#.utf8),
        ]
        var read = 0
        for _ in 0..<20_000 {
            var body = Array(Self.written.randomElement(using: &random)!.utf8)
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let at = Int.random(in: 0...body.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: if at < body.count { body.remove(at: at) }
                case 1: body.insert(contentsOf: pieces.randomElement(using: &random)!, at: at)
                default:
                    let end = min(body.count, at + Int.random(in: 1...12, using: &random))
                    body.insert(contentsOf: body[at..<end], at: at)
                }
            }
            // The repeated-name scan reads what JSONFields does not, mangled too: it must end.
            _ = JSONDuplicateKeys.first(in: Data(body))
            guard let fast = Self.fast(body) else { continue }
            read += 1
            #expect(fast == Self.foundation(body), "\(String(decoding: body, as: UTF8.self))")
        }
        // why: a reading that gave up on everything would pass the comparison trivially.
        #expect(read > 500)
    }

    @Test("a member given twice is refused by its path, however nested or escaped; one name in two objects is not")
    func repeatedMembers() throws {
        let cases: [(String, String)] = [
            (#"{"from_account": "5", "from_account": "6", "to_account": "7", "amount": {"amount": "1.00", "currency": "CHF"}}"#, "from_account"),
            (
                #"{"from_account": "5", "to_account": "7", "amount": {"amount": "1.00", "currency": "CHF"}, "message": null, "message": "x"}"#,
                "message"
            ),
            (#"{"from_account": "5", "to_account": "7", "amount": {"amount": "1.00", "amount": "1000.00", "currency": "CHF"}}"#, "amount.amount"),
            (#"{"from_account": "5", "from_\u0061ccount": "6", "to_account": "7", "amount": {"amount": "1.00", "currency": "CHF"}}"#, "from_account"),
        ]
        for (body, path) in cases {
            #expect(throws: DomainError(.invalidJSON, field: path, "\(path) is given twice; send each member once.")) {
                try JSON.decode(TransferRequest.self, from: ByteBuffer(string: body))
            }
        }
        #expect(JSONDuplicateKeys.first(in: Data(#"{"lines": [{"a": 1}, {"a": 2, "b": [true, null], "a": 3}]}"#.utf8)) == "lines.1.a")
        #expect(JSONDuplicateKeys.first(in: Data(#"{"a": {"a": {"a": 1}}, "b": [{"a": 1}, {"a": 1}]}"#.utf8)) == nil)
        let deep = String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000)
        #expect(JSONDuplicateKeys.first(in: Data(deep.utf8)) == nil)
        for body in Self.written + Self.payments { #expect(JSONDuplicateKeys.first(in: Data(body.utf8)) == nil, "\(body)") }
    }

    static let payments = [
        #"{"type": "internal", "debtor_account": "5", "amount": {"amount": "1.00", "currency": "CHF"}, "creditor": {"account": "7"}}"#,
        #"{"type": "iban", "debtor_account": "5", "amount": {"amount": "1.00", "currency": "CHF"}, "creditor": {"name": "Stadtwerke Bern", "iban": "CH5604835012345678009", "street": "Monbijoustrasse", "building_number": "11", "postal_code": "3011", "town": "Bern", "country": "CH"}, "message": "bench"}"#,
        #"{"type": "qrbill", "debtor_account": "5", "qrbill_payload": "SPC\u000a0200", "execution_date": "2026-12-01"}"#,
        #"{"type": "qrbill", "debtor_account": "5", "amount": {"amount": "12.30", "currency": "EUR"}, "reference": "210000000003139471430009017", "creditor": {"name": "Müller AG", "iban": "CH4431999123000889012", "postal_code": "8000", "town": "Zürich", "country": "CH", "street": null}, "execution_date": "2026-11-30"}"#,
        #"{"type": "topup", "debtor_account": "5", "amount": {"amount": "20.00", "currency": "CHF"}, "topup": {"operator": "swisscom", "phone": "+41791234567"}}"#,
        #"{"type": "esr", "debtor_account": "5", "code_line": "0100003949753>120000000000234478943216899+ 010001628>", "creditor": {}, "message": null}"#,
    ]

    static func fastPayment(_ body: [UInt8]) -> PaymentRequest? {
        JSONFields.read(ByteBuffer(bytes: body)).flatMap(PaymentRequest.init(fields:))
    }

    static func foundationPayment(_ body: [UInt8]) -> PaymentRequest? {
        try? JSONDecoder().decode(PaymentRequest.self, from: Data(body))
    }

    @Test("payment bodies: read as JSONDecoder decodes them, written or mangled at random")
    func paymentBodies() throws {
        var readAtOnce = 0
        for body in Self.payments {
            let bytes = Array(body.utf8)
            guard let fast = Self.fastPayment(bytes) else { continue }
            readAtOnce += 1
            #expect(fast == Self.foundationPayment(bytes), "\(body)")
        }
        // The QR-bill payload holds an escape: that one is JSONDecoder's.
        #expect(readAtOnce == Self.payments.count - 1)
        for body in [
            #"{"type": "internal", "debtor_account": "5", "message": {"text": "x"}}"#,
            #"{"type": "internal", "debtor_account": "5", "creditor": "7"}"#,
            #"{"type": "internal", "debtor_account": "5", "execution_date": "2026-02-30"}"#,
            #"{"type": "transfer", "debtor_account": "5"}"#,
            #"{"type": "topup", "debtor_account": "5", "topup": {"operator": "swisscom"}}"#,
            #"{"type": "internal", "debtor_account": "5", "creditor": {"account": "x"}}"#,
            // An object member given null: the null rule's (refused), not absent.
            #"{"type": "esr", "debtor_account": "5", "code_line": "0100003949753>120000000000234478943216899+ 010001628>", "creditor": null}"#,
            #"{"type": "esr", "debtor_account": "5", "code_line": "0100003949753>120000000000234478943216899+ 010001628>", "topup": null}"#,
            #"{"type": "internal", "debtor_account": "5", "amount": null, "creditor": {"account": "7"}}"#,
        ] {
            #expect(Self.fastPayment(Array(body.utf8)) == nil, "\(body)")
        }
        var random = SplitMix(seed: 26_112_026)
        let pieces: [[UInt8]] = [
            Array(#"""#.utf8), Array("{".utf8), Array("}".utf8), Array(":".utf8), Array(",".utf8), Array(" ".utf8), Array("null".utf8),
            Array(#""creditor": {}"#.utf8), Array(#""amount": null"#.utf8), Array(#""execution_date": "2026-01-31""#.utf8), Array("0".utf8),
        ]
        var read = 0
        for _ in 0..<20_000 {
            var body = Array(Self.payments.randomElement(using: &random)!.utf8)
            for _ in 0..<Int.random(in: 1...2, using: &random) {
                let at = Int.random(in: 0...body.count, using: &random)
                if Bool.random(using: &random), at < body.count {
                    body.remove(at: at)
                } else {
                    body.insert(contentsOf: pieces.randomElement(using: &random)!, at: at)
                }
            }
            guard let fast = Self.fastPayment(body) else { continue }
            read += 1
            #expect(fast == Self.foundationPayment(body), "\(String(decoding: body, as: UTF8.self))")
        }
        #expect(read > 500)
    }
}
