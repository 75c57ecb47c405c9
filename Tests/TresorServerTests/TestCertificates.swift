import Foundation
import TresorTestSupport

/// A private CA and server certificates for `localhost`, `leman.localhost` and `127.0.0.1`,
/// made by the `openssl` command line as an operator would (`scripts/install-deps.sh test`).
struct TestCertificates {
    let folder: ScratchFolder
    var ca: String { folder.path("ca.pem") }
    /// What the server serves: `server.pem` and `server.key`, replaced in place by `renew`.
    var certificate: String { folder.path("server.pem") }
    var key: String { folder.path("server.key") }

    init() throws {
        folder = try ScratchFolder("tls")
        try openssl(
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", folder.path("ca.key"), "-out", ca,
            "-days", "30", "-subj", "/CN=Tresor Test CA")
        try Data("subjectAltName=DNS:localhost,DNS:leman.localhost,IP:127.0.0.1\n".utf8).write(to: URL(fileURLWithPath: folder.path("san.cnf")))
        try issue("first")
        try FileManager.default.copyItem(atPath: folder.path("first.pem"), toPath: certificate)
        try FileManager.default.copyItem(atPath: folder.path("first.key"), toPath: key)
    }

    /// A new key and a certificate for it, signed by the CA, as `name.pem` and `name.key`.
    func issue(_ name: String) throws {
        try openssl(
            "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", folder.path("\(name).key"), "-out",
            folder.path("\(name).csr"), "-subj", "/CN=localhost")
        try openssl(
            "x509", "-req", "-in", folder.path("\(name).csr"), "-CA", ca, "-CAkey", folder.path("ca.key"), "-CAcreateserial", "-out",
            folder.path("\(name).pem"), "-days", "30", "-extfile", folder.path("san.cnf"))
    }

    /// Writes `name`'s certificate (and its key, unless `keyToo` is false) over the served files
    /// in place, as `cp` or an editor would.
    func renew(with name: String, keyToo: Bool = true) throws {
        try Data(contentsOf: URL(fileURLWithPath: folder.path("\(name).pem"))).write(to: URL(fileURLWithPath: certificate))
        if keyToo { try Data(contentsOf: URL(fileURLWithPath: folder.path("\(name).key"))).write(to: URL(fileURLWithPath: key)) }
    }

    /// The DER bytes of `name`'s certificate, base64: what a client sees in the handshake.
    func der(_ name: String) throws -> String {
        let pem = try String(contentsOfFile: folder.path("\(name).pem"), encoding: .utf8)
        return pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
    }

    private func openssl(_ arguments: String...) throws {
        let run = try ToolRun.run("/usr/bin/openssl", arguments)
        guard run.status == 0 else { throw CertificateError(output: run.output) }
    }

    struct CertificateError: Error { let output: String }
}
