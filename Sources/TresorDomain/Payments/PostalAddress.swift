/// A structured postal address (ISO 20022 `PstlAdr`, QR-bill address type `S`).
///
/// why only structured: since November 2025 QR-bills and SEPA/Swiss payment files refuse
/// combined address lines, so Tresor never stores one.
public struct PostalAddress: Hashable, Sendable, Codable {
    public var name: String
    public var street: String?
    public var buildingNumber: String?
    public var postalCode: String
    public var town: String
    /// ISO 3166-1 alpha-2.
    public var country: String

    enum CodingKeys: String, CodingKey {
        case name, street
        case buildingNumber = "building_number"
        case postalCode = "postal_code"
        case town, country
    }

    public init(name: String, street: String? = nil, buildingNumber: String? = nil, postalCode: String, town: String, country: String) {
        self.name = name
        self.street = street
        self.buildingNumber = buildingNumber
        self.postalCode = postalCode
        self.town = town
        self.country = country
    }

    /// Field lengths of the QR-bill and of pain.001 structured addresses.
    public static let nameLengthMax = 70
    public static let streetLengthMax = 70
    public static let buildingNumberLengthMax = 16
    public static let postalCodeLengthMax = 16
    public static let townLengthMax = 35

    /// Checks presence and length of every part; `field` prefixes the names in errors
    /// (`creditor.postal_code`).
    public func validate(field: String) throws {
        func check(_ value: String?, _ name: String, max: Int, required: Bool) throws {
            let value = value ?? ""
            if required && value.trimmingSpaces.isEmpty {
                throw DomainError(.missingField, field: "\(field).\(name)", "Required.")
            }
            try TextLength.check(value, field: "\(field).\(name)", max: max)
        }
        try check(name, "name", max: Self.nameLengthMax, required: true)
        try check(street, "street", max: Self.streetLengthMax, required: false)
        try check(buildingNumber, "building_number", max: Self.buildingNumberLengthMax, required: false)
        try check(postalCode, "postal_code", max: Self.postalCodeLengthMax, required: true)
        try check(town, "town", max: Self.townLengthMax, required: true)
        guard country.count == 2, country.allSatisfy({ $0.isASCII && $0.isUppercase }), CountryCodes.isKnown(country) else {
            throw DomainError(
                .invalidCountry, field: "\(field).country", "Use the two-letter ISO country code, e.g. CH.",
                suggested: CountryCodes.meant(by: country))
        }
    }
}

extension String {
    var trimmingSpaces: Substring {
        var text = Substring(self)
        while text.first?.isWhitespace == true { text = text.dropFirst() }
        while text.last?.isWhitespace == true { text = text.dropLast() }
        return text
    }
}
