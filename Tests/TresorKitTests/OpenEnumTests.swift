import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing
import TresorKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An app in the field and a newer server: the bank adds a value to one of the document's string
/// enums (a payment status, a kind of account) before every phone has the app that knows it. The
/// answers here are a real server's, with that one value changed, read by the generated client.
@Suite("Values a newer server added")
struct OpenEnumTests {
    /// Answers each call with `body` as JSON, as a newer server would have.
    struct NewerServer: ClientTransport {
        let body: Data
        var status: HTTPResponse.Status = .ok

        func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
            var response = HTTPResponse(status: status)
            response.headerFields[.contentType] = "application/json; charset=utf-8"
            return (response, HTTPBody(self.body))
        }
    }

    /// The real server's JSON answer to `GET path` (or `POST` of `posting`), with `change` applied.
    static func answer(
        _ server: LiveServer, _ path: String, token: String? = nil, posting: String? = nil, change: (inout [String: Any]) throws -> Void
    ) async throws -> Data {
        var call = URLRequest(url: server.url.appendingPathComponent(path))
        if let token { call.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let posting {
            call.httpMethod = "POST"
            call.httpBody = Data(posting.utf8)
            call.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, _) = try await URLSession.shared.data(for: call)
        var json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        try change(&json)
        return try JSONSerialization.data(withJSONObject: json)
    }

    @Test("a value the app does not know reads as unknown, and the rest of the answer reads")
    func newerValues() async throws {
        let server = try await LiveServer.start()
        defer { server.stop() }
        let token = try await ValidationVectorTests.token(server)

        let accountsBody = try await Self.answer(server, "v1/accounts", token: token) { json in
            var accounts = try #require(json["accounts"] as? [[String: Any]])
            #expect(accounts.count >= 2)
            accounts[0]["kind"] = "youth_savings"
            json["accounts"] = accounts
        }
        let accounts = try await Client(serverURL: server.url, transport: NewerServer(body: accountsBody)).getV1Accounts().ok.body.json.accounts
        #expect(accounts.first?.kind == .unknown("youth_savings"))
        #expect(accounts.dropFirst().allSatisfy { Account.KindPayload.allCases.contains($0.kind) }, "the other accounts read as before")
        #expect(accounts.first?.booked.money != nil, "the account with the new kind reads whole")

        let paymentsBody = try await Self.answer(server, "v1/payments", token: token) { json in
            var payments = try #require(json["payments"] as? [[String: Any]])
            #expect(!payments.isEmpty, "the demo's first customer has a payment pending")
            payments[0]["status"] = "on_hold"
            json["payments"] = payments
        }
        let payments = try await Client(serverURL: server.url, transport: NewerServer(body: paymentsBody)).getV1Payments().ok.body.json.payments
        let held = try #require(payments.first)
        #expect(held.status == .unknown("on_hold"))
        #expect(held.status.rawValue == "on_hold")
        #expect(String(decoding: try JSONEncoder().encode(held.status), as: UTF8.self) == #""on_hold""#, "sent back as it came")

        // An authentication level the app does not know: its login still reads.
        let login = #"{"contract": "10000012", "password": "tresor-demo"}"#
        let sessionBody = try await Self.answer(server, "v1/sessions", posting: login) { json in
            #expect(json["level"] as? Int == 2)
            json["level"] = 3
        }
        let granted = try await Client(serverURL: server.url, transport: NewerServer(body: sessionBody, status: .created))
            .postV1Sessions(body: .json(.init(contract: "10000012", password: "tresor-demo"))).created.body.json
        #expect(granted.level == .unknown(3) && granted.level.rawValue == 3 && !granted.token.isEmpty)
    }

    @Test("a value the document names reads as its case, and allCases lists only those")
    func knownValues() throws {
        #expect(Payment.StatusPayload(rawValue: "executed") == .executed)
        #expect(Payment.StatusPayload(rawValue: "needs_signature") == .needsSignature)
        #expect(
            Payment.StatusPayload.allCases.map(\.rawValue) == ["needs_signature", "pending", "executed", "rejected", "cancelled", "returned", "held"])
        let decoded = try JSONDecoder().decode([Account.KindPayload].self, from: Data(#"["current", "savings_book", "kids"]"#.utf8))
        #expect(decoded == [.current, .savingsBook, .unknown("kids")])
    }
}
