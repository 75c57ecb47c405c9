import Foundation
import Testing
import TresorCore
import TresorDomain

/// The personal advisor and the secure thread: the customer writes, staff answer for the
/// advisor, both read the same thread; nobody else reads it.
@Suite("The personal advisor and the secure thread")
struct AdvisorAPITests {
    @Test("the customer sees the advisor, writes; staff see it waiting and answer; the customer is told")
    func thread() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let staff = try await DeviceAPITests().staffToken(harness, client)
            let anna = try await PayingCustomer.annaMeier(client)
            let shown = try await client.call(.get, "/v1/advisor", token: anna.token)
            #expect(shown.status == .ok)
            let advisor = try #require(shown.json["advisor"] as? [String: Any])
            #expect(!(advisor["name"] as? String ?? "").isEmpty)
            #expect((advisor["branch"] as? [String: Any])?["town"] != nil)

            let empty = try await client.call(.post, "/v1/advisor/messages", token: anna.token, json: #"{"body": "   "}"#)
            #expect(empty.status == .badRequest && empty.error["field"] as? String == "body")
            let long = String(repeating: "x", count: 2_001)
            #expect(try await client.call(.post, "/v1/advisor/messages", token: anna.token, json: #"{"body": "\#(long)"}"#).status == .badRequest)
            let written = try await client.call(
                .post, "/v1/advisor/messages", token: anna.token,
                json: #"{"body": "Guten Tag, ich möchte eine Hypothek besprechen.\nWann passt es?"}"#)
            #expect(written.status == .created, "\(written.text)")
            #expect((written.json["message"] as? [String: Any])?["from"] as? String == "customer")

            // Staff see the thread waiting and answer it.
            let listed = try await client.call(.get, "/v1/staff/conversations", token: staff)
            let line = try #require((listed.json["conversations"] as? [[String: Any]])?.first)
            #expect(line["contract"] as? String == "10000012" && line["waiting"] as? Bool == true)
            #expect(try await client.call(.get, "/v1/staff/conversations", token: anna.token).status == .unauthorized)
            let answered = try await client.call(
                .post, "/v1/staff/conversations/10000012/messages", token: staff, json: #"{"body": "Gerne, am Dienstag um 10 Uhr?"}"#)
            #expect(answered.status == .created, "\(answered.text)")
            #expect(
                try await client.call(.post, "/v1/staff/conversations/99999999/messages", token: staff, json: #"{"body": "x"}"#).status == .notFound)

            // Both read the same thread, in order; the customer was told in the inbox.
            let thread = try await client.call(.get, "/v1/advisor/messages", token: anna.token)
            let messages = try #require(thread.json["messages"] as? [[String: Any]])
            #expect(messages.map { $0["from"] as? String } == ["customer", "advisor"])
            #expect(messages.last?["staff"] as? String == "berater.zh")
            let staffView = try await client.call(.get, "/v1/staff/conversations/10000012", token: staff)
            #expect((staffView.json["messages"] as? [[String: Any]])?.map { $0["body"] as? String } == messages.map { $0["body"] as? String })
            let inbox = try await client.call(.get, "/v1/messages", token: anna.token)
            #expect(
                (inbox.json["messages"] as? [[String: Any]])?.contains {
                    ($0["body"] as? String)?.contains("My advisor") == true || ($0["body"] as? String)?.contains("Mein Berater") == true
                } == true)
            #expect(
                try await client.call(.get, "/v1/staff/conversations", token: staff).json["conversations"].flatMap {
                    ($0 as? [[String: Any]])?.first?["waiting"] as? Bool
                } == false)

            // Another customer reads none of it.
            let luca = try await client.call(.post, "/v1/sessions", json: #"{"contract": "10000028", "password": "tresor-demo"}"#)
            let lucaToken = try #require(luca.json["token"] as? String)
            #expect((try await client.call(.get, "/v1/advisor/messages", token: lucaToken).json["messages"] as? [Any])?.isEmpty == true)
        }
    }
}
