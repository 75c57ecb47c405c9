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
        let (status, output) = try ToolRun.run(
            try LiveServer.executable(),
            [
                "customers", "add", "--banks", server.directory.appendingPathComponent("banks").path, "--bank", "tresor", "--name", "Mia Keller",
                "--birth-date", "1995-06-30", "--language", "en", "--staff", "desk",
            ])
        #expect(status == 0, "\(output)")
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

/// The printed TAN list as a login factor from an app: the position the server names, then its code.
@Suite("TresorKit: the TAN list at login", .serialized)
struct TANLoginClientTests {
    @Test("the position the branch's new list is asked at, the same when asked again; a wrong code refused by field, the right one taken")
    func tanStepUp() async throws {
        let server = try await LiveServer.start()
        defer { server.stop() }
        // why before the login: the command opens the demo bank's file as the server does.
        let printed = try ToolRun.run(
            try LiveServer.executable(),
            ["signing", "tan-list", "--banks", server.directory.appendingPathComponent("banks").path, "--bank", "tresor", "--contract", "10000012"]
        ).output
        let codes = Dictionary(uniqueKeysWithValues: printed.matches(of: /(\d+): (\d{6})/).map { (Int($0.1)!, String($0.2)) })
        #expect(codes.count == 50, "\(printed)")
        let client = TresorClient(baseURL: server.url)
        _ = try await client.login(contract: "10000012", password: "tresor-demo")
        let position = try await client.tanPosition()
        #expect(try await client.tanPosition() == position)
        do {
            try await client.stepUp(tan: codes[position == 1 ? 2 : 1]!)
            Issue.record("another position's code was taken")
        } catch let error as TresorError {
            #expect(error.status == 401 && error.field == "tan", "\(error)")
        }
        try await client.stepUp(tan: try #require(codes[position]))
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

        // Signing with it: a payment to a new payee asks for the passkey; the assertion over its
        // challenge executes it, one over another payment's challenge does not.
        _ = try await client.api.putV1SigningProvider(body: .json(.init(provider: .passkey))).ok
        let debtor = try #require(AccountID(text: try await TresorClientTests.currentAccount(client).id))
        func payment(_ minor: Int64) async throws -> Payment {
            var request = PaymentRequest(type: .iban, debtorAccount: debtor, amount: Money(minorUnits: minor, currency: .chf))
            request.creditor = CreditorInput(
                name: "Velo Meier", iban: "CH9300762011623852957", street: "Seeweg", buildingNumber: "3", postalCode: "3000", town: "Bern",
                country: "CH")
            return try await client.pay(request)
        }
        let first = try await payment(7_500)
        let second = try await payment(8_000)
        #expect(TresorClient.passkeyChallenge(of: first) != nil)
        let other = try #require(TresorClient.passkeyChallenge(of: second))
        // why https: an app's assertion names the bank's associated domain, as iOS writes it.
        let appOrigin = "https://\(login.relyingPartyID)"
        let answer = try phone.assertion(challenge: SoftAuthenticator.base64URL(Array(other)), rpID: login.relyingPartyID, origin: appOrigin)
        do {
            _ = try await client.sign(
                first, passkeyCredentialID: Data(phone.credentialID), clientDataJSON: Data(answer.clientData),
                authenticatorData: Data(answer.authenticatorData), signature: Data(answer.signature))
            Issue.record("another payment's assertion signed this one")
        } catch let error as TresorError {
            #expect(error.status == 422 && error.code == "invalid_signature", "\(error)")
        }
        // why the second payment: a refused answer gives the first a new challenge (`PasskeyProvider`).
        let right = try phone.assertion(challenge: SoftAuthenticator.base64URL(Array(other)), rpID: login.relyingPartyID, origin: appOrigin)
        let paid = try await client.sign(
            second, passkeyCredentialID: Data(phone.credentialID), clientDataJSON: Data(right.clientData),
            authenticatorData: Data(right.authenticatorData), signature: Data(right.signature))
        #expect(paid.status.rawValue == "executed", "\(paid.status)")
    }
}
