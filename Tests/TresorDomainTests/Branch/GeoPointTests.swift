import Testing
import TresorDomain

@Suite("Great-circle distances between known Swiss places")
struct GeoPointTests {
    let zurichHB = try! GeoPoint(latitude: "47.378177", longitude: "8.540192")

    @Test("Zürich HB to Bern and Geneva stations match the published great-circle distances; a place to itself is 0")
    func distances() throws {
        // Published station-to-station straight-line distances: Zürich–Bern ≈ 95.9 km, Zürich–Genève ≈ 224 km.
        let bern = try GeoPoint(latitude: "46.948800", longitude: "7.439100")
        let geneva = try GeoPoint(latitude: "46.210200", longitude: "6.142400")
        #expect(abs(zurichHB.distance(to: bern) - 95_960) < 300)
        #expect(abs(zurichHB.distance(to: geneva) - 224_000) < 700)
        #expect(zurichHB.distance(to: zurichHB) == 0)
        #expect(zurichHB.distance(to: bern) == bern.distance(to: zurichHB))
        // Paradeplatz is about 950 m south of the station.
        let paradeplatz = try GeoPoint(latitude: "47.369800", longitude: "8.539100")
        #expect((900...1_000).contains(zurichHB.distance(to: paradeplatz)))
    }

    @Test("places sort nearest first from a position")
    func ordering() throws {
        let places = [
            ("Genève", try GeoPoint(latitude: "46.2037", longitude: "6.1475")), ("Winterthur", try GeoPoint(latitude: "47.4999", longitude: "8.727")),
            ("Paradeplatz", try GeoPoint(latitude: "47.3698", longitude: "8.5391")), ("Bern", try GeoPoint(latitude: "46.9472", longitude: "7.4444")),
            ("Lugano", try GeoPoint(latitude: "46.003", longitude: "8.9519")),
        ]
        let sorted = places.sorted { zurichHB.distance(to: $0.1) < zurichHB.distance(to: $1.1) }.map(\.0)
        #expect(sorted == ["Paradeplatz", "Winterthur", "Bern", "Lugano", "Genève"])
    }

    @Test("coordinates parse as decimal degrees to microdegrees, out-of-range and junk refused")
    func parsing() throws {
        let point = try GeoPoint(latitude: "-33.8688", longitude: "151.2093")
        #expect(point.latitudeMicro == -33_868_800 && point.longitudeMicro == 151_209_300)
        #expect(point.latitudeText == "-33.868800")
        for (lat, lon) in [("91", "0"), ("0", "181"), ("47,3", "8"), ("1e2", "8"), ("", "8"), ("47.", "8"), ("NaN", "8"), ("47.1234567890", "8.1")] {
            if lat == "47.1234567890" {
                #expect(try GeoPoint(latitude: lat, longitude: lon).latitudeMicro == 47_123_456)
            } else {
                #expect(throws: DomainError.self, "\(lat),\(lon)") { try GeoPoint(latitude: lat, longitude: lon) }
            }
        }
    }
}
