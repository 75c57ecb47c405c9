import Foundation
import Hummingbird
import TresorCore
import TresorDomain

/// `/v1/second-factors`: the customer's authenticator app as a second login factor: set up
/// (the secret as an `otpauth://` URI for a QR code), confirmed with a first code, listed, removed.
struct SecondFactorRoutes {
    let secondFactors: SecondFactorService
    let bank: BankService

    struct FactorDTO: Encodable {
        let kind: String
        let status: String
        let createdAt: String
        enum CodingKeys: String, CodingKey {
            case kind, status
            case createdAt = "created_at"
        }
    }

    func list(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let formatter = ISO8601DateFormatter()
        let factors = try await secondFactors.factors(of: principal.customerID).map {
            FactorDTO(
                kind: $0.kind, status: $0.status, createdAt: formatter.string(from: Date(timeIntervalSince1970: Double($0.createdAtMillis) / 1000)))
        }
        return try JSON.response(["second_factors": factors])
    }

    /// `POST /v1/second-factors/totp` → 201 `{"uri", "secret"}` (shown once).
    func startTOTP(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let enrolment = try await secondFactors.startTOTP(for: principal, issuer: try await bank.foundedProfile().name)
        return try JSON.response(["uri": enrolment.uri, "secret": enrolment.secret], status: .created)
    }

    /// `POST /v1/second-factors/totp/confirm` `{"code"}` → 204.
    func confirmTOTP(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        struct Input: Decodable { let code: String }
        let input = try JSON.decode(Input.self, from: try await JSON.body(request))
        try await secondFactors.confirmTOTP(for: principal, code: input.code)
        return Response(status: .noContent)
    }

    func removeTOTP(_ request: Request, context: TresorRequestContext) async throws -> Response {
        try await secondFactors.removeTOTP(for: try context.requirePrincipal())
        return Response(status: .noContent)
    }
}
