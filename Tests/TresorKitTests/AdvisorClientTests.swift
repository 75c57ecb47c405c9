import Foundation
import Testing

@testable import TresorKit

@Suite("TresorKit: the personal advisor against a real server")
struct AdvisorClientTests {
    @Test("the advisor with branch and phone; a message written comes back in the thread; an empty one is refused by its field")
    func advisorThread() async throws {
        let server = try await LiveServer.start()
        defer { server.stop() }
        let client = TresorClient(baseURL: server.url)
        try await client.login(contract: "10000012", password: "tresor-demo")
        let advisor = try #require(try await client.advisor())
        #expect(!advisor.name.isEmpty && !advisor.branch.town.isEmpty)
        #expect(advisor.phone?.hasPrefix("+41") == true)
        let sent = try await client.writeToAdvisor("Können wir telefonieren?")
        #expect(sent.from == .customer)
        #expect(try await client.advisorMessages().map(\.body) == ["Können wir telefonieren?"])
        do {
            _ = try await client.writeToAdvisor(" ")
            Issue.record("an empty message was accepted")
        } catch let error as TresorError {
            #expect(error.field == "body" && error.status == 400)
        }
    }
}
