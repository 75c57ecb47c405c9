import Foundation
import Testing

@Suite("Sessions API")
struct SessionAPITests {
    @Test("demo customers log in; wrong or unknown credentials get the same 401")
    func login() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let ok = try await client.call(.post, "/v1/sessions", json: #"{"contract": "10000012", "password": "tresor-demo"}"#)
            #expect(ok.status == .created)
            #expect(ok.json["level"] as? Int == 2)
            #expect((ok.json["token"] as? String)?.count ?? 0 >= 40)
            #expect(ISO8601DateFormatter().date(from: ok.json["expires_at"] as? String ?? "") != nil)
            // The contract as an Arabic region's number pad or a Nepali keyboard types it.
            for contract in ["١٠٠٠٠٠١٢", "१०००००१२"] {
                let typed = try await client.call(.post, "/v1/sessions", json: #"{"contract": "\#(contract)", "password": "tresor-demo"}"#)
                #expect(typed.status == .created, "\(contract): \(typed.text)")
            }

            let wrong = try await client.call(.post, "/v1/sessions", json: #"{"contract": "10000012", "password": "nope"}"#)
            let unknown = try await client.call(.post, "/v1/sessions", json: #"{"contract": "99999999", "password": "nope"}"#)
            #expect(wrong.status == .unauthorized)
            #expect(wrong.errorCode == "invalid_credentials")
            #expect(wrong.text == unknown.text)
            #expect(unknown.status == .unauthorized)
        }
    }

    @Test("malformed login bodies are 400 with the field at fault")
    func malformed() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let missing = try await client.call(.post, "/v1/sessions", json: #"{"contract": "10000012"}"#)
            #expect(missing.status == .badRequest)
            #expect(missing.errorCode == "missing_field")
            #expect(missing.errorField == "password")
            let broken = try await client.call(.post, "/v1/sessions", json: #"{"contract": "#)
            #expect(broken.status == .badRequest)
            #expect(broken.errorCode == "invalid_json")
            let wrongType = try await client.call(.post, "/v1/sessions", json: #"{"contract": 10000012, "password": "x"}"#)
            #expect(wrongType.errorCode == "invalid_parameter")
            #expect(wrongType.errorField == "contract")
            let huge = try await client.call(.post, "/v1/sessions", json: String(repeating: " ", count: 70_000) + "{}")
            #expect(huge.status == .contentTooLarge)
        }
    }

    @Test("routes need a valid token; logout revokes it at once")
    func tokens() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            #expect(try await client.call(.get, "/v1/accounts").status == .unauthorized)
            #expect(try await client.call(.get, "/v1/accounts", token: "forged").errorCode == "unauthorized")
            let token = try await client.login("10000028")
            #expect(try await client.call(.get, "/v1/accounts", token: token).status == .ok)
            #expect(try await client.call(.delete, "/v1/sessions/current", token: token).status == .noContent)
            #expect(try await client.call(.get, "/v1/accounts", token: token).status == .unauthorized)
        }
    }
}
