import Foundation
import Testing
import TresorCore
import TresorDomain
import TresorLedger
import TresorTestSupport

@testable import TresorPostgres

/// The server's answer deadline on PostgreSQL (`PostgresDatabase.answerDeadline`): a statement
/// the database does not answer, and the callers waiting behind it, hear `DatabaseUnavailable`
/// (503, retried by the client) instead of waiting for ever, as they did with PostgreSQL frozen.
/// `pg_sleep(60)` stands for the statement that gets no answer; each test's deadline is a second.
@Suite("PostgreSQL answer deadline", .enabled(if: TestStore.available.contains(.postgres)))
struct PostgresAnswerDeadlineTests {
    static let deadline: Duration = .seconds(1)
    /// Far below the statement's 60 s, far above the deadline: no clock race on a loaded CI.
    static let answeredWithin: Duration = .seconds(30)

    /// A handle with the deadline on a new migrated test database.
    func database(maximumConnections: Int = 20) async throws -> PostgresDatabase {
        let made = try await TestStore.postgres.makeDatabase() as! PostgresDatabase
        try await made.close()
        return try PostgresDatabase(url: made.url, maximumConnections: maximumConnections, answerDeadline: Self.deadline)
    }

    /// Runs `work`, expecting `DatabaseUnavailable` well before the 60 s statement could end.
    func expectCutOff(_ what: String, _ work: @escaping @Sendable () async throws -> Void) async {
        let start = ContinuousClock.now
        do {
            try await work()
            Issue.record("\(what): answered as if the statement had ended")
        } catch is DatabaseUnavailable {
            #expect(ContinuousClock.now - start < Self.answeredWithin, "\(what): cut off at the deadline, not when the statement ended")
        } catch {
            Issue.record("\(what): \(String(reflecting: error)), not DatabaseUnavailable")
        }
    }

    @Test("a read without an answer is cut off and its connection closed; the next read is answered")
    func unansweredRead() async throws {
        let database = try await database()
        await expectCutOff("the read") { _ = try await database.read { try await $0.query("SELECT pg_sleep(60)") } }
        #expect(database.connections.openCount == 0, "the connection nobody answered is closed, not handed out again")
        let one = try await retryingUnavailable { try await database.read { try await $0.queryOne("SELECT 1") } }
        #expect(one?.int(0) == 1)
        try await database.close()
    }

    @Test("work that never ends even when its connection is closed (a statement PostgresNIO lost) still has its caller answered")
    func workThatNeverEnds() async throws {
        let database = try await database(maximumConnections: 1)
        await expectCutOff("the read") {
            _ = try await database.read { _ in
                // Stands for a statement written as its connection closed: it is never answered.
                try? await Task.sleep(for: .seconds(60))
                return 1
            }
        }
        // why retried: a new connection on a loaded machine may take longer than the second allowed.
        let one = try await retryingUnavailable { try await database.read { try await $0.queryOne("SELECT 1") } }
        #expect(one?.int(0) == 1, "the place of the abandoned work is free again")
        try await database.close()
    }

