import Foundation
import Testing
import TresorCore
import TresorDomain
import TresorLedger
import TresorTestSupport

@Suite("Live inbox: a message committed by another instance reaches an open stream")
struct LiveInboxTests {
    /// The first `count` messages of `events` that arrive before `seconds` pass (fewer if they do
    /// not). The stream is read once: an AsyncStream has one reader, and cancelling it ends it.
    /// why: the deadline only keeps a lost message from hanging the run. It is generous because CI
    /// runs every suite at once on two cores; how fast a message arrives is not asserted here.
    static func messages(_ events: AsyncStream<InboxEvent>, count: Int, within seconds: Double = 20) async -> [CustomerMessage] {
        await withTaskGroup(of: [CustomerMessage]?.self) { group in
            group.addTask {
                var found: [CustomerMessage] = []
                for await event in events {
                    if case .message(let message) = event { found.append(message) }
                    if found.count == count { break }
                }
                return found
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(seconds))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? []
        }
    }

    @Test(
        "only the customer's own, resumable after the last id; PostgreSQL across two instances",
        arguments: StoreKind.available)
    func deliveredAcrossInstances(kind: StoreKind) async throws {
        let fixture = try await PaymentFixture.make(kind)
        let listening = fixture.services
        // The other instance: its own connection pool on the same PostgreSQL database. SQLite is
        // one process by design, so there it is the same instance.
        let writing =
            kind == .postgres
            ? Services(database: try kind.openAgain(listening.database), clock: fixture.clock, auth: LedgerFixture.fastAuth) : listening
        let other = try await listening.bank.createCustomer(name: "Someone Else")
        let render: @Sendable (CertificateContent) -> [UInt8] = { _ in Array("%PDF-test".utf8) }

        let (events, stop) = try await listening.messages.live(for: fixture.principal.customerID, after: nil)
        defer { stop() }
        // Another customer's message first: it must not reach this stream.
        _ = try await writing.certificates.issue(
            .accountOpening, fields: ["kind": "savings", "currency": "CHF"], language: "de",
            for: Principal(customerID: other, contract: "x", level: 2), render: render)
        _ = try await writing.certificates.issue(
            .balanceConfirmation, fields: ["date": "2026-11-20"], language: "de", for: fixture.principal, render: render)
        let message = try #require(await Self.messages(events, count: 1).first, "the message arrived")
        #expect(message.subject == "Your document is ready" && message.category == .documents)
        #expect(message.body.contains("balance confirmation"), "the customer's own message, not the other's")

        // A client that reconnects with the last id it saw gets what came meanwhile, in order.
        _ = try await writing.certificates.issue(
            .balanceConfirmation, fields: ["date": "2026-11-19"], language: "de", for: fixture.principal, render: render)
        _ = try await writing.certificates.issue(
            .accountOpening, fields: ["kind": "current", "currency": "EUR"], language: "de", for: fixture.principal, render: render)
        let (resumed, stopResumed) = try await listening.messages.live(for: fixture.principal.customerID, after: message.id)
        defer { stopResumed() }
        let backlog = await Self.messages(resumed, count: 2)
        #expect(backlog.count == 2)
        #expect(backlog.map(\.id) == backlog.map(\.id).sorted() && backlog.allSatisfy { $0.id > message.id })
        if kind == .postgres {
            // The LISTEN connection dies (a failover, an administrator): a message committed while
            // it is down still arrives once it is back (the listener is told to look for itself).
            let (later, stopLater) = try await listening.messages.live(for: fixture.principal.customerID, after: nil)
            defer { stopLater() }
            let terminated = try await writing.database.read { session in
                try await session.query(
                    SQL("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()")
                ).count
            }
            #expect(terminated >= 1, "a LISTEN connection was there to cut")
            _ = try await writing.certificates.issue(
                .balanceConfirmation, fields: ["date": "2026-11-18"], language: "de", for: fixture.principal, render: render)
            let recovered = await Self.messages(later, count: 1)
            #expect(recovered.count == 1, "the message committed while LISTEN was down arrived after it came back")
            try await writing.database.close()
        }
    }

