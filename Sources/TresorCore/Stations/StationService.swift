import Foundation
import TresorDomain
import TresorLedger

/// A self-service station: a terminal in a branch lobby that staff registered. It knows itself
/// by a secret key (kept hashed); the kiosk page sends it with every request.
public struct Station: Sendable, Hashable {
    public let id: Int64
    public let name: String
    public let branchID: Int64
    public let branchName: String
}

/// A customer at a station: opened by pairing from an activated device, it lasts at most
/// `StationService.visitSeconds` or until the customer taps "done".
public struct StationVisit: Sendable, Hashable {
    public let id: Int64
    public let stationID: Int64
    public let customerID: CustomerID
    public let deviceID: Int64
    public let expiresAtMillis: Int64
}

/// A pairing code the station shows (in a QR code and as text) until it expires or is used.
public struct StationCode: Sendable, Hashable {
    public let code: String
    public let expiresAtMillis: Int64

    public init(code: String, expiresAtMillis: Int64) {
        self.code = code
        self.expiresAtMillis = expiresAtMillis
    }
}

/// Stations, their pairing codes and the visits of customers. The rules of pairing: a code
/// works once, for the station that showed it, within a minute; only from a level-2 session of
/// an activated device that is at least a day old and not locked. Every pairing, refused or
/// not, and every end of a visit is audited.
public struct StationService: Sendable {
    let database: any SQLDatabase
    let clock: any Clock
    let random: any RandomSource
    let auth: AuthService

    public init(database: any SQLDatabase, clock: any Clock, random: any RandomSource, auth: AuthService) {
        self.database = database
        self.clock = clock
        self.random = random
        self.auth = auth
    }

    /// A code changes this often. why a minute: long enough to type it from the screen, short
    /// enough that a photo of the screen is useless soon after.
    public static let codeLifetimeSeconds: Int64 = 60
    /// A new code is shown once the current one has less than this left, so a customer never
    /// starts typing a code about to expire.
    static let codeRenewSeconds: Int64 = 15
    public static let visitSeconds: Int64 = 300
    /// Six characters of `DeviceService.codeAlphabet`: 2^30 codes, of which a station has one or
    /// two alive at a time; wrong guesses are rate limited per contract.
    public static let codeLength = 6
    public static let nameLengthMax = 60
    public static let savingsBookRule = "Money leaves a savings book only at a self-service station in a branch."

    var dialect: SQLDialect { database.dialect }

    /// Registers a station in `branch` (staff); the key is shown once, for the kiosk's URL.
    public func add(branch branchID: Int64, name: String, staff: String) async throws -> (station: Station, key: String) {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, TextLength.of(trimmed) <= Self.nameLengthMax else {
            throw DomainError(.invalidParameter, field: "name", "Name the station (at most \(Self.nameLengthMax) characters).")
        }
        let key = AuthService.base64URL(random.bytes(32))
        let now = clock.unixMillis
        let dialect = dialect
        let id = try await database.transaction { session in
            guard try await session.queryOne(SQL("SELECT id FROM branches WHERE id = ? AND kind = 'branch'", [.int(branchID)])) != nil else {
                throw DomainError(.notFound, field: "branch", "No such branch.")
            }
            let id = try await session.queryOne(
                SQL(
                    "INSERT INTO stations (branch_id, name, key_hash, created_by, created_at_ms) VALUES (?, ?, ?, ?, ?) RETURNING id",
                    [.int(branchID), .text(trimmed), .text(Hashing.sha256Hex(Array(key.utf8))), .text(staff), .int(now)]))!.int(0)
            try await AuditLog.append(
                AuditEntry(atMillis: now, actor: "staff:\(staff)", action: "station.add", subject: "station:\(id)", details: "branch:\(branchID)"),
                dialect: dialect, in: session)
            return id
        }
        return (try await station(id)!, key)
    }

    static let stationColumns = "s.id, s.name, s.branch_id, b.name FROM stations s JOIN branches b ON b.id = s.branch_id"

    static func station(_ row: SQLRow) -> Station {
        Station(id: row.int(0), name: row.text(1), branchID: row.int(2), branchName: row.text(3))
    }

    public func station(_ id: Int64) async throws -> Station? {
        try await database.read { session in
            try await session.queryOne(SQL("SELECT \(Self.stationColumns) WHERE s.id = ? AND s.retired_at_ms IS NULL", [.int(id)]))
        }.map(Self.station)
    }

