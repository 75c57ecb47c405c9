import Hummingbird
import TresorCore
import TresorDomain

/// `/v1/signing`: the customer's signing method; `/v1/staff/tan-lists`: a printed TAN list.
struct SigningRoutes {
    let signing: SigningService
    let auth: AuthService

    func show(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let settings = try await signing.settings(of: principal.customerID)
        struct Body: Encodable {
            let provider: String?
            let limit: Money
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(provider, forKey: .provider)
                try container.encode(limit, forKey: .limit)
            }
            enum CodingKeys: String, CodingKey { case provider, limit }
        }
        return try JSON.response(Body(provider: settings.provider?.rawValue, limit: Money(minorUnits: settings.limitMinor, currency: .chf)))
    }

    /// `{"provider": "authenticator"}` answers the `otpauth://` URI once; `"device_key"` needs
    /// an active device. A TAN list comes from the branch (`/v1/staff/tan-lists`).
    func choose(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        struct Input: Decodable { let provider: String }
        let input = try JSON.decode(Input.self, from: try await JSON.body(request))
        struct Body: Encodable {
            let provider: String
            let otpauthURI: String?
            enum CodingKeys: String, CodingKey {
                case provider
                case otpauthURI = "otpauth_uri"
            }
        }
        let actor = "customer:\(principal.customerID)"
        switch SigningProviderKind(rawValue: input.provider) {
        case .authenticator:
            let uri = try await signing.enrolAuthenticator(for: principal.customerID, label: principal.contract, actor: actor)
            return try JSON.response(Body(provider: "authenticator", otpauthURI: uri))
        case .deviceKey:
            try await signing.useDeviceKey(for: principal.customerID, actor: actor)
            return try JSON.response(Body(provider: "device_key", otpauthURI: nil))
        case .passkey:
            try await signing.usePasskey(for: principal.customerID, actor: actor)
            return try JSON.response(Body(provider: "passkey", otpauthURI: nil))
        case .tanList, nil:
            throw DomainError(
                .invalidParameter, field: "provider", "Choose authenticator, device_key or passkey; TAN lists are issued by your branch.")
        }
    }

    /// Staff: `{"contract"}` → the new TAN list as printable text (the old one stops working).
    func issueTANList(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let staff = try context.requireStaff()
        struct Input: Decodable { let contract: String }
        let input = try JSON.decode(Input.self, from: try await JSON.body(request))
        guard let customer = try await auth.customer(ofContract: input.contract) else {
            throw DomainError(.notFound, field: "contract", "No such contract.")
        }
        let codes = try await signing.issueTANList(for: customer, actor: "staff:\(staff)")
        var text = "TAN list for contract \(input.contract). Each code works once.\n"
        for row in stride(from: 0, to: codes.count, by: 5) {
            text +=
                codes[row..<min(row + 5, codes.count)].map { "\($0.position < 10 ? " " : "")\($0.position): \($0.code)" }.joined(separator: "   ")
                + "\n"
        }
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; charset=utf-8"
        return Response(status: .created, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