    @Test("a read the database refused is tried again at the next keep-alive: the message still arrives")
    func refusedReadTriedAgain() async throws {
        let fixture = try await PaymentFixture.make(.sqlite)
        let counting = CountingDatabase(fixture.services.database)
        let services = Services(database: counting, clock: fixture.clock, auth: LedgerFixture.fastAuth)
        let (events, stop) = try await services.messages.live(for: fixture.principal.customerID, after: nil, keepAlive: .milliseconds(200))
        defer { stop() }
        // Once the stream has read its backlog (its second read, after the latest id), the read
        // the next message wakes is refused; nothing but keep-alives wakes the stream afterwards.
        let end = ContinuousClock.now + .seconds(60)
        while counting.reads < 2, ContinuousClock.now < end { try await Task.sleep(for: .milliseconds(5)) }
        try #require(counting.reads == 2, "the stream read its backlog")
        counting.refuseReads(1)
        let render: @Sendable (CertificateContent) -> [UInt8] = { _ in Array("%PDF-test".utf8) }
        _ = try await fixture.services.certificates.issue(
            .balanceConfirmation, fields: ["date": "2026-11-20"], language: "de", for: fixture.principal, render: render)
        let message = await Self.messages(events, count: 1).first
        #expect(message?.category == .documents, "the message committed while the read was refused reached the stream")
    }

    @Test("messages are written in the customer's language; a muted category and payments below the threshold stay in the inbox, quiet")
    func settingsDecideWhatNotifies() async throws {
        let fixture = try await PaymentFixture.make(.sqlite)
        let services = fixture.services
        let customer = fixture.principal.customerID
        try await services.messages.setLanguage("fr", of: customer)
        try await services.messages.setNotificationSettings(NotificationSettings(muted: [.documents], thresholdMinor: 10_000), of: customer)
        #expect(try await services.messages.notificationSettings(of: customer) == NotificationSettings(muted: [.documents], thresholdMinor: 10_000))
        await #expect(throws: DomainError.self) { try await services.messages.setLanguage("xx", of: customer) }
        await #expect(throws: DomainError.self) {
            try await services.messages.setNotificationSettings(NotificationSettings(thresholdMinor: -1), of: customer)
        }

        let (events, stop) = try await services.messages.live(for: customer, after: nil)
        defer { stop() }
        let render: @Sendable (CertificateContent) -> [UInt8] = { _ in Array("%PDF-test".utf8) }
        _ = try await services.certificates.issue(
            .balanceConfirmation, fields: ["date": "2026-11-20"], language: "fr", for: fixture.principal, render: render)
        let due = LocalDate(year: 2026, month: 11, day: 24)!
        try await fixture.pay(fixture.ibanRequest(5_000, date: due))
        try await fixture.pay(fixture.ibanRequest(15_000, date: due))
        fixture.clock.advance(seconds: 86_400)
        #expect(try await services.scheduler.runDue().executed == 2)

        // The stream delivers in order: the first message on it is the third posted, so the two
        // quiet ones before it were left out.
        let notified = await Self.messages(events, count: 1)
        #expect(notified.count == 1, "the payment above the threshold notifies")
        #expect(notified.first?.subject == "Paiement exécuté")
        #expect(notified.first?.body.contains("150,00\u{00A0}CHF") == true, "\(notified.first?.body ?? "")")
        let inbox = try await services.messages.messages(of: customer)
        #expect(inbox.count == 3, "quiet messages are in the inbox all the same")
        #expect(inbox.map(\.subject).sorted() == ["Paiement exécuté", "Paiement exécuté", "Votre document est prêt"])
        #expect(inbox.contains { $0.body.contains("« attestation de solde »") })
    }
}
