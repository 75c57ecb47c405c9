import Foundation
import HTTPTypes
import Testing
import TresorDomain

@Suite("Templates, favourites, repeat, beneficiaries")
struct TemplateAPITests {
    @Test("folders and templates: create, rename, move, delete; names are unique per customer")
    func foldersAndTemplates() async throws {
        try await APIHarness.make().run { client in
            let anna = try await PayingCustomer.annaMeier(client)
            func call(_ method: HTTPRequest.Method, _ path: String, _ json: String? = nil) async throws -> APIHarness.Reply {
                try await client.call(method, path, token: anna.token, json: json)
            }
            let bills = try await call(.post, "/v1/template-folders", #"{"name": "Rechnungen"}"#)
            #expect(bills.status == .created)
            let folderID = try #require((bills.json["folder"] as? [String: Any])?["id"] as? String)
            #expect(try await call(.post, "/v1/template-folders", #"{"name": "Rechnungen"}"#).errorCode == "name_taken")
            let payment = anna.ibanPayment(iban: ForeignIBANs.swiss, amount: "85.00")
            let created = try await call(.post, "/v1/templates", #"{"name": "Gärtner", "folder_id": "\#(folderID)", "payment": \#(payment)}"#)
            #expect(created.status == .created)
            let template = try #require(created.json["template"] as? [String: Any])
            let templateID = try #require(template["id"] as? String)
            #expect(template["folder_id"] as? String == folderID)
            #expect((template["payment"] as? [String: Any])?["execution_date"] == nil)
            let invalid = try await call(
                .post, "/v1/templates", #"{"name": "Kaputt", "payment": \#(anna.ibanPayment(iban: "CH5604835012345678008", amount: "1.00"))}"#)
            #expect(invalid.errorCode == "invalid_iban" && invalid.errorField == "creditor.iban")

            let inFolder = try await call(.get, "/v1/templates?folder_id=\(folderID)").json["templates"] as? [[String: Any]]
            #expect(inFolder?.count == 1)
            let renamed = try await call(.patch, "/v1/templates/\(templateID)", #"{"name": "Gartenbau", "folder_id": null}"#)
            #expect((renamed.json["template"] as? [String: Any])?["name"] as? String == "Gartenbau")
            #expect((renamed.json["template"] as? [String: Any])?["folder_id"] is NSNull)
            #expect(try await call(.patch, "/v1/template-folders/\(folderID)", #"{"name": "Bills"}"#).status == .ok)
            let moved = try await call(.patch, "/v1/templates/\(templateID)", #"{"folder_id": "\#(folderID)"}"#)
            #expect((moved.json["template"] as? [String: Any])?["folder_id"] as? String == folderID)
            #expect(try await call(.delete, "/v1/template-folders/\(folderID)").status == .noContent)
            #expect((try await call(.get, "/v1/templates/\(templateID)").json["template"] as? [String: Any])?["folder_id"] is NSNull)

            let luca = try await client.login("10000028")
            #expect(try await client.call(.get, "/v1/templates/\(templateID)", token: luca).status == .notFound)
            #expect(try await call(.delete, "/v1/templates/\(templateID)").status == .noContent)
            #expect(try await call(.get, "/v1/templates/\(templateID)").status == .notFound)
        }
    }

    @Test("paying from a template with overrides; favourites rank by recent use, pins come first")
    func payFromTemplateAndFavorites() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let anna = try await PayingCustomer.annaMeier(client)
            let payment = anna.ibanPayment(iban: ForeignIBANs.swiss, amount: "85.00")
            let created = try await client.call(.post, "/v1/templates", token: anna.token, json: #"{"name": "Gärtner", "payment": \#(payment)}"#)
            let templateID = try #require((created.json["template"] as? [String: Any])?["id"] as? String)

            // A top-up long ago, the template three times recently.
            _ = try await anna.pay(
                #"{"type": "topup", "debtor_account": "\#(anna.current)", "amount": \#(PayingCustomer.money("20.00")), "topup": {"operator": "salt", "phone": "+41781234567"}}"#
            )
            harness.clock.advance(seconds: 300)
            for index in 1...3 {
                let reply = try await client.call(
                    .post, "/v1/templates/\(templateID)/payments", token: anna.token, json: #"{"amount": \#(PayingCustomer.money("9\(index).00"))}"#,
                    headers: ["Idempotency-Key": "tpl-\(index)"])
                #expect(reply.status == .created)
                #expect(reply.payment.money("amount") == "9\(index).00")
                #expect((reply.payment["creditor"] as? [String: Any])?["name"] as? String == "Müller Gartenbau AG")
            }
            let favorites = try #require(try await client.call(.get, "/v1/favorites", token: anna.token).json["favorites"] as? [[String: Any]])
            #expect(favorites.compactMap { $0["item"] as? String }.prefix(2) == ["template:\(templateID)", "type:iban"])
            #expect(favorites.contains { $0["item"] as? String == "type:topup" })

            let pinned = try await client.call(.put, "/v1/favorites/pins", token: anna.token, json: #"{"items": ["type:topup"]}"#)
            let order = (pinned.json["favorites"] as? [[String: Any]])?.compactMap { $0["item"] as? String }
            #expect(order?.first == "type:topup")
            #expect((pinned.json["favorites"] as? [[String: Any]])?.first?["pinned"] as? Bool == true)
            let badPin = try await client.call(.put, "/v1/favorites/pins", token: anna.token, json: #"{"items": ["template:999"]}"#)
            #expect(badPin.errorCode == "invalid_parameter" && badPin.errorField == "items[0]")
        }
    }

    @Test("repeat gives a draft that pays the same again; save as template from a payment")
    func repeatAndSaveAsTemplate() async throws {
        try await APIHarness.make().run { client in
            let anna = try await PayingCustomer.annaMeier(client)
            let payload = try String(data: JSONEncoder().encode(QRBillSamples.withAmount(amount: "49.75")), encoding: .utf8)!
            let first = try await anna.pay(#"{"type": "qrbill", "debtor_account": "\#(anna.current)", "qrbill_payload": \#(payload)}"#)
            let id = try #require(first.paymentID)
            let repeated = try await client.call(.post, "/v1/payments/\(id)/repeat", token: anna.token)
            let draft = try #require(repeated.json["draft"] as? [String: Any])
            #expect(draft["type"] as? String == "qrbill" && draft["execution_date"] == nil)
            let draftJSON = String(data: try JSONSerialization.data(withJSONObject: draft), encoding: .utf8)!
            let second = try await anna.pay(draftJSON)
            #expect(second.status == .created)
            #expect(second.payment.money("amount") == "49.75")
            #expect((second.payment["reference"] as? [String: Any])?["value"] as? String == "210000000003139471430009017")

            let saved = try await client.call(.post, "/v1/templates", token: anna.token, json: #"{"name": "Schneider", "from_payment": "\#(id)"}"#)
            #expect(saved.status == .created)
            #expect(((saved.json["template"] as? [String: Any])?["payment"] as? [String: Any])?["type"] as? String == "qrbill")
        }
    }

    @Test("beneficiaries: the bank-wide list and the customer's")
    func beneficiaries() async throws {
        let harness = try await APIHarness.make()
        _ = try await harness.services.beneficiaries.add(name: "Stadtwerke", iban: try IBAN(ForeignIBANs.swiss), customer: nil)
        _ = try await harness.services.beneficiaries.add(name: "Vermieter", iban: try IBAN(ForeignIBANs.german), customer: CustomerID(1))
        #expect(try await harness.services.beneficiaries.isWhitelisted(try IBAN(ForeignIBANs.german), for: CustomerID(1)))
        #expect(try await !harness.services.beneficiaries.isWhitelisted(try IBAN(ForeignIBANs.german), for: CustomerID(2)))
        try await harness.run { client in
            let anna = try await PayingCustomer.annaMeier(client)
            let list = try await client.call(.get, "/v1/beneficiaries", token: anna.token).json["beneficiaries"] as? [[String: Any]]
            #expect(list?.filter { $0["scope"] as? String == "customer" }.compactMap { $0["name"] as? String } == ["Vermieter"])
            #expect(list?.contains { $0["name"] as? String == "Stadtwerke" && $0["scope"] as? String == "bank" } == true)
            let luca = try await client.login("10000028")
            let lucaList = try await client.call(.get, "/v1/beneficiaries", token: luca).json["beneficiaries"] as? [[String: Any]]
            #expect(lucaList?.contains { $0["scope"] as? String == "customer" } == false)
        }
    }
}
