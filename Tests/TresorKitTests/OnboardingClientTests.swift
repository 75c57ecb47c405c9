import Foundation
import Testing
import TresorKit
import TresorTestSupport

/// A new customer's first login from an app built on TresorKit, against a real server: the
/// branch takes the customer on with `tresor customers add`; the app sends the letter's code and
/// the chosen password, gets the policy's refusal as a TresorError naming the field, then a session.
@Suite("TresorKit: first login with the bank's letter", .serialized)
struct OnboardingClientTests {
    /// Runs `tresor customers add` on the server's bank; (contract, code).
    static func takeOn(_ server: LiveServer) throws -> (contract: String, code: String) {
        let process = Process()
        process.executableURL = try LiveServer.executable()
        process.arguments = [
            "customers", "add", "--banks", server.directory.appendingPathComponent("banks").path, "--bank", "tresor", "--name", "Mia Keller",
            "--birth-date", "1995-06-30", "--language", "en", "--staff", "desk",
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(output)")
        let contract = try #require(output.firstMatch(of: /contract (\d{8})/).map { String($0.1) }, "\(output)")
        let code = try #require(output.firstMatch(of: /code ([A-Z0-9-]{14})/).map { String($0.1) }, "\(output)")
        return (contract, code)
    }

    @Test("activate: a common password is refused with the field, the code still works, then a level-2 session and the accounts")
    func activate() async throws {
        let server = try await LiveServer.start()
        defer { server.stop() }
        let (contract, code) = try Self.takeOn(server)
        let client = TresorClient(baseURL: server.url)
        do {
            _ = try await client.activate(contract: contract, code: code, password: "qwertyuiop")
            Issue.record("a password from the common list was accepted")
        } catch let error as TresorError {
            #expect(error.status == 422 && error.code == "weak_password" && error.field == "password", "\(error)")
        }
        let session = try await client.activate(contract: contract, code: code.lowercased(), password: "Rhine-Ferry-at-Dawn")
        #expect(session.level == 2)
        #expect(try await client.accounts().value.map(\.name) == ["Current account"])
        do {
            _ = try await TresorClient(baseURL: server.url).activate(contract: contract, code: code, password: "Rhine-Ferry-at-Dusk")
            Issue.record("a used code worked again")
        } catch let error as TresorError {
            #expect(error.status == 401 && error.code == "invalid_activation_code", "\(error)")
        }
    }
}

/// Passkeys from an app built on TresorKit, against a real server: the ceremony's parameters as
/// `ASAuthorizationPlatformPublicKeyCredentialProvider` takes them, and the raw bytes a phone
/// makes (here a software authenticator) sent back for registration and login.
@Suite("TresorKit: passkeys", .serialized)
struct PasskeyClientTests {
    @Test("register a passkey from a full session, then log in with it alone (level 2)")
    func registerAndLogIn() async throws {
        let server = try await LiveServer.start()
        defer { server.stop() }
        let client = TresorClient(baseURL: server.url)
        _ = try await client.login(contract: "10000012", password: "tresor-demo")
        let registration = try await client.passkeyRegistration()
        #expect(registration.relyingPartyID == "127.0.0.1" && registration.challenge.count == 32 && registration.userID?.count == 16)
        #expect(registration.userName == "10000012")
        var phone = SoftAuthenticator()
        let origin = "http://127.0.0.1:\(server.port)"
        let made = phone.registration(
            challenge: SoftAuthenticator.base64URL(Array(registration.challenge)), rpID: registration.relyingPartyID, origin: origin)
        try await client.registerPasskey(
            credentialID: Data(phone.credentialID), clientDataJSON: Data(made.clientData), attestationObject: Data(made.attestationObject),
            name: "iPhone")
        try await client.logout()

        let login = try await client.passkeyLogin()
        let signed = try phone.assertion(challenge: SoftAuthenticator.base64URL(Array(login.challenge)), rpID: login.relyingPartyID, origin: origin)
        let session = try await client.logIn(
            passkeyCredentialID: Data(phone.credentialID), clientDataJSON: Data(signed.clientData), authenticatorData: Data(signed.authenticatorData),
            signature: Data(signed.signature), userHandle: registration.userID, contract: "10000012")
        #expect(session.level == 2)
        #expect(try await !client.accounts().value.isEmpty)
        // The same assertion again: its challenge is used up.
        do {
            _ = try await TresorClient(baseURL: server.url).logIn(
                passkeyCredentialID: Data(phone.credentialID), clientDataJSON: Data(signed.clientData),
                authenticatorData: Data(signed.authenticatorData), signature: Data(signed.signature), userHandle: nil)
            Issue.record("a replayed assertion logged in")
        } catch let error as TresorError {
            #expect(error.status == 401 && error.code == "passkey_refused" && error.field == "challenge", "\(error)")
        }
    }
}
