import Crypto
import Foundation
import Testing
import TresorCore
import TresorDomain
import TresorLedger
import TresorTestSupport

/// Certificates through the API, the PDFs read back with pdftotext, and their verification by
/// someone who only has the file and the code.
@Suite("Certificates: catalogue, balance confirmation, tax statement, verification, account opening")
struct CertificateAPITests {
    @Test("a balance confirmation prints each account's balance on the day, and its code verifies the file, not an edited one")
    func balanceConfirmationVerifies() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let anna = try await PayingCustomer.annaMeier(client)
            let types = try await client.call(.get, "/v1/certificates/types", token: anna.token)
            let catalogue = types.json["types"] as? [[String: Any]] ?? []
            #expect(catalogue.compactMap { $0["type"] as? String } == ["balance_confirmation", "interest_tax_statement", "account_opening"])

            let reply = try await client.call(
                .post, "/v1/certificates", token: anna.token, json: #"{"type": "balance_confirmation", "fields": {"date": "2026-10-31"}}"#)
            #expect(reply.status == .created)
            let certificate = try #require(reply.json["certificate"] as? [String: Any])
            let code = try #require(certificate["code"] as? String)
            #expect(code.wholeMatch(of: /[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}/) != nil)
            let download = try await client.download(try #require(certificate["pdf"] as? String), token: anna.token)
            #expect(download.status == .ok && download.headers[.contentType] == "application/pdf")
            #expect(Hashing.sha256Hex(download.bytes) == certificate["sha256"] as? String)

            let text = try Self.text(download.bytes)
            #expect(text.contains("Saldobestätigung") && text.contains("Anna Meier") && text.contains("31.10.2026") && text.contains(code))
            let october = try LocalDate(parsing: "2026-10-31")
            for account in try await harness.services.ledger.accounts(of: CustomerID(1)) {
                let statement = try await harness.services.statements.statement(
                    account: account.id, from: try LocalDate(parsing: "2020-01-01"), to: october)
                #expect(text.contains(StatementAPITests.swiss(statement.closing.minorUnits)), "\(account.name) on 31.10.")
                #expect(text.contains(account.iban.formatted))
            }

            // The third party: no login, only the code (typed in lower case without dashes) and the file.
            let check = try await client.call(.get, "/v1/certificates/verify/\(code.replacingOccurrences(of: "-", with: "").lowercased())")
            #expect(check.status == .ok)
            #expect(check.json["sha256"] as? String == Hashing.sha256Hex(download.bytes))
            #expect(check.json["type"] as? String == "balance_confirmation")
            let same = try await Self.upload(client, code: code, bytes: download.bytes)
            #expect(same.json["matches"] as? Bool == true)
            var edited = download.bytes
            let position = try #require(Self.range(of: Array("31.10.2026".utf8), in: edited) ?? (edited.count > 2_000 ? 1_000..<1_001 : nil))
            edited[position.lowerBound] = edited[position.lowerBound] == UInt8(ascii: "3") ? UInt8(ascii: "2") : UInt8(ascii: "3")
            let forged = try await Self.upload(client, code: code, bytes: edited)
            #expect(forged.status == .ok)
            #expect(forged.json["matches"] as? Bool == false, "an edited PDF does not match the digest issued")
            #expect(try await client.call(.get, "/v1/certificates/verify/ZZZZ-ZZZZ-ZZZZ").status == .notFound)
            #expect(try await client.call(.get, "/v1/certificates/verify/not-a-code").errorCode == "not_found")

            let luca = try await client.login("10000028")
            let stolen = try await client.download(try #require(certificate["pdf"] as? String), token: luca)
            #expect(stolen.status == .notFound, "another customer's certificate does not exist for Luca")
            let list = try await client.call(.get, "/v1/certificates", token: anna.token)
            #expect((list.json["certificates"] as? [[String: Any]])?.first?["code"] as? String == code)
        }
    }

    @Test("the tax statement shows the year's gross interest and 35 % withholding tax above the CHF 200 exemption")
    func taxStatement() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let anna = try await PayingCustomer.annaMeier(client)
            let clearing = try #require(try await harness.services.ledger.bankAccount(.clearing, currency: .chf))
            let day = try LocalDate(parsing: "2025-12-31")
            // CHF 250.00 more interest on savings: with the demo's year-end interest it passes the
            // CHF 200 exemption, so the whole year's interest is taxed; the other accounts earn none.
            for (account, minor) in [(anna.savings, Int64(25_000))] {
                _ = try await harness.services.ledger.commit(
                    TransactionDraft(
                        kind: "interest", bookingDate: day, valueDate: day,
                        lines: [
                            PostingLine(accountID: clearing.id, amount: Money(minorUnits: -minor, currency: .chf)),
                            PostingLine(accountID: AccountID(text: account)!, amount: Money(minorUnits: minor, currency: .chf)),
                        ]), now: 0)
            }
            let reply = try await client.call(
                .post, "/v1/certificates", token: anna.token,
                json: #"{"type": "interest_tax_statement", "fields": {"year": "2025"}, "language": "en"}"#)
            #expect(reply.status == .created)
            let path = try #require((reply.json["certificate"] as? [String: Any])?["pdf"] as? String)
            let text = try Self.text(try await client.download(path, token: anna.token).bytes)
            #expect(text.contains("Interest and tax statement") && text.contains("Withholding tax"))
            let savingsLine = try #require(text.split(separator: "\n").first { $0.contains("Sparkonto") })
            let demoInterest = try await harness.services.statements.statement(
                account: AccountID(text: anna.savings)!, from: day, to: day
            ).lines.filter { $0.code.subFamily == "INTR" }.reduce(0) { $0 + $1.amount.minorUnits }
            let gross = Money(minorUnits: demoInterest, currency: .chf)
            let tax = WithholdingTax.tax(onGrossInterest: gross)
            #expect(demoInterest > 20_000 && tax.minorUnits == (demoInterest * 35 + 50) / 100)
            #expect(savingsLine.contains(gross.decimalString) && savingsLine.contains(tax.decimalString), "\(savingsLine)")
        }
    }

