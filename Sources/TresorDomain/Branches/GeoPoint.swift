import Foundation

/// A position on the earth, stored as integer microdegrees (no floating point in the database,
/// and 0.11 m of resolution is more than a branch needs).
public struct GeoPoint: Hashable, Sendable, Codable {
    public let latitudeMicro: Int64
    public let longitudeMicro: Int64

    public init?(latitudeMicro: Int64, longitudeMicro: Int64) {
        guard (-90_000_000...90_000_000).contains(latitudeMicro), (-180_000_000...180_000_000).contains(longitudeMicro) else { return nil }
        self.latitudeMicro = latitudeMicro
        self.longitudeMicro = longitudeMicro
    }

    /// Parses decimal degrees (`"47.376887"`), as a query string or a CSV file carries them.
    public init(latitude: String, longitude: String, field: String = "lat") throws {
        guard let lat = Self.micro(latitude), let lon = Self.micro(longitude), let point = GeoPoint(latitudeMicro: lat, longitudeMicro: lon)
        else {
            throw DomainError(.invalidParameter, field: field, "Coordinates are decimal degrees: latitude -90…90, longitude -180…180.")
        }
        self = point
    }

    /// Decimal degrees with at most 6 decimals to microdegrees, without a detour through Double.
    static func micro(_ text: String) -> Int64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let negative = trimmed.hasPrefix("-")
        let body = negative ? trimmed.dropFirst() : Substring(trimmed)
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), !parts[0].isEmpty, parts[0].count <= 3, parts[0].allSatisfy(\.isASCII),
            let whole = Int64(parts[0])
        else { return nil }
        var fraction: Int64 = 0
        if parts.count == 2 {
            let digits = parts[1].prefix(6)
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), parts[1].allSatisfy({ $0.isASCII && $0.isNumber }),
                let value = Int64(digits)
            else { return nil }
            fraction = value * Int64(pow(10, Double(6 - digits.count)))
        }
        let magnitude = whole * 1_000_000 + fraction
        return negative ? -magnitude : magnitude
    }

    public var latitude: Double { Double(latitudeMicro) / 1_000_000 }
    public var longitude: Double { Double(longitudeMicro) / 1_000_000 }

    /// Decimal degrees with six decimals, as written.
    public var latitudeText: String { Self.text(latitudeMicro) }
    public var longitudeText: String { Self.text(longitudeMicro) }
    static func text(_ micro: Int64) -> String {
        let fraction = String(micro.magnitude % 1_000_000)
        return (micro < 0 ? "-" : "") + "\(micro.magnitude / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }

    /// The mean earth radius of IUGG (metres), the usual sphere for great-circle distances.
    public static let earthRadiusMetres = 6_371_008.8

    /// Great-circle distance in metres (haversine, which stays accurate for short distances).
    public func distance(to other: GeoPoint) -> Int {
        let phi1 = latitude * .pi / 180
        let phi2 = other.latitude * .pi / 180
        let dPhi = phi2 - phi1
        let dLambda = (other.longitude - longitude) * .pi / 180
        let a = sin(dPhi / 2) * sin(dPhi / 2) + cos(phi1) * cos(phi2) * sin(dLambda / 2) * sin(dLambda / 2)
        return Int((2 * Self.earthRadiusMetres * asin(min(1, a.squareRoot()))).rounded())
    }

    enum CodingKeys: String, CodingKey {
        case latitudeMicro = "lat_micro"
        case longitudeMicro = "lon_micro"
    }
}
