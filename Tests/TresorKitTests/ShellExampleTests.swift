import Foundation
import Testing
import TresorSpawn

/// Examples/tresor-shell, the SDK end to end as a user runs it: separate processes that share
/// only the session and cache files in `--home`.
@Suite("tresor-shell: log in, list, pay a photographed QR-bill, sign with a TAN, log out")
struct ShellExampleTests {
    struct Run {
        var status: Int32
        var output: String
        var error: String
    }

    static func shell(_ arguments: [String], home: URL, input: String? = nil) throws -> Run {
        let output = Pipe()
        let error = Pipe()
        let stdin = Pipe()
        let process = try ChildProcess(
            try LiveServer.executable().deletingLastPathComponent().appendingPathComponent("tresor-shell"), arguments + ["--home", home.path],
            stdin: .pipe(stdin), stdout: .pipe(output), stderr: .pipe(error))
        if let input { stdin.fileHandleForWriting.write(Data((input + "\n").utf8)) }
        try stdin.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, output: String(decoding: out, as: UTF8.self), error: String(decoding: err, as: UTF8.self))
    }

    @Test("each command is a process of its own; the session carries over in 0600 files")
    func endToEnd() async throws {
        let server = try await LiveServer.start()
        defer { server.stop() }
        let home = server.directory.appendingPathComponent("shell-home")

        let refused = try Self.shell(["login", "--bank", server.url.absoluteString, "--contract", "10000012"], home: home, input: "wrong")
        #expect(refused.status == 1 && refused.error.contains("invalid_credentials"), "\(refused)")
        let login = try Self.shell(["login", "--bank", server.url.absoluteString, "--contract", "10000012"], home: home, input: "tresor-demo")
        #expect(login.status == 0 && login.output.contains("level 2"), "\(login)")
        for file in try FileManager.default.contentsOfDirectory(atPath: home.path) {
            let mode = try FileManager.default.attributesOfItem(atPath: home.appendingPathComponent(file).path)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(file) is \(String(mode ?? 0, radix: 8))")
        }

        let accounts = try Self.shell(["accounts"], home: home)
        let current = try #require(accounts.output.split(separator: "\n").first { $0.contains("Privatkonto") }, "\(accounts)")
        let accountID = String(current.split(separator: "\t")[0])
        let listed = try Self.shell(["transactions", accountID, "--limit", "5"], home: home)
        #expect(listed.status == 0 && listed.output.split(separator: "\n").count == 5, "\(listed)")

        let photo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("corpus/slips/qrbill-00-clean.jpg")
        let paid = try Self.shell(["pay-bill", "--image", photo.path, "--from", accountID], home: home)
        #expect(paid.status == 0 && paid.output.contains("needs_signature"), "\(paid)")
        let paymentID = try #require(paid.output.firstMatch(of: /Payment (\d+):/)?.output.1)
        let position = try #require(paid.output.firstMatch(of: /code (\d+) of your TAN list/)?.output.1)
        let wrong = try Self.shell(["sign", String(paymentID), "--tan", "000000"], home: home)
        #expect(wrong.status == 1 && wrong.error.hasPrefix("error: ") && wrong.output.isEmpty, "a wrong TAN is refused: \(wrong)")
        let signed = try Self.shell(
            ["sign", String(paymentID), "--tan", try server.tan(contract: "10000012", position: Int(position)!)], home: home)
        #expect(signed.status == 0 && signed.output.contains("executed"), "\(signed)")

        #expect(try Self.shell(["logout"], home: home).status == 0)
        let after = try Self.shell(["accounts"], home: home)
        #expect(after.status != 0, "logged out means no more reads: \(after)")
    }
}
