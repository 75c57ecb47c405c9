import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import ServiceLifecycle
import Testing
import TresorCore
import TresorServer

/// The demo bank served in this process as `tresor serve` runs it (a service group), on a port
/// of its own, to be told to stop as SIGTERM tells it.
struct StoppableServer {
    let port: Int
    let group: ServiceGroup
    let running: Task<Void, any Error>

    /// `tls` makes the dispatcher add what a TLS server adds (HSTS, Secure cookies).
    static func start(_ server: HTTPServerBuilder, tls: Bool = false) async throws -> StoppableServer {
        let dispatcher = BankDispatcher.harness([try await APIHarness.make().router], tls: tls)
        let (ports, announce) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            responder: dispatcher, server: server, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { announce.yield($0.localAddress?.port ?? 0) })
        let group = ServiceGroup(configuration: .init(services: [app], logger: Logger(label: "stoppable")))
        let running = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        return StoppableServer(port: try #require(await iterator.next()), group: group, running: running)
    }

    /// Tells the server to stop; whether it has within `limit`. why tests give a minute for a
    /// grace of 2 s: the whole suite on 2 cores once kept this server from stopping for 10 s;
    /// what is tested is that it stops at all (without the guard it never does).
    /// why unstructured tasks: a server that never stops must fail the test, not hang it, and a
    /// task group would wait for its child awaiting the server.
    func stop(within limit: Duration) async -> Bool {
        await group.triggerGracefulShutdown()
        let (outcomes, outcome) = AsyncStream.makeStream(of: Bool.self)
        let running = running
        Task {
            _ = try? await running.value
            outcome.yield(true)
        }
        Task {
            try? await Task.sleep(for: limit)
            outcome.yield(false)
        }
        var first = outcomes.makeAsyncIterator()
        return await first.next() ?? false
    }
}
