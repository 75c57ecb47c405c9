import Foundation
import HTTPTypes
import Testing
import TresorCore
import TresorDomain
import TresorTestSupport

@Suite("Isolation: customer A against customer B's ids on every /v1 route")
struct IsolationAPITests {
    @Test("every route with B's ids answers 403 or 404 (staff routes 401), and no answer holds B's data")
    func walkEveryRoute() async throws {
        let harness = try await APIHarness.make()
        let routes = harness.router.routes.map { (method: $0.method, path: "\($0.path)") }.filter { $0.path.hasPrefix("/v1/") }
        try await harness.run { client in
            // B: Luca, with a payment, a folder, a template and a device, each with a name to look for.
            let lucaToken = try await client.login("10000028")
            let lucaAccounts = try await client.accounts(lucaToken)
            let lucaAccount = try #require(lucaAccounts.first { $0["kind"] as? String == "current" && $0["currency"] as? String == "CHF" })
            let lucaAccountID = try #require(lucaAccount["id"] as? String)
            let luca = PayingCustomer(
                client: client, token: lucaToken, current: lucaAccountID, savings: lucaAccountID, euro: lucaAccountID,
                currentIBAN: lucaAccount["iban"] as! String)
            let payment = try await luca.pay(
                luca.ibanPayment(iban: ForeignIBANs.swiss, amount: "7.00", date: "2026-12-01").replacing("Rechnung 4711", with: "LUCA-SECRET-MEMO"))
            let paymentID = try #require(payment.paymentID)
            let folder = try await client.call(.post, "/v1/template-folders", token: lucaToken, json: #"{"name": "LUCA-FOLDER"}"#)
            let folderID = try #require((folder.json["folder"] as? [String: Any])?["id"] as? String)
            let template = try await client.call(
                .post, "/v1/templates", token: lucaToken, json: #"{"name": "LUCA-TEMPLATE", "from_payment": "\#(paymentID)"}"#)
            let templateID = try #require((template.json["template"] as? [String: Any])?["id"] as? String)
            try await harness.services.staff.add(name: "iso.staff", password: "iso-staff-password")
            let code = try await harness.services.devices.issueActivationCode(contract: "10000028", staff: "iso.staff")
            let device = try await harness.services.devices.enrol(
                contract: "10000028", code: code, name: "LUCA-PHONE", publicKey: Phone().publicKey)
            let receipt = try await client.upload(
                "/v1/receipts", token: lucaToken, bytes: try Corpus.bytes("receipts", "receipt-00-de-clean.jpg"), contentType: "image/jpeg")
            let receiptID = try #require((receipt.json["receipt"] as? [String: Any])?["id"] as? String)
            _ = try await client.call(.patch, "/v1/receipts/\(receiptID)", token: lucaToken, json: #"{"merchant": "LUCA-SHOP"}"#)
            let paradeplatz = try await client.call(.get, "/v1/branches?kind=branch&service=foreign_cash&lat=47.3698&lon=8.5391&limit=1")
            let branchID = try #require(((paradeplatz.json["branches"] as? [[String: Any]])?.first)?["id"] as? String)
            let appointment = try await client.call(
                .post, "/v1/appointments", token: lucaToken,
                json: #"{"branch": "\#(branchID)", "start": "2026-11-24T10:00:00+01:00", "topic": "investment", "note": "LUCA-NOTE"}"#)
            let appointmentID = try #require((appointment.json["appointment"] as? [String: Any])?["id"] as? String, "\(appointment.text)")
            let cashOrder = try await client.call(
                .post, "/v1/cash-orders", token: lucaToken,
                json:
                    #"{"branch": "\#(branchID)", "currency": "USD", "amount": "100.00", "pickup_date": "2026-11-24", "debit_account": "\#(lucaAccountID)"}"#
            )
            let cashOrderID = try #require((cashOrder.json["order"] as? [String: Any])?["id"] as? String, "\(cashOrder.text)")
            let certificate = try await client.call(
                .post, "/v1/certificates", token: lucaToken, json: #"{"type": "balance_confirmation", "fields": {"date": "2026-11-01"}}"#)
            let certificateID = try #require((certificate.json["certificate"] as? [String: Any])?["id"] as? String, "\(certificate.text)")
            let lucaTransactions = try await client.call(.get, "/v1/accounts/\(lucaAccountID)/transactions", token: lucaToken)
            let transactionID = try #require(((lucaTransactions.json["transactions"] as? [[String: Any]])?.first)?["id"] as? String)
            let invoice = try await client.call(
                .post, "/v1/invoices", token: lucaToken, json: #"{"account": "\#(lucaAccountID)", "description": "LUCA-INVOICE"}"#)
            #expect(invoice.status == .created, "\(invoice.text)")
            let standing = try await client.call(
                .post, "/v1/standing-orders", token: lucaToken,
                json: StandingOrderAPITests.order(luca, amount: "8.00", schedule: #"{"rhythm": "monthly", "day": 5, "first_date": "2026-12-05"}"#)
                    .replacing("Rechnung 4711", with: "LUCA-STANDING"), headers: ["Idempotency-Key": UUID().uuidString])
            let standingID = try #require((standing.json["standing_order"] as? [String: Any])?["id"] as? String, "\(standing.text)")
            let passkeyOptions = try await client.call(.post, "/v1/passkeys/registration", token: lucaToken)
            let passkeyChallenge = try #require((passkeyOptions.json["publicKey"] as? [String: Any])?["challenge"] as? String)
            let passkey = try await client.call(
                .post, "/v1/passkeys", token: lucaToken,
                json: SoftAuthenticator().register(challenge: passkeyChallenge, rpID: "localhost", origin: "http://localhost", name: "LUCA-PASSKEY"))
            let passkeyID = try #require((passkey.json["passkey"] as? [String: Any])?["id"] as? String, "\(passkey.text)")
            let pushDevice = try await client.call(
                .post, "/v1/push/devices", token: lucaToken, json: #"{"token": "\#(String(repeating: "5a", count: 32))", "label": "LUCA-PUSH"}"#)
            let pushID = try #require((pushDevice.json["subscription"] as? [String: Any])?["id"] as? String, "\(pushDevice.text)")
            let advisorFile = try await client.upload(
                "/v1/advisor/attachments?name=LUCA-FILE.pdf", token: lucaToken, bytes: try Corpus.bytes("slips-pdf", "invoice-without-qr.pdf"),
                contentType: "application/pdf")
            let advisorMessageID = try #require((advisorFile.json["message"] as? [String: Any])?["id"] as? String, "\(advisorFile.text)")
            let lucaMessages = try await client.call(.get, "/v1/messages", token: lucaToken).json["messages"] as? [[String: Any]]
            let messageID = try #require(lucaMessages?.first?["id"] as? String)
            let secrets = [
                "LUCA-NOTE",
                "LUCA-SECRET-MEMO", "LUCA-FOLDER", "LUCA-TEMPLATE", "LUCA-PHONE", "LUCA-SHOP", "LUCA-INVOICE", "LUCA-STANDING", "LUCA-PASSKEY",
                "LUCA-PUSH", "LUCA-FILE",
                lucaAccount["iban"] as! String,
                "Bernasconi",
            ]

            // A: Anna, at level 2.
            let anna = try await PayingCustomer.annaMeier(client)
            let ids = [
                "accounts": lucaAccountID, "payments": paymentID, "templates": templateID, "template-folders": folderID, "devices": String(device.id),
                "receipts": receiptID, "appointments": appointmentID, "cash-orders": cashOrderID, "certificates": certificateID,
                "messages": messageID, "transactions": transactionID, "standing-orders": standingID, "passkeys": passkeyID, "push": pushID,
                "advisor": advisorMessageID,
                "cards": try #require(lucaAccounts.first { $0["kind"] as? String == "card" }?["id"] as? String),
            ]
            let body = #"""
                {"amount": {"amount": "1.00", "currency": "CHF"}, "name": "x", "pin": "1234", "code": "123456", "message": "x",
                 "contract": "10000028", "execution_date": "2026-12-02"}
                """#
            var checked = 0
            // why not /v1/ui and /v1/branches: screens and branches are the bank's, public and the same for every customer.
            for route in routes where route.path.contains("{id}") && !route.path.hasPrefix("/v1/ui/") && !route.path.hasPrefix("/v1/branches/") {
                let resource = String(route.path.split(separator: "/")[1])
                let isStaff = resource == "staff"
                let id = isStaff ? String(device.id) : try #require(ids[resource], "no B id for \(route.path)")
                let path = route.path.replacing("{id}", with: id)
                let reply = try await client.call(
                    route.method, path, token: anna.token, json: route.method == .get || route.method == .delete ? nil : body)
                let allowed: [HTTPResponse.Status] =
                    if isStaff { [.unauthorized] } else if route.path == "/v1/devices/{id}/challenge" { [.created] } else { [.notFound, .forbidden] }
                #expect(allowed.contains(reply.status), "\(route.method) \(path) answered \(reply.status)")
                for secret in secrets { #expect(!reply.text.contains(secret), "\(route.method) \(path) leaked \(secret)") }
                checked += 1
            }
            #expect(checked >= 15)

            // Routes without an id, fed B's ids in the body or asked for lists.
            let attempts: [(HTTPRequest.Method, String, String?)] = [
                (.post, "/v1/payments", anna.ibanPayment(iban: ForeignIBANs.swiss, amount: "1.00", from: lucaAccountID)),
                (
                    .post, "/v1/transfers",
                    #"{"from_account": "\#(lucaAccountID)", "to_account": "\#(anna.current)", "amount": {"amount": "1.00", "currency": "CHF"}}"#
                ),
                (.post, "/v1/templates", #"{"name": "steal", "from_payment": "\#(paymentID)"}"#),
                (
                    .post, "/v1/templates",
                    #"{"name": "steal", "folder_id": "\#(folderID)", "payment": \#(anna.ibanPayment(iban: ForeignIBANs.swiss, amount: "1.00"))}"#
                ),
                (.put, "/v1/favorites/pins", #"{"items": ["template:\#(templateID)"]}"#),
            ]
            for (method, path, json) in attempts {
                let reply = try await client.call(method, path, token: anna.token, json: json, headers: ["Idempotency-Key": UUID().uuidString])
                #expect([.notFound, .forbidden, .badRequest].contains(reply.status), "\(method) \(path) answered \(reply.status)")
                for secret in secrets { #expect(!reply.text.contains(secret)) }
            }
            // why not /v1/events: it streams until the client leaves; LiveInboxTests shows another
            // customer's message never reaches the stream.
            for route in routes
            where route.method == .get && !route.path.contains("{id}") && !route.path.hasPrefix("/v1/staff") && route.path != "/v1/events" {
                let reply = try await client.call(.get, route.path, token: anna.token)
                for secret in secrets { #expect(!reply.text.contains(secret), "GET \(route.path) leaked \(secret)") }
            }
            // B's things are untouched.
            let appointments = try await client.call(.get, "/v1/appointments", token: lucaToken)
            #expect(appointments.text.contains("LUCA-NOTE") && appointments.text.contains(#""status":"requested""#))
            let orders = try await client.call(.get, "/v1/cash-orders", token: lucaToken)
            #expect(orders.text.contains(#""status":"ordered""#))
            let still = try await client.call(.get, "/v1/payments/\(paymentID)", token: lucaToken)
            #expect(still.paymentStatus == "pending" && still.payment.money("amount") == "7.00")
        }
    }
}
