import Foundation
import TresorDomain

/// A branch or an ATM of the bank, as the finder shows it.
public struct Branch: Sendable, Hashable {
    public enum Kind: String, Sendable, CaseIterable { case branch, atm }
    /// What a branch offers at its counters.
    public enum Service: String, Sendable, CaseIterable {
        case advice
        case cashDesk = "cash_desk"
        case foreignCash = "foreign_cash"
        case safeDeposit = "safe_deposit"
    }

    public let id: Int64
    /// The bank's own short code (`ZH-PARA`, `ATM-ZH-HB-1`), stable across imports.
    public var code: String
    public var kind: Kind
    public var name: String
    public var street: String
    public var postcode: String
    public var town: String
    public var position: GeoPoint
    public var phone: String?
    public var services: [Service]
    /// For an ATM inside a branch these are the branch's hours (`parentID`).
    public var hours: WeeklyHours
    /// The branch an ATM stands in, whose hours and closures it follows.
    public var parentID: Int64?
    /// The currencies an ATM pays out.
    public var currencies: [Currency]
    /// Whether an ATM takes deposits.
    public var deposit: Bool
    public var timeZone: TimeZone

    public init(
        id: Int64 = 0, code: String, kind: Kind, name: String, street: String, postcode: String, town: String, position: GeoPoint,
        phone: String? = nil, services: [Service] = [], hours: WeeklyHours, parentID: Int64? = nil, currencies: [Currency] = [],
        deposit: Bool = false, timeZone: TimeZone = TimeZone(identifier: "Europe/Zurich")!
    ) {
        self.id = id
        self.code = code
        self.kind = kind
        self.name = name
        self.street = street
        self.postcode = postcode
        self.town = town
        self.position = position
        self.phone = phone
        self.services = services
        self.hours = hours
        self.parentID = parentID
        self.currencies = currencies
        self.deposit = deposit
        self.timeZone = timeZone
    }
}

/// A branch as a search answers it: with its distance and whether it is open.
public struct BranchStatus: Sendable {
    public let branch: Branch
    /// Metres from the searcher, when the search had a position.
    public let distance: Int?
    public let status: OpeningStatus
    /// The hours it keeps (the parent branch's for an ATM inside one).
    public let hours: WeeklyHours
}
