import Foundation
import NIOCore
import Testing
import TresorCore
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
            guard let fast = Self.fast(body) else { continue }
            read += 1
            #expect(fast == Self.foundation(body), "\(String(decoding: body, as: UTF8.self))")
        }
        // why: a reading that gave up on everything would pass the comparison trivially.
        #expect(read > 500)
    }
}
