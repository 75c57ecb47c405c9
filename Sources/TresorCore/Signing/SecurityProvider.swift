import Crypto
import Foundation
import TresorDomain
import TresorLedger

public enum SigningProviderKind: String, Sendable, Codable, CaseIterable {
    /// A printed list of numbered one-time codes ("Streichliste").
    case tanList = "tan_list"
    /// An authenticator app answering OCRA challenges derived from amount and payee.
    case authenticator
    /// The enrolled device's key signs the transaction summary.
    case deviceKey = "device_key"
    /// A passkey (WebAuthn) signs a challenge made from the transaction summary.
    case passkey
}

/// What the customer is asked, e.g. "code no. 17 of your TAN list" or an 8-digit question.
public struct ChallengePrompt: Sendable, Hashable {
    public let provider: SigningProviderKind
    public let position: Int?
    public let question: String?
    /// For the device key: the exact text to sign, `<binding>|<question>`, where the binding is
    /// the SHA-256 of the payment's signing summary (the app recomputes it from what it shows).
    public var message: String? = nil
}

extension ChallengePrompt {
    /// What the device or passkey signs for a stored challenge, derived again from its binding
    /// and question (nothing else needs storing): `<binding>|<question>` for the device key, the
    /// WebAuthn challenge for a passkey; nil for codes typed by hand.
    static func message(_ kind: SigningProviderKind, binding: String, question: String) -> String? {
        switch kind {
        case .deviceKey: "\(binding)|\(question)"
        case .passkey: WebAuthnBase64.encode(PasskeyProvider.challenge(binding: binding, question: question))
        case .tanList, .authenticator: nil
        }
    }
}

/// A challenge as stored: bound to the payment's signing summary.
struct StoredChallenge: Sendable {
    let id: Int64
    let paymentID: PaymentID
    let customerID: CustomerID
    let provider: SigningProviderKind
    let binding: String
    let question: String?
    let position: Int?
    let attempts: Int
}

/// One way of signing, behind one interface (the seeds' external security interface), so a
/// bank can add its own (a hardware token, a partner's app) without touching payments.
protocol SecurityProvider: Sendable {
    var kind: SigningProviderKind { get }
    /// The question for a new challenge bound to `binding`, inside the caller's transaction.
    func prompt(customer: CustomerID, binding: String, nonce: [UInt8], in session: any SQLSession) async throws -> ChallengePrompt
    /// Whether `response` answers `challenge`; consumes single-use material on success.
    func verify(_ response: String, challenge: StoredChallenge, now: Int64, in session: any SQLSession) async throws -> Bool
}

/// Printed TAN list: the challenge names an unused position; its code works once.
struct TANListProvider: SecurityProvider {
    let random: any RandomSource
    var kind: SigningProviderKind { .tanList }

    static func codeHash(customer: CustomerID, list: Int64, position: Int, code: String) -> String {
        Hashing.sha256Hex(Array("tan|\(customer)|\(list)|\(position)|\(code)".utf8))
    }

    func prompt(customer: CustomerID, binding: String, nonce: [UInt8], in session: any SQLSession) async throws -> ChallengePrompt {
        let unused = try await session.query(
            SQL(
                """
                SELECT t.position FROM tan_entries t JOIN signing_settings s ON s.customer_id = t.customer_id \
                AND s.tan_list = t.list_number WHERE t.customer_id = ? AND t.used_at_ms IS NULL ORDER BY t.position
                """, [.int(customer.rawValue)]))
        guard !unused.isEmpty else {
            throw DomainError(.signingUnavailable, field: "provider", "Your TAN list is used up; ask your branch for a new one.")
        }
        let pick = Int(random.bytes(2).reduce(0) { $0 << 8 | Int($1) }) % unused.count
        return ChallengePrompt(provider: .tanList, position: Int(unused[pick].int(0)), question: nil)
    }

    func verify(_ response: String, challenge: StoredChallenge, now: Int64, in session: any SQLSession) async throws -> Bool {
        guard let position = challenge.position, response.count <= 12 else { return false }
        guard
            let list = try await session.queryOne(
                SQL("SELECT tan_list FROM signing_settings WHERE customer_id = ?", [.int(challenge.customerID.rawValue)]))?.int(0)
        else { return false }
        return try await Self.useCode(response, customer: challenge.customerID, list: list, position: position, now: now, in: session)
    }

