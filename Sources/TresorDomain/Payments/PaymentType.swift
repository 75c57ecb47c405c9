/// The kinds of payment a customer can make from the phone.
public enum PaymentType: String, Sendable, Codable, CaseIterable {
    /// Own-account transfer (Kontoübertrag).
    case `internal`
    /// Bank transfer to an IBAN, domestic or SEPA.
    case iban
    /// Swiss QR-bill.
    case qrbill
    /// Legacy orange (ESR) or red (ES) slip, from its code line.
    case esr
    /// Prepaid phone top-up.
    case topup

    /// Whether the payment's texts go out in the bank's pain.001 file, so hold only
    /// `PaymentText`'s characters. A payment to an IBAN counts even when the IBAN turns out to be
    /// at this bank: which bank holds it is known only later, and the rule must not depend on it.
    public var leavesTheBank: Bool { self == .iban || self == .qrbill || self == .esr }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let type = PaymentType(rawValue: text) else {
            throw DomainError(.invalidPaymentType, field: "type", "Use one of: \(Self.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        self = type
    }
}

/// The payee of a payment as the customer enters it. Which parts are needed depends on the type.
public struct CreditorInput: Hashable, Sendable, Codable {
    public var account: AccountID?
    public var name: String?
    public var iban: String?
    public var bic: String?
    public var street: String?
    public var buildingNumber: String?
    public var postalCode: String?
    public var town: String?
    public var country: String?

    enum CodingKeys: String, CodingKey {
        case account, name, iban, bic, street
        case buildingNumber = "building_number"
        case postalCode = "postal_code"
        case town, country
    }

    public init(
        account: AccountID? = nil, name: String? = nil, iban: String? = nil, bic: String? = nil, street: String? = nil,
        buildingNumber: String? = nil, postalCode: String? = nil, town: String? = nil, country: String? = nil
    ) {
        self.account = account
        self.name = name
        self.iban = iban
        self.bic = bic
        self.street = street
        self.buildingNumber = buildingNumber
        self.postalCode = postalCode
        self.town = town
        self.country = country
    }

    /// The structured address, when any part of it was given.
    public func address(field: String) throws -> PostalAddress? {
        if [name, street, buildingNumber, postalCode, town, country].allSatisfy({ ($0 ?? "").isEmpty }) { return nil }
        // why checked here: a payee's address typed by the customer goes into the pain.001 file.
        func text(_ value: String?, _ part: String) throws -> String? {
            try value.map { try PaymentText.checked($0, field: "\(field).\(part)") }
        }
        let address = PostalAddress(
            name: try text(name, "name") ?? "", street: try text(street, "street").nonEmpty,
            buildingNumber: try text(buildingNumber, "building_number").nonEmpty, postalCode: try text(postalCode, "postal_code") ?? "",
            town: try text(town, "town") ?? "", country: country ?? "")
        try address.validate(field: field)
        return address
    }
}

/// A phone top-up: operator and phone number.
public struct TopUpInput: Hashable, Sendable, Codable {
    public var `operator`: String
    public var phone: String

    public init(operator: String, phone: String) {
        self.operator = `operator`
        self.phone = phone
    }
}

extension Optional where Wrapped == String {
    var nonEmpty: String? {
        guard let self, !self.isEmpty else { return nil }
        return self
    }
}
