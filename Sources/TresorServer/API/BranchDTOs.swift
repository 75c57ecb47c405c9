import Foundation
import Hummingbird
import TresorCore
import TresorDomain

/// A branch or ATM in the finder's answers.
struct BranchDTO: Encodable {
    let id: String
    let code: String
    let kind: String
    let name: String
    let address: Address
    let lat: String
    let lon: String
    let phone: String?
    let services: [String]
    let currencies: [String]?
    let deposit: Bool?
    let insideBranch: String?
    let hours: String
    let openNow: Bool
    let nextChange: Change?
    let distanceMetres: Int?

    struct Address: Encodable {
        let street: String
        let postcode: String
        let town: String
    }
    struct Change: Encodable {
        let kind: String
        let at: String
        /// `closes 12:00`, `opens Mon 08:30` in the branch's local time.
        let text: String
    }

    init(_ item: BranchStatus, now: Date) {
        let branch = item.branch
        id = String(branch.id)
        code = branch.code
        kind = branch.kind.rawValue
        name = branch.name
        address = Address(street: branch.street, postcode: branch.postcode, town: branch.town)
        lat = branch.position.latitudeText
        lon = branch.position.longitudeText
        phone = branch.phone
        services = branch.services.map(\.rawValue)
        currencies = branch.kind == .atm ? branch.currencies.map(\.code) : nil
        deposit = branch.kind == .atm ? branch.deposit : nil
        insideBranch = branch.parentID.map(String.init)
        hours = item.hours.description
        openNow = item.status.isOpen
        distanceMetres = item.distance
        nextChange = item.status.nextChange.map { change in
            Change(
                kind: change.kind.rawValue, at: Self.isoLocal(change.at, branch.timeZone),
                text: Self.changeText(change, now: now, timeZone: branch.timeZone))
        }
    }

    /// ISO 8601 with the branch's offset (`2026-11-24T08:30:00+01:00`).
    static func isoLocal(_ date: Date, _ timeZone: TimeZone) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = timeZone
        return formatter.string(from: date)
    }

    /// `closes 12:00` today, `opens Mon 08:30` on another day.
    static func changeText(_ change: (kind: OpeningStatus.Change, at: Date, local: LocalDate, time: TimeOfDay), now: Date, timeZone: TimeZone)
        -> String
    {
        let today = BankCalendar(timeZone: timeZone).date(of: now)
        let day = change.local == today ? "" : WeeklyHours.englishDays[change.local.isoWeekday - 1] + " "
        return "\(change.kind.rawValue) \(day)\(change.time)"
    }

    enum CodingKeys: String, CodingKey {
        case id, code, kind, name, address, lat, lon, phone, services, currencies, deposit, hours
        case insideBranch = "inside_branch"
        case openNow = "open_now"
        case nextChange = "next_change"
        case distanceMetres = "distance_metres"
    }
}

extension WeeklyHours {
    static let englishDays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
}

extension Parameters {
    /// A numeric id from the path; anything else is as unknown as a missing one (404).
    func number(_ name: String, what: String) throws -> Int64 {
        guard let text = get(name), text.count <= 18, let value = Int64(text), value > 0 else {
            throw DomainError(.notFound, field: name, "No such \(what).")
        }
        return value
    }
}

extension Request {
    /// A bounded integer query parameter.
    func integer(_ name: String, default value: Int, range: ClosedRange<Int>) throws -> Int {
        guard let text = uri.queryParameters.get(name) else { return value }
        guard let number = Int(String(text)), range.contains(number) else {
            throw DomainError(.invalidParameter, field: name, "\(name) is \(range.lowerBound) to \(range.upperBound).")
        }
        return number
    }

    func text(_ name: String) -> String? { uri.queryParameters.get(name).map { String($0) } }
}
