import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import NIOSSL
import Testing
import TresorCore
import TresorServer
import TresorTestSupport

/// `tresor serve --tls-certificate … --tls-key …` over real sockets, with clients made
/// elsewhere: curl (HTTP/2 and HTTP/1.1), Python's `ssl` and AsyncHTTPClient.
@Suite("HTTPS served by tresor serve itself: HTTP/2 and HTTP/1.1, renewed certificates read again", .serialized)
struct TLSServeTests {
    let certificates: TestCertificates

    init() throws { certificates = try TestCertificates() }

    /// A server of the demo bank (or of `hosts`' banks, with no default) on `server`.
    static func serve(
        tls: TLSCertificateFiles?, hosts: [[String]] = [[]], _ test: @escaping @Sendable (Int) async throws -> Void
    ) async throws {
        var routers: [Router<TresorRequestContext>] = []
        for _ in hosts { routers.append(try await APIHarness.make().router) }
        let dispatcher = BankDispatcher.harness(routers, hosts: hosts, tls: tls != nil)
        try await Application(responder: dispatcher, server: tls.map { .tresorTLS($0) } ?? .tresor).test(.live) { client in
            try await test(try #require(client.port))
        }
    }

    func files() throws -> TLSCertificateFiles {
        try TLSCertificateFiles(certificate: certificates.certificate, key: certificates.key, logger: Logger(label: "tls-test"))
    }

    /// curl's answer: status line and fields (names lower-cased), then the HTTP version it used.
    func curl(_ url: String, _ extra: [String] = []) async throws -> (head: String, version: String) {
        let arguments =
            ["-s", "-D", "-", "-o", "/dev/null", "-w", "version %{http_version}", "-m", "10", "--cacert", certificates.ca] + extra + [url]
        let run = try await ExpectContinueTests.offThePool { try ToolRun.run("/usr/bin/curl", arguments) }
        let parts = run.output.components(separatedBy: "version ")
        return (parts.dropLast().joined().lowercased(), parts.last ?? "")
    }

    /// Python's `ssl` module: the status of `GET path`, the TLS version and the certificate the
    /// server presented (DER, base64).
    func python(_ port: Int, _ path: String) async throws -> [String] {
        let script = """
            import base64, http.client, ssl, sys
            context = ssl.create_default_context(cafile=sys.argv[1])
            connection = http.client.HTTPSConnection("localhost", int(sys.argv[2]), context=context, timeout=10)
            connection.request("GET", sys.argv[3])
            answer = connection.getresponse()
            print(answer.status, connection.sock.version(), base64.b64encode(connection.sock.getpeercert(binary_form=True)).decode())
            """
        let run = try await ExpectContinueTests.offThePool {
            try ToolRun.run("/usr/bin/python3", ["-c", script, certificates.ca, String(port), path])
        }
        return run.output.split(whereSeparator: \.isWhitespace).map(String.init)
    }

    @Test("curl over HTTP/2 and HTTP/1.1: answers, HSTS, Secure cookies, 100 Continue; plain HTTP told to use HTTPS")
    func curlBothVersions() async throws {
        try await Self.serve(tls: try files()) { port in
            let base = "https://localhost:\(port)"
            for (flag, version) in [("--http2", "2"), ("--http1.1", "1.1")] {
                let health = try await curl("\(base)/healthz", [flag])
                #expect(health.version == version)
                #expect(health.head.hasPrefix("http/\(version) 200"), "\(health.head)")
                #expect(health.head.contains("strict-transport-security: max-age=31536000"), "\(health.head)")
                let login = try await curl("\(base)/login", [flag])
                let cookie = try #require(login.head.split(separator: "\r\n").first { $0.hasPrefix("set-cookie: tresor_csrf=") })
                #expect(cookie.hasSuffix("; secure"), "\(cookie)")
            }
            let body = certificates.folder.path("login.json")
            try Data(ExpectContinueTests.login.utf8).write(to: URL(fileURLWithPath: body))
            let run = try await ExpectContinueTests.offThePool {
                try ToolRun.run(
                    "/usr/bin/curl",
                    [
                        "-sv", "--http1.1", "--cacert", certificates.ca, "-o", "/dev/null", "-w", "status %{http_code}", "-H", "Expect: 100-continue",
                        "--expect100-timeout", "5", "-H", "Content-Type: application/json", "--data-binary", "@\(body)", "\(base)/v1/sessions",
                    ])
            }
            #expect(run.output.contains("< HTTP/1.1 100 Continue") && run.output.hasSuffix("status 201"), "\(run.output.suffix(400))")
            let plain = try await curl("http://localhost:\(port)/healthz")
            #expect(plain.head.hasPrefix("http/1.1 400") && plain.version == "1.1", "\(plain.head)")
        }
    }

    @Test("Python's ssl module: TLS 1.2 or later, the configured certificate")
    func pythonClient() async throws {
        try await Self.serve(tls: try files()) { port in
            let answer = try await python(port, "/healthz")
            #expect(answer.count == 3 && answer[0] == "200", "\(answer)")
            #expect(["TLSv1.2", "TLSv1.3"].contains(answer[safe: 1] ?? ""), "\(answer)")
            let first = try certificates.der("first")
            #expect(answer[safe: 2] == first)
        }
    }

    @Test("AsyncHTTPClient logs in and reads accounts over HTTP/2")
    func asyncHTTPClient() async throws {
        try await Self.serve(tls: try files()) { port in
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(certificates.ca))
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(tlsConfiguration: tls))
            do {
                var login = HTTPClientRequest(url: "https://localhost:\(port)/v1/sessions")
                login.method = .POST
                login.headers.add(name: "Content-Type", value: "application/json")
                login.body = .bytes(ByteBuffer(string: #"{"contract":"10000012","password":"tresor-demo"}"#))
                let granted = try await client.execute(login, timeout: .seconds(60))
                #expect(granted.status == .created && granted.version == .http2)
                let session = try JSONSerialization.jsonObject(with: Data(buffer: try await granted.body.collect(upTo: 1 << 16))) as? [String: Any]
                var accounts = HTTPClientRequest(url: "https://localhost:\(port)/v1/accounts")
                accounts.headers.add(name: "Authorization", value: "Bearer \(session?["token"] as? String ?? "")")
                let read = try await client.execute(accounts, timeout: .seconds(60))
                #expect(read.status == .ok && read.version == .http2)
                #expect(String(buffer: try await read.body.collect(upTo: 1 << 20)).contains("\"iban\""))
            } catch {
                try await client.shutdown()
                throw error
            }
            try await client.shutdown()
        }
    }

    @Test("--no-http2: a client asking for HTTP/2 gets HTTP/1.1")
    func withoutHTTP2() async throws {
        let files = try TLSCertificateFiles(certificate: certificates.certificate, key: certificates.key, http2: false, logger: Logger(label: "tls"))
        try await Self.serve(tls: files) { port in
            let answer = try await curl("https://localhost:\(port)/healthz", ["--http2"])
            #expect(answer.version == "1.1" && answer.head.hasPrefix("http/1.1 200"), "\(answer.head)")
        }
    }

    @Test("HTTP/2's :authority picks the bank as HTTP/1.1's Host does")
    func bankByAuthority() async throws {
        try await Self.serve(tls: try files(), hosts: [["localhost"]]) { port in
            let known = try await curl("https://localhost:\(port)/healthz", ["--http2"])
            let unknown = try await curl("https://127.0.0.1:\(port)/healthz", ["--http2"])
            #expect(known.head.hasPrefix("http/2 200") && unknown.head.hasPrefix("http/2 404"), "\(known.head) \(unknown.head)")
        }
    }

    @Test("a renewed pair is served from the next connection; a half-renewed one is not")
    func renewal() async throws {
        try certificates.issue("second")
        let (first, second) = (try certificates.der("first"), try certificates.der("second"))
        try await Self.serve(tls: try files()) { port in
            let before = try await python(port, "/healthz")
            #expect(before[safe: 2] == first)
            // why the waits: the files are looked at once a second at most.
            try certificates.renew(with: "second", keyToo: false)
            try await Task.sleep(for: .milliseconds(1_100))
            let halfway = try await python(port, "/healthz")
            #expect(halfway.first == "200" && halfway[safe: 2] == first, "\(halfway)")
            try certificates.renew(with: "second")
            try await Task.sleep(for: .milliseconds(1_100))
            let after = try await python(port, "/healthz")
            #expect(after[safe: 2] == second)
        }
    }

    @Test("--http-redirect-port: plain HTTP sent to the same host and path over HTTPS, curl -L arrives")
    func redirect() async throws {
        try await Self.serve(tls: try files()) { httpsPort in
            let redirect = buildRedirectApplication(host: "127.0.0.1", port: 0, httpsPort: httpsPort, logger: Logger(label: "tls-test"))
            try await redirect.test(.live) { client in
                let base = "http://127.0.0.1:\(try #require(client.port))"
                let get = try await curl("\(base)/accounts?period=month", ["-H", "Host: Leman.Localhost:80"])
                #expect(
                    get.head.hasPrefix("http/1.1 301") && get.head.contains("location: https://leman.localhost:\(httpsPort)/accounts?period=month"))
                let post = try await curl("\(base)/v1/sessions", ["-X", "POST", "-H", "Host: localhost"])
                #expect(post.head.hasPrefix("http/1.1 308") && post.head.contains("location: https://localhost:\(httpsPort)/v1/sessions"))
                let literal = try await curl("\(base)/", ["-H", "Host: [::1]:80"])
                #expect(literal.head.contains("location: https://[::1]:\(httpsPort)/"), "\(literal.head)")
                for host in ["evil.example/x", "user@evil.example", ""] {
                    #expect(try await curl("\(base)/", ["-H", "Host: \(host)"]).head.hasPrefix("http/1.1 400"), "\(host)")
                }
                let followed = try await curl("http://localhost:\(try #require(client.port))/healthz", ["-L"])
                #expect(followed.head.contains("http/2 200") && followed.version == "2", "\(followed.head)")
            }
        }
    }

