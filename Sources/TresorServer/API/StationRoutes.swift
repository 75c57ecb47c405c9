import Hummingbird
import TresorCore
import TresorDomain

/// Pairing the phone with a self-service station: the app sends the code the station shows
/// (scanned from its QR code, which also names the station, or typed).
struct StationRoutes {
    let stations: StationService

    func pair(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        struct Input: Decodable {
            let code: String
            let station: String?
        }
        let input = try JSON.decode(Input.self, from: try await JSON.body(request))
        var stationID: Int64?
        if let station = input.station {
            guard let id = Int64(station) else { throw DomainError(.invalidParameter, field: "station", "station is a station's id.") }
            stationID = id
        }
        let (station, visit) = try await stations.pair(code: input.code, stationID: stationID, by: principal)
        struct StationDTO: Encodable {
            let id: String
            let name: String
            let branch: String
        }
        struct Body: Encodable {
            let station: StationDTO
            let expiresAt: String
            enum CodingKeys: String, CodingKey {
                case station
                case expiresAt = "expires_at"
            }
        }
        return try JSON.response(
            Body(
                station: StationDTO(id: String(station.id), name: station.name, branch: station.branchName),
                expiresAt: Timestamp.iso(visit.expiresAtMillis)), status: .created)
    }
}