    /// The station whose kiosk holds `key`, or nil (unknown or retired).
    public func station(key: String) async throws -> Station? {
        guard key.count <= 64 else { return nil }
        return try await database.read { session in
            try await session.queryOne(
                SQL(
                    "SELECT \(Self.stationColumns) WHERE s.key_hash = ? AND s.retired_at_ms IS NULL",
                    [.text(Hashing.sha256Hex(Array(key.utf8)))]))
        }.map(Self.station)
    }

    public func all() async throws -> [Station] {
        try await database.read { session in
            try await session.query(SQL("SELECT \(Self.stationColumns) WHERE s.retired_at_ms IS NULL ORDER BY s.id"))
        }.map(Self.station)
    }

    /// The code the station shows now: a new one when none is alive or the current one is
    /// about to expire. The code itself is returned only when it is new; it is stored hashed,
    /// so the kiosk keeps showing the code it was given until `expiresAtMillis`.
    public func code(for station: Station, showing current: StationCode?) async throws -> StationCode {
        let now = clock.unixMillis
        if let current, current.expiresAtMillis - now > Self.codeRenewSeconds * 1000,
            try await isAlive(current.code, station: station.id, now: now)
        {
            return current
        }
        let code = String(random.bytes(Self.codeLength).map { DeviceService.codeAlphabet[Int($0) % DeviceService.codeAlphabet.count] })
        let issued = StationCode(code: code, expiresAtMillis: now + Self.codeLifetimeSeconds * 1000)
        try await database.transaction { session in
            // why delete here: the table holds only what a station showed in the last day.
            try await session.execute(
                SQL("DELETE FROM station_codes WHERE station_id = ? AND expires_at_ms < ?", [.int(station.id), .int(now - 86_400_000)]))
            try await session.execute(
                SQL(
                    "INSERT INTO station_codes (code_hash, station_id, expires_at_ms) VALUES (?, ?, ?)",
                    [.text(Self.hash(code)), .int(station.id), .int(issued.expiresAtMillis)]))
        }
        return issued
    }

    func isAlive(_ code: String, station: Int64, now: Int64) async throws -> Bool {
        try await database.read { session in
            try await session.queryOne(
                SQL(
                    "SELECT 1 FROM station_codes WHERE code_hash = ? AND station_id = ? AND used_at_ms IS NULL AND expires_at_ms > ?",
                    [.text(Self.hash(code)), .int(station), .int(now)])) != nil
        }
    }

    /// Uppercase without spaces or dashes, as a customer may type what the screen shows.
    static func normalized(_ code: String) -> String {
        String(code.uppercased().filter { $0 != " " && $0 != "-" })
    }

    static func hash(_ code: String) -> String { Hashing.sha256Hex(Array(normalized(code).utf8)) }

