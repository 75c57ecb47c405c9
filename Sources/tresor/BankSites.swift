import ArgumentParser
import Foundation
import Logging
import TresorCore
import TresorServer

/// Opens the banks one `tresor serve` serves: every bank of `--banks DIR` (or the one `--bank`
/// names), each on its own database, blob folder and signing policy; without `--banks`, the one
/// bank on `--db`, as a single-bank deployment always was.
struct BankSites {
    let database: DatabaseOptions
    let blobs: BlobOptions
    let secrets: SecretKeys
    let auth: AuthConfig
    let metrics: ServerMetrics
    let logger: Logger

    /// The sites, and the ids of the banks whose demo data was seeded just now.
    func open(demo: Bool, themePath: String?) async throws -> (sites: [BankSite], seeded: Set<String>) {
        guard let folder = database.banksFolder else {
            let (site, seeded) = try await single(demo: demo, themePath: themePath)
            return ([site], seeded ? [site.config.id] : [])
        }
        let directory = BankDirectory(folder: URL(fileURLWithPath: folder, isDirectory: true))
        if demo, try directory.load().isEmpty {
            try FileManager.default.createDirectory(at: directory.folder, withIntermediateDirectories: true)
            for edition in DemoBank.Edition.all {
                try Data(edition.logoSVG.utf8).write(to: directory.folder.appendingPathComponent(edition.logoFile))
                try directory.add(edition.config)
            }
            logger.info("wrote the demo banks' configuration to \(folder)")
        }
        var configs = try directory.load()
        if let only = database.bank { configs = configs.filter { $0.id == only } }
        guard !configs.isEmpty else { throw ValidationError("No bank to serve in \(folder): add one with `tresor banks add`.") }
        var sites: [BankSite] = []
        var seeded: Set<String> = []
        for config in configs {
            let location = try config.databaseLocation(relativeTo: directory.folder, environment: ProcessInfo.processInfo.environment)
            var bankAuth = auth
            bankAuth.loginFactors = config.loginFactors
            let services = Services(
                database: try await DatabaseOptions.open(location: location, serving: true), auth: bankAuth, observer: metrics,
                blobs: try await blobs.store(bank: config.id), signingPolicy: try config.signingPolicy(), secrets: secrets)
            let edition = demo ? DemoBank.Edition.all.first { $0.id == config.id } : nil
            if try await Self.prepare(services, config: config, edition: edition, logger: logger) { seeded.insert(config.id) }
            sites.append(BankSite(config: config, services: services, theme: try WebTheme.make(config.theme, folder: directory.folder)))
        }
        return (sites, seeded)
    }

    /// The single-bank deployment: `--db`, `--theme`, every language, reached at any host name.
    func single(demo: Bool, themePath: String?) async throws -> (site: BankSite, seeded: Bool) {
        let services = Services(
            database: try await database.open(serving: true), auth: auth, observer: metrics, blobs: try await blobs.store(), secrets: secrets)
        let seeded = demo ? try await services.demo.seed(today: services.today) : false
        if seeded { logger.info("seeded the demo bank") }
        let profile = try await services.bank.profile()
        let config = BankConfig(
            id: "default", name: profile?.name ?? DemoBank.name, clearing: profile?.clearing ?? DemoBank.clearing, hosts: [], isDefault: true,
            database: try database.location)
        return (BankSite(config: config, services: services, theme: try themePath.map { try WebTheme.load(path: $0) } ?? .demo), seeded)
    }

    /// Seeds a demo bank into its empty database, founds a configured bank in an empty one, and
    /// refuses a database founded for another bank (a configuration pointing at the wrong file).
    /// True when demo data was seeded.
    static func prepare(_ services: Services, config: BankConfig, edition: DemoBank.Edition?, logger: Logger) async throws -> Bool {
        if let edition, try await services.demo(edition).seed(today: services.today) {
            logger.info("seeded the demo bank \(edition.name)")
            return true
        }
        guard let profile = try await services.bank.profile() else {
            _ = try await services.bank.found(name: config.name, clearing: config.clearing, currencies: config.bookedCurrencies)
            logger.info("founded bank \(config.id) (\(config.name)) in its new database")
            return false
        }
        guard profile.clearing == config.clearing else {
            throw ValidationError(
                "Bank \(config.id): its database was founded for clearing \(profile.clearing) (\(profile.name)), "
                    + "but the configuration says \(config.clearing). Is `database` pointing at another bank's file?")
        }
        return false
    }
}
