import Foundation
import Hummingbird
import TresorCore
import TresorDomain

/// Booking an appointment (`/appointments/new`), the customer's appointments with their
/// calendar files, and cancelling.
extension WebApp {
    func registerAppointments(on router: Router<TresorRequestContext>) {
        router.get("/appointments/new", use: bookingForm)
        router.post("/appointments", use: bookAppointment)
        router.get("/appointments", use: appointmentList)
        router.post("/appointments/{id}/cancel", use: cancelAppointment)
        router.get("/appointments/{id}/calendar.ics", use: appointmentCalendar)
    }

    /// `Tue 24.11.2026 10:00` in the page's language and the branch's time zone.
    func when(_ instant: Date, timeZone: TimeZone, page: Page) -> (day: String, time: String) {
        let calendar = BankCalendar(timeZone: timeZone)
        let date = calendar.date(of: instant)
        let seconds = Int(instant.timeIntervalSince1970) + timeZone.secondsFromGMT(for: instant)
        let minutes = ((seconds % 86_400) + 86_400) % 86_400 / 60
        let time = TimeOfDay(minutes: minutes)!.description
        return ("\(page.strings["day_\(date.isoWeekday)"] ?? "") \(page.language.format(date))", time)
    }

    func bookingForm(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (_, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var page = page(request, csrf: WebSupport.csrfToken(forSession: token))
        page.values["replace"] = request.text("replace").flatMap { Int64($0) }.map(String.init)
        try await fillBooking(
            &page, branch: request.text("branch").flatMap { Int64($0) }, topic: request.text("topic"),
            // why: a GET form sends spaces as "+", which the query parser leaves as they are.
            note: (request.text("note") ?? "").replacingOccurrences(of: "+", with: " "))
        return render("book", page)
    }

    func fillBooking(_ page: inout Page, branch chosen: Int64?, topic: String?, note: String, start: String? = nil) async throws {
        let strings = page.strings
        let branches = try await services.branches.all().filter { $0.kind == .branch && $0.services.contains(.advice) }
        let branch = branches.first { $0.id == chosen }
        page.values["branches"] = branches.map { ["id": String($0.id), "name": $0.name, "selected": $0.id == chosen] }
        page.values["topics"] = Appointment.Topic.allCases.map {
            ["value": $0.rawValue, "label": strings["topic_\($0.rawValue)"] ?? $0.rawValue, "selected": $0.rawValue == (topic ?? "account")]
        }
        page.values["note"] = String(note.prefix(500))
        guard let branch else { return }
        page.values["branch"] = ["id": String(branch.id), "name": branch.name]
        let today = services.today
        let slots = try await services.appointments.slots(branch: branch.id, from: today, to: today.adding(days: 13))
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = branch.timeZone
        var days: [(String, [[String: Any]])] = []
        for slot in slots {
            let (day, time) = when(slot.start, timeZone: branch.timeZone, page: page)
            let value = formatter.string(from: slot.start)
            let entry: [String: Any] = ["value": value, "time": time, "checked": value == start, "id": "slot-\(slot.start.timeIntervalSince1970)"]
            if days.last?.0 == day { days[days.count - 1].1.append(entry) } else { days.append((day, [entry])) }
        }
        // One day open at a time (the chosen slot's, else the first); the others fold away.
        let openDay = days.firstIndex { $0.1.contains { $0["checked"] as? Bool == true } } ?? 0
        page.values["days"] = days.prefix(8).enumerated().map { index, day -> [String: Any] in
            ["day": day.0, "slots": day.1, "open": index == openDay, "count": strings.text("appt_free", ["n": String(day.1.count)])]
        }
        page.values["has_slots"] = !slots.isEmpty
    }

    func bookAppointment(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var request = request
        let form = WebSupport.form(try await request.collectBody(upTo: 8 * 1024))
        guard checkCSRF(form, token: token) else { return await formExpired(request) }
        let branch = Int64(form["branch"] ?? "")
        do {
            guard let branch else { throw DomainError(.missingField, field: "branch", "Choose a branch.") }
            guard let start = form["start"], !start.isEmpty else { throw DomainError(.missingField, field: "start", "Choose a time.") }
            let instant = try AppointmentRoutes.instant(start)
            if let replace = form["replace"].flatMap({ Int64($0) }) {
                let moved = try await services.appointments.reschedule(replace, to: instant, by: principal)
                return WebSupport.redirect("/appointments?booked=\(moved.id)")
            }
            let booked = try await services.appointments.book(
                branch: branch, start: instant, topic: try AppointmentRoutes.topic(form["topic"] ?? ""), note: form["note"] ?? "", by: principal)
            return WebSupport.redirect("/appointments?booked=\(booked.id)")
        } catch let error as DomainError {
            var page = page(request, csrf: WebSupport.csrfToken(forSession: token))
            page.values["error"] = Self.message(for: error, strings: page.strings)
            page.values["replace"] = form["replace"].flatMap { Int64($0) }.map(String.init)
            try await fillBooking(&page, branch: branch, topic: form["topic"], note: form["note"] ?? "")
            return render("book", page, status: error.code == .slotTaken ? .conflict : .unprocessableContent)
        }
    }

    func appointmentList(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var page = page(request, csrf: WebSupport.csrfToken(forSession: token))
        let strings = page.strings
        if request.text("booked") != nil { page.values["notice"] = strings["appt_booked"] }
        if request.text("cancelled") != nil { page.values["notice"] = strings["appt_cancelled"] }
        let now = services.clock.now()
        var items: [[String: Any]] = []
        for appointment in try await services.appointments.appointments(of: principal) {
            let branch = try await services.branches.branch(appointment.branchID)
            let (day, time) = when(appointment.start, timeZone: branch.timeZone, page: page)
            let item: [String: Any] = [
                "id": String(appointment.id), "day": day, "time": time, "branch": branch.name, "advisor": appointment.advisorName,
                "move": "/appointments/new?branch=\(branch.id)&topic=\(appointment.topic.rawValue)&replace=\(appointment.id)&note="
                    + (appointment.note.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""),
                "topic": strings["topic_\(appointment.topic.rawValue)"] ?? appointment.topic.rawValue,
                "status": strings["appt_status_\(appointment.status.rawValue)"] ?? appointment.status.rawValue,
                "active": [.requested, .confirmed].contains(appointment.status) && appointment.start > now,
                "cancellable": [.requested, .confirmed].contains(appointment.status)
                    && appointment.start.timeIntervalSince(now) >= AppointmentService.changeDeadlineSeconds,
                "message": appointment.staffMessage ?? "", "note": appointment.note,
            ]
            items.append(item)
        }
        page.values["appointments"] = items
        return render("appointments", page)
    }

    func cancelAppointment(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var request = request
        let form = WebSupport.form(try await request.collectBody(upTo: 4 * 1024))
        guard checkCSRF(form, token: token) else { return await formExpired(request) }
        guard let id = context.parameters.get("id").flatMap({ Int64($0) }) else { return await notFound(request) }
        _ = try await services.appointments.cancel(id, by: principal)
        return WebSupport.redirect("/appointments?cancelled=1")
    }

    func appointmentCalendar(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (principal, _) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        guard let id = context.parameters.get("id").flatMap({ Int64($0) }) else { return await notFound(request) }
        let appointment = try await services.appointments.appointment(id, of: principal)
        return try await AppointmentRoutes.calendarFile(appointment, branches: services.branches, host: request.head.authority)
    }
}
