import Foundation
import Testing
import TresorCore
import TresorDomain

/// The self-service station: pairing from an activated phone, and savings-book payouts that
/// only a station may make.
@Suite("Self-service station: pairing and savings-book payouts")
struct StationAPITests {
    let devices = DeviceAPITests()

    /// Anna's phone enrolled through the staff API, with a PIN; returns its id.
    func enrolledPhone(_ harness: APIHarness, _ client: APIHarness.Client, _ phone: Phone) async throws -> String {
        let device = try await devices.enrolledDevice(harness, client, phone).device
        let password = try await client.login("10000012")
        #expect(try await client.call(.put, "/v1/devices/\(device)/pin", token: password, json: #"{"pin": "4711"}"#).status == .noContent)
        return device
    }

    func pair(_ client: APIHarness.Client, token: String, code: String, station: Int64? = nil) async throws -> APIHarness.Reply {
        let stationField = station.map { #", "station": "\#($0)""# } ?? ""
        return try await client.call(.post, "/v1/stations/pairings", token: token, json: #"{"code": "\#(code)"\#(stationField)}"#)
    }

    @Test("a code pairs once, within its minute, only with the station that showed it; the visit ends after five minutes")
    func pairing() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let stations = harness.services.stations
            let branch = try #require(try await harness.services.branches.all().first { $0.kind == .branch })
            let (lobby, _) = try await stations.add(branch: branch.id, name: "Lobby", staff: "test")
            let (upstairs, _) = try await stations.add(branch: branch.id, name: "Upstairs", staff: "test")
            let phone = Phone()
            let device = try await enrolledPhone(harness, client, phone)
            let fresh = try #require(try await devices.deviceLogin(client, phone, device: device, pin: "4711").json["token"] as? String)

            let young = try await pair(client, token: fresh, code: try await stations.code(for: lobby, showing: nil).code)
            #expect(young.status == .forbidden && young.errorCode == "device_too_new")
            let password = try await client.login("10000012")
            let noDevice = try await pair(client, token: password, code: try await stations.code(for: lobby, showing: nil).code)
            #expect(noDevice.status == .forbidden && noDevice.errorCode == "device_required")

            harness.clock.advance(seconds: Double(DeviceService.newDeviceSeconds + 1))
            let token = try #require(try await devices.deviceLogin(client, phone, device: device, pin: "4711").json["token"] as? String)
            let withoutPIN = try #require(try await devices.deviceLogin(client, phone, device: device).json["token"] as? String)
            let level1 = try await pair(client, token: withoutPIN, code: try await stations.code(for: lobby, showing: nil).code)
            #expect(level1.status == .forbidden && level1.errorCode == "step_up_required")

            // A code shown on the lobby station, offered for the one upstairs: refused and spent.
            let lobbyCode = try await stations.code(for: lobby, showing: nil)
            let elsewhere = try await pair(client, token: token, code: lobbyCode.code, station: upstairs.id)
            #expect(elsewhere.status == .unprocessableContent && elsewhere.errorCode == "invalid_station_code" && elsewhere.errorField == "code")
            #expect(try await pair(client, token: token, code: lobbyCode.code).errorCode == "invalid_station_code", "spent by the wrong try")

            let expiring = try await stations.code(for: lobby, showing: nil)
            harness.clock.advance(seconds: Double(StationService.codeLifetimeSeconds + 1))
            #expect(try await pair(client, token: token, code: expiring.code).errorCode == "invalid_station_code", "expired")

            let shown = try await stations.code(for: lobby, showing: nil)
            #expect(try await stations.code(for: lobby, showing: shown) == shown, "the same code while it has time left")
            let typed = String(shown.code.prefix(3)).lowercased() + " " + shown.code.suffix(3)
            let paired = try await pair(client, token: token, code: typed, station: lobby.id)
            #expect(paired.status == .created)
            #expect((paired.json["station"] as? [String: Any])?["name"] as? String == "Lobby")
            let replay = try await pair(client, token: token, code: shown.code)
            #expect(replay.status == .unprocessableContent && replay.errorCode == "invalid_station_code", "single use")

            let visit = try #require(try await stations.visit(at: lobby))
            #expect(visit.customerID == CustomerID(1) && String(visit.deviceID) == device)
            #expect(try await stations.visit(at: upstairs) == nil, "the visit is on the station that showed the code")
            let principal = try await stations.principal(of: visit)
            #expect(principal.stationID == lobby.id && principal.level == 2)

            harness.clock.advance(seconds: Double(StationService.visitSeconds - 10))
            #expect(try await stations.visit(at: lobby) != nil)
            harness.clock.advance(seconds: 11)
            #expect(try await stations.visit(at: lobby) == nil, "five minutes at most")

            // A phone locked (lost) ends its visit at once, and a locked device cannot pair.
            _ = try await pair(client, token: token, code: try await stations.code(for: lobby, showing: nil).code)
            #expect(try await stations.visit(at: lobby) != nil)
            _ = try await harness.services.devices.setLocked(true, device: Int64(device)!, of: CustomerID(1), actor: "test", contract: "10000012")
            #expect(try await stations.visit(at: lobby) == nil)
            await #expect(throws: DomainError.self) {
                _ = try await stations.pair(code: try await stations.code(for: lobby, showing: nil).code, by: principal)
            }

            let trail = try await harness.services.audit.trail(contract: "10000012", fromMillis: 0, toMillis: .max).filter {
                $0.action == "station.pair"
            }
            #expect(
                trail.map(\.result) == [
                    "device_too_new", "device_required", "invalid_station_code", "invalid_station_code", "invalid_station_code", "ok",
                    "invalid_station_code", "ok", "device_locked",
                ])
            #expect(trail.filter { $0.result == "ok" }.allSatisfy { $0.subject == "station:\(lobby.id)" && $0.device == "device:\(device)" })
        }
    }

    @Test("money leaves a savings book only at a station: transfers, payments and cash orders elsewhere are station_required")
    func savingsBook() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let anna = try await PayingCustomer.annaMeier(client)
            let accounts = try await client.accounts(anna.token)
            let book = try #require(accounts.first { $0["kind"] as? String == "savings_book" }?["id"] as? String)
            let before = try await anna.balances(book)
            #expect(before.booked > 0)
            let transfer = try await client.call(
                .post, "/v1/transfers", token: anna.token,
                json: #"{"from_account": "\#(book)", "to_account": "\#(anna.current)", "amount": \#(PayingCustomer.money("100.00"))}"#,
                headers: ["Idempotency-Key": UUID().uuidString])
            #expect(transfer.status == .forbidden && transfer.errorCode == "station_required" && transfer.errorField == "from_account")
            let payment = try await anna.pay(
                #"{"type": "internal", "debtor_account": "\#(book)", "amount": \#(PayingCustomer.money("100.00")), "creditor": {"account": "\#(anna.current)"}}"#
            )
            #expect(payment.status == .forbidden && payment.errorCode == "station_required" && payment.errorField == "debtor_account")
            let branch = try #require(try await harness.services.branches.all().first { $0.services.contains(.foreignCash) })
            let cash = try await client.call(
                .post, "/v1/cash-orders", token: anna.token,
                json:
                    #"{"branch": "\#(branch.id)", "currency": "EUR", "amount": "100", "pickup_date": "2026-12-02", "debit_account": "\#(book)"}"#)
            #expect(cash.status == .forbidden && cash.errorCode == "station_required", "\(cash.json)")
            #expect(try await anna.balances(book) == before, "nothing moved")

            let into = try await client.call(
                .post, "/v1/transfers", token: anna.token,
                json: #"{"from_account": "\#(anna.current)", "to_account": "\#(book)", "amount": \#(PayingCustomer.money("10.00"))}"#,
                headers: ["Idempotency-Key": UUID().uuidString])
            #expect(into.status == .created, "money goes into a savings book from anywhere")

            var atStation = Principal(customerID: CustomerID(1), contract: "10000012", level: 2, deviceID: nil)
            atStation.stationID = 7
            let request = TransferRequest(
                fromAccount: AccountID(text: book)!, toAccount: AccountID(text: anna.current)!, amount: try Money(parsing: "100.00", currency: .chf),
                message: nil)
            for _ in 0..<2 {
                _ = try await harness.services.transfers.transfer(request, by: atStation, idempotencyKey: "station-1", requestHash: "h")
            }
            #expect(try await anna.balances(book).booked == before.booked + 1_000 - 10_000, "paid out once, at the station")
            let entry = try await harness.services.audit.trail(contract: "10000012", fromMillis: 0, toMillis: .max).last {
                $0.action == "transfer.create"
            }
            #expect(entry?.device == "station:7")
        }
    }
}
