import Foundation
import Testing
import TresorTestSupport

/// What an operator reads when a `tresor` command fails: the real binary, as run from a shell.
@Suite("Command-line errors an operator reads")
struct CommandErrorTests {
    /// A fresh folder for each test (Swift Testing makes an instance per test), removed after it.
    let scratch: ScratchFolder
    var directory: URL { scratch.url }
    /// A database file in it, which the commands create.
    var db: String { scratch.path("bank.sqlite") }

    init() throws { scratch = try ScratchFolder("cli") }

    @Test("a missing file or a folder given as a file is named with the system's reason, not an NSError dump")
    func fileErrors() throws {
        let path = directory.appendingPathComponent("eurofxref-daily.xml").path
        let missing = try ToolRun.tresor(["fx", "import", "--db", db, path])
        #expect(missing.status == 1)
        #expect(missing.output.contains("Error: \(path): No such file or directory"), "\(missing.output)")
        #expect(!missing.output.contains("NSCocoaErrorDomain"), "\(missing.output)")
        let folder = try ToolRun.tresor(["branches", "import", "--db", db, directory.path, "--staff", "ops"])
        #expect(folder.status == 1)
        #expect(folder.output.contains("Error: \(directory.path): Is a directory"), "\(folder.output)")
    }

    @Test("a command that needs the bank on a database no bank was set up in says what to run")
    func noBank() throws {
        #expect(try ToolRun.tresor(["migrate", "--db", db]).status == 0)
        let approve = try ToolRun.tresor(["certificates", "approve", "--db", db, "1", "--staff", "ops"])
        #expect(approve.status == 1)
        #expect(approve.output.contains("holds no bank yet") && approve.output.contains("tresor banks add"), "\(approve.output)")
    }

