import AsyncHTTPClient
import Foundation
import NIOCore
import TresorCore

/// Reads an ECB rates file from a path or an http(s) URL: at most `bytesMax`, within
/// `secondsMax` in all.
///
/// why the limits hold while reading: `serve --fx-url` fetches every day from a server we do not
/// run. Counted after the download (URLSession), an endless answer grew in memory until the
/// process died, and an answer trickling a byte a second held the refresh (one task, awaiting
/// it) for ever, with FoundationNetworking's `data(for:)` spinning a core meanwhile (the
/// server: 13 s of CPU in 15 s; now 0.02 s).
/// AsyncHTTPClient reads on NIO's event loops, and its deadline covers only the answer's head,
/// so the whole download runs against our own clock.
enum RatesDownload {
    static let bytesMax = 16 << 20
    static let secondsMax: Int64 = 60
    /// why its own client: 10 s to connect (AsyncHTTPClient retries a refused connection until
    /// then) and 20 s of silence at most. Never shut down, like `HTTPClient.shared`.
    static let client = HTTPClient(
        eventLoopGroup: HTTPClient.defaultEventLoopGroup,
        configuration: HTTPClient.Configuration(timeout: .init(connect: .seconds(10), read: .seconds(20))))

    static func fetch(_ source: String) async throws -> Data {
        guard source.hasPrefix("http://") || source.hasPrefix("https://") else {
            return try Data(contentsOf: URL(fileURLWithPath: source))
        }
        do {
            return try await withThrowingTaskGroup(of: Data.self) { group in
                group.addTask { try await download(source) }
                group.addTask {
                    try await Task.sleep(for: .seconds(secondsMax))
                    throw RatesDownloadProblem(description: "\(source) did not send its file within \(secondsMax) s")
                }
                defer { group.cancelAll() }
                return try await group.next()!
            }
        } catch let problem as RatesDownloadProblem {
            throw problem
        } catch is NIOTooManyBytesError {
            throw RatesDownloadProblem(description: "\(source) sent more than \(bytesMax >> 20) MB: a rates file is at most that")
        } catch {
            throw RatesDownloadProblem(description: "\(source): \(error)")
        }
    }

    private static func download(_ source: String) async throws -> Data {
        var request = HTTPClientRequest(url: source)
        request.headers.add(name: "User-Agent", value: "Tresor")
        let response = try await client.execute(request, timeout: .seconds(secondsMax))
        guard response.status == .ok else {
            throw RatesDownloadProblem(description: "\(source) answered HTTP \(response.status.code), not a rates file")
        }
        if let length = response.headers.first(name: "content-length").flatMap(Int.init), length > bytesMax {
            throw RatesDownloadProblem(description: "\(source) announced \(length) bytes: a rates file is at most \(bytesMax >> 20) MB")
        }
        return Data(buffer: try await response.body.collect(upTo: bytesMax))
    }
}

/// Why a download gave no rates file, said as the command line and the server's log print it.
struct RatesDownloadProblem: Error, CustomStringConvertible {
    let description: String
}
