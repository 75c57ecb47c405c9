import Foundation
import Hummingbird
import TresorCore
import TresorDomain

/// The public finder (`GET /v1/branches`, `/v1/branches/{id}`, `/v1/branches/{id}/slots`) and
/// the staff's branch management (`/v1/staff/branches…`).
struct BranchRoutes {
    let branches: BranchService
    let appointments: AppointmentService
    let clock: any Clock

    func search(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let lat = request.text("lat")
        let lon = request.text("lon")
        guard (lat == nil) == (lon == nil) else {
            throw DomainError(.missingField, field: lat == nil ? "lat" : "lon", "Give both lat and lon, or neither.")
        }
        let near = try lat.map { try GeoPoint(latitude: $0, longitude: lon!) }
        let kind = try request.text("kind").map { text in
            guard let kind = Branch.Kind(rawValue: text) else { throw DomainError(.invalidParameter, field: "kind", "kind is branch or atm.") }
            return kind
        }
        let service = try request.text("service").map { text in
            guard let service = Branch.Service(rawValue: text) else {
                throw DomainError(.invalidParameter, field: "service", "service is advice, cash_desk, foreign_cash or safe_deposit.")
            }
            return service
        }
        let openNow = try request.text("open_now").map { text in
            guard ["true", "false"].contains(text) else { throw DomainError(.invalidParameter, field: "open_now", "open_now is true or false.") }
            return text == "true"
        }
        let limit = try request.integer("limit", default: 20, range: 1...200)
        let now = clock.now()
        let found = try await branches.search(near: near, kind: kind, openNow: openNow ?? false, service: service, limit: limit, at: now)
        struct Body: Encodable { let branches: [BranchDTO] }
        return try JSON.response(Body(branches: found.map { BranchDTO($0, now: now) }))
    }

    func show(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let id = try context.parameters.number("id", what: "branch")
        let now = clock.now()
        let (status, week) = try await branches.details(id, at: now)
        struct Day: Encodable {
            let date: String
            let hours: [String]
            let closed: String?
        }
        struct Body: Encodable {
            let branch: BranchDTO
            let week: [Day]
        }
        return try JSON.response(
            Body(
                branch: BranchDTO(status, now: now),
                week: week.map { Day(date: $0.date.description, hours: $0.intervals.map { "\($0.opens)-\($0.closes)" }, closed: $0.closed) }))
    }

    func slots(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let id = try context.parameters.number("id", what: "branch")
        let today = BankCalendar().date(of: clock.now())
        let from = try request.date("from") ?? today
        let to = try request.date("to") ?? from.adding(days: 13)
        if let topic = request.text("topic"), Appointment.Topic(rawValue: topic) == nil {
            throw DomainError(.invalidParameter, field: "topic", "topic is account, financing, investment, foreign_cash_pickup or other.")
        }
        let branch = try await branches.branch(id)
        guard branch.kind == .branch else { throw DomainError(.notFound, field: "id", "Appointments are at branches.") }
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = branch.timeZone
        struct Slot: Encodable {
            let start: String
            let advisors: Int
        }
        struct Body: Encodable { let slots: [Slot] }
        let slots = try await appointments.slots(branch: id, from: from, to: to)
        return try JSON.response(Body(slots: slots.map { Slot(start: formatter.string(from: $0.start), advisors: $0.advisors.count) }))
    }

    // MARK: staff

    struct BranchInput: Decodable {
        let code: String
        let kind: String
        let name: String
        let street: String
        let postcode: String
        let town: String
        let lat: String
        let lon: String
        let phone: String?
        let services: [String]?
        let hours: String?
        let insideBranch: String?
        let currencies: [String]?
        let deposit: Bool?

        enum CodingKeys: String, CodingKey {
            case code, kind, name, street, postcode, town, lat, lon, phone, services, hours, currencies, deposit
            case insideBranch = "inside_branch"
        }

