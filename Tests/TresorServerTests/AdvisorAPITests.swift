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

    @Test("files both ways: a PDF from the customer, a photo from the branch; other types and other customers' files are refused")
    func attachments() async throws {
        let pdf = try Corpus.bytes("slips-pdf", "qrbill-invoice-a4.pdf")
        let photo = try Corpus.bytes("receipts", "receipt-00-de-clean.jpg")
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let staff = try await DeviceAPITests().staffToken(harness, client)
            let anna = try await client.login("10000012")
            let sent = try await client.upload(
                "/v1/advisor/attachments?name=Rechnung%20M%C3%A4rz.pdf", token: anna, bytes: pdf, contentType: "application/pdf")
            #expect(sent.status == .created, "\(sent.text)")
            let message = try #require(sent.json["message"] as? [String: Any])
            #expect((message["attachment"] as? [String: Any])?["type"] as? String == "application/pdf")
            #expect((message["attachment"] as? [String: Any])?["name"] as? String == "Rechnung März.pdf")
            let id = try #require(message["id"] as? String)
            let back = try await client.download("/v1/advisor/messages/\(id)/attachment", token: anna)
            #expect(back.status == .ok && back.bytes == pdf && back.headers[.contentType] == "application/pdf")
            #expect(back.headers[.contentDisposition] == "inline; filename=\"Rechnung M_rz.pdf\"")
            // Staff read the same file, and answer with a photo.
            #expect(try await client.download("/v1/staff/conversations/10000012/messages/\(id)/attachment", token: staff).bytes == pdf)
            let answered = try await client.upload(
                "/v1/staff/conversations/10000012/attachments?name=beleg.jpg", token: staff, bytes: photo, contentType: "image/jpeg")
            #expect(answered.status == .created, "\(answered.text)")
            let thread = try await client.call(.get, "/v1/advisor/messages", token: anna)
            let files = (thread.json["messages"] as? [[String: Any]])?.compactMap { ($0["attachment"] as? [String: Any])?["type"] as? String }
            #expect(files == ["application/pdf", "image/jpeg"])

            // Not a PDF, JPEG or PNG (a text file sent as a PDF): refused at its field; nothing kept.
            let text = try await client.upload("/v1/advisor/attachments", token: anna, bytes: Array("hello".utf8), contentType: "application/pdf")
            #expect(text.status == .badRequest && text.errorField == "file")
            let wrongType = try await client.upload("/v1/advisor/attachments", token: anna, bytes: pdf, contentType: "text/plain")
            #expect(wrongType.status == .badRequest && wrongType.errorField == "file")
            // Another customer's file is not found, as any other id.
            let luca = try await client.login("10000028")
            #expect(try await client.download("/v1/advisor/messages/\(id)/attachment", token: luca).status == .notFound)
            #expect((try await client.call(.get, "/v1/advisor/messages", token: anna).json["messages"] as? [Any])?.count == 2)
        }
    }
}
