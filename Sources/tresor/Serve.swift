import ArgumentParser
import Foundation
import Hummingbird
import Logging
import TresorCore
import TresorServer

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the Tresor server.")

    @Option(help: "Address to listen on.") var host = "127.0.0.1"
    @Option(help: "Port to listen on (0 picks a free one).") var port = 8080
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var blobs: BlobOptions
    @Flag(help: "Seed the demo bank into an empty database.") var demo = false
    @Option(help: "A JSON file with the bank's colours and logo for the web app (see README).") var theme: String?
    @Option(help: "A session unused this many seconds expires.") var sessionIdleSeconds: Int64 = 600
    @Option(help: "A session expires this many seconds after login.") var sessionLifetimeSeconds: Int64 = 12 * 3600
    @Option(help: "Seconds between runs of the payment scheduler (0: off, e.g. when another instance runs it).")
    var schedulerIntervalSeconds = 30

    func run() async throws {
        var logger = Logger(label: "tresor")
        logger.logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
        let db = try await database.open()
        let metrics = ServerMetrics()
        var auth = AuthConfig()
        auth.idleTimeoutSeconds = max(60, sessionIdleSeconds)
        auth.lifetimeSeconds = max(auth.idleTimeoutSeconds, sessionLifetimeSeconds)
        let services = Services(database: db, auth: auth, observer: metrics, blobs: try await blobs.store())
        if demo {
            if try await services.demo.seed(today: services.today) {
                logger.info("seeded the demo bank")
                try await Self.writeDemoTANLists(services)
            }
            FileHandle.standardOutput.write(Data((DemoBank.loginsText + "\n").utf8))
            FileHandle.standardOutput.write(Data("Demo TAN lists for signing payments: \(Self.demoTANFile)\n".utf8))
        }
        let host = self.host
        let scheduler = schedulerIntervalSeconds > 0 ? Self.startScheduler(services, every: schedulerIntervalSeconds, logger: logger) : nil
        defer { scheduler?.cancel() }
        let webTheme = try theme.map { try WebTheme.load(path: $0) } ?? .demo
        let app = try await buildApplication(services: services, metrics: metrics, host: host, port: port, logger: logger, theme: webTheme) { port in
            // why: unbuffered, so scripts waiting for this line see it at once.
            FileHandle.standardOutput.write(Data("Tresor is serving \(database.redacted) on http://\(host):\(port)\n".utf8))
        }
        try await app.runService()
    }

    static let demoTANFile = "./tresor-demo-tans.txt"

    /// Gives every demo customer a printed TAN list and writes them to a file, as a branch would
    /// hand them out: the demo's payments to new payees are signed with these codes.
    static func writeDemoTANLists(_ services: Services) async throws {
        var text = "Tresor demo TAN lists: enter the code at the position the app asks for. Each code works once.\n"
        for customer in DemoBank.customers {
            guard let id = try await services.auth.customer(ofContract: customer.contract) else { continue }
            let codes = try await services.signing.issueTANList(for: id, actor: "system:demo")
            text += "\n\(customer.contract) \(customer.name)\n"
            for row in stride(from: 0, to: codes.count, by: 5) {
                text += codes[row..<min(row + 5, codes.count)].map { String(format: "%2d: %@", $0.position, $0.code) }.joined(separator: "   ") + "\n"
            }
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: demoTANFile))
    }

    /// Executes due payments now and then every `seconds`. why safe with many instances: the
    /// scheduler claims each payment with FOR UPDATE SKIP LOCKED.
    static func startScheduler(_ services: Services, every seconds: Int, logger: Logger) -> Task<Void, Never> {
        Task {
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
        "Demo logins (password \(password)): " + customers.map { "\($0.contract) \($0.name)" }.joined(separator: ", ")
    }
}
