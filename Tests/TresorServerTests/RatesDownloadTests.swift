import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TresorTestSupport

/// `tresor fx import URL` (and `serve --fx-url`, which fetches the same way) against a server
/// that answers badly: the command refuses while it reads, says why, and exits, where it used
/// to hold an endless answer in memory until the process died.
@Suite("ECB rates from a URL: a bad answer is refused while it is read")
struct RatesDownloadTests {
    let scratch: ScratchFolder
    init() throws { scratch = try ScratchFolder("fx-url") }

    /// The ECB's real daily file (Tests/standards).
    static let ecbDaily = Standards.url("ecb/eurofxref-daily.xml")

    /// A loopback server of rates files: `/daily` the ECB's real file, `/endless` a body that
    /// never ends (no length), `/long` 64 MB announced, `/missing` a 404.
    static func serve(_ test: @escaping @Sendable (Int) async throws -> Void) async throws {
        let daily = try Data(contentsOf: Self.ecbDaily)
        let router = Router()
        router.get("/daily") { _, _ in Response(status: .ok, body: .init(byteBuffer: ByteBuffer(bytes: daily))) }
        router.get("/endless") { _, _ in
            Response(
                status: .ok,
                body: ResponseBody { writer in
                    let chunk = ByteBuffer(repeating: UInt8(ascii: " "), count: 64 * 1024)
                    // Until the client goes away (the write then throws).
                    while true { try await writer.write(chunk) }
                })
        }
        router.get("/long") { _, _ in
            Response(
                status: .ok, headers: [.contentLength: "\(64 << 20)"],
                body: ResponseBody(contentLength: 64 << 20) { writer in
                    let chunk = ByteBuffer(repeating: UInt8(ascii: " "), count: 64 * 1024)
                    for _ in 0..<1024 { try await writer.write(chunk) }
                    try await writer.finish(nil)
                })
        }
        router.get("/missing") { _, _ in Response(status: .notFound) }
        try await Application(router: router).test(.live) { client in try await test(try #require(client.port)) }
    }

    func importing(_ url: String) async throws -> (status: Int32, output: String) {
        let db = scratch.path("bank.sqlite")
        // why off the pool: the command fetches from this process's own server.
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try ToolRun.tresor(["fx", "import", "--db", db, url], limitSeconds: 60) })
            }
        }
    }

    @Test("the real file is imported; an endless answer, a 64 MB one and a 404 are refused, each saying why")
    func badAnswers() async throws {
        try await Self.serve { port in
            let base = "http://127.0.0.1:\(port)"
            let daily = try await importing("\(base)/daily")
            #expect(daily.status == 0 && daily.output.contains("Imported rates of 1 day(s)"), "\(daily.output)")
            let endless = try await importing("\(base)/endless")
            #expect(endless.status == 1, "\(endless.output)")
            #expect(endless.output.contains("Error: \(base)/endless sent more than 16 MB"), "\(endless.output)")
            let long = try await importing("\(base)/long")
            #expect(long.output.contains("Error: \(base)/long announced 67108864 bytes: a rates file is at most 16 MB"), "\(long.output)")
            let missing = try await importing("\(base)/missing")
            #expect(missing.status == 1 && missing.output.contains("answered HTTP 404, not a rates file"), "\(missing.output)")
        }
    }
}
