import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TresorTestSupport

@testable import TresorServer

@Suite("Bodies sent compressed (Content-Encoding gzip or deflate), as Alamofire and OkHttp can")
struct RequestEncodingTests {
    static let login = #"{"contract": "10000012", "password": "tresor-demo"}"#

    /// `bytes` through a compressor written elsewhere: gzip(1), or Python's zlib for HTTP's
    /// "deflate" (a zlib stream).
    static func compressed(_ bytes: [UInt8], deflate: Bool) throws -> [UInt8] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("encoding-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = folder.appendingPathComponent("body")
        try Data(bytes).write(to: plain)
        let run =
            deflate
            ? try ToolRun.run(
                "/usr/bin/python3",
                ["-c", "import sys, zlib; open(sys.argv[1] + '.z', 'wb').write(zlib.compress(open(sys.argv[1], 'rb').read()))", plain.path])
            : try ToolRun.run("/usr/bin/gzip", ["-k", "-9", plain.path])
        #expect(run.status == 0, "\(run.output)")
        return [UInt8](try Data(contentsOf: folder.appendingPathComponent(deflate ? "body.z" : "body.gz")))
    }

    static func send(_ client: APIHarness.Client, _ body: [UInt8], encoding: String?) async throws -> APIHarness.Reply {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let encoding { headers[.contentEncoding] = encoding }
        return try await client.client.execute(uri: "/v1/sessions", method: .post, headers: headers, body: ByteBuffer(bytes: body)) {
            APIHarness.Reply(status: $0.status, headers: $0.headers, text: String(buffer: $0.body))
        }
    }

    @Test("gzip and deflate bodies are read as sent uncompressed; identity is no coding")
    func inflated() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let plain = Array(Self.login.utf8)
            for (encoding, body) in [
                ("gzip", try Self.compressed(plain, deflate: false)), ("deflate", try Self.compressed(plain, deflate: true)),
                ("x-gzip", try Self.compressed(plain, deflate: false)), ("identity", plain),
                ("GZIP, identity", try Self.compressed(plain, deflate: false)),
            ] {
                let reply = try await Self.send(client, body, encoding: encoding)
                #expect(reply.status == .created, "\(encoding): \(reply.status) \(reply.text)")
            }
        }
    }

    @Test("another coding is 415 with Accept-Encoding; a damaged body 400; a bomb 413 without its memory")
    func refused() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let plain = Array(Self.login.utf8)
            let brotli = try await Self.send(client, plain, encoding: "br")
            #expect(brotli.status == .unsupportedMediaType && brotli.errorCode == "unsupported_content_encoding")
            #expect(brotli.errorField == "Content-Encoding" && brotli.headers[.acceptEncoding] == "gzip, deflate")
            let twice = try await Self.send(client, plain, encoding: "gzip, gzip")
            #expect(twice.status == .unsupportedMediaType)

            let gzip = try Self.compressed(plain, deflate: false)
            for (what, body) in [("cut", Array(gzip.prefix(gzip.count / 2))), ("not compressed", plain), ("trailing bytes", gzip + [0x41])] {
                let reply = try await Self.send(client, body, encoding: "gzip")
                #expect(reply.status == .badRequest && reply.errorCode == "invalid_content_encoding", "\(what): \(reply.status)")
                #expect(reply.errorField == "Content-Encoding")
            }
            let bomb = try Self.compressed([UInt8](repeating: 0x20, count: 40 * 1024 * 1024), deflate: false)
            #expect(bomb.count < 100_000)
            let reply = try await Self.send(client, bomb, encoding: "gzip")
            #expect(reply.status == .contentTooLarge && reply.errorCode == "payload_too_large", "\(reply.status)")
        }
    }

    @Test("inflate gives back what gzip compressed and stops at its limit")
    func roundTrip() throws {
        let text = Array(String(repeating: "Zahlung an Stadtwerke Zürich, ", count: 500).utf8)
        let packed = try #require(Gzip.compress(text))
        #expect(try Gzip.inflate(packed, limit: text.count) == text)
        #expect(throws: Gzip.InflateError.tooLarge) { try Gzip.inflate(packed, limit: text.count - 1) }
        #expect(throws: Gzip.InflateError.corrupt) { try Gzip.inflate([], limit: 10) }
    }
}
