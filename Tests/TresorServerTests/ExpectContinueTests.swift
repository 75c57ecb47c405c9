import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TresorServer
import TresorTestSupport

/// `Expect: 100-continue` over a real socket, on the server `tresor serve` runs (`.tresor`).
@Suite("Expect: 100-continue is answered, as curl and .NET Framework clients wait for it")
struct ExpectContinueTests {
    /// A login body padded past 1 KiB with JSON whitespace: the size from which curl asks.
    static let login = #"{"contract": "10000012","# + String(repeating: " ", count: 2_000) + #""password": "tresor-demo"}"#

    static func serve(_ test: @escaping @Sendable (Int) async throws -> Void) async throws {
        let harness = try await APIHarness.make()
        try await Application(router: harness.router, server: .tresor).test(.live) { client in
            try await test(try #require(client.port))
        }
    }

    static func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
        }
    }

    @Test("curl gets 100 Continue and sends its body at once instead of waiting for its timeout")
    func curl() async throws {
        try await Self.serve { port in
            let body = FileManager.default.temporaryDirectory.appendingPathComponent("login-\(UUID().uuidString).json")
            try Self.login.write(to: body, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: body) }
            // why a 5 s timeout: without the 100, curl says "Done waiting" after it and the test fails.
            // why off the pool: curl waits for this process's own server.
            let run = try await Self.offThePool {
                try ToolRun.run(
                    "/usr/bin/curl",
                    [
                        "-sv", "-o", "/dev/null", "-w", "status %{http_code}\n", "-H", "Expect: 100-continue", "--expect100-timeout", "5",
                        "-H", "Content-Type: application/json", "--data-binary", "@\(body.path)", "http://127.0.0.1:\(port)/v1/sessions",
                    ])
            }
            #expect(run.output.contains("< HTTP/1.1 100 Continue"), "\(run.output)")
            #expect(!run.output.contains("Done waiting for 100-continue"))
            #expect(run.output.contains("status 201"))
        }
    }

    @Test("a pipelined request's 100 Continue comes after the answer before it")
    func pipelined() async throws {
        try await Self.serve { port in
            let client = try LoopbackClient(port: port)
            let length = Self.login.utf8.count
            try client.send(
                "POST /v1/sessions HTTP/1.1\r\nHost: bank\r\nContent-Type: application/json\r\nContent-Length: \(length)\r\n\r\n\(Self.login)"
                    + "POST /v1/sessions HTTP/1.1\r\nHost: bank\r\nContent-Type: application/json\r\nContent-Length: \(length)\r\n"
                    + "Expect: 100-Continue\r\n\r\n")
            #expect(await client.read(until: "100 Continue"), "\(client.received)")
            let first = try #require(client.received.range(of: "HTTP/1.1 201 Created"))
            let interim = try #require(client.received.range(of: "HTTP/1.1 100 Continue"))
            #expect(first.lowerBound < interim.lowerBound, "\(client.received)")
            try client.send(Self.login)
            #expect(await client.read(until: "HTTP/1.1 201 Created", count: 2), "\(client.received)")
        }
    }

    @Test("no 100 for an HTTP/1.0 client, for a request without a body, or without the expectation")
    func notOwed() async throws {
        try await Self.serve { port in
            let length = Self.login.utf8.count
            let cases = [
                ("POST /v1/sessions HTTP/1.0\r\nContent-Length: \(length)\r\nExpect: 100-continue\r\n\r\n\(Self.login)", "HTTP/1.1 201"),
                ("POST /v1/sessions HTTP/1.1\r\nHost: bank\r\nContent-Length: 0\r\nExpect: 100-continue\r\n\r\n", "HTTP/1.1 400"),
                ("POST /v1/sessions HTTP/1.1\r\nHost: bank\r\nContent-Length: \(length)\r\n\r\n\(Self.login)", "HTTP/1.1 201"),
            ]
            for (request, answer) in cases {
                let client = try LoopbackClient(port: port)
                try client.send(request)
                #expect(await client.read(until: "\r\n\r\n"), "\(request.prefix(80))")
                #expect(client.received.hasPrefix(answer), "\(request.prefix(80)): \(client.received.prefix(200))")
            }
        }
    }
}