    /// Uses up the code at `position` of `list` if `code` is it; whether it was. Also the login's
    /// second factor (`SecondFactorService.stepUp(token:principal:tan:)`).
    static func useCode(
        _ code: String, customer: CustomerID, list: Int64, position: Int, now: Int64, in session: any SQLSession
    ) async throws -> Bool {
        let hash = codeHash(customer: customer, list: list, position: position, code: code)
        // why one conditional UPDATE: checking and consuming the code is one step, so a code
        // cannot be used twice even by two requests at the same moment.
        let consumed = try await session.queryOne(
            SQL(
                """
                UPDATE tan_entries SET used_at_ms = ? WHERE customer_id = ? AND list_number = ? AND position = ? \
                AND code_hash = ? AND used_at_ms IS NULL RETURNING position
                """, [.int(now), .int(customer.rawValue), .int(list), .int(Int64(position)), .text(hash)]))
        return consumed != nil
    }
}

/// Authenticator app with OCRA (RFC 6287, `OCRA-1:HOTP-SHA256-8:QN08`): the question is derived
/// from the payment's signing summary and a fresh nonce, so a code answers one challenge for
/// one amount and payee.
struct AuthenticatorProvider: SecurityProvider {
    static let suite = OCRA(suite: "OCRA-1:HOTP-SHA256-8:QN08")!
    let secrets: SecretKeys

    /// What a customer's sealed seed is bound to: copied to another customer's row, it does not open.
    static func context(_ customer: CustomerID) -> String { "authenticator:customer:\(customer.rawValue)" }
    var kind: SigningProviderKind { .authenticator }

    /// Eight decimal digits from SHA-256 over the binding and the nonce.
    static func question(binding: String, nonce: [UInt8]) -> String {
        let digest = Array(SHA256.hash(data: Array(binding.utf8) + nonce))
        let value = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } % 100_000_000
        let text = String(value)
        return String(repeating: "0", count: 8 - text.count) + text
    }

    func prompt(customer: CustomerID, binding: String, nonce: [UInt8], in session: any SQLSession) async throws -> ChallengePrompt {
        ChallengePrompt(provider: .authenticator, position: nil, question: Self.question(binding: binding, nonce: nonce))
    }

    func verify(_ response: String, challenge: StoredChallenge, now: Int64, in session: any SQLSession) async throws -> Bool {
        guard let question = challenge.question,
            let stored = try await session.queryOne(
                SQL("SELECT authenticator_secret FROM signing_settings WHERE customer_id = ?", [.int(challenge.customerID.rawValue)]))?
                .optionalText(0)
        else { return false }
        let seed: [UInt8]
        do {
            seed = try secrets.open(stored, context: Self.context(challenge.customerID))
        } catch {
            // why not a wrong answer: three of those cancel the payment, and the customer typed
            // nothing wrong; the bank's key set-up is at fault (see `tresor secrets rotate`).
            throw DomainError(.signingUnavailable, field: "provider", "The bank cannot check your authenticator right now. Ask your branch.")
        }
        guard let expected = Self.suite.response(key: seed, question: question) else { return false }
        // why constant time: the comparison must not leak how many leading digits were right.
        return expected.utf8.count == response.utf8.count && zip(expected.utf8, response.utf8).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

/// The device's key signs `<binding>|<question>`: possession of the enrolled key, bound to
/// amount and payee through the binding, fresh through the question.
struct DeviceKeyProvider: SecurityProvider {
    let random: any RandomSource
    var kind: SigningProviderKind { .deviceKey }

    func prompt(customer: CustomerID, binding: String, nonce: [UInt8], in session: any SQLSession) async throws -> ChallengePrompt {
        let active = try await session.queryOne(
            SQL("SELECT COUNT(*) FROM devices WHERE customer_id = ? AND status = 'active'", [.int(customer.rawValue)]))!.int(0)
        guard active > 0 else {
            throw DomainError(.signingUnavailable, field: "provider", "No active device to sign with; enrol one or choose another method.")
        }
        let question = nonce.hexadecimal
        return ChallengePrompt(
            provider: .deviceKey, position: nil, question: question,
            message: ChallengePrompt.message(.deviceKey, binding: binding, question: question))
    }

    func verify(_ response: String, challenge: StoredChallenge, now: Int64, in session: any SQLSession) async throws -> Bool {
        guard let question = challenge.question else { return false }
        let keys = try await session.query(
            SQL("SELECT public_key FROM devices WHERE customer_id = ? AND status = 'active'", [.int(challenge.customerID.rawValue)]))
        let message = Array("\(challenge.binding)|\(question)".utf8)
        return keys.contains { DeviceService.verify(signature: response, of: message, publicKey: $0.text(0)) }
    }
}

extension Array where Element == UInt8 {
    init(hexadecimal text: String) {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while let next = text.index(index, offsetBy: 2, limitedBy: text.endIndex), index < text.endIndex {
            bytes.append(UInt8(text[index..<next], radix: 16) ?? 0)
            index = next
        }
        self = bytes
    }
}
