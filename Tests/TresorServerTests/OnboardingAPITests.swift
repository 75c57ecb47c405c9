import Foundation
import HTTPTypes
import Testing
import TresorCore
import TresorDomain
import TresorLedger
import TresorTestSupport

@testable import TresorServer

/// The customer lifecycle through the API: staff take a customer on, the customer comes in with
/// the letter's code and a password the policy accepts, and banks; a reset letter ends every way
/// in but itself; staff find a forgotten contract number.
@Suite("Onboarding: new customers, first login, reset letters")
struct OnboardingAPITests {
    func staffToken(_ harness: APIHarness, _ client: APIHarness.Client) async throws -> String {
        try await harness.services.staff.add(name: "berater.zh", password: "branch-password-1")
        let reply = try await client.call(.post, "/v1/staff/sessions", json: #"{"name": "berater.zh", "password": "branch-password-1"}"#)
        return try #require(reply.json["token"] as? String)
    }

    static let zoe = #"""
        {"name": "Zoë Müller", "birth_date": "1991-04-17", "language": "de", "address": "Seestrasse 12, 8002 Zürich",
         "email": "zoe@example.ch", "phone": "+41 79 555 12 34", "accounts": ["current", "savings", "savings:EUR"]}
        """#

    func activate(_ client: APIHarness.Client, _ contract: String, _ code: String, _ password: String) async throws -> APIHarness.Reply {
        try await client.call(
            .post, "/v1/sessions/activation", json: #"{"contract": "\#(contract)", "activation_code": "\#(code)", "password": "\#(password)"}"#)
    }

    func login(_ client: APIHarness.Client, _ contract: String, _ password: String) async throws -> APIHarness.Reply {
        try await client.call(.post, "/v1/sessions", json: #"{"contract": "\#(contract)", "password": "\#(password)"}"#)
    }

    @Test("taken on by staff, in with the letter and a good password, then banking", arguments: TestStore.available)
    func onboardingEndToEnd(store: TestStore) async throws {
        let harness = try await APIHarness.make(store: store)
        try await harness.run { client in
            let staff = try await staffToken(harness, client)
            #expect(try await client.call(.post, "/v1/staff/customers", json: Self.zoe).status == .unauthorized)
            let made = try await client.call(.post, "/v1/staff/customers", token: staff, json: Self.zoe)
            #expect(made.status == .created, "\(made.text)")
            let customer = try #require(made.json["customer"] as? [String: Any])
            let contract = try #require(customer["contract"] as? String)
            #expect(ContractNumber.isValid(contract))
            #expect(customer["name"] as? String == "Zoë Müller" && customer["birth_date"] as? String == "1991-04-17")
            #expect(customer["phone"] as? String == "+41795551234")
            let accounts = try #require(made.json["accounts"] as? [[String: Any]])
            #expect(accounts.map { $0["name"] as? String } == ["Privatkonto", "Sparkonto", "Sparkonto EUR"])
            let ibans = try accounts.map { try IBAN($0["iban"] as? String ?? "") }
            #expect(Set(ibans.map(\.electronic)).count == 3)
            #expect(ibans.allSatisfy { $0.electronic.dropFirst(4).prefix(5) == "09999" }, "\(ibans)")  // the demo bank's IID
            let letter = try #require(made.json["letter"] as? [String: Any])
            let code = try #require(letter["code"] as? String)
            #expect(code.count == 14 && code.filter { $0 == "-" }.count == 2)
            let pdfText = try #require(letter["pdf"] as? String)
            let pdf = try #require(Data(base64Encoded: pdfText))
            #expect(pdf.starts(with: Array("%PDF".utf8)))
            // The code is stored only as its hash.
            let stored = try await harness.services.database.read { try await $0.query(SQL("SELECT code_hash FROM login_letters")) }
            #expect(stored.allSatisfy { $0.text(0) != code && $0.text(0).count == 64 })

            // No password works before the letter is used.
            #expect(try await login(client, contract, "anything-at-all-1").status == .unauthorized)
            let wrong = try await activate(client, contract, "AAAA-BBBB-CCCC", "Sonnenblume-Kaffee-42")
            #expect(wrong.status == .unauthorized && wrong.errorCode == "invalid_activation_code")
            // The policy, each rule with its field; the letter stays usable after a refusal.
            for weak in ["kurz-1", "qwertyuiop", "Password1234", "Sonne-\(contract)", "MuellerMüller99"] {
                let refused = try await activate(client, contract, code, weak)
                #expect(refused.status == .unprocessableContent && refused.errorCode == "weak_password", "\(weak): \(refused.text)")
                #expect(refused.errorField == "password")
            }
            // Typed as a person would: lower case, without dashes.
            let typed = code.lowercased().replacingOccurrences(of: "-", with: "")
            let session = try await activate(client, contract, typed, "Sonnenblume-Kaffee-42")
            #expect(session.status == .created && session.json["level"] as? Int == 2, "\(session.text)")
            let token = try #require(session.json["token"] as? String)
            #expect(try await activate(client, contract, code, "Sonnenblume-Kaffee-43").errorCode == "invalid_activation_code")
            #expect(try await login(client, contract, "Sonnenblume-Kaffee-42").status == .created)

            // Money arrives (from the bank's clearing account), and the customer moves it.
            let current = try #require(accounts[0]["id"] as? String)
            let savings = try #require(accounts[1]["id"] as? String)
            let clearing = try #require(try await harness.services.ledger.bankAccount(.clearing, currency: .chf))
            let day = harness.services.today
            _ = try await harness.services.ledger.commit(
                TransactionDraft(
                    kind: "incoming", bookingDate: day, valueDate: day,
                    lines: [
                        PostingLine(accountID: clearing.id, amount: Money(minorUnits: -150_000, currency: .chf)),
                        PostingLine(accountID: AccountID(text: current)!, amount: Money(minorUnits: 150_000, currency: .chf)),
                    ]), now: 0)
            let moved = try await client.call(
                .post, "/v1/transfers", token: token,
                json: #"{"from_account": "\#(current)", "to_account": "\#(savings)", "amount": {"amount": "400.00", "currency": "CHF"}}"#,
                headers: ["Idempotency-Key": "first-transfer"])
            #expect(moved.status == .created, "\(moved.text)")
            let listed = try await client.call(.get, "/v1/accounts", token: token)
            let balances = (listed.json["accounts"] as? [[String: Any]] ?? []).map { ($0["booked"] as? [String: Any])?["amount"] as? String }
            #expect(balances == ["1100.00", "400.00", "0.00"], "\(listed.text)")
            let trail = try await harness.services.audit.trail(contract: contract, fromMillis: 0, toMillis: .max).map { "\($0.action) \($0.result)" }
            #expect(trail.contains("customer.create ok") && trail.contains("customer.activate invalid_activation_code"))
            #expect(trail.contains("customer.activate ok"))
        }
    }

    @Test("bad input: each refusal names its field, nothing is made")
    func refusals() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let staff = try await staffToken(harness, client)
            let cases: [(String, String, String)] = [
                (#"{"name": "A", "birth_date": "1990-01-01", "language": "de"}"#, "invalid_parameter", "name"),
                (#"{"name": "Ann Li", "birth_date": "2090-01-01", "language": "de"}"#, "invalid_date", "birth_date"),
                (#"{"name": "Ann Li", "birth_date": "1990-02-30", "language": "de"}"#, "invalid_date", "birth_date"),
                (#"{"name": "Ann Li", "birth_date": "1990-01-01", "language": "xx"}"#, "invalid_parameter", "language"),
                (#"{"name": "Ann Li", "birth_date": "1990-01-01", "language": "de", "accounts": ["checking"]}"#, "invalid_parameter", "accounts"),
                (
                    #"{"name": "Ann Li", "birth_date": "1990-01-01", "language": "de", "accounts": ["savings:JPY"]}"#, "unsupported_currency",
                    "accounts"
                ),
                (#"{"name": "Ann Li", "birth_date": "1990-01-01", "language": "de", "email": "nope"}"#, "invalid_parameter", "email"),
                (#"{"name": "Ann Li", "birth_date": "1990-01-01", "language": "de", "phone": "079"}"#, "invalid_phone_number", "phone"),
                (#"{"birth_date": "1990-01-01", "language": "de"}"#, "missing_field", "name"),
            ]
            let before = try await harness.services.database.read { try await $0.queryOne(SQL("SELECT COUNT(*) FROM customers"))!.int(0) }
            for (body, code, field) in cases {
                let reply = try await client.call(.post, "/v1/staff/customers", token: staff, json: body)
                #expect(reply.status.code / 100 == 4 && reply.errorCode == code && reply.errorField == field, "\(body): \(reply.text)")
            }
            let after = try await harness.services.database.read { try await $0.queryOne(SQL("SELECT COUNT(*) FROM customers"))!.int(0) }
            #expect(before == after)
        }
    }

    @Test("a reset letter ends the password, sessions and remembered browsers; it works once, for 7 days")
    func resetLetter() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let staff = try await staffToken(harness, client)
            let token = try await client.login("10000012")
            let principal = try await harness.services.auth.authenticate(token: token)
            let remembered = try await harness.services.rememberedBrowsers.remember(principal)
            #expect(try await client.call(.post, "/v1/staff/customers/10000012/reset-letter").status == .unauthorized)
            #expect(try await client.call(.post, "/v1/staff/customers/10000099/reset-letter", token: staff).status == .notFound)
            let issued = try await client.call(.post, "/v1/staff/customers/10000012/reset-letter", token: staff)
            #expect(issued.status == .created, "\(issued.text)")
            let letter = try #require(issued.json["letter"] as? [String: Any])
            #expect(letter["purpose"] as? String == "reset")
            let code = try #require(letter["code"] as? String)
            #expect(try await client.call(.get, "/v1/accounts", token: token).status == .unauthorized)
            #expect(try await login(client, "10000012", "tresor-demo").status == .unauthorized)
            #expect(try await harness.services.rememberedBrowsers.principal(token: remembered) == nil)
            // A second letter voids the first; the second lapses after 7 days.
            let second = try await client.call(.post, "/v1/staff/customers/10000012/reset-letter", token: staff)
            let secondCode = try #require((second.json["letter"] as? [String: Any])?["code"] as? String)
            #expect(try await activate(client, "10000012", code, "Neues-Passwort-2026").errorCode == "invalid_activation_code")
            (harness.services.clock as! ManualClock).advance(seconds: 7 * 86_400 + 1)
            #expect(try await activate(client, "10000012", secondCode, "Neues-Passwort-2026").errorCode == "invalid_activation_code")
            let third = try await client.call(
                .post, "/v1/staff/customers/10000012/reset-letter", token: try await staffToken(harness, client))  // a new day's staff login
            let thirdCode = try #require((third.json["letter"] as? [String: Any])?["code"] as? String)
            #expect(try await activate(client, "10000012", thirdCode, "Neues-Passwort-2026").status == .created)
            #expect(try await login(client, "10000012", "Neues-Passwort-2026").status == .created)
            let actions = try await harness.services.audit.trail(contract: "10000012", fromMillis: 0, toMillis: .max).map(\.action)
            #expect(actions.filter { $0 == "customer.reset_letter" }.count == 3)
        }
    }

    @Test("five wrong codes void the letter, the right one after them too")
    func attemptsVoidTheLetter() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let staff = try await staffToken(harness, client)
            let issued = try await client.call(.post, "/v1/staff/customers/10000028/reset-letter", token: staff)
            let code = try #require((issued.json["letter"] as? [String: Any])?["code"] as? String)
            for attempt in 0..<CustomerService.codeAttemptsMax {
                #expect(try await activate(client, "10000028", "WRNG-CODE-\(attempt)XYZ", "Neues-Passwort-2026").status == .unauthorized)
            }
            #expect(try await activate(client, "10000028", code, "Neues-Passwort-2026").errorCode == "invalid_activation_code")
        }
    }

    @Test("staff find a forgotten contract number by name and birth date, in any case and accents")
    func findByNameAndBirthDate() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let staff = try await staffToken(harness, client)
            let made = try await client.call(.post, "/v1/staff/customers", token: staff, json: Self.zoe)
            let contract = try #require((made.json["customer"] as? [String: Any])?["contract"] as? String)
            let found = try await client.call(.get, "/v1/staff/customers?name=MULLER&birth_date=1991-04-17", token: staff)
            #expect((found.json["customers"] as? [[String: Any]])?.compactMap { $0["contract"] as? String } == [contract], "\(found.text)")
            let other = try await client.call(.get, "/v1/staff/customers?name=muller&birth_date=1991-04-18", token: staff)
            #expect((other.json["customers"] as? [[String: Any]])?.isEmpty == true)
            #expect(try await client.call(.get, "/v1/staff/customers?name=muller&birth_date=1991-04-17").status == .unauthorized)
            #expect(try await client.call(.get, "/v1/staff/customers?name=muller", token: staff).errorField == "birth_date")
            let finds = try await harness.services.database.read {
                try await $0.query(SQL("SELECT actor FROM audit_log WHERE action = 'customer.find'"))
            }
            #expect(finds.count == 2 && finds.allSatisfy { $0.text(0) == "staff:berater.zh" })
        }
    }
}
