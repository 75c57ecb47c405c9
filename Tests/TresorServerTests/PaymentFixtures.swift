import Foundation
import Testing
import TresorDomain

/// The demo customer Anna Meier's accounts and helpers to pay from them through the API.
struct PayingCustomer {
    let client: APIHarness.Client
    let token: String
    let current: String
    let savings: String
    let euro: String
    let currentIBAN: String
    /// Anna's printed TAN list, issued for the test: codes by position.
    var tans: [Int: String] = [:]

    /// Anna with a fresh TAN list, to sign payments that need it.
    static func annaMeier(_ client: APIHarness.Client, harness: APIHarness) async throws -> PayingCustomer {
        var anna = try await annaMeier(client)
        let codes = try await harness.services.signing.issueTANList(for: CustomerID(1), actor: "staff:test")
        anna.tans = Dictionary(uniqueKeysWithValues: codes.map { ($0.position, $0.code) })
        return anna
    }

    /// Pays and, when the payment asks for a signature, answers with the TAN at the position asked.
    func payAndSign(_ json: String, key: String = UUID().uuidString) async throws -> APIHarness.Reply {
        let reply = try await pay(json, key: key)
        guard reply.paymentStatus == "needs_signature", let id = reply.paymentID else { return reply }
        let position = try #require((reply.payment["signature"] as? [String: Any])?["position"] as? Int)
        let code = try #require(tans[position])
        return try await client.call(.post, "/v1/payments/\(id)/signature", token: token, json: #"{"code": "\#(code)"}"#)
    }

    static func annaMeier(_ client: APIHarness.Client) async throws -> PayingCustomer {
        let token = try await client.login("10000012")
        let accounts = try await client.accounts(token)
        func account(_ kind: String, _ currency: String) throws -> [String: Any] {
            try #require(accounts.first { $0["kind"] as? String == kind && $0["currency"] as? String == currency })
        }
        return PayingCustomer(
            client: client, token: token, current: try account("current", "CHF")["id"] as! String,
            savings: try account("savings", "CHF")["id"] as! String, euro: try account("current", "EUR")["id"] as! String,
            currentIBAN: try account("current", "CHF")["iban"] as! String)
    }

    func pay(_ json: String, key: String = UUID().uuidString) async throws -> APIHarness.Reply {
        try await client.call(.post, "/v1/payments", token: token, json: json, headers: ["Idempotency-Key": key])
    }

    func account(_ id: String) async throws -> [String: Any] {
        try await client.call(.get, "/v1/accounts/\(id)", token: token).json["account"] as? [String: Any] ?? [:]
    }

    /// Booked and available balance in minor units.
    func balances(_ id: String) async throws -> (booked: Int64, available: Int64) {
        let account = try await account(id)
        func minor(_ key: String) -> Int64 {
            let text = account.money(key) ?? "0"
            return try! Money(parsing: text, currency: .chf).minorUnits
        }
        return (minor("booked"), minor("available"))
    }

    static func money(_ amount: String, _ currency: String = "CHF") -> String {
        #"{"amount": "\#(amount)", "currency": "\#(currency)"}"#
    }

    func ibanPayment(iban: String, amount: String, from: String? = nil, date: String? = nil, extra: String = "") -> String {
        let dateField = date.map { #", "execution_date": "\#($0)""# } ?? ""
        return #"""
            {"type": "iban", "debtor_account": "\#(from ?? current)", "amount": \#(Self.money(amount))\#(dateField),
             "creditor": {"name": "Müller Gartenbau AG", "iban": "\#(iban)", "street": "Seestrasse", "building_number": "12",
                          "postal_code": "8002", "town": "Zürich", "country": "CH"}, "message": "Rechnung 4711"\#(extra)}
            """#
    }
}

extension APIHarness.Reply {
    var payment: [String: Any] { json["payment"] as? [String: Any] ?? [:] }
    var paymentStatus: String? { payment["status"] as? String }
    var paymentID: String? { payment["id"] as? String }
}

/// A CH IBAN at another bank (PostFinance example), and a German one.
enum ForeignIBANs {
    static let swiss = "CH5604835012345678009"
    /// A Swiss payee no fixture whitelists: paying it needs a signature.
    static let swissUnlisted = "CH9300762011623852957"
    static let german = "DE89370400440532013000"
}
