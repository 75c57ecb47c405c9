import Foundation
import Testing
import TresorKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// TresorKit's offline checks on Tests/vectors/payment-validation.json, the vectors the
/// server's own tests use (TresorServerTests/ValidationVectorAPITests): the same code, field and
/// message on the device as from a real server, for every vector.
@Suite("Offline validation: the server's vectors, the server's answers")
struct ValidationVectorTests {
    static func vectors() throws -> [[String: Any]] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("vectors/payment-validation.json")
        return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [[String: Any]])
    }

    /// What the device says of `body`: nil when the request passes every offline check.
    static func offline(_ body: Data) -> TresorError? {
        do {
            _ = try JSONDecoder().decode(PaymentRequest.self, from: body).validated()
            return nil
        } catch let error as DomainError {
            return TresorError(error)
        } catch {
            return TresorError(status: nil, code: "undecodable", message: "\(error)")
        }
    }

    @Test("each vector: the device's verdict is the file's, and a real server answers with the same code, field and message")
    func sameAsServer() async throws {
        let server = try await LiveServer.start()
        defer { server.stop() }
        let client = TresorClient(baseURL: server.url)
        try await client.login(contract: "10000012", password: "tresor-demo")
        let account = try #require(try await client.accounts().value.first { $0.kind == .current }?.id)
        let token = try await Self.token(server)
        let vectors = try Self.vectors()
        #expect(vectors.count >= 15)
        for vector in vectors {
            let name = vector["name"] as? String ?? "?"
            var request = try #require(vector["request"] as? [String: Any])
            request["debtor_account"] = account
            let body = try JSONSerialization.data(withJSONObject: request)
            let device = Self.offline(body)
            #expect(
                device?.code == vector["code"] as? String && device?.field == vector["field"] as? String, "\(name): \(String(describing: device))")
            if let suggested = vector["suggested"] as? String {
                #expect(device?.suggested == suggested, "\(name): \(String(describing: device))")
            }

            var post = URLRequest(url: server.url.appendingPathComponent("v1/payments"))
            post.httpMethod = "POST"
            post.httpBody = body
            post.setValue("application/json", forHTTPHeaderField: "Content-Type")
            post.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
            post.setValue(UUID().uuidString, forHTTPHeaderField: "Idempotency-Key")
            let (data, response) = try await URLSession.shared.data(for: post)
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            if let device {
                let error = (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["error"] as? [String: Any]
                #expect(error?["code"] as? String == device.code && error?["field"] as? String == device.field, "\(name)")
                #expect(error?["message"] as? String == device.message, "\(name): the same words on the device as from the server")
                #expect(error?["suggested"] as? String == device.suggested, "\(name)")
            } else {
                #expect(status == 201, "\(name): valid offline, so the server creates it")
            }
        }
    }

    static func token(_ server: LiveServer) async throws -> String {
        var login = URLRequest(url: server.url.appendingPathComponent("v1/sessions"))
        login.httpMethod = "POST"
        login.httpBody = Data(#"{"contract": "10000012", "password": "tresor-demo"}"#.utf8)
        login.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (data, _) = try await URLSession.shared.data(for: login)
        return try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["token"] as? String)
    }
}