        func branch() throws -> Branch {
            guard let kind = Branch.Kind(rawValue: kind) else { throw DomainError(.invalidParameter, field: "kind", "kind is branch or atm.") }
            let services = try (services ?? []).map { text in
                guard let service = Branch.Service(rawValue: text) else {
                    throw DomainError(.invalidParameter, field: "services", "Unknown service \(text.prefix(20)).")
                }
                return service
            }
            let currencies = try (currencies ?? []).map { code in
                guard let currency = Currency(code: code) else {
                    throw DomainError(.unsupportedCurrency, field: "currencies", "Unsupported currency \(code.prefix(8)).")
                }
                return currency
            }
            let parent = try insideBranch.map { text in
                guard let id = Int64(text) else { throw DomainError(.invalidParameter, field: "inside_branch", "inside_branch is a branch id.") }
                return id
            }
            let hours = try hours.map { try WeeklyHours(parsing: $0) } ?? (kind == .atm && parent == nil ? .alwaysOpen : nil)
            guard let hours else { throw DomainError(.missingField, field: "hours", "A branch has opening hours.") }
            return Branch(
                code: code, kind: kind, name: name, street: street, postcode: postcode, town: town,
                position: try GeoPoint(latitude: lat, longitude: lon),
                phone: phone, services: services, hours: hours, parentID: parent, currencies: currencies, deposit: deposit ?? false)
        }
    }

    func save(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let staff = try context.requireStaff()
        let input = try JSON.decode(BranchInput.self, from: try await JSON.body(request))
        let saved = try await branches.save(try input.branch(), staff: staff)
        let (status, _) = try await branches.details(saved.id)
        return try JSON.response(["branch": BranchDTO(status, now: clock.now())], status: .created)
    }

    func close(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let staff = try context.requireStaff()
        let id = try context.parameters.number("id", what: "branch")
        struct Input: Decodable {
            let date: String
            let reason: String
        }
        let input = try JSON.decode(Input.self, from: try await JSON.body(request))
        try await branches.close(id, on: try LocalDate(parsing: input.date), reason: input.reason, staff: staff)
        return try JSON.response(["closed": input.date], status: .created)
    }

    func setStock(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let staff = try context.requireStaff()
        let id = try context.parameters.number("id", what: "branch")
        struct Input: Decodable { let amount: Money }
        let input = try JSON.decode(Input.self, from: try await JSON.body(request))
        try await branches.setStock(id, input.amount, staff: staff)
        return try JSON.response(["stock": try await branches.stock(id)])
    }

    func staffDay(_ request: Request, context: TresorRequestContext) async throws -> Response {
        _ = try context.requireStaff()
        guard let branchText = request.text("branch"), let branch = Int64(branchText) else {
            throw DomainError(.missingField, field: "branch", "Say which branch (its id).")
        }
        let date = try request.date("date") ?? BankCalendar().date(of: clock.now())
        let day = try await appointments.day(branch: branch, date: date)
        struct Item: Encodable {
            let appointment: AppointmentDTO
            let customer: String
        }
        let zone = try await branches.branch(branch).timeZone
        return try JSON.response([
            "appointments": day.map { Item(appointment: AppointmentDTO($0.appointment, timeZone: zone), customer: $0.customer) }
        ])
    }

    func decide(confirm: Bool) -> @Sendable (Request, TresorRequestContext) async throws -> Response {
        { request, context in
            let staff = try context.requireStaff()
            let id = try context.parameters.number("id", what: "appointment")
            struct Input: Decodable { let message: String? }
            let buffer = try await JSON.body(request)
            let input = buffer.readableBytes == 0 ? Input(message: nil) : try JSON.decode(Input.self, from: buffer)
            let decided = try await appointments.decide(id, confirm: confirm, message: input.message ?? "", staff: staff)
            let zone = try await branches.branch(decided.branchID).timeZone
            return try JSON.response(["appointment": AppointmentDTO(decided, timeZone: zone)])
        }
    }
}
