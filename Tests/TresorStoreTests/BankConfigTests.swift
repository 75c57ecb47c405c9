import Foundation
import Testing
import TresorCore

@Suite("Bank configuration files: validated whole, faults named by file and field")
struct BankConfigTests {
    func folder() throws -> BankDirectory {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tresor-banks-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return BankDirectory(folder: url)
    }

    func write(_ json: String, as name: String, in directory: BankDirectory) throws {
        try Data(json.utf8).write(to: directory.folder.appendingPathComponent(name))
    }

    static let valid = #"{"id": "alpen", "name": "Alpenbank", "clearing": 8123, "hosts": ["alpen.example"], "database": "alpen.sqlite"}"#

    @Test("the demo banks round-trip through add and load, defaults filled in")
    func demoRoundTrip() throws {
        let directory = try folder()
        for edition in DemoBank.Edition.all { try directory.add(edition.config) }
        let loaded = try directory.load()
        #expect(loaded == DemoBank.Edition.all.map(\.config).sorted { $0.id < $1.id })
        try write(Self.valid, as: "alpen.json", in: directory)
        let alpen = try #require(try directory.load().first { $0.id == "alpen" })
        #expect(alpen.languages == ["de", "fr", "it", "en"] && alpen.currencies == ["CHF", "EUR"] && !alpen.isDefault)
        #expect(try alpen.signingPolicy().defaultLimitMinor == 100_000)
        #expect(try DemoBank.Edition.leman.config.signingPolicy().defaultLimitMinor == 50_000)
    }

