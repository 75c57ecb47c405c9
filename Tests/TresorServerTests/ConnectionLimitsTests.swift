import Foundation
import Hummingbird
import Testing
import TresorServer
import TresorTestSupport

/// `ConnectionLimits` on plain HTTP, as `tresor serve` runs without TLS, over real sockets.
/// why serialized (and TLSServeTests too): each test seeds a demo bank and runs servers and
/// clients; all at once at the suite's start, on 2 cores, they starved PostgreSQL tests past
/// their 15 s answer deadline.
@Suite("A client that stops halfway through its request holds neither its connection nor the server's stop", .serialized)
struct ConnectionLimitsTests {
    static let stalled = "POST /v1/sessions HTTP/1.1\r\nHost: bank\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"

    @Test("a request whose body stops coming is closed after the idle limit; a quick one is answered")
    func stalledBody() async throws {
        let server = try await StoppableServer.start(.tresor(limits: ConnectionLimits(idle: .seconds(1))))
        let stalled = try LoopbackClient(port: server.port, limitSeconds: 30)
        try stalled.send(Self.stalled)
        #expect(await stalled.closedByPeer(), "a request stalled mid-body kept its connection past the idle limit")
        let quick = try LoopbackClient(port: server.port)
        try quick.send("GET /healthz HTTP/1.1\r\nHost: bank\r\n\r\n")
        #expect(await quick.read(until: "HTTP/1.1 200 OK"), "\(quick.received)")
        #expect(await server.stop(within: .seconds(60)))
    }

    @Test("told to stop with a request stalled mid-body, the server stops after its grace")
    func stopWithStalledBody() async throws {
        let server = try await StoppableServer.start(.tresor(limits: ConnectionLimits(stoppingGrace: .seconds(2), idle: .seconds(300))))
        let stalled = try LoopbackClient(port: server.port, limitSeconds: 30)
        try stalled.send(Self.stalled)
        // why: the request must be in progress when the stop comes.
        try await Task.sleep(for: .milliseconds(300))
        #expect(await server.stop(within: .seconds(60)), "the server was still running 60 s after it was told to stop (grace: 2 s)")
        #expect(await stalled.closedByPeer())
    }
}
