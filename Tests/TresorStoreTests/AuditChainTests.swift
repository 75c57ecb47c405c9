import Foundation
import Testing
import TresorCore
import TresorDomain
import TresorLedger
import TresorTestSupport

/// The hash chain of the audit log when several server instances append at once: each appender
/// reads the chain's end under the head row's lock (`AuditLog.chainEnd`), so no two entries
/// chain to the same predecessor.
@Suite("Audit chain under concurrent appends")
struct AuditChainTests {
    @Test("two instances appending single entries and pairs at once leave one unbroken chain", arguments: TestStore.available)
    func twoInstances(_ store: TestStore) async throws {
        let first = try await store.makeDatabase()
        let second = try store.openAgain(first)
        let clock = ManualClock(PaymentFixture.start)
        let logs = [first, second].map { Services(database: $0, clock: clock, auth: LedgerFixture.fastAuth).audit }
        let awkward = ["", "Zahlung \"Miete\" 11/2026", "Café Zürich — ☕️", "עברית", "line\nbreak"]
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<60 {
                group.addTask {
                    let entry = AuditEntry(
                        atMillis: 1_795_552_625_314 + Int64(index), actor: "customer:\(index % 7)",
                        contract: index % 3 == 0 ? nil : "2000000\(index % 9)",
                        action: "payment.create", subject: index % 4 == 0 ? nil : "payment:\(index)", device: index % 5 == 0 ? "device:1" : nil,
                        address: "127.0.0.1", result: "ok", details: awkward[index % awkward.count])
                    let database = index % 2 == 0 ? first : second
                    if index % 10 == 9 {
                        // A pair in one transaction: one INSERT of both.
                        var signed = entry
                        signed.action = "payment.sign"
                        let pair = [entry, signed]
                        try await database.transaction { session in
                            try await AuditLog.append(pair, dialect: database.dialect, in: session)
                        }
                    } else {
                        try await logs[index % 2].append(entry)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await logs[1].verify() == nil, "the chain holds")
        let count = try await first.read { session in try await session.queryOne(SQL("SELECT count(*) FROM audit_log"))!.int(0) }
        #expect(count == 66, "54 single entries and 6 pairs")
        // Tampering with an entry is found.
        try await first.transaction { session in
            try await session.execute(SQL("UPDATE audit_log SET details = 'changed' WHERE id = (SELECT min(id) + 3 FROM audit_log)"))
        }
        #expect(try await logs[0].verify() != nil)
    }

    @Test(
        "no entry without the head row: on PostgreSQL the action fails and keeps nothing; SQLite, one writer, writes the head again",
        arguments: TestStore.available)
    func headMissing(_ store: TestStore) async throws {
        let database = try await store.makeDatabase()
        let log = Services(database: database, clock: ManualClock(PaymentFixture.start), auth: LedgerFixture.fastAuth).audit
        try await log.append(AuditEntry(atMillis: 1_795_552_625_314, actor: "system", action: "test.first"))
        try await database.transaction { session in try await session.execute(SQL("DELETE FROM audit_head")) }
        let second = AuditEntry(atMillis: 1_795_552_625_315, actor: "system", action: "test.second")
        let count = { try await database.read { session in try await session.queryOne(SQL("SELECT count(*) FROM audit_log"))!.int(0) } }
        if store == .postgres {
            await #expect(throws: (any Error).self) { try await log.append(second) }
            #expect(try await count() == 1, "the refused entry is not written")
            try await database.transaction { session in
                try await session.execute(
                    SQL("INSERT INTO audit_head (id, last_id, last_hash) SELECT 1, id, hash FROM audit_log ORDER BY id DESC LIMIT 1"))
            }
        }
        try await log.append(second)
        #expect(try await count() == 2)
        #expect(try await log.verify() == nil, "the chain holds")
    }

    @Test(
        "PostgreSQL: the audit hash's field function is inlined where it is called, not run as a call per field (migration 19)",
        .enabled(if: TestStore.available.contains(.postgres)))
    func auditFieldInlined() async throws {
        let database = try await TestStore.postgres.makeDatabase()
        // why a column, not a constant: called on a constant, the old (IMMUTABLE) definition was
        // folded to its result while planning and left no call to see either.
        let plan = try await database.read { session in
            try await session.query(SQL("EXPLAIN (VERBOSE) SELECT tresor_audit_field(relname::text) FROM pg_class"))
        }.map { $0.text(0) }.joined(separator: "\n")
        #expect(plan.contains("convert_to"), "the function's body stands in the plan")
        #expect(!plan.contains("tresor_audit_field"), "no call of the function is left: \(plan)")
    }
}