    @Test("an account opening request becomes an account when staff approve it, once")
    func accountOpening() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let anna = try await PayingCustomer.annaMeier(client)
            let before = try await client.accounts(anna.token).count
            let reply = try await client.call(
                .post, "/v1/certificates", token: anna.token, json: #"{"type": "account_opening", "fields": {"kind": "savings", "currency": "EUR"}}"#)
            #expect(reply.status == .created)
            try await harness.services.staff.add(name: "branch.zurich", password: "branch-password-1")
            let staff = try await client.call(.post, "/v1/staff/sessions", json: #"{"name": "branch.zurich", "password": "branch-password-1"}"#)
            let staffToken = try #require(staff.json["token"] as? String)
            let requests = try await client.call(.get, "/v1/staff/account-requests", token: staffToken).json["requests"] as? [[String: Any]] ?? []
            let request = try #require(requests.first)
            #expect(request["kind"] as? String == "savings" && request["currency"] as? String == "EUR")
            #expect(try await client.accounts(anna.token).count == before, "nothing opens before staff decide")
            let approved = try await client.call(.post, "/v1/staff/account-requests/\(request["id"]!)/approve", token: staffToken)
            #expect(approved.status == .created)
            let again = try await client.call(.post, "/v1/staff/account-requests/\(request["id"]!)/approve", token: staffToken)
            #expect(again.status == .conflict && again.errorCode == "request_not_open")
            for action in ["approve", "decline"] {
                let unknown = try await client.call(
                    .post, "/v1/staff/account-requests/99999/\(action)", token: staffToken, json: action == "decline" ? #"{"message": "no"}"# : nil)
                #expect(unknown.status == .notFound && unknown.errorCode == "not_found", "\(action) of a request that does not exist")
            }
            let accounts = try await client.accounts(anna.token)
            #expect(accounts.count == before + 1)
            #expect(accounts.contains { $0["kind"] as? String == "savings" && $0["currency"] as? String == "EUR" })
            let messages = try await harness.services.messages.messages(of: CustomerID(1))
            #expect(messages.contains { $0.subject == "Your new account is open" })
            #expect(try await harness.services.ledger.invariantViolations().isEmpty)
        }
    }

    @Test("bad requests name the field")
    func badRequests() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let anna = try await PayingCustomer.annaMeier(client)
            let cases: [(String, String, String)] = [
                (#"{"type": "mortgage"}"#, "unknown_certificate_type", "type"),
                (#"{"type": "balance_confirmation", "fields": {"date": "2099-01-01"}}"#, "invalid_date", "fields.date"),
                (#"{"type": "balance_confirmation", "fields": {}}"#, "invalid_parameter", "fields.date"),
                (#"{"type": "interest_tax_statement", "fields": {"year": "2026"}}"#, "invalid_parameter", "fields.year"),
                (#"{"type": "account_opening", "fields": {"kind": "card", "currency": "CHF"}}"#, "invalid_parameter", "fields.kind"),
                (#"{"type": "account_opening", "fields": {"kind": "savings", "currency": "USD"}}"#, "invalid_parameter", "fields.currency"),
                (#"{"type": "balance_confirmation", "fields": {"date": "2026-10-01", "dte": "x"}}"#, "invalid_parameter", "fields.dte"),
                (#"{"type": "balance_confirmation", "fields": {"date": "2026-10-01"}, "language": "xx"}"#, "invalid_parameter", "language"),
            ]
            for (json, code, field) in cases {
                let reply = try await client.call(.post, "/v1/certificates", token: anna.token, json: json)
                #expect(reply.status == .badRequest, "\(json)")
                #expect(reply.errorCode == code && reply.errorField == field, "\(json): \(reply.text)")
            }
            #expect(try await harness.services.certificates.list(of: Principal(customerID: CustomerID(1), contract: "10000012", level: 2)).isEmpty)
        }
    }

    static func text(_ pdf: [UInt8]) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("certificate-\(UUID().uuidString).pdf")
        try Data(pdf).write(to: file)
        return try ToolRun.run("/usr/bin/pdftotext", ["-layout", file.path, "-"]).output
    }

    static func upload(_ client: APIHarness.Client, code: String, bytes: [UInt8]) async throws -> APIHarness.Reply {
        try await client.client.execute(uri: "/v1/certificates/verify/\(code)", method: .post, headers: [:], body: .init(bytes: bytes)) { response in
            APIHarness.Reply(status: response.status, headers: response.headers, text: String(buffer: response.body))
        }
    }

    static func range(of needle: [UInt8], in haystack: [UInt8]) -> Range<Int>? {
        guard needle.count <= haystack.count else { return nil }
        for start in 0...(haystack.count - needle.count) where Array(haystack[start..<start + needle.count]) == needle {
            return start..<start + needle.count
        }
        return nil
    }
}
