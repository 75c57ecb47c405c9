import ArgumentParser
import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import TresorCore
import TresorServer

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the Tresor server.",
        discussion: """
            Environment: LOG_LEVEL (trace, debug, info, notice, warning, error, critical; default info), TRESOR_LOG_FORMAT (text or json), TRESOR_LOG_FILE, \
            TRESOR_DATABASE_URL (instead of --db), TRESOR_BANKS (instead of --banks), TRESOR_SECRETS_KEY and \
            TRESOR_BLOB_KEY (instead of the key files).
            """)

    @Option(help: "Address to listen on.") var host = "127.0.0.1"
    @Option(help: "Port to listen on (0 picks a free one).") var port = 8080
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var blobs: BlobOptions
    @OptionGroup var secrets: SecretsOptions
    @OptionGroup var push: PushOptions
    @Flag(help: "Seed the demo bank into an empty database.") var demo = false
    @Option(help: "A JSON file with the bank's colours and logo for the web app (see README).") var theme: String?
    @Option(help: "A session unused this many seconds expires.") var sessionIdleSeconds: Int64 = 600
    @Option(help: "A session expires this many seconds after login.") var sessionLifetimeSeconds: Int64 = 12 * 3600
    @Option(
        name: .customLong("trusted-proxy"),
        help: "A proxy (address or CIDR, repeat for more) whose X-Forwarded-For gives the client address for lockout and audit.")
    var trustedProxies: [String] = []
    @Option(help: "Seconds between runs of the payment scheduler (0: off, e.g. when another instance runs it).")
    var schedulerIntervalSeconds = 30
    @Option(
        help:
            "An ECB rates URL (e.g. https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml) fetched at start and daily; unreachable keeps the last rates."
    )
    var fxURL: String?
    @Option(help: "Serve HTTPS (HTTP/2 and HTTP/1.1) with this PEM certificate chain, e.g. certbot's fullchain.pem; read again when it changes.")
    var tlsCertificate: String?
    @Option(help: "The PEM private key of --tls-certificate, e.g. certbot's privkey.pem.") var tlsKey: String?
    @Flag(
        inversion: .prefixedNo,
        help: "With --tls-certificate: offer HTTP/2 to clients that ask for it (--no-http2: HTTP/1.1 only, which serves more requests a second).")
    var http2 = true
    @Option(help: "With --tls-certificate: also listen for plain HTTP on this port (80) and send every request there to HTTPS.")
    var httpRedirectPort: Int?
    @Option(
        help: """
            text (a line for a person) or json (an object per line for a log system, with an access line for every request); \
            default: $TRESOR_LOG_FORMAT or text.
            """)
    var logFormat: String?
    @Option(help: "Also append every log line as JSON to this file (for a log shipper); default: $TRESOR_LOG_FILE.")
    var logFile: String?

    func validate() throws {
        if (tlsCertificate == nil) != (tlsKey == nil) { throw ValidationError("--tls-certificate and --tls-key go together.") }
        if httpRedirectPort != nil && tlsCertificate == nil { throw ValidationError("--http-redirect-port needs --tls-certificate and --tls-key.") }
        if httpRedirectPort != nil && port == 0 { throw ValidationError("--http-redirect-port needs a fixed --port to send clients to.") }
        _ = try format
    }

    /// What the server tells whoever started it: as it is at a terminal, a log line in JSON
    /// (so that a log system reads every line of the output).
    static func say(_ text: String, logger: Logger, format: ServerLogHandler.Format) {
        switch format {
        case .text: FileHandle.standardOutput.write(Data(text.utf8))
        case .json: logger.notice("\(text.trimmingCharacters(in: .newlines))")
        }
    }

    /// `--log-format`, else `$TRESOR_LOG_FORMAT`, else text.
    var format: ServerLogHandler.Format {
        get throws {
            let named = logFormat ?? ProcessInfo.processInfo.environment["TRESOR_LOG_FORMAT"] ?? "text"
            guard let format = ServerLogHandler.Format(rawValue: named) else {
                throw ValidationError("--log-format \(named): say text or json.")
            }
            return format
        }
    }

    func run() async throws {
        MemoryTuning.keepFreedMemory()
        let proxies: TrustedProxies
        do { proxies = try TrustedProxies(cidrs: trustedProxies) } catch { throw ValidationError("--trusted-proxy: \(error)") }
        let format = try self.format
        let file: LogFile?
        do { file = try (logFile ?? ProcessInfo.processInfo.environment["TRESOR_LOG_FILE"]).map { try LogFile(path: $0) } } catch {
            throw ValidationError("--log-file \(logFile ?? "$TRESOR_LOG_FILE"): cannot append to it.")
        }
        var logger = Logger(label: "tresor") { ServerLogHandler(label: $0, format: format, file: file) }
        logger.logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
        let metrics = ServerMetrics()
        let tls: TLSCertificateFiles?
        do { tls = try tlsCertificate.map { try TLSCertificateFiles(certificate: $0, key: tlsKey ?? "", http2: http2, logger: logger) } } catch {
            throw ValidationError("\(error)")
        }
        let scheme = tls == nil ? "http" : "https"
        var auth = AuthConfig()
        auth.idleTimeoutSeconds = max(60, sessionIdleSeconds)
        auth.lifetimeSeconds = max(auth.idleTimeoutSeconds, sessionLifetimeSeconds)
        let (sites, seeded) = try await BankSites(
            database: database, blobs: blobs, secrets: try secrets.keys(), auth: auth, metrics: metrics, logger: logger
        )
        .open(demo: demo, themePath: theme)
        if !seeded.isEmpty {
            try await Self.writeDemoTANLists(sites.filter { seeded.contains($0.config.id) })
            try await Self.writeDemoStations(sites.filter { seeded.contains($0.config.id) })
            // why after the station: it sets the first customer's language, which the budget's alert is written in.
            for site in sites where seeded.contains(site.config.id) {
                guard let edition = DemoBank.Edition.all.first(where: { $0.name == site.config.name }) else { continue }
                try await site.services.seedDemoHabits(edition: edition)
            }
        }
        let host = self.host
        let told = logger
        let schedulers = schedulerIntervalSeconds > 0 ? sites.map { Self.startScheduler($0, every: schedulerIntervalSeconds, logger: logger) } : []
        let rateFetchers = fxURL.map { url in sites.map { Self.startRateRefresh($0, url: url, logger: logger) } } ?? []
        let pushers = try push.startSenders(sites, logger: logger)
        defer { for task in schedulers + rateFetchers + pushers { task.cancel() } }
        let demo = self.demo
        let app = try await buildApplication(
            sites: sites, metrics: metrics, host: host, port: port, logger: logger, trustedProxies: proxies, tls: tls,
            accessLog: format == .json || file != nil
        ) { port in
            // why: unbuffered, so scripts waiting for the first line see it at once.
            var text = "Tresor is serving \(sites.count == 1 ? "1 bank" : "\(sites.count) banks") on \(scheme)://\(host):\(port)\n"
            for site in sites { text += Self.describe(site, port: port, scheme: scheme, demo: demo, format: format) }
            if demo {
                text += "Demo TAN lists for signing payments: \(Self.demoTANFile)\n"
                text += "Demo self-service station (kiosk key, and a phone to pair with it): \(Self.demoStationFile)\n"
            }
            Self.say(text, logger: told, format: format)
        }
        // why: runService returns after SIGTERM or SIGINT, once the server has stopped accepting
        // and finished the requests in flight; then each bank's database is closed cleanly.
        var services: [any Service] = [app]
        if let httpRedirectPort {
            services.append(
                buildRedirectApplication(host: host, port: httpRedirectPort, httpsPort: port, logger: logger) { redirectPort in
                    Self.say("Plain HTTP on http://\(host):\(redirectPort) is sent to HTTPS\n", logger: told, format: format)
                })
        }
        do {
            try await ServiceGroup(configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)).run()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            let ports = httpRedirectPort.map { "Port \(port) or \($0)" } ?? "Port \(port)"
            throw ValidationError("\(ports) on \(host) is in use (by another tresor serve?); choose another with --port or --http-redirect-port.")
        } catch let error as IOError where error.errnoCode == EADDRNOTAVAIL {
            throw ValidationError("--host \(host) is not an address of this machine; use 127.0.0.1, 0.0.0.0 (every address) or one of its own.")
        } catch is SocketAddressError.UnknownHost {
            throw ValidationError("--host \(host) is no address, nor a host name this machine can resolve.")
        }
        for task in schedulers + rateFetchers + pushers { task.cancel() }
        // why waited for: the senders use the databases closed next.
        for task in pushers { await task.value }
        for site in sites { try await site.services.database.close() }
        logger.info("stopped; closed \(sites.count) bank database(s)")
    }

    /// A line per bank: its name, where to reach it, its database and, in the demo, its logins
    /// (the password only at a terminal: a log system never gets a password, not even the demo's).
    static func describe(_ site: BankSite, port: Int, scheme: String, demo: Bool, format: ServerLogHandler.Format = .text) -> String {
        let address =
            site.config.hosts.first { $0.hasSuffix("localhost") }.map { "\(scheme)://\($0):\(port)" } ?? site.config.hosts.first ?? "any host"
        var line = "  \(site.config.name) (\(site.config.id)): \(address)\(site.config.isDefault ? " (default)" : "")"
        line += ", database \(DatabaseOptions.redacted(site.config.database))\n"
        if demo, let edition = DemoBank.Edition.all.first(where: { $0.name == site.config.name }) {
            line +=
                "    demo logins\(format == .text ? " (password \(DemoBank.password))" : " (password in the README)"): "
                + edition.customers.map { "\($0.contract) \($0.name)" }.joined(separator: ", ")
                + "\n"
        }
        return line
    }

    static let demoTANFile = "./tresor-demo-tans.txt"

    /// Gives every demo customer a printed TAN list and writes them to a file, as a branch would
    /// hand them out: the demo's payments to new payees are signed with these codes. Called when the
    /// demo is seeded, so a restart keeps the file and the lists it holds.
    static func writeDemoTANLists(_ sites: [BankSite]) async throws {
        var text = "Tresor demo TAN lists: enter the code at the position the app asks for. Each code works once.\n"
        for site in sites {
            guard let edition = DemoBank.Edition.all.first(where: { $0.name == site.config.name }) else { continue }
            for customer in edition.customers {
                guard let id = try await site.services.auth.customer(ofContract: customer.contract) else { continue }
                let codes = try await site.services.signing.issueTANList(for: id, actor: "system:demo")
                text += "\n\(edition.name): \(customer.contract) \(customer.name)\n"
                for row in stride(from: 0, to: codes.count, by: 5) {
                    text +=
                        codes[row..<min(row + 5, codes.count)].map { String(format: "%2d: %@", $0.position, $0.code) }.joined(separator: "   ") + "\n"
                }
            }
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: demoTANFile))
    }

    static let demoStationFile = "./tresor-demo-station.json"

    /// Registers a station in each demo bank's first branch and a month-old phone for its first
    /// customer; writes what a kiosk (`/station?key=…`) and a pairing phone need to a file.
    static func writeDemoStations(_ sites: [BankSite]) async throws {
        var stations: [DemoStation] = []
        for site in sites {
            guard let edition = DemoBank.Edition.all.first(where: { $0.name == site.config.name }) else { continue }
            if let station = try await site.services.seedDemoStation(bank: site.config.id, edition: edition) { stations.append(station) }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(["stations": stations]).write(to: URL(fileURLWithPath: demoStationFile))
    }

    /// Fetches the ECB's rates now and then daily; a failure is logged and the last rates stay.
    static func startRateRefresh(_ site: BankSite, url: String, logger: Logger) -> Task<Void, Never> {
        let services = site.services
        return Task {
            while !Task.isCancelled {
                do {
                    let dates = try await services.fx.importRates(try await RatesDownload.fetch(url))
                    logger.info("reference rates of \(dates.last.map(\.description) ?? "?") imported for \(site.config.id)")
                } catch {
                    logger.warning("reference rates not refreshed from \(url) (keeping the last ones): \(error)")
                }
                try? await Task.sleep(for: .seconds(86_400))
            }
        }
    }

    /// Executes due payments now and then every `seconds`. why safe with many instances: the
    /// scheduler claims each payment with FOR UPDATE SKIP LOCKED.
    static func startScheduler(_ site: BankSite, every seconds: Int, logger: Logger) -> Task<Void, Never> {
        let services = site.services
        var logger = logger
        logger[metadataKey: "bank"] = "\(site.config.id)"
        return Task {
            while !Task.isCancelled {
                do {
                    let run = try await services.scheduler.runDue()
                    if run.executed + run.rejected > 0 { logger.info("scheduler executed \(run.executed), rejected \(run.rejected)") }
                } catch {
                    logger.error("scheduler run failed: \(error)")
                }
                try? await Task.sleep(for: .seconds(seconds))
            }
        }
    }
}

extension DemoBank {
    static var loginsText: String {
        "Demo logins (password \(password)): " + Edition.all.map(\.loginsText).joined(separator: "; ")
    }
}
