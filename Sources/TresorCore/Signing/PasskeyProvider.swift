import Crypto
import Foundation
import TresorDomain
import TresorLedger

/// Signing a payment with a passkey: the WebAuthn challenge is the SHA-256 of the payment's
/// binding (its signing summary: amount, currency, payee) and a fresh nonce, so the signature
/// the phone makes after showing the payment commits to exactly that payment (dynamic
/// linking, as for the other providers). The response is the assertion as `toJSON()` writes it.
struct PasskeyProvider: SecurityProvider {
    var kind: SigningProviderKind { .passkey }

    static func challenge(binding: String, question: String) -> [UInt8] {
        Array(SHA256.hash(data: Array("\(binding)|\(question)".utf8)))
    }

    func prompt(customer: CustomerID, binding: String, nonce: [UInt8], in session: any SQLSession) async throws -> ChallengePrompt {
        let count = try await session.queryOne(SQL("SELECT COUNT(*) FROM passkeys WHERE customer_id = ?", [.int(customer.rawValue)]))!.int(0)
        guard count > 0 else {
            throw DomainError(.signingUnavailable, field: "provider", "No passkey to sign with; register one or choose another method.")
        }
        let question = nonce.hexadecimal
        return ChallengePrompt(
            provider: .passkey, position: nil, question: question, message: ChallengePrompt.message(.passkey, binding: binding, question: question))
    }

    func verify(_ response: String, challenge: StoredChallenge, now: Int64, in session: any SQLSession) async throws -> Bool {
        guard let question = challenge.question, response.utf8.count <= 16_384,
            let assertion = try? JSONDecoder().decode(WebAuthnAssertionJSON.self, from: Data(response.utf8)),
            let parts = try? assertion.bytes(),
            let row = try await session.queryOne(
                SQL(
                    "SELECT id, rp_id, public_key, sign_count FROM passkeys WHERE credential_id = ? AND customer_id = ?",
                    [.text(assertion.id), .int(challenge.customerID.rawValue)])),
            let key = WebAuthnBase64.decode(row.text(2))
        else { return false }
        let verifier = WebAuthnVerifier(rpID: row.text(1), origins: [], originsOfRPHost: true)
        guard
            let (count, _) = try? verifier.verifyAssertion(
                clientDataJSON: parts.clientDataJSON, authenticatorData: parts.authenticatorData, signature: parts.signature,
                challenge: Self.challenge(binding: challenge.binding, question: question), publicKey: key, storedCount: UInt32(row.int(3)))
        else { return false }
        return try await PasskeyService.advanceCounter(passkey: row.int(0), to: count, now: now, in: session)
    }
}
