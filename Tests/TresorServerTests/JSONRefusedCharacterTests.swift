import Foundation
import NIOCore
import Testing
import TresorDomain
import TresorTestSupport

@testable import TresorServer

/// Control characters in a JSON body: refused in every text the request type reads (named by its
/// path), ignored in members it does not read, as any unknown member is — the API document
/// allows unknown members and puts its no-control pattern on the texts it names.
@Suite("Refused characters in a JSON body")
struct JSONRefusedCharacterTests {
    struct Body: Decodable {
        struct Place: Decodable { var city: String }
        var name: String
        var note: String?
        var place: Place?
        var tags: [String]?
        var fields: [String: String]?
    }

    /// The field a body is refused for, nil when it is read.
    static func refusal(_ json: String) throws -> String?? {
        do {
            _ = try JSON.decodeWithFoundation(Body.self, from: ByteBuffer(string: json))
            return .none
        } catch let error as DomainError where error.code == .invalidCharacter {
            return .some(error.field)
        }
    }

    @Test("texts the type reads are refused, named by their path")
    func readTextsRefused() throws {
        #expect(try Self.refusal(#"{"name": "a\u0007"}"#) == .some("name"))
        #expect(try Self.refusal(#"{"name": "a", "note": "\u0000"}"#) == .some("note"))
        #expect(try Self.refusal(#"{"name": "a", "place": {"city": "Bern\u001b"}}"#) == .some("place.city"))
        #expect(try Self.refusal(#"{"name": "a", "tags": ["ok", "b\uFFFF"]}"#) == .some("tags.1"))
        // A dictionary reads its keys: a key is text as its value is.
        #expect(try Self.refusal(#"{"name": "a", "fields": {"k\u0001": "x"}}"#) == .some("fields.k\u{1}"))
        #expect(try Self.refusal(#"{"name": "a", "fields": {"k": "\uFFFE"}}"#) == .some("fields.k"))
        // JSON's short escapes of U+0008 and U+000C (a folder named "\f" was stored).
        #expect(try Self.refusal(#"{"name": "a\b"}"#) == .some("name"))
        #expect(try Self.refusal(#"{"name": "a", "tags": ["\f"]}"#) == .some("tags.0"))
        #expect(try Self.refusal(#"{"name": "a\\f"}"#) == .none)
        // The document itself as text.
        #expect(try Self.refusal(#""\u0001""#) == .some(nil))
        // Tab and line breaks are text.
        #expect(try Self.refusal(#"{"name": "a\tb\r\nc"}"#) == .none)
    }

    @Test("members the type does not read are ignored whatever they hold")
    func unknownMembersIgnored() throws {
        #expect(try Self.refusal(#"{"name": "a", "extra": "\u0001"}"#) == .none)
        #expect(try Self.refusal(#"{"name": "a", "\u0013x": {"y": ["\u0007", {"\u0000": 1}]}}"#) == .none)
        #expect(try Self.refusal(#"{"name": "a", "place": {"city": "Bern", "zip\u001f": "\u0002"}}"#) == .none)
        // Read and unknown together: the read one is named.
        #expect(try Self.refusal(#"{"a\u0001": 1, "name": "x", "note": "\u0002"}"#) == .some("note"))
        // A body with more places than it is probed for is refused at the first one past the bound.
        let many = (0..<(JSON.maxProbes + 1)).map { #""x\#($0)": "\u0001""# }.joined(separator: ", ")
        #expect(try Self.refusal(#"{"name": "a", \#(many)}"#) != .none)
    }

    @Test("through the API: an unknown member with a control character is ignored, the folder's name with one refused")
    func throughTheAPI() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let token = try await client.login("10000012")
            let made = try await client.call(.post, "/v1/template-folders", token: token, json: #"{"name": "Steuern", "x\u0001": ["\u0007"]}"#)
            #expect(made.status.code == 201)
            #expect((made.json["folder"] as? [String: Any])?["name"] as? String == "Steuern")
            let refused = try await client.call(.post, "/v1/template-folders", token: token, json: #"{"name": "\f"}"#)
            #expect(refused.status.code == 400)
            #expect(refused.errorCode == "invalid_character")
            #expect(refused.errorField == "name")
        }
    }
}
