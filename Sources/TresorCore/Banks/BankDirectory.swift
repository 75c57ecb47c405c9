import Foundation
import TresorDomain

/// The configuration folder of a deployment: one `<id>.json` per bank. Read whole at start-up
/// and refused whole when any file is wrong, so a server never serves half of its banks.
public struct BankDirectory: Sendable {
    public let folder: URL

    public init(folder: URL) {
        self.folder = folder
    }

    /// why a bound: the folder is read at every start; a runaway script must not make it slow.
    public static let banksMax = 200
    static let fileBytesMax = 64 * 1024

    /// Every bank in the folder, sorted by id, each validated and all checked together.
    public func load() throws -> [BankConfig] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let files = names.filter { $0.hasSuffix(".json") }.sorted()
        guard files.count <= Self.banksMax else {
            throw BankConfigError(file: folder.path, field: "", "more than \(Self.banksMax) bank files")
        }
        var banks: [BankConfig] = []
        for name in files {
            let url = folder.appendingPathComponent(name)
            let bank = try Self.read(url)
            guard bank.id + ".json" == name else {
                throw BankConfigError(file: url.path, field: "id", "the file of bank \(bank.id) must be called \(bank.id).json")
            }
            banks.append(bank)
        }
        try banks.validateTogether(folder: folder.path)
        return banks
    }

    /// One bank file, decoded and validated; a JSON fault names the key it is at.
    static func read(_ url: URL) throws -> BankConfig {
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw BankConfigError(file: url.path, field: "", "cannot be read") }
        guard data.count <= fileBytesMax else { throw BankConfigError(file: url.path, field: "", "is larger than 64 KiB") }
        let bank: BankConfig
        do { bank = try JSONDecoder().decode(BankConfig.self, from: data) } catch {
            let fault = JSONFileFault(error, in: data)
            throw BankConfigError(file: url.path, field: fault.field, fault.message)
        }
        try bank.validate(file: url.path)
        return bank
    }

    /// Adds a bank: validated alone and with the others, then written atomically as `<id>.json`.
    /// Refuses an id that exists (change a bank by editing its file).
    public func add(_ bank: BankConfig) throws {
        let url = folder.appendingPathComponent("\(bank.id).json")
        try bank.validate(file: url.path)
        guard !FileManager.default.fileExists(atPath: url.path) else {
            throw BankConfigError(file: url.path, field: "id", "a bank called \(bank.id) exists already")
        }
        try (try load() + [bank]).validateTogether(folder: folder.path)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(bank).write(to: url, options: .atomic)
    }
}