    @Test("behind a stuck transaction: a read waiting for the one connection and a transaction waiting for its turn are cut off too")
    func waitingCallers() async throws {
        let database = try await database(maximumConnections: 1)
        #expect(try PostgresDatabase.transactionLimit(url: database.url, maximumConnections: 1) == 1)
        // why one arrival for all three (as for requests that came together): their deadlines
        // pass at the same look of the watchdog, so the connection it closes under the stuck
        // one is not handed to a waiter that is still in time, which would then be answered.
        let arrived = ContinuousClock.now
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await expectCutOff("the stuck transaction") {
                    try await RequestArrival.$instant.withValue(arrived) {
                        try await database.transaction { try await $0.execute("SELECT pg_sleep(60)") }
                    }
                }
            }
            // why a pause: the others must come while the first holds the connection and the turn.
            try? await Task.sleep(for: .milliseconds(200))
            group.addTask {
                await expectCutOff("the waiting read") {
                    try await RequestArrival.$instant.withValue(arrived) { _ = try await database.read { try await $0.query("SELECT 1") } }
                }
            }
            group.addTask {
                await expectCutOff("the waiting transaction") {
                    try await RequestArrival.$instant.withValue(arrived) { try await database.transaction { try await $0.execute("SELECT 1") } }
                }
            }
        }
        let one = try await retryingUnavailable { try await database.read { try await $0.queryOne("SELECT 1") } }
        #expect(one?.int(0) == 1, "the handle works again")
        try await database.close()
    }

    @Test("the deadline counts from the request's arrival: work for a request that waited past it is not begun")
    func fromArrival() async throws {
        let database = try await database()
        let arrived = ContinuousClock.now - .seconds(5)
        await expectCutOff("a read for a late request") {
            try await RequestArrival.$instant.withValue(arrived) { _ = try await database.read { try await $0.query("SELECT 1") } }
        }
        let one = try await retryingUnavailable {
            try await RequestArrival.$instant.withValue(.now) { try await database.read { try await $0.queryOne("SELECT 1") } }
        }
        #expect(one?.int(0) == 1, "a request that just arrived is answered")
        // Without a deadline (a command), nothing is late.
        let unlimited = try PostgresDatabase(url: database.url)
        let stillOne = try await RequestArrival.$instant.withValue(arrived) { try await unlimited.read { try await $0.queryOne("SELECT 1") } }
        #expect(stillOne?.int(0) == 1)
        try await unlimited.close()
        try await database.close()
    }

    @Test("an event stream opened by a request keeps reading long after the request's deadline")
    func liveInboxOutlivesItsRequest() async throws {
        let fixture = try await PaymentFixture.make(.postgres)
        // why longer than the other tests' second: opening the stream reads within the request's
        // deadline, and with the whole suite on 2 cores that read once took longer than a second.
        let deadline = Duration.seconds(4)
        let served = try PostgresDatabase(url: (fixture.services.database as! PostgresDatabase).url, answerDeadline: deadline)
        let services = Services(database: served, clock: fixture.clock, auth: LedgerFixture.fastAuth)
        // why a keep-alive of a second: a read the loaded machine did not answer in time is tried
        // again at the next one.
        let (events, stop) = try await retryingUnavailable {
            try await RequestArrival.$instant.withValue(.now) {
                try await services.messages.live(for: fixture.principal.customerID, after: nil, keepAlive: .seconds(1))
            }
        }
        defer { stop() }
        // Past the deadline on purpose: what is tested is a read after it.
        try await Task.sleep(for: deadline + .seconds(2))
        let render: @Sendable (CertificateContent) -> [UInt8] = { _ in Array("%PDF-test".utf8) }
        _ = try await fixture.services.certificates.issue(
            .balanceConfirmation, fields: ["date": "2026-11-20"], language: "de", for: fixture.principal, render: render)
        let message = await LiveInboxTests.messages(events, count: 1, within: 120).first
        #expect(message?.category == .documents, "the message committed after the deadline reached the stream")
    }

    @Test("a LISTEN connection whose server process stops answering is replaced: another instance's notification still arrives")
    func silentListenConnection() async throws {
        let listening = try await database()
        let other = try PostgresDatabase(url: listening.url, maximumConnections: 1)
        let payloads = try await listening.listen("deadline_test")
        // The one client backend on this database besides `other`'s own: the LISTEN connection
        // (nothing else was read through `listening`).
        let pid = try #require(
            try await other.read {
                try await $0.queryOne(
                    """
                    SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend' \
                    AND pid <> pg_backend_pid()
                    """)
            }?.int(0))
        // why a stopped backend: its connection stays open and silent, as one cut off by a
        // network partition does; a terminated one would say goodbye.
        try #require(kill(pid_t(pid), SIGSTOP) == 0, "stop the LISTEN connection's server process (errno \(errno))")
        defer { kill(pid_t(pid), SIGCONT) }
        let arrived = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await payload in payloads where payload == "hello" { return true }
                return false
            }
            group.addTask {
                let end = ContinuousClock.now + Self.answeredWithin
                while ContinuousClock.now < end, !Task.isCancelled {
                    _ = try? await other.read { try await $0.query("SELECT pg_notify('deadline_test', 'hello')") }
                    try? await Task.sleep(for: .milliseconds(500))
                }
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        #expect(arrived, "a notification sent after the LISTEN connection went silent reached the listener")
        try await other.close()
        try await listening.close()
    }
}
