import Foundation
import Hummingbird
import TresorCore
import TresorDomain

/// Devices and step-up for customers, and the staff API (activation codes, devices of a
/// customer, lock and unlock).
struct DeviceRoutes {
    let devices: DeviceService
    let auth: AuthService
    let staff: StaffService
    let secondFactors: SecondFactorService

    struct DeviceDTO: Encodable {
        let id: String
        let name: String
        let status: String
        let hasPIN: Bool
        let createdAt: String
        let lastUsedAt: String?
        enum CodingKeys: String, CodingKey {
            case id, name, status
            case hasPIN = "has_pin"
            case createdAt = "created_at"
            case lastUsedAt = "last_used_at"
        }
        init(_ device: Device) {
            id = String(device.id)
            name = device.name
            status = device.status.rawValue
            hasPIN = device.hasPIN
            createdAt = Timestamp.iso(device.createdAtMillis)
            lastUsedAt = device.lastUsedAtMillis.map(Timestamp.iso)
        }
    }

    struct DeviceBody: Encodable { let device: DeviceDTO }
    struct DevicesBody: Encodable { let devices: [DeviceDTO] }

    static func session(_ grant: SessionGrant) throws -> Response {
        try JSON.response(
            SessionRoutes.SessionDTO(token: grant.token, level: grant.level, expiresAt: ISO8601DateFormatter().string(from: grant.expiresAt)),
            status: .created)
    }

    static func deviceID(_ context: TresorRequestContext) throws -> Int64 {
        guard let text = context.parameters.get("id"), let id = Int64(text) else { throw DomainError(.notFound, field: "id", "No such device.") }
        return id
    }

    /// `POST /v1/devices` `{"contract", "activation_code", "name", "public_key"}`: enrol a device (no session needed).
    func enrol(_ request: Request, context: TresorRequestContext) async throws -> Response {
        struct Input: Decodable {
            let contract: String
            let activationCode: String
            let name: String
            let publicKey: String
            enum CodingKeys: String, CodingKey {
                case contract
                case activationCode = "activation_code"
                case name
                case publicKey = "public_key"
            }
        }
        let input = try JSON.decode(Input.self, from: try await JSON.body(request))
        let device = try await devices.enrol(
            contract: input.contract, code: input.activationCode, name: input.name, publicKey: input.publicKey, address: context.address)
        return try JSON.response(DeviceBody(device: DeviceDTO(device)), status: .created)
    }

    /// `POST /v1/devices/{id}/challenge` → `{"nonce"}` to sign for a device login.
    func challenge(_ request: Request, context: TresorRequestContext) async throws -> Response {
        struct Body: Encodable { let nonce: String }
        return try JSON.response(Body(nonce: try await devices.challenge(device: try Self.deviceID(context))), status: .created)
    }

    /// `POST /v1/sessions/device` `{"device_id", "nonce", "signature", "pin"?}`: level 1, or 2 with the PIN.
    func login(_ request: Request, context: TresorRequestContext) async throws -> Response {
        struct Input: Decodable {
            let deviceID: String
            let nonce: String
            let signature: String
            let pin: String?
            enum CodingKeys: String, CodingKey {
                case deviceID = "device_id"
                case nonce, signature, pin
            }
        }
        let input = try JSON.decode(Input.self, from: try await JSON.body(request))
        guard let id = Int64(input.deviceID) else { throw DomainError(.invalidDeviceSignature, field: "device_id", "Unknown device.") }
        return try Self.session(
            try await devices.login(device: id, nonce: input.nonce, signature: input.signature, pin: input.pin, address: context.address))
    }

    /// `POST /v1/sessions/current/step-up` `{"password"}`, `{"code"}` (the authenticator app's)
    /// or `{"tan"}` (the code at the position `tanPosition` named): level 1 → 2 on the same token;
    /// the second and third are the second factor where the bank asks for two.
    func stepUp(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        struct Input: Decodable {
            let password: String?
            let code: String?
            let tan: String?
        }
        let input = try JSON.decode(Input.self, from: try await JSON.body(request))
        let token = String(request.headers[.authorization]!.dropFirst(7))
        switch (input.password, input.code, input.tan) {
        case (let password?, nil, nil): try await auth.stepUp(token: token, principal: principal, password: password)
        case (nil, let code?, nil): try await secondFactors.stepUp(token: token, principal: principal, code: code)
        case (nil, nil, let tan?): try await secondFactors.stepUp(token: token, principal: principal, tan: tan)
        default: throw DomainError(.missingField, field: "password", "Send one of the password, the authenticator's code or the TAN.")
        }
        struct Body: Encodable { let level: Int }
        return try JSON.response(Body(level: 2))
    }