    /// Pairs the caller's device with the station that shows `code`, opening a visit there.
    /// `stationID`, when the QR code gave it, must be that station.
    public func pair(code: String, stationID: Int64? = nil, by principal: Principal) async throws -> (Station, StationVisit) {
        try await auth.limiter.hit(auth.config.rateLimits.signingPerContract, key: "station:\(principal.contract)")
        let now = clock.unixMillis
        let dialect = dialect
        @Sendable func audit(_ result: String, station: Int64?, in session: any SQLSession) async throws {
            try await AuditLog.append(
                AuditEntry.customer(principal, at: now, action: "station.pair", subject: station.map { "station:\($0)" }, result: result),
                dialect: dialect, in: session)
        }
        // A refusal is audited in its own transaction and then thrown.
        func refuse(_ error: DomainError, station: Int64? = nil) async throws -> Never {
            try await database.transaction { session in try await audit(error.code.rawValue, station: station, in: session) }
            throw error
        }
        guard principal.level >= 2 else {
            throw DomainError(.stepUpRequired, "Confirm with your PIN before pairing with a station.")
        }
        guard let deviceID = principal.deviceID else {
            try await refuse(DomainError(.deviceRequired, "Pair from the app on a device your branch activated."))
        }
        let device = try await database.read { session in
            try await session.queryOne(SQL("SELECT status, created_at_ms FROM devices WHERE id = ?", [.int(deviceID)]))
        }
        guard let device, device.text(0) == "active" else {
            try await refuse(DomainError(.deviceLocked, "This device is locked."))
        }
        guard now - device.int(1) >= DeviceService.newDeviceSeconds * 1000 else {
            try await refuse(DomainError(.deviceTooNew, "A device pairs with a station from its second day on."))
        }
        let normalized = Self.normalized(code)
        let invalid = DomainError(.invalidStationCode, field: "code", "This code is wrong, used or expired; type the code the station shows now.")
        guard normalized.count == Self.codeLength else { try await refuse(invalid) }
        let visit: StationVisit? = try await database.transaction { session in
            guard
                let row = try await session.queryOne(
                    SQL(
                        """
                        UPDATE station_codes SET used_at_ms = ? WHERE code_hash = ? AND used_at_ms IS NULL AND expires_at_ms > ? \
                        AND station_id IN (SELECT id FROM stations WHERE retired_at_ms IS NULL) RETURNING station_id
                        """, [.int(now), .text(Self.hash(normalized)), .int(now)]))
            else { return nil }
            let station = row.int(0)
            // why this check after consuming: a code shown on one station and offered for another
            // is spent, so whoever saw it cannot try it again.
            guard stationID == nil || stationID == station else { return nil }
            // One customer at a station, one station per device: older visits end here.
            try await session.execute(
                SQL(
                    "UPDATE station_visits SET ended_at_ms = ? WHERE (station_id = ? OR device_id = ?) AND ended_at_ms IS NULL",
                    [.int(now), .int(station), .int(deviceID)]))
            let expires = now + Self.visitSeconds * 1000
            let id = try await session.queryOne(
                SQL(
                    """
                    INSERT INTO station_visits (station_id, customer_id, device_id, opened_at_ms, expires_at_ms) \
                    VALUES (?, ?, ?, ?, ?) RETURNING id
                    """, [.int(station), .int(principal.customerID.rawValue), .int(deviceID), .int(now), .int(expires)]))!.int(0)
            try await audit("ok", station: station, in: session)
            return StationVisit(id: id, stationID: station, customerID: principal.customerID, deviceID: deviceID, expiresAtMillis: expires)
        }
        guard let visit, let station = try await station(visit.stationID) else { try await refuse(invalid, station: stationID) }
        return (station, visit)
    }

    /// The visit open at `station` now, if any.
    public func visit(at station: Station) async throws -> StationVisit? {
        let now = clock.unixMillis
        return try await database.read { session in
            try await session.queryOne(
                SQL(
                    """
                    SELECT v.id, v.customer_id, v.device_id, v.expires_at_ms FROM station_visits v JOIN devices d ON d.id = v.device_id \
                    WHERE v.station_id = ? AND v.ended_at_ms IS NULL AND v.expires_at_ms > ? AND d.status = 'active' ORDER BY v.id DESC LIMIT 1
                    """, [.int(station.id), .int(now)]))
        }.map {
            StationVisit(id: $0.int(0), stationID: station.id, customerID: CustomerID($0.int(1)), deviceID: $0.int(2), expiresAtMillis: $0.int(3))
        }
    }

    /// The customer of a visit as the services see them: level 2, their device, at the station.
    public func principal(of visit: StationVisit) async throws -> Principal {
        guard let contract = try await auth.contract(of: visit.customerID) else {
            throw DomainError(.unauthorized, "This visit has ended.")
        }
        var principal = Principal(customerID: visit.customerID, contract: contract, level: 2, deviceID: visit.deviceID)
        principal.stationID = visit.stationID
        return principal
    }

    /// Ends the visit ("done" on the station, or the customer walked away and it timed out).
    public func end(_ visit: StationVisit, reason: String) async throws {
        let now = clock.unixMillis
        let dialect = dialect
        try await database.transaction { session in
            guard
                try await session.queryOne(
                    SQL("UPDATE station_visits SET ended_at_ms = ? WHERE id = ? AND ended_at_ms IS NULL RETURNING id", [.int(now), .int(visit.id)]))
                    != nil
            else { return }
            try await AuditLog.append(
                AuditEntry(
                    atMillis: now, actor: "customer:\(visit.customerID)", action: "station.end", subject: "station:\(visit.stationID)",
                    device: "device:\(visit.deviceID)", details: reason), dialect: dialect, in: session)
        }
    }
}
