import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TresorCore
import TresorServer
import TresorTestSupport

/// `HEAD` on the server `tresor serve` runs, asked by curl over a real socket.
@Suite("HEAD is answered as the GET of the same address, without its body")
struct HeadRequestTests {
    /// curl's `-I` (HEAD) or `-D -` (GET) answer: status line and fields, lower-cased names,
    /// without what differs from one answer to the next (the date, a new cookie's value).
    static func head(_ port: Int, _ path: String, head: Bool, _ extra: [String] = []) async throws -> (lines: [String], body: Int) {
        let arguments =
            (head ? ["-sI"] : ["-s", "-D", "-"]) + ["-o", "/dev/stdout", "-w", "\n%{size_download}", "-m", "10"]
            + extra.flatMap { ["-H", $0] } + ["http://127.0.0.1:\(port)\(path)"]
        let run = try await ExpectContinueTests.offThePool { try ToolRun.run("/usr/bin/curl", arguments) }
        let lines = run.output.components(separatedBy: "\r\n")
        let fields = lines.prefix { !$0.isEmpty }.map { line -> String in
            guard let colon = line.firstIndex(of: ":") else { return line }
            return line[..<colon].lowercased() + line[colon...]
        }
        let body = Int(run.output.split(separator: "\n").last ?? "") ?? -1
        let steady = fields.filter { !$0.hasPrefix("date:") }.map { $0.hasPrefix("set-cookie:") ? String($0.prefix { $0 != "=" }) : $0 }
        return (steady, body)
    }

    @Test("/healthz, pages, files and API reads: the GET's status and fields, ETag and 304 included, no body")
    func sameAsGet() async throws {
        let harness = try await APIHarness.make()
        try await Application(responder: BankDispatcher.harness([harness.router]), server: .tresor).test(.live) { client in
            let port = try #require(client.port)
            let token = try await APIHarness.Client(client: client).login("10000012")
            let bearer = "Authorization: Bearer \(token)"
            for (path, extra) in [
                ("/healthz", []), ("/login", []), ("/static/app.js", []), ("/openapi.yaml", []), ("/v1/accounts", [bearer]),
                ("/banks/tresor/v1/accounts", [bearer]), ("/v1/nowhere", [bearer]), ("/v1/accounts", []),
            ] {
                let get = try await Self.head(port, path, head: false, extra)
                let head = try await Self.head(port, path, head: true, extra)
                #expect(head.lines == get.lines, "\(path)")
                #expect(head.body == 0 && get.body > 0, "\(path): \(head.body) bytes to HEAD, \(get.body) to GET")
                #expect(head.lines.contains { $0.hasPrefix("content-length: \(get.body)") }, "\(path): \(head.lines)")
            }
            let get = try await Self.head(port, "/v1/accounts", head: false, [bearer])
            let etag = try #require(get.lines.first { $0.hasPrefix("etag: ") }).dropFirst("etag: ".count)
            let revalidated = try await Self.head(port, "/v1/accounts", head: true, [bearer, "If-None-Match: \(etag)"])
            #expect(revalidated.lines.first == "HTTP/1.1 304 Not Modified")
        }
    }

    @Test("the event stream's HEAD has its fields and opens no stream")
    func eventStream() async throws {
        let counting = CountingDatabase.Box()
        let harness = try await APIHarness.make(wrap: { counting.wrap($0) })
        let database = try #require(counting.database)
        try await Application(responder: BankDispatcher.harness([harness.router]), server: .tresor).test(.live) { client in
            let port = try #require(client.port)
            let token = try await APIHarness.Client(client: client).login("10000012")
            database.reset()
            let head = try await Self.head(port, "/v1/events", head: true, ["Authorization: Bearer \(token)"])
            #expect(head.lines.first == "HTTP/1.1 200 OK")
            #expect(head.lines.contains("content-type: text/event-stream; charset=utf-8"), "\(head.lines)")
            #expect(!head.lines.contains { $0.hasPrefix("content-length") }, "a stream has no length: \(head.lines)")
            #expect(database.listens == 0, "HEAD opened \(database.listens) notification streams")
        }
    }
}
