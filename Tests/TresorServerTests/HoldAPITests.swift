import Foundation
import Testing
import TresorCore
import TresorDomain

/// The hold flow through the API: a phone activated minutes ago pays a new payee abroad far
/// more than the customer ever paid; the payment comes back `held` (no signature asked), the
/// amount is reserved, and the staff queue releases or rejects it.
@Suite("Holds through the API: the customer's payment and the staff queue")
struct HoldAPITests {
    @Test("held on POST /v1/payments (read ahead with the session), listed for staff with its signals, released once")
    func heldThenReleased() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let devices = DeviceAPITests()
            let (_, staff) = try await devices.enrolledDevice(harness, client, Phone())
            let anna = try await PayingCustomer.annaMeier(client)
            let before = try await anna.account(anna.current)
            let reply = try await anna.pay(anna.ibanPayment(iban: ForeignIBANs.german, amount: "8000.00"))
            #expect(reply.status == .created, "\(reply.text)")
            #expect(reply.paymentStatus == "held")
            #expect(reply.payment["signature"] == nil)
            let id = try #require(reply.paymentID)
            let after = try await anna.account(anna.current)
            #expect(after["booked"] as? [String: String] == before["booked"] as? [String: String])
            #expect(after["available"] as? [String: String] != before["available"] as? [String: String])
            // The customer sees it among the waiting payments; the reasons stay with the bank.
            let pending = try await client.call(.get, "/v1/payments?status=pending", token: anna.token)
            #expect((pending.json["payments"] as? [[String: Any]])?.contains { $0["id"] as? String == id } == true)
            #expect(!reply.text.contains("new_device"))

            // A customer's token does not open the staff queue.
            #expect(try await client.call(.get, "/v1/staff/holds", token: anna.token).status == .unauthorized)
            let maybe = try await client.call(.get, "/v1/staff/holds?decided=maybe", token: staff)
            #expect(maybe.status == .badRequest && maybe.error["field"] as? String == "decided")
            let flagged = try await client.call(.get, "/v1/staff/clearing/credits?flagged=AAA", token: staff)
            #expect(flagged.status == .badRequest && flagged.error["field"] as? String == "flagged", "the same rule for every flag")
            let queue = try await client.call(.get, "/v1/staff/holds", token: staff)
            #expect(queue.status == .ok)
            let holds = try #require(queue.json["holds"] as? [[String: Any]])
            let held = try #require(holds.first { ($0["payment"] as? [String: Any])?["id"] as? String == id })
            #expect(held["signals"] as? [String] == ["new_country", "new_device", "new_payee", "unusual_amount"])
            #expect((held["rules"] as? [String])?.contains("takeover_new_device") == true)
            #expect((held["customer"] as? [String: Any])?["name"] as? String == "Anna Meier")

            let empty = try await client.call(.post, "/v1/staff/holds/\(id)/reject", token: staff, json: #"{"message": ""}"#)
            #expect(empty.status == .badRequest)
            #expect(empty.error["field"] as? String == "message")
            // Released, it is booked as a signed payment is: the debit advice the customer asked for comes.
            let advice = try await client.call(.put, "/v1/settings", token: anna.token, json: #"{"debit_advice_from": "1000"}"#)
            #expect(advice.status == .ok, "\(advice.text)")
            let released = try await client.call(.post, "/v1/staff/holds/\(id)/release", token: staff)
            #expect(released.status == .ok, "\(released.text)")
            let inbox = try await client.call(.get, "/v1/messages?category=payments", token: anna.token).json["messages"] as? [[String: Any]] ?? []
            #expect(inbox.contains { $0["subject"] as? String == "Debit advice" }, "\(inbox)")
            let hold = try #require(released.json["hold"] as? [String: Any])
            #expect(hold["decision"] as? String == "released")
            #expect(hold["decided_by"] as? String == "berater.zh")
            #expect((hold["payment"] as? [String: Any])?["status"] as? String == "executed")
            let again = try await client.call(.post, "/v1/staff/holds/\(id)/release", token: staff)
            #expect(again.status == .conflict)
            #expect(again.errorCode == "payment_not_held")
            #expect(try await client.call(.post, "/v1/staff/holds/999999/release", token: staff).status == .notFound)
            let shown = try await client.call(.get, "/v1/payments/\(id)", token: anna.token)
            #expect(shown.paymentStatus == "executed")
        }
    }
}