    @Test("a restore from a folder whose manifest is not a backup's names the file and refuses")
    func notABackup() throws {
        let manifest = directory.appendingPathComponent("manifest.json")
        try Data(#"{"images": 3}"#.utf8).write(to: manifest)
        let restore = try ToolRun.tresor([
            "receipts", "restore", "--blob-dir", directory.appendingPathComponent("blobs").path,
            "--blob-key-file", directory.appendingPathComponent("blob.key").path, "--from", directory.path,
        ])
        #expect(restore.status != 0)
        #expect(restore.output.contains("\(manifest.path) is not the manifest of a receipt image backup"), "\(restore.output)")
        #expect(!restore.output.contains("DecodingError"), "\(restore.output)")
    }

    @Test("serve's TLS options: a pair, a fixed port for the redirect, readable files, before any database is opened")
    func tlsOptions() throws {
        let certificate = scratch.path("fullchain.pem")
        let cases: [([String], String)] = [
            (["--tls-certificate", certificate], "--tls-certificate and --tls-key go together"),
            (["--http-redirect-port", "8081"], "--http-redirect-port needs --tls-certificate and --tls-key"),
            (
                ["--tls-certificate", certificate, "--tls-key", db, "--port", "0", "--http-redirect-port", "8081"],
                "--http-redirect-port needs a fixed --port"
            ),
            (["--tls-certificate", certificate, "--tls-key", db, "--port", "0"], "--tls-certificate \(certificate): No such file or directory"),
        ]
        for (options, message) in cases {
            let refused = try ToolRun.tresor(["serve", "--db", db] + options, limitSeconds: 30)
            #expect(refused.status != 0 && refused.output.contains("Error: \(message)"), "\(options): \(refused.output)")
        }
        #expect(!FileManager.default.fileExists(atPath: db), "a refused serve created its database")
    }

    @Test("a banknote margin is given in percent and for a currency code, and told back so when refused")
    func margin() throws {
        for percent in ["150", "2.555", "-1", "two"] {
            let refused = try ToolRun.tresor(["fx", "margin", "--db", db, "--percent=\(percent)"])
            #expect(refused.status != 0 && refused.output.contains("--percent is a margin from 0 to 100"), "\(percent): \(refused.output)")
        }
        let unknown = try ToolRun.tresor(["fx", "margin", "--db", db, "--percent", "2", "--currency", "XYZ"])
        #expect(unknown.status != 0 && unknown.output.contains("--currency XYZ is not a currency code"), "\(unknown.output)")
        let set = try ToolRun.tresor(["fx", "margin", "--db", db, "--percent", "2.5", "--currency", "eur"])
        #expect(set.status == 0 && set.output.contains("Banknote margin for EUR: 2.5"), "\(set.output)")
    }

    @Test("a resource pack from a folder that does not exist or holds nothing is refused, and nothing is published")
    func emptyPack() throws {
        let missing = directory.appendingPathComponent("brand-pack").path
        let refused = try ToolRun.tresor(["resources", "publish", "--db", db, missing])
        #expect(refused.status != 0 && refused.output.contains("\(missing): is not a folder"), "\(refused.output)")
        let empty = directory.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let nothing = try ToolRun.tresor(["resources", "publish", "--db", db, empty.path])
        #expect(nothing.status != 0 && nothing.output.contains("\(empty.path): holds no files"), "\(nothing.output)")
        let versions = try ToolRun.tresor(["resources", "list", "--db", db])
        #expect(versions.status == 0 && versions.output.isEmpty, "no version was published: \(versions.output)")
    }

    @Test("a database file in a folder that does not exist is refused by its folder, not SQLite's 'unable to open'")
    func missingFolder() throws {
        let path = directory.appendingPathComponent("no-such-folder/bank.sqlite").path
        let check = try ToolRun.tresor(["ledger", "check", "--db", path])
        #expect(check.status != 0 && check.output.contains("the folder \(directory.path)/no-such-folder does not exist"), "\(check.output)")
        #expect(!check.output.contains("Usage:"), "a usage line says nothing of a path: \(check.output)")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("a server whose port is taken says which port and exits")
    func portTaken() throws {
        let taken = try LoopbackSocket(listening: true)
        let port = taken.port
        // why a limit: were the port not refused, the server would run until killed.
        let serve = try withExtendedLifetime(taken) {
            try ToolRun.tresor(["serve", "--db", db, "--host", "127.0.0.1", "--port", String(port)], limitSeconds: 60)
        }
        #expect(serve.status != 0 && serve.output.contains("Port \(port) on 127.0.0.1 is in use"), "\(serve.output)")
    }

    @Test("a server told a wrong start-up setting says which and how, and exits: host, image folder, keys, theme")
    func serveSettings() throws {
        let garbled = scratch.path("garbled.key")
        try Data("notbase64\n".utf8).write(to: URL(fileURLWithPath: garbled))
        let theme = scratch.path("theme.json")
        try Data(#"{"brand": "red"}"#.utf8).write(to: URL(fileURLWithPath: theme))
        let file = scratch.path("a-file")
        try Data().write(to: URL(fileURLWithPath: file))
        let blobs = ["--blob-dir", scratch.path("blobs")]
        let keys = ["--blob-key-file", scratch.path("blob.key"), "--secrets-key-file", scratch.path("secrets.key")]
        let cases: [([String], String)] = [
            // 192.0.2.1 is TEST-NET-1 (RFC 5737): never an address of this machine.
            (["--host", "192.0.2.1"] + blobs + keys, "--host 192.0.2.1 is not an address of this machine"),
            (["--host", "999.1.1.1"] + blobs + keys, "--host 999.1.1.1 is no address, nor a host name this machine can resolve."),
            (["--blob-dir", file] + keys, "--blob-dir \(file) is a file, not a folder."),
            (blobs + ["--blob-key-file", garbled], "The key of the receipt images: \(garbled) holds no key: a key is 32 bytes in base64"),
            (
                blobs + ["--blob-key-file", scratch.path("no-folder/blob.key")],
                "cannot be made with a new key: the folder \(scratch.path("no-folder")) does not exist."
            ),
            (
                blobs + ["--secrets-key-file", garbled, "--blob-key-file", scratch.path("blob.key")],
                "The key sealing authenticator seeds: \(garbled) holds no key"
            ),
            (["--theme", theme] + blobs + keys, "theme: \(theme): brand_contrast: is missing"),
        ]
        for (arguments, told) in cases {
            // why a limit: were the setting taken, the server would run until killed.
            let serve = try ToolRun.tresor(["serve", "--db", db, "--port", "0"] + arguments, limitSeconds: 60)
            #expect(serve.status != 0 && serve.output.contains(told), "\(arguments): \(serve.output)")
        }
    }

    @Test("a restore from a backup path that names nothing, an empty file or no database is refused, and creates nothing")
    func restoreFromNothing() throws {
        let notes = directory.appendingPathComponent("notes.txt")
        try Data("not a database".utf8).write(to: notes)
        let empty = directory.appendingPathComponent("empty.sqlite")
        try Data().write(to: empty)
        let missing = directory.appendingPathComponent("bank-2026-11-26.sqlite").path
        let cases = [(missing, "\(missing): no such file."), (notes.path, "is not an SQLite database"), (empty.path, "is empty, not a database")]
        for (from, said) in cases {
            let restore = try ToolRun.tresor(["restore", "--db", db, "--from", from])
            #expect(restore.status != 0 && restore.output.contains(said), "\(from): \(restore.output)")
        }
        #expect(!FileManager.default.fileExists(atPath: missing), "no empty database made at the backup's path")
        #expect(!FileManager.default.fileExists(atPath: db), "nothing restored")
    }
}