    @Test(
        "a wrong field is refused with its path",
        arguments: [
            (#""id": "alpen""#, #""id": "Alpen Bank""#, "id"),
            (#""hosts": ["alpen.example"]"#, #""hosts": ["alpen.example", "alpen.example:8080"]"#, "hosts[1]"),
            (#""hosts": ["alpen.example"]"#, #""hosts": []"#, "hosts"),
            (#""clearing": 8123"#, #""clearing": 123456"#, "clearing"),
            (#""clearing": 8123"#, #""clearing": "8123""#, "clearing"),
            (#""name": "Alpenbank", "#, "", "name"),
            (#""name": "Alpenbank""#, #""name": "Alpen\tbank""#, "name"),
            (#""name": "Alpenbank""#, #""name": "Alpen\nbank""#, "name"),
            (#""name": "Alpenbank""#, #""name": "Alpenbank\uFFFF""#, "name"),
            (#""database": "alpen.sqlite""#, #""database": "alpen.sqlite", "languages": ["de", "rm"]"#, "languages[1]"),
            (#""database": "alpen.sqlite""#, ##""database": "alpen.sqlite", "theme": {"brand": "red", "brand_contrast": "#ffffff"}"##, "theme.brand"),
            (#""database": "alpen.sqlite""#, ##""database": "alpen.sqlite", "theme": {"brand": "#ff0000"}"##, "theme.brand_contrast"),
            (#""database": "alpen.sqlite""#, #""database": "alpen.sqlite", "signing_limit_chf": "1000.005""#, "signing_limit_chf"),
            (#""database": "alpen.sqlite""#, #""database": "alpen.sqlite", "currencies": ["CHF", "XYZ"]"#, "currencies[1]"),
            (#""database": "alpen.sqlite""#, #""database": "alpen.sqlite", "bic": "NOTABIC""#, "bic"),
        ])
    func faultsNamed(original: String, replacement: String, field: String) throws {
        let directory = try folder()
        let json = Self.valid.replacingOccurrences(of: original, with: replacement)
        #expect(json != Self.valid)
        try write(json, as: "alpen.json", in: directory)
        let error = try #require(throws: BankConfigError.self) { try directory.load() }
        #expect(error.field == field, "\(error)")
        #expect(error.file.hasSuffix("alpen.json"))
    }

    @Test(
        "a file that is no JSON is told where it breaks, by line and column",
        arguments: [
            ("{\"id\": \"alpen\",\n \"name\": \"Alpenbank\" \"clearing\": 8123}", "is not valid JSON: Invalid value at line 2, column 22"),
            ("{\"id\": \"alpen\",\n  \"name\": \"Zürcher Bank\", \"clearing\": 8123,,}", "is not valid JSON: Invalid value at line 2, column 44"),
            ("{\"id\": \"alpen\", \"name\": ", "is not valid JSON: Unexpected end of file during JSON parse"),
        ])
    func syntaxPlace(json: String, message: String) throws {
        let directory = try folder()
        try write(json, as: "alpen.json", in: directory)
        let error = try #require(throws: BankConfigError.self) { try directory.load() }
        #expect(error.message == message)
        // The whole file is at fault: no empty field between the colons.
        #expect(error.description == "\(error.file): \(message)")
    }

    @Test("what must hold between banks: ids match file names, hosts and clearing numbers are unique, one default at most")
    func betweenBanks() throws {
        let directory = try folder()
        try write(Self.valid, as: "other.json", in: directory)
        #expect(try #require(throws: BankConfigError.self) { try directory.load() }.field == "id")

        let twice = try folder()
        try write(Self.valid, as: "alpen.json", in: twice)
        let berg = Self.valid.replacingOccurrences(of: #""alpen""#, with: #""berg""#).replacingOccurrences(of: "8123", with: "8124")
        try write(berg, as: "berg.json", in: twice)
        let host = try #require(throws: BankConfigError.self) { try twice.load() }
        #expect(host.field == "hosts" && host.message.contains("alpen.example"))

        let clearing = try folder()
        try clearing.add(DemoBank.Edition.leman.config)
        var sameClearing = DemoBank.Edition.tresor.config
        sameClearing.clearing = DemoBank.Edition.leman.clearing
        #expect(try #require(throws: BankConfigError.self) { try clearing.add(sameClearing) }.field == "clearing")

        let defaults = try folder()
        for edition in DemoBank.Edition.all {
            var config = edition.config
            config.isDefault = true
            try write(String(decoding: try JSONEncoder().encode(config), as: UTF8.self), as: "\(config.id).json", in: defaults)
        }
        #expect(try #require(throws: BankConfigError.self) { try defaults.load() }.field == "default")
        // `add` refuses what `load` would refuse, and writes nothing.
        let clean = try folder()
        try clean.add(DemoBank.Edition.leman.config)
        var clash = DemoBank.Edition.tresor.config
        clash.hosts = ["leman.localhost"]
        #expect(throws: BankConfigError.self) { try clean.add(clash) }
        #expect(throws: BankConfigError.self) { try clean.add(DemoBank.Edition.leman.config) }
        #expect(try clean.load().map(\.id) == ["leman"])
    }

    @Test("the database location: ${NAME} from the environment, SQLite paths relative to the folder")
    func databaseLocation() throws {
        var config = DemoBank.Edition.leman.config
        let folder = URL(fileURLWithPath: "/etc/tresor/banks", isDirectory: true)
        #expect(try config.databaseLocation(relativeTo: folder, environment: [:]) == "/etc/tresor/banks/leman.sqlite")
        config.database = "postgres://tresor:${LEMAN_DB_PASSWORD}@db.internal/leman"
        #expect(
            try config.databaseLocation(relativeTo: folder, environment: ["LEMAN_DB_PASSWORD": "s3cret"])
                == "postgres://tresor:s3cret@db.internal/leman")
        let missing = try #require(throws: BankConfigError.self) { try config.databaseLocation(relativeTo: folder, environment: [:]) }
        #expect(missing.field == "database" && missing.message.contains("LEMAN_DB_PASSWORD"))
        config.database = "/var/lib/tresor/leman.sqlite"
        #expect(try config.databaseLocation(relativeTo: folder, environment: [:]) == "/var/lib/tresor/leman.sqlite")
    }
}
