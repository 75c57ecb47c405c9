import Foundation
import Hummingbird
import TresorCore
import TresorDomain

struct AppointmentDTO: Encodable {
    let id: String
    let branchID: String
    let advisor: String
    let start: String
    let end: String
    let topic: String
    let note: String
    let status: String
    let message: String?

    init(_ appointment: Appointment, timeZone: TimeZone) {
        id = String(appointment.id)
        branchID = String(appointment.branchID)
        advisor = appointment.advisorName
        start = BranchDTO.isoLocal(appointment.start, timeZone)
        end = BranchDTO.isoLocal(appointment.end, timeZone)
        topic = appointment.topic.rawValue
        note = appointment.note
        status = appointment.status.rawValue
        message = appointment.staffMessage
    }

    enum CodingKeys: String, CodingKey {
        case id, advisor, start, end, topic, note, status, message
        case branchID = "branch_id"
    }
}

/// `POST/GET /v1/appointments`, `PATCH/DELETE /v1/appointments/{id}` and the `.ics` file.
struct AppointmentRoutes {
    let appointments: AppointmentService
    let branches: BranchService

    struct BookInput: Decodable {
        let branch: String
        let start: String
        let topic: String
        let note: String?
    }

    static func instant(_ text: String, field: String = "start") throws -> Date {
        let formatter = ISO8601DateFormatter()
        guard text.count <= 40, let date = formatter.date(from: text) else {
            throw DomainError(.invalidDate, field: field, "Times are ISO 8601 with an offset, like 2026-11-24T10:00:00+01:00.")
        }
        return date
    }

    static func topic(_ text: String) throws -> Appointment.Topic {
        guard let topic = Appointment.Topic(rawValue: text) else {
            throw DomainError(.invalidParameter, field: "topic", "topic is account, financing, investment, foreign_cash_pickup or other.")
        }
        return topic
    }

    func book(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let input = try JSON.decode(BookInput.self, from: try await JSON.body(request))
        guard let branchID = Int64(input.branch) else { throw DomainError(.notFound, field: "branch", "No such branch.") }
        let booked = try await appointments.book(
            branch: branchID, start: try Self.instant(input.start), topic: try Self.topic(input.topic), note: input.note ?? "", by: principal)
        return try await respond(booked, status: .created)
    }

    func respond(_ appointment: Appointment, status: HTTPResponse.Status = .ok) async throws -> Response {
        let zone = try await branches.branch(appointment.branchID).timeZone
        return try JSON.response(["appointment": AppointmentDTO(appointment, timeZone: zone)], status: status)
    }

    func list(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        var items: [AppointmentDTO] = []
        for appointment in try await appointments.appointments(of: principal) {
            items.append(AppointmentDTO(appointment, timeZone: try await branches.branch(appointment.branchID).timeZone))
        }
        return try JSON.response(["appointments": items])
    }

    func reschedule(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let id = try context.parameters.number("id", what: "appointment")
        _ = try await appointments.appointment(id, of: principal)
        struct Input: Decodable { let start: String }
        let input = try JSON.decode(Input.self, from: try await JSON.body(request))
        return try await respond(try await appointments.reschedule(id, to: try Self.instant(input.start), by: principal))
    }

    func cancel(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let id = try context.parameters.number("id", what: "appointment")
        return try await respond(try await appointments.cancel(id, by: principal))
    }

    func calendar(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let id = try context.parameters.number("id", what: "appointment")
        return try await Self.calendarFile(try await appointments.appointment(id, of: principal), branches: branches, host: request.head.authority)
    }

    /// The appointment as `text/calendar`, offered as a download named after it.
    static func calendarFile(_ appointment: Appointment, branches: BranchService, host: String?) async throws -> Response {
        let branch = try await branches.branch(appointment.branchID)
        let text = CalendarFile.event(
            uid: "appointment-\(appointment.id)@\((host ?? "tresor").split(separator: ":").first ?? "tresor")", start: appointment.start,
            end: appointment.end, stamp: Date(), summary: "\(branch.name): \(appointment.topic.rawValue.replacingOccurrences(of: "_", with: " "))",
            location: "\(branch.name), \(branch.street), \(branch.postcode) \(branch.town)",
            description: "With \(appointment.advisorName).\(appointment.note.isEmpty ? "" : " \(appointment.note)")",
            confirmed: appointment.status == .confirmed, cancelled: [.cancelled, .declined].contains(appointment.status))
        var headers = HTTPFields()
        headers[.contentType] = "text/calendar; charset=utf-8"
        headers[.contentDisposition] = "attachment; filename=\"appointment-\(appointment.id).ics\""
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
