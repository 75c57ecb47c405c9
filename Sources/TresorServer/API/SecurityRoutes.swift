import Foundation
import Hummingbird
import TresorCore
import TresorDomain

/// `GET /v1/security`: everything that can log in as the customer, in one place (the last login,
/// devices, authenticator apps, passkeys, remembered browsers); `POST /v1/sessions/end-others` ends every
/// other way in at once.
struct SecurityRoutes {
    let services: Services

    struct LastLoginDTO: Encodable {
        let at: String
        let channel: String?
    }

    struct BrowserDTO: Encodable {
        let rememberedAt: String
        let lastUsedAt: String
        enum CodingKeys: String, CodingKey {
            case rememberedAt = "remembered_at"
            case lastUsedAt = "last_used_at"
        }
    }

    struct Body: Encodable {
        let lastLogin: LastLoginDTO?
        let devices: [DeviceRoutes.DeviceDTO]
        let secondFactors: [SecondFactorRoutes.FactorDTO]
        let passkeys: [PasskeyRoutes.PasskeyDTO]
        let rememberedBrowsers: [BrowserDTO]
        enum CodingKeys: String, CodingKey {
            case devices, passkeys
            case lastLogin = "last_login"
            case secondFactors = "second_factors"
            case rememberedBrowsers = "remembered_browsers"
        }
        // why explicit: `last_login` is null, not left out, when there was none (the schema says so).
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(lastLogin, forKey: .lastLogin)
            try container.encode(devices, forKey: .devices)
            try container.encode(secondFactors, forKey: .secondFactors)
            try container.encode(passkeys, forKey: .passkeys)
            try container.encode(rememberedBrowsers, forKey: .rememberedBrowsers)
        }
    }

    func show(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let token = String(request.headers[.authorization]!.dropFirst(7))
        let customer = principal.customerID
        let last = try await services.auth.lastLogin(of: customer, before: token)
        return try JSON.response(
            Body(
                lastLogin: last.map { LastLoginDTO(at: Timestamp.iso($0.atMillis), channel: $0.channel) },
                devices: try await services.devices.devices(of: customer).map(DeviceRoutes.DeviceDTO.init),
                secondFactors: try await services.secondFactors.factors(of: customer).map {
                    SecondFactorRoutes.FactorDTO(kind: $0.kind, status: $0.status, createdAt: Timestamp.iso($0.createdAtMillis))
                },
                passkeys: try await services.passkeys.passkeys(of: customer).map { PasskeyRoutes.PasskeyDTO($0) },
                rememberedBrowsers: try await services.rememberedBrowsers.browsers(of: customer).map {
                    BrowserDTO(rememberedAt: Timestamp.iso($0.createdAtMillis), lastUsedAt: Timestamp.iso($0.lastUsedAtMillis))
                }))
    }

    func endOthers(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let ended = try await services.auth.endOtherSessions(principal: principal, token: String(request.headers[.authorization]!.dropFirst(7)))
        return try JSON.response(["ended": ended])
    }
}
