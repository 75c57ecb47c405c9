import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TresorCore
import TresorServer

@Suite("serve --trusted-proxy: the client address behind a proxy")
struct TrustedProxyTests {
    @Test("only a trusted peer's X-Forwarded-For counts, read from the right, past other trusted hops")
    func addressWalk() throws {
        let proxies = try TrustedProxies(cidrs: ["10.0.0.0/8", "127.0.0.1", "fd00::/8"])
        #expect(proxies.clientAddress(peer: "198.51.100.4", forwardedFor: ["203.0.113.7"]) == "198.51.100.4", "an untrusted peer keeps its own")
        #expect(proxies.clientAddress(peer: "10.1.2.3", forwardedFor: ["203.0.113.7"]) == "203.0.113.7")
        #expect(
            proxies.clientAddress(peer: "10.1.2.3", forwardedFor: ["1.1.1.1, 203.0.113.7, 10.9.9.9"]) == "203.0.113.7",
            "a spoofed hop on the left is ignored")
        #expect(proxies.clientAddress(peer: "10.1.2.3", forwardedFor: ["1.1.1.1", "203.0.113.7"]) == "203.0.113.7", "several header lines")
        #expect(proxies.clientAddress(peer: "fd12::1", forwardedFor: ["2001:db8::42"]) == "2001:db8::42")
        #expect(proxies.clientAddress(peer: "10.1.2.3", forwardedFor: ["not-an-address"]) == "10.1.2.3", "a malformed hop ends the walk")
        #expect(proxies.clientAddress(peer: "10.1.2.3", forwardedFor: []) == "10.1.2.3")
        #expect(TrustedProxies.none.clientAddress(peer: "10.1.2.3", forwardedFor: ["203.0.113.7"]) == "10.1.2.3")
        #expect(proxies.clientAddress(peer: "11.0.0.1", forwardedFor: ["203.0.113.7"]) == "11.0.0.1", "/8 ends where it ends")
        for bad in ["10.0.0.0/33", "example.com", "::1/129", "10.0.0.0/x"] {
            #expect(throws: TrustedProxies.InvalidCIDR.self) { try TrustedProxies(cidrs: [bad]) }
        }
    }

    @Test("over a real socket: the audit log records the forwarded address only behind a trusted proxy", arguments: [true, false])
    func auditAddress(trusted: Bool) async throws {
        let harness = try await APIHarness.make()
        let router = try await buildRouter(
            services: harness.services, metrics: harness.metrics, trustedProxies: try TrustedProxies(cidrs: trusted ? ["127.0.0.1/32"] : []))
        try await Application(router: router).test(.live) { client in
            let reply = try await client.execute(
                uri: "/v1/sessions", method: .post,
                headers: [.contentType: "application/json", HTTPField.Name("X-Forwarded-For")!: "198.51.100.23"],
                body: ByteBuffer(string: #"{"contract": "10000012", "password": "tresor-demo"}"#)
            ) { $0.status }
            #expect(reply == .created)
        }
        let login = try #require(
            try await harness.services.audit.trail(contract: "10000012", fromMillis: 0, toMillis: .max).last { $0.action == "login" })
        #expect(login.address == (trusted ? "198.51.100.23" : "127.0.0.1"))
    }
}
