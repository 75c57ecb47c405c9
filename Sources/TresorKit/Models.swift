import Foundation
@_exported import TresorDomain

/// The server's types under the names an app uses; the generated `Components.Schemas` and
/// `Operations` stay available for everything the facade does not wrap.
public typealias Account = Components.Schemas.Account
public typealias Entry = Components.Schemas.Entry
public typealias Payment = Components.Schemas.Payment
public typealias Receipt = Components.Schemas.Receipt
public typealias Budget = Components.Schemas.Budget
public typealias Device = Components.Schemas.Device
public typealias InboxMessage = Operations.GetV1Messages.Output.Ok.Body.JsonPayload.MessagesPayloadPayload

/// A session as the server granted it: level 1 (device alone) or 2 (password, or device + PIN).
public struct Session: Sendable, Hashable {
    public var level: Int
    public var expiresAt: Date
}

/// A photographed slip read by the server: the draft to confirm, and every character the check
/// digits repaired (show them; nothing is paid until the customer confirms).
public struct ScannedSlip: Sendable, Hashable {
    public var draft: SlipDraft
    public var source: String
    public var corrections: [Correction]

    public struct Correction: Sendable, Hashable {
        public var field: String
        public var position: Int
        public var read: String
        public var corrected: String
    }
}

extension Components.Schemas.Money {
    /// The amount as the domain's exact `Money` (minor units, never floating point).
    public var money: TresorDomain.Money? {
        guard let currency = Currency(code: currency.rawValue) else { return nil }
        return try? TresorDomain.Money(parsing: amount, currency: currency)
    }
}

/// Moves a value between the domain's Codable types and the generated ones: both are the same
/// JSON on the wire, which is the contract the server's own decoding keeps.
enum Wire {
    static func convert<From: Encodable, To: Decodable>(_ value: From, to: To.Type) throws -> To {
        try JSONDecoder().decode(To.self, from: JSONEncoder().encode(value))
    }
}
