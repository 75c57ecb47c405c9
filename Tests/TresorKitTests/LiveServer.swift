import Foundation
import Testing
import TresorKit
import TresorSpawn

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real `tresor serve` with the demo banks in a temp directory on a free loopback port: what
/// TresorKit is tested against. Stopped (and its files removed) by `stop()`.
final class LiveServer: @unchecked Sendable {
    let directory: URL
    let port: Int
    private var process: ChildProcess?

    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// The `tresor` executable next to the test bundle (swift build --build-tests builds both).
    static func executable() throws -> URL {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [bundle, bundle.deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent("tresor")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        let fallback = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/debug/tresor")
        guard FileManager.default.isExecutableFile(atPath: fallback.path) else { throw CocoaError(.fileNoSuchFile) }
        return fallback
    }

    static func start() async throws -> LiveServer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tresorkit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let server = LiveServer(directory: directory, port: try freePort())
        try await server.run()
        return server
    }

    private init(directory: URL, port: Int) {
        self.directory = directory
        self.port = port
    }

    /// Starts (or starts again, on the same files and port) the server and waits for /healthz.
    func run() async throws {
        let arguments = [
            "serve", "--host", "127.0.0.1", "--port", String(port), "--banks", directory.appendingPathComponent("banks").path, "--demo",
            "--scheduler-interval-seconds", "0",
        ]
        let logPath = directory.appendingPathComponent("serve.log").path
        if !FileManager.default.fileExists(atPath: logPath) { _ = FileManager.default.createFile(atPath: logPath, contents: nil) }
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        try log.seekToEnd()
        self.process = try ChildProcess(try Self.executable(), arguments, directory: directory, stdout: .handle(log), stderr: .handle(log))
        try log.close()
        for _ in 0..<300 {
            if await healthy() { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw CocoaError(
            .fileReadUnknown,
            userInfo: [
                NSLocalizedDescriptionKey:
                    "tresor serve did not come up: \(String(decoding: (try? Data(contentsOf: directory.appendingPathComponent("serve.log"))) ?? Data(), as: UTF8.self))"
            ])
    }

    /// Stops the server process and waits for it to exit; the files stay for `run()` again.
    /// why polled, not `waitUntilExit()`: that blocks a thread of Swift's pool until the server
    /// has shut down, and the pool has two threads on CI; a test elsewhere that needed the
    /// other one then stalled (a CI run hung). A server still running after 30 s is killed, so
    /// that `run()` again never meets the old one on its port and files.
    func halt() async {
        guard let process, process.isRunning else { return }
        process.signal(SIGTERM)
        let deadline = ContinuousClock.now + .seconds(30)
        while process.isRunning && ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        if process.isRunning {
            process.signal(SIGKILL)
            while process.isRunning { try? await Task.sleep(for: .milliseconds(20)) }
        }
        self.process = nil
    }

    /// Stops the server without waiting for it to exit (it runs in a `defer`, where no call
    /// suspends) and removes its files.
    func stop() {
        process?.signal(SIGTERM)
        process = nil
        try? FileManager.default.removeItem(at: directory)
    }

    private func healthy() async -> Bool {
        guard let (_, response) = try? await URLSession.shared.data(from: url.appendingPathComponent("healthz")) else { return false }
        return (response as? HTTPURLResponse)?.statusCode == 200
    }

    /// The demo TAN the server wrote for `contract` at `position`.
    func tan(contract: String, position: Int) throws -> String {
        let text = try String(contentsOf: directory.appendingPathComponent("tresor-demo-tans.txt"), encoding: .utf8)
        guard let range = text.range(of: contract) else { throw CocoaError(.fileReadCorruptFile) }
        let block = text[range.upperBound...].components(separatedBy: "\n\n")[0]
        let pattern = try Regex("(?:^|[^0-9])\(position): ([0-9]{6})")
        guard let match = block.firstMatch(of: pattern), let code = match.output[1].substring else { throw CocoaError(.fileReadCorruptFile) }
        return String(code)
    }

    /// The demo's activated phone of `bank`: device id, its P-256 key and PIN.
    func demoDevice(bank: String = "tresor") throws -> (id: String, key: SoftwareDeviceKey, pin: String) {
        struct File: Decodable {
            struct Station: Decodable {
                var bank: String
                var deviceId: Int
                var devicePrivateKey: String
                var pin: String
            }
            var stations: [Station]
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let file = try decoder.decode(File.self, from: Data(contentsOf: directory.appendingPathComponent("tresor-demo-station.json")))
        guard let station = file.stations.first(where: { $0.bank == bank }), let key = Data(base64Encoded: station.devicePrivateKey) else {
            throw CocoaError(.fileReadCorruptFile)
        }
        return (String(station.deviceId), SoftwareDeviceKey(try .init(rawRepresentation: key)), station.pin)
    }

    private static func freePort() throws -> Int {
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw CocoaError(.fileWriteUnknown) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
