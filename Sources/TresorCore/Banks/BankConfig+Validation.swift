import Foundation
import TresorDomain

/// A bank configuration that cannot be served, with the file and the field at fault.
public struct BankConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The configuration file, or the folder for faults between files (two defaults, a host twice).
    public let file: String
    /// The JSON path of the field at fault, e.g. `hosts[1]` or `theme.brand`.
    public let field: String
    public let message: String

    public init(file: String, field: String, _ message: String) {
        self.file = file
        self.field = field
        self.message = message
    }

    /// `FILE: FIELD: MESSAGE`, or `FILE: MESSAGE` for a fault of the whole file.
    public var description: String { field.isEmpty ? "\(file): \(message)" : "\(file): \(field): \(message)" }
}

extension BankConfig {
    // why computed: Regex is not Sendable, so it cannot be a shared static constant.
    static var idPattern: Regex<Substring> { /^[a-z0-9][a-z0-9-]{0,31}$/ }
    static var hostPattern: Regex<(Substring, Substring, Substring?, Substring?)> { /^[a-z0-9]([a-z0-9-]{0,62})(\.[a-z0-9]([a-z0-9-]{0,62}))*$/ }
    static var colourPattern: Regex<Substring> { /^#[0-9a-fA-F]{6}$/ }

    /// Checks every field on its own; `file` names the configuration in the error.
    public func validate(file: String) throws {
        func fault(_ field: String, _ message: String) -> BankConfigError { BankConfigError(file: file, field: field, message) }
        guard id.wholeMatch(of: Self.idPattern) != nil else {
            throw fault("id", "must be 1–32 lower-case letters, digits or '-', starting with a letter or digit")
        }
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, TextLength.of(trimmed) <= 70 else { throw fault("name", "must be 1–70 characters") }
        // why: the name heads every page, PDF and file the bank hands out; a line break or a
        // control character from a configuration tool made the manifest and the files unreadable.
        guard !trimmed.unicodeScalars.contains(where: { $0.value < 0x20 || RefusedCharacters.isRefused($0) }) else {
            throw fault("name", "must be one line without control characters")
        }
        guard (0...99_999).contains(clearing) else { throw fault("clearing", "must be a Swiss IID from 0 to 99999") }
        if let bic, (try? BIC(bic)) == nil { throw fault("bic", "\(bic) is not a BIC") }
        guard hosts.count <= 16 else { throw fault("hosts", "at most 16 host names") }
        for (index, host) in hosts.enumerated() where host.count > 253 || host.wholeMatch(of: Self.hostPattern) == nil {
            throw fault("hosts[\(index)]", "\(host.prefix(60)) is not a lower-case host name without a port")
        }
        guard !hosts.isEmpty || isDefault else { throw fault("hosts", "a bank that is not the default needs at least one host name") }
        guard !database.isEmpty, database.count <= 2_000 else { throw fault("database", "must be an SQLite path or a postgres:// URL") }
        guard !languages.isEmpty else { throw fault("languages", "at least one language") }
        for (index, language) in languages.enumerated() where !Self.knownLanguages.contains(language) {
            throw fault("languages[\(index)]", "\(language.prefix(10)) is not one of \(Self.knownLanguages.joined(separator: ", "))")
        }
        guard Set(languages).count == languages.count else { throw fault("languages", "a language is listed twice") }
        if let theme {
            guard theme.brand.wholeMatch(of: Self.colourPattern) != nil else { throw fault("theme.brand", "must be a colour like #0b4f6c") }
            guard theme.brandContrast.wholeMatch(of: Self.colourPattern) != nil else {
                throw fault("theme.brand_contrast", "must be a colour like #ffffff")
            }
        }
        if signingLimit != nil {
            do { _ = try signingPolicy() } catch { throw fault("signing_limit_chf", "must be an amount in CHF like \"1000.00\"") }
        }
        if let problem = risk?.problem { throw fault("risk", problem) }
        guard (1...2).contains(loginFactors) else { throw fault("login_factors", "1 (password) or 2 (password and a second factor)") }
        guard !currencies.isEmpty else { throw fault("currencies", "at least one currency") }
        for (index, code) in currencies.enumerated() where Currency(code: code) == nil {
            throw fault("currencies[\(index)]", "\(code.prefix(8)) is not a supported currency")
        }
    }

    /// The database location with `${NAME}` replaced from `environment` and a relative SQLite
    /// path resolved against the configuration folder.
    public func databaseLocation(relativeTo folder: URL?, environment: [String: String]) throws -> String {
        var location = ""
        var rest = Substring(database)
        while let start = rest.range(of: "${") {
            location += rest[..<start.lowerBound]
            guard let end = rest[start.upperBound...].firstIndex(of: "}") else {
                throw BankConfigError(file: id, field: "database", "an unclosed ${")
            }
            let name = String(rest[start.upperBound..<end])
            guard let value = environment[name] else {
                throw BankConfigError(file: id, field: "database", "the environment variable \(name) is not set")
            }
            location += value
            rest = rest[rest.index(after: end)...]
        }
        location += rest
        if location.hasPrefix("postgres://") || location.hasPrefix("postgresql://") || location.hasPrefix("/") { return location }
        guard let folder else { return location }
        return folder.appendingPathComponent(location).path
    }
}

extension [BankConfig] {
    /// Checks what must hold between banks: ids, clearing numbers (so IBANs never collide) and
    /// host names unique, one default at most.
    public func validateTogether(folder: String) throws {
        var ids: Set<String> = []
        var clearings: [Int: String] = [:]
        var hosts: [String: String] = [:]
        for bank in self {
            guard ids.insert(bank.id).inserted else { throw BankConfigError(file: folder, field: "id", "two banks are called \(bank.id)") }
            if let other = clearings.updateValue(bank.id, forKey: bank.clearing) {
                throw BankConfigError(file: folder, field: "clearing", "\(other) and \(bank.id) both have clearing \(bank.clearing)")
            }
            for host in bank.hosts {
                if let other = hosts[host] {
                    throw BankConfigError(file: folder, field: "hosts", "\(host) is a host of both \(other) and \(bank.id)")
                }
                hosts[host] = bank.id
            }
        }
        let defaults = filter(\.isDefault).map(\.id)
        guard defaults.count <= 1 else {
            throw BankConfigError(file: folder, field: "default", "only one bank can be the default, not \(defaults.joined(separator: " and "))")
        }
    }
}