    /// `POST /v1/sessions/current/step-up/tan`: which code of the TAN list to send next.
    func tanPosition(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let token = String(request.headers[.authorization]!.dropFirst(7))
        struct Body: Encodable { let position: Int }
        return try JSON.response(Body(position: try await secondFactors.tanPosition(token: token, principal: principal)))
    }

    func list(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        return try JSON.response(DevicesBody(devices: try await devices.devices(of: principal.customerID).map(DeviceDTO.init)))
    }

    func setPIN(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        struct Input: Decodable { let pin: String }
        let input = try JSON.decode(Input.self, from: try await JSON.body(request))
        try await devices.setPIN(device: try Self.deviceID(context), pin: input.pin, by: principal)
        return Response(status: .noContent)
    }

    func lock(_ request: Request, context: TresorRequestContext) async throws -> Response {
        try await setLocked(true, context)
    }

    func unlock(_ request: Request, context: TresorRequestContext) async throws -> Response {
        try await setLocked(false, context)
    }

    func setLocked(_ locked: Bool, _ context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let device = try await devices.setLocked(
            locked, device: try Self.deviceID(context), of: principal.customerID, actor: "customer:\(principal.customerID)",
            contract: principal.contract)
        return try JSON.response(DeviceBody(device: DeviceDTO(device)))
    }

    // MARK: staff

    func staffLogin(_ request: Request, context: TresorRequestContext) async throws -> Response {
        struct Input: Decodable {
            let name: String
            let password: String
        }
        let input = try JSON.decode(Input.self, from: try await JSON.body(request))
        return try Self.session(try await staff.login(name: input.name, password: input.password, address: context.address))
    }

    /// `POST /v1/staff/activation-codes` `{"contract"}` → `{"code", "expires_in_seconds"}`.
    func issueCode(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let name = try context.requireStaff()
        struct Input: Decodable { let contract: String }
        let input = try JSON.decode(Input.self, from: try await JSON.body(request))
        struct Body: Encodable {
            let code: String
            let expiresInSeconds: Int64
            enum CodingKeys: String, CodingKey {
                case code
                case expiresInSeconds = "expires_in_seconds"
            }
        }
        let code = try await devices.issueActivationCode(contract: input.contract, staff: name)
        return try JSON.response(Body(code: code, expiresInSeconds: DeviceService.codeLifetimeSeconds), status: .created)
    }

    func staffDevices(_ request: Request, context: TresorRequestContext) async throws -> Response {
        _ = try context.requireStaff()
        guard let contract = request.uri.queryParameters.get("contract").map({ String($0) }),
            let customer = try await auth.customer(ofContract: contract)
        else { throw DomainError(.notFound, field: "contract", "No such contract.") }
        return try JSON.response(DevicesBody(devices: try await devices.devices(of: customer).map(DeviceDTO.init)))
    }

    func staffLock(_ request: Request, context: TresorRequestContext) async throws -> Response {
        try await staffSetLocked(true, request, context)
    }

    func staffUnlock(_ request: Request, context: TresorRequestContext) async throws -> Response {
        try await staffSetLocked(false, request, context)
    }

    func staffSetLocked(_ locked: Bool, _ request: Request, _ context: TresorRequestContext) async throws -> Response {
        let name = try context.requireStaff()
        struct Input: Decodable { let contract: String }
        let input = try JSON.decode(Input.self, from: try await JSON.body(request))
        guard let customer = try await auth.customer(ofContract: input.contract) else {
            throw DomainError(.notFound, field: "contract", "No such contract.")
        }
        let device = try await devices.setLocked(
            locked, device: try Self.deviceID(context), of: customer, actor: "staff:\(name)", contract: input.contract)
        return try JSON.response(DeviceBody(device: DeviceDTO(device)))
    }
}
