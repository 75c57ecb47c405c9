import Crypto
import Foundation
import Testing
import TresorCore
import TresorDomain
import TresorLedger
import TresorTestSupport

/// Authenticator seeds sealed at rest, and a key rotation while servers run, on every store.
@Suite("Secrets at rest: authenticator seeds sealed, rotated, refused with a missing key")
struct SecretsAtRestTests {
    static func stored(_ services: Services, _ customer: CustomerID) async throws -> String {
        try await services.database.read { session in
            try await session.queryOne(SQL("SELECT authenticator_secret FROM signing_settings WHERE customer_id = ?", [.int(customer.rawValue)]))!
                .text(0)
        }
    }

    /// A payment to a payee on no whitelist, so it waits for the authenticator's code.
    static func unsigned(_ fixture: PaymentFixture, on services: Services) async throws -> (PaymentID, String) {
        let key = UUID().uuidString
        let created = try await services.payments.create(
            fixture.ibanRequest(1_000, iban: "CH9300762011623852957"), by: fixture.principal, idempotencyKey: key, requestHash: key)
        return (created.payment.id, try #require(created.challenge?.question))
    }

    @Test(
        "the row holds no seed in the clear; rotation re-seals every seed once; a server without the sealing key refuses to check, it does not count a wrong code",
        arguments: StoreKind.available)
    func sealedAndRotated(kind: StoreKind) async throws {
        let first = SecretKeys.ephemeral()
        let fixture = try await PaymentFixture.make(kind, secrets: first)
        let customer = fixture.principal.customerID
        let seedHex = fixture.authenticatorSeed.map { String(format: "%02x", $0) }.joined()
        let sealed = try await Self.stored(fixture.services, customer)
        #expect(sealed.hasPrefix("v1.\(first.currentID).") && !sealed.contains(seedHex))

        let (before, question) = try await Self.unsigned(fixture, on: fixture.services)
        let signed = try await fixture.services.payments.sign(
            before, response: try await fixture.authenticatorCode(for: question), trustPayee: false, by: fixture.principal)
        #expect(signed.status == .executed)

        // Rotation: the new key current, the old one still accepted until every row is re-sealed.
        let second = SecretKeys(current: SymmetricKey(size: .bits256), previous: [first.current])
        let rotating = Services(database: fixture.services.database, clock: fixture.clock, auth: LedgerFixture.fastAuth, secrets: second)
        #expect(try await rotating.signing.resealSecrets(actor: "staff:test") == 1)
        #expect(try await rotating.signing.resealSecrets(actor: "staff:test") == 0, "a second run has nothing left to do")
        #expect(try await Self.stored(rotating, customer).hasPrefix("v1.\(second.currentID)."))

        // After the rotation the new key alone is enough…
        let rotated = Services(
            database: fixture.services.database, clock: fixture.clock, auth: LedgerFixture.fastAuth, secrets: SecretKeys(current: second.current))
        let (after, question2) = try await Self.unsigned(fixture, on: rotated)
        // …and a server still on the old key refuses to check rather than counting a wrong answer.
        let stale = Services(database: fixture.services.database, clock: fixture.clock, auth: LedgerFixture.fastAuth, secrets: first)
        // As many refusals as a payment has attempts: counted as wrong answers, they would cancel it.
        for _ in 0..<SigningService.attemptsMax {
            do {
                _ = try await stale.payments.sign(
                    after, response: try await fixture.authenticatorCode(for: question2), trustPayee: false, by: fixture.principal)
                Issue.record("a server without the sealing key checked a code")
            } catch let error as DomainError {
                #expect(error.code == .signingUnavailable)
            }
        }
        let done = try await rotated.payments.sign(
            after, response: try await fixture.authenticatorCode(for: question2), trustPayee: false, by: fixture.principal)
        #expect(done.status == .executed, "the refusals on the old key did not use up the attempts")
    }

    @Test("a seed stored in hex before sealing existed still signs, and the rotation seals it")
    func legacyHex() async throws {
        let keys = SecretKeys.ephemeral()
        let fixture = try await PaymentFixture.make(.sqlite, secrets: keys)
        let customer = fixture.principal.customerID
        let seedHex = fixture.authenticatorSeed.map { String(format: "%02x", $0) }.joined()
        try await fixture.services.database.transaction { session in
            try await session.execute(
                SQL("UPDATE signing_settings SET authenticator_secret = ? WHERE customer_id = ?", [.text(seedHex), .int(customer.rawValue)]))
        }
        let (id, question) = try await Self.unsigned(fixture, on: fixture.services)
        #expect(
            try await fixture.services.payments.sign(
                id, response: try await fixture.authenticatorCode(for: question), trustPayee: false, by: fixture.principal
            ).status == .executed)
        #expect(try await fixture.services.signing.resealSecrets(actor: "staff:test") == 1)
        #expect(try await Self.stored(fixture.services, customer).hasPrefix("v1.\(keys.currentID)."))
    }

    @Test("keys load from the environment or a 0600 file made on first use; a short key is refused")
    func loading() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tresor-secrets-\(UUID().uuidString).key")
        defer { try? FileManager.default.removeItem(at: file) }
        let made = try SecretKeys.load(file: file, environment: [:])
        #expect(try SecretKeys.load(file: file, environment: [:]).currentID == made.currentID)
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let other = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0).base64EncodedString() }
        let fromEnvironment = try SecretKeys.load(
            file: file, environment: ["TRESOR_SECRETS_KEY": other, "TRESOR_SECRETS_PREVIOUS_KEYS": try String(contentsOf: file, encoding: .utf8)])
        #expect(fromEnvironment.currentID != made.currentID && fromEnvironment.previous.map(SecretKeys.id(of:)) == [made.currentID])
        #expect(
            throws: KeyProblem(
                description: "TRESOR_SECRETS_KEY holds no key: a key is 32 bytes in base64 (make one with: openssl rand -base64 32).")
        ) { try SecretKeys.load(file: file, environment: ["TRESOR_SECRETS_KEY": "c2hvcnQ="]) }
        // Each source of a key is named when it holds none: a previous key, the file, a folder.
        let previous = #expect(throws: KeyProblem.self) {
            try SecretKeys.load(file: file, environment: ["TRESOR_SECRETS_PREVIOUS_KEYS": "\(other),not-a-key"])
        }
        #expect(previous?.description.hasPrefix("TRESOR_SECRETS_PREVIOUS_KEYS (item 2) holds no key") == true, "\(String(describing: previous))")
        try Data("notbase64\n".utf8).write(to: file)
        let garbled = #expect(throws: KeyProblem.self) { try FileBlobStore.loadKey(file: file, environment: [:]) }
        #expect(garbled?.description.hasPrefix("\(file.path) holds no key") == true, "\(String(describing: garbled))")
        let nowhere = file.deletingLastPathComponent().appendingPathComponent("no-such-folder-\(UUID().uuidString)/blob.key")
        let missing = #expect(throws: KeyProblem.self) { try FileBlobStore.loadKey(file: nowhere, environment: [:]) }
        #expect(missing?.description.hasSuffix("does not exist.") == true, "\(String(describing: missing))")
        let folder = #expect(throws: KeyProblem.self) { try FileBlobStore.loadKey(file: file.deletingLastPathComponent(), environment: [:]) }
        #expect(folder?.description.hasSuffix(": Is a directory") == true, "\(String(describing: folder))")
        let sealed = try made.seal([1, 2, 3], context: "a")
        #expect(throws: SecretKeysError.corrupt) { try made.open(sealed, context: "b") }
    }
}
