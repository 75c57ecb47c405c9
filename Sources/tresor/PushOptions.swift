import ArgumentParser
import Foundation
import Logging
import TresorCore
import TresorServer

/// `tresor serve`'s options for push notifications. Web Push needs none: the bank's VAPID key
/// is made on first use and kept in its database. APNs needs the team's key from Apple.
struct PushOptions: ParsableArguments {
    @Option(help: "A PEM file of CA certificates to trust, besides the system's, for push service endpoints.")
    var pushCAFile: String?
    @Option(help: "Whom a push service may contact about this bank's notifications (VAPID subject): a mailto: or https: URL.")
    var pushContact = "mailto:operations@localhost"
    @Option(help: "APNs host (api.push.apple.com; api.sandbox.push.apple.com for development builds).")
    var apnsHost = "api.push.apple.com"
    @Option(help: "The APNs authentication key (.p8) from Apple's developer account; without it, iPhones get no pushes.")
    var apnsKeyFile: String?
    @Option(help: "The key's ID (10 characters, shown beside it in the developer account).") var apnsKeyId: String?
    @Option(help: "The team ID of the developer account.") var apnsTeamId: String?
    @Option(help: "The app's bundle identifier (apns-topic).") var apnsTopic = "ch.tresor.app"
    @Option(help: "Seconds a sender holds a notification it sends; one whose sender died goes out again after this.")
    var pushLeaseSeconds: Int64 = PushOutbox.lease / 1_000
    @Flag(inversion: .prefixedNo, help: "Send push notifications from this instance (--no-push-sender: another instance sends them).")
    var pushSender = true

    func validate() throws {
        if apnsKeyFile != nil && (apnsKeyId == nil || apnsTeamId == nil) {
            throw ValidationError("--apns-key-file needs --apns-key-id and --apns-team-id.")
        }
        if let pushCAFile, !FileManager.default.isReadableFile(atPath: pushCAFile) {
            throw ValidationError("--push-ca-file \(pushCAFile) cannot be read.")
        }
        guard pushContact.hasPrefix("mailto:") || pushContact.hasPrefix("https://") else {
            throw ValidationError("--push-contact is a mailto: or https: URL.")
        }
    }

    /// One sender per bank, or none with --no-push-sender: one task that runs them all until
    /// cancelled, then shuts their HTTP client down (why the task owns it: a client dropped
    /// without shutdown stops the process, on every way out of `serve`).
    func startSenders(_ sites: [BankSite], logger: Logger) throws -> [Task<Void, Never>] {
        guard pushSender else { return [] }
        let apns = try apnsKeyFile.map { file in
            try APNsSender(
                host: apnsHost, keyPEM: try String(contentsOfFile: file, encoding: .utf8), keyID: apnsKeyId!, teamID: apnsTeamId!,
                topic: apnsTopic)
        }
        let client = try PushSender.client(caFile: pushCAFile)
        let senders = sites.map { site in
            var logger = logger
            logger[metadataKey: "bank"] = "\(site.config.id)"
            return PushSender(
                outbox: site.services.pushOutbox, push: site.services.push, client: client, contact: pushContact, apns: apns,
                lease: max(1, pushLeaseSeconds) * 1_000, logger: logger)
        }
        return [
            Task {
                await withTaskGroup(of: Void.self) { group in
                    for sender in senders { group.addTask { await sender.run() } }
                }
                try? await client.shutdown()
            }
        ]
    }
}
