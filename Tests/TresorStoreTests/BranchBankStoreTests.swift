import Foundation
import Testing
import TresorCore
import TresorDomain
import TresorLedger
import TresorTestSupport

/// A branch with one advisor and banknotes, added to a `PaymentFixture` bank.
struct BranchFixture {
    let payment: PaymentFixture
    let branch: Branch
    var services: Services { payment.services }

    static func make(_ kind: StoreKind) async throws -> BranchFixture {
        let payment = try await PaymentFixture.make(kind)
        let services = payment.services
        let branch = try await services.branches.save(
            Branch(
                code: "ZH-PARA", kind: .branch, name: "Zürich Paradeplatz", street: "Paradeplatz 8", postcode: "8001", town: "Zürich",
                position: try GeoPoint(latitude: "47.3698", longitude: "8.5391"), services: [.advice, .cashDesk, .foreignCash],
                hours: try WeeklyHours(parsing: "Mo-Fr 08:30-12:00,13:30-17:00")), staff: "test")
        try await services.appointments.addAdvisor(
            branch: branch.id, name: "Anna Keller", hours: try WeeklyHours(parsing: "Mo-Fr 08:30-12:00,13:30-17:00"))
        try await services.branches.setStock(branch.id, Money(minorUnits: 100_000, currency: Currency(code: "USD")!), staff: "test")
        try await services.fx.importRates(try Data(contentsOf: Self.ecb("eurofxref-daily.xml")))
        return BranchFixture(payment: payment, branch: branch)
    }

    static func ecb(_ name: String) -> URL { Standards.url("ecb/\(name)") }

    /// Tuesday 24 November 2026, 10:00 in Zurich (09:00 UTC).
    static let slot = Date(timeIntervalSince1970: 1_795_510_800)
}