    @Test("a client that never says hello is closed; one never answering HTTP/2's GOAWAY does not keep the server from stopping")
    func silentClients() async throws {
        let limits = ConnectionLimits(tlsHello: .seconds(1), stoppingGrace: .seconds(2))
        let server = try await StoppableServer.start(.tresorTLS(try files(), limits: limits), tls: true)
        let port = server.port
        let silent = try LoopbackClient(port: port, limitSeconds: 30)
        #expect(await silent.closedByPeer(), "a connection without a TLS hello stayed open past the handshake limit")
        // An HTTP/2 client that sends its preface and then nothing, not even the PING's answer
        // the server's graceful GOAWAY waits for (before the guard, shutdown waited forever).
        let ready = certificates.folder.path("h2-ready")
        let script = """
            import socket, ssl, sys
            context = ssl.create_default_context(cafile=sys.argv[1]); context.set_alpn_protocols(["h2"])
            connection = context.wrap_socket(socket.create_connection(("127.0.0.1", int(sys.argv[2]))), server_hostname="localhost")
            connection.sendall(b"PRI * HTTP/2.0\\r\\n\\r\\nSM\\r\\n\\r\\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0]))
            open(sys.argv[3], "w").write(connection.selected_alpn_protocol())
            while connection.recv(65536): pass
            print("closed")
            """
        let client = Task {
            try await ExpectContinueTests.offThePool {
                try ToolRun.run(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", script, certificates.ca, String(port), ready], limitSeconds: 90)
            }
        }
        for _ in 0..<600 where !FileManager.default.fileExists(atPath: ready) { try await Task.sleep(for: .milliseconds(50)) }
        #expect((try? String(contentsOfFile: ready, encoding: .utf8)) == "h2")
        let stopped = await server.stop(within: .seconds(60))
        #expect(stopped, "the server was still running 60 s after it was told to stop (grace: 2 s)")
        #expect(try await client.value.output.contains("closed"))
    }

    @Test("files that cannot be served are refused at start, naming the option")
    func refusals() throws {
        try certificates.issue("other")
        let logger = Logger(label: "tls-test")
        let cases: [(String, String, String)] = [
            (certificates.folder.path("missing.pem"), certificates.key, "--tls-certificate \(certificates.folder.path("missing.pem")): No such file"),
            (certificates.key, certificates.key, "--tls-certificate \(certificates.key) holds no PEM certificate"),
            (certificates.certificate, certificates.certificate, "--tls-key \(certificates.certificate) holds no unencrypted PEM private key"),
            (certificates.certificate, certificates.folder.path("other.key"), "is not the private key of the certificate"),
        ]
        for (certificate, key, message) in cases {
            #expect { try TLSCertificateFiles(certificate: certificate, key: key, logger: logger) } throws: { error in
                "\(error)".contains(message)
            }
        }
    }

    @Test("plain HTTP keeps no HSTS and a Secure cookie only behind a proxy that says HTTPS")
    func plainServer() async throws {
        try await Self.serve(tls: nil) { port in
            let plain = try await curl("http://127.0.0.1:\(port)/login")
            #expect(!plain.head.contains("strict-transport-security") && !plain.head.contains("; secure"), "\(plain.head)")
            let proxied = try await curl("http://127.0.0.1:\(port)/login", ["-H", "X-Forwarded-Proto: https"])
            #expect(proxied.head.contains("; secure"), "\(proxied.head)")
        }
    }
}

extension Array {
    fileprivate subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