@Suite("Branch bank on every store: rates, slots under contention, banknote orders")
struct BranchBankStoreTests {
    @Test("the real ECB daily and 90-day files import; a weekend uses the last published day; junk is refused", arguments: StoreKind.available)
    func ecbImport(kind: StoreKind) async throws {
        let fixture = try await BranchFixture.make(kind)
        let fx = fixture.services.fx
        let daily = try await fx.conversion(on: LocalDate(year: 2025, month: 5, day: 11))  // a Sunday
        #expect(daily.date == LocalDate(year: 2025, month: 5, day: 9))
        #expect(daily.perEUR["CHF"] == Decimal(string: "0.9353") && daily.perEUR.count == 31)
        let history = try await fx.importRates(try Data(contentsOf: BranchFixture.ecb("eurofxref-hist-64d.xml")))
        #expect(
            history.count == 64 && history.first == LocalDate(year: 2016, month: 12, day: 5)
                && history.last == LocalDate(year: 2017, month: 3, day: 3))
        let march = try await fx.conversion(on: LocalDate(year: 2017, month: 3, day: 3))
        #expect(march.perEUR["USD"] == Decimal(string: "1.0565"))
        #expect(CurrencyConversion.text(try march.crossRate(from: .chf, to: Currency(code: "USD")!)) == "0.989696")
        await #expect(throws: DomainError.self) { try await fx.importRates(Data("<html>not rates</html>".utf8)) }
        await #expect(throws: DomainError.self) { try await fx.conversion(on: LocalDate(year: 2000, month: 1, day: 1)) }
    }

    @Test(
        "50 customers book one slot at once, on two server instances: exactly one gets it, the others slot_taken with suggestions",
        arguments: StoreKind.available)
    func oneBookingPerSlot(kind: StoreKind) async throws {
        let fixture = try await BranchFixture.make(kind)
        let services = fixture.services
        // A second instance: its own handle on the same database, as another server process would have.
        let other = Services(database: try kind.openAgain(services.database), clock: fixture.payment.clock, auth: LedgerFixture.fastAuth)
        var principals: [Principal] = []
        for index in 0..<50 {
            let customer = try await services.bank.createCustomer(name: "Customer \(index)")
            principals.append(Principal(customerID: customer, contract: "c\(index)", level: 2))
        }
        let branchID = fixture.branch.id
        let outcomes = await withTaskGroup(of: String.self) { group in
            for (index, principal) in principals.enumerated() {
                let instance = index.isMultiple(of: 2) ? services : other
                group.addTask {
                    do {
                        _ = try await instance.appointments.book(
                            branch: branchID, start: BranchFixture.slot, topic: .financing, note: "", by: principal)
                        return "booked"
                    } catch let error as DomainError {
                        return error.code == .slotTaken && (error.suggested ?? "").contains("2026-11-24T10:30:00+01:00") ? "taken" : "other \(error)"
                    } catch {
                        return "other \(error)"
                    }
                }
            }
            return await group.reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
        }
        #expect(outcomes == ["booked": 1, "taken": 49])
        let day = try await services.appointments.day(branch: branchID, date: LocalDate(year: 2026, month: 11, day: 24)!)
        #expect(day.count == 1 && day[0].appointment.status == .requested)
        // The booked slot is no longer offered; cancelling frees it again.
        let slots = try await services.appointments.slots(
            branch: branchID, from: LocalDate(year: 2026, month: 11, day: 24)!, to: LocalDate(year: 2026, month: 11, day: 24)!)
        #expect(!slots.contains { $0.start == BranchFixture.slot } && slots.count == 13)
        let winner = principals.first { $0.customerID == day[0].appointment.customerID }!
        _ = try await services.appointments.cancel(day[0].appointment.id, by: winner)
        let again = try await other.appointments.book(branch: branchID, start: BranchFixture.slot, topic: .account, note: "", by: principals[0])
        #expect(again.status == .requested)
        try await other.database.close()
    }

    @Test("slots skip lunch, weekends and closures; changes are refused within two hours", arguments: StoreKind.available)
    func slotsAndDeadlines(kind: StoreKind) async throws {
        let fixture = try await BranchFixture.make(kind)
        let services = fixture.services
        let tuesday = LocalDate(year: 2026, month: 11, day: 24)!
        let slots = try await services.appointments.slots(branch: fixture.branch.id, from: tuesday, to: tuesday.adding(days: 6))
        let zurich = TimeZone(identifier: "Europe/Zurich")!
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zurich
        let hours = Set(slots.map { calendar.component(.hour, from: $0.start) * 100 + calendar.component(.minute, from: $0.start) })
        #expect(!hours.contains(1200) && !hours.contains(1300) && hours.contains(1130) && hours.contains(1330) && !hours.contains(1700))
        #expect(slots.count == 5 * 14)  // Tue–Fri and Monday, 14 slots a day; Saturday and Sunday none.
        try await services.branches.close(fixture.branch.id, on: tuesday, reason: "Staff training", staff: "test")
        #expect(try await services.appointments.slots(branch: fixture.branch.id, from: tuesday, to: tuesday).isEmpty)
        let wednesday = Date(timeIntervalSince1970: 1_795_510_800 + 86_400)
        let booked = try await services.appointments.book(
            branch: fixture.branch.id, start: wednesday, topic: .investment, note: "", by: fixture.payment.principal)
        await #expect(throws: DomainError.self) {
            try await services.appointments.book(
                branch: fixture.branch.id, start: wednesday.addingTimeInterval(15 * 60), topic: .other, note: "", by: fixture.payment.principal)
        }
        fixture.payment.clock.advance(seconds: wednesday.timeIntervalSince(fixture.payment.clock.now()) - 3_600)
        await #expect(
            throws: DomainError(.tooLateToChange, field: "id", "Appointments can be changed until two hours before; please call the branch.")
        ) {
            try await services.appointments.cancel(booked.id, by: fixture.payment.principal)
        }
    }

    @Test(
        "a banknote order holds the quoted CHF and reserves stock; cancelling releases both; handing out books at the quoted price",
        arguments: StoreKind.available)
    func cashOrders(kind: StoreKind) async throws {
        let fixture = try await BranchFixture.make(kind)
        let services = fixture.services
        let usd = Currency(code: "USD")!
        let account = fixture.payment.current
        let before = try await services.ledger.account(account.id)!
        let pickup = LocalDate(year: 2026, month: 11, day: 25)!
        let (order, quote) = try await services.cashOrders.place(
            branch: fixture.branch.id, amount: Money(minorUnits: 50_000, currency: usd), pickupDate: pickup, debitAccount: account.id,
            by: fixture.payment.principal)
        #expect(quote.debit.minorUnits == 42_601 && order.debit == quote.debit && !order.fromVault)
        var now = try await services.ledger.account(account.id)!
        #expect(now.heldMinor == before.heldMinor + 42_601 && now.bookedMinor == before.bookedMinor)
        #expect(try await services.branches.stock(fixture.branch.id) == [Money(minorUnits: 50_000, currency: usd)])
        // More than the branch has left, for tomorrow: refused with what is there and the vault's date.
        await #expect {
            try await services.cashOrders.place(
                branch: fixture.branch.id, amount: Money(minorUnits: 60_000, currency: usd), pickupDate: pickup, debitAccount: account.id,
                by: fixture.payment.principal)
        } throws: { error in
            guard let shortage = error as? CashShortage else { return false }
            return shortage.available.minorUnits == 50_000 && shortage.availability == "partly"
                && shortage.vaultDate == LocalDate(year: 2026, month: 11, day: 26)
        }
        _ = try await services.cashOrders.cancel(order.id, by: fixture.payment.principal)
        now = try await services.ledger.account(account.id)!
        #expect(now.heldMinor == before.heldMinor && now.bookedMinor == before.bookedMinor)
        #expect(try await services.branches.stock(fixture.branch.id) == [Money(minorUnits: 100_000, currency: usd)])
        await #expect(throws: DomainError.self) { try await services.cashOrders.cancel(order.id, by: fixture.payment.principal) }

        // From the vault (three business days ahead) the stock is not touched.
        let (second, _) = try await services.cashOrders.place(
            branch: fixture.branch.id, amount: Money(minorUnits: 200_000, currency: usd), pickupDate: LocalDate(year: 2026, month: 11, day: 30)!,
            debitAccount: account.id, by: fixture.payment.principal)
        #expect(second.fromVault)
        _ = try await services.cashOrders.markReady(second.id, staff: "desk")
        let done = try await services.cashOrders.handOut(second.id, staff: "desk")
        #expect(done.status == .handedOut && done.transactionID != nil)
        now = try await services.ledger.account(account.id)!
        #expect(now.heldMinor == before.heldMinor && now.bookedMinor == before.bookedMinor - done.debit.minorUnits)
        #expect(try await services.ledger.hold(done.holdID!)?.status == .posted)
        #expect(try await services.ledger.invariantViolations().isEmpty)
        let messages = try await services.messages.messages(of: fixture.payment.principal.customerID)
        #expect(
            messages.map(\.subject).prefix(3) == [
                "Banknotes collected: USD\u{00A0}2,000.00", "Banknotes ready: USD\u{00A0}2,000.00", "Banknotes ordered: USD\u{00A0}2,000.00",
            ])
    }

    @Test(
        "a CSV of branches and ATMs imports whole (quoted hours, an ATM in a branch of the same file); a bad row imports nothing",
        arguments: StoreKind.available)
    func csvImport(kind: StoreKind) async throws {
        let fixture = try await BranchFixture.make(kind)
        let csv = """
            code,kind,name,street,postcode,town,lat,lon,phone,services,hours,inside_branch,currencies,deposit\r
            BERN,branch,Bern,Bundesplatz 2,3011,Bern,46.9472,7.4444,+41 31 500 10 00,advice|cash_desk,"Mo-Fr 08:30-12:00,13:30-17:00",,,\r
            ATM-BERN,atm,"Bern (lobby, ""Hall"")",Bundesplatz 2,3011,Bern,46.9472,7.4444,,,,BERN,CHF|EUR,yes\r
            ATM-BHF,atm,Bern Bahnhof,Bahnhofplatz 10,3011,Bern,46.9488,7.4391,,,,,CHF,no\r

            """
        let rows = try BranchCSV.parse(csv)
        #expect(try await fixture.services.branches.saveAll(rows, staff: "ops") == 3)
        let lobby = try #require(try await fixture.services.branches.branch(code: "ATM-BERN"))
        let bern = try await fixture.services.branches.branch(code: "BERN")
        #expect(lobby.name == "Bern (lobby, \"Hall\")" && lobby.parentID == bern?.id && lobby.deposit)
        let found = try await fixture.services.branches.search(near: try GeoPoint(latitude: "46.9490", longitude: "7.4391"), kind: .atm)
        #expect(found.map(\.branch.code) == ["ATM-BHF", "ATM-BERN"])
        // Sunday noon: the lobby ATM keeps the branch's hours, the station's is open.
        let sunday = Date(timeIntervalSince1970: 1_795_348_800)
        let open = try await fixture.services.branches.search(near: nil, kind: .atm, openNow: true, at: sunday)
        #expect(open.map(\.branch.code) == ["ATM-BHF"])

        let bad = csv.replacingOccurrences(
            of: "ATM-BHF,atm,Bern Bahnhof,Bahnhofplatz 10,3011,Bern,46.9488", with: "ATM-NEW,atm,Bern Neu,Bahnhofplatz 10,3011,Bern,96.9488")
        #expect(throws: DomainError(.invalidParameter, field: "line 4: lat", "Coordinates are decimal degrees: latitude -90…90, longitude -180…180."))
        {
            try BranchCSV.parse(bad)
        }
        let orphan = try BranchCSV.parse(
            "code,kind,name,street,postcode,town,lat,lon,inside_branch\nATM-X,atm,X,Street 1,8000,Zürich,47.1,8.1,NOPE\n")
        await #expect(throws: DomainError.self) { try await fixture.services.branches.saveAll(orphan, staff: "ops") }
        #expect(try await fixture.services.branches.branch(code: "ATM-X") == nil)
    }
}
