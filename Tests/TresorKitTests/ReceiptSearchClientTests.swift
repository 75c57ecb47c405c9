import Foundation
import Testing

@testable import TresorKit

@Suite("TresorKit: receipt search against a real server")
struct ReceiptSearchClientTests {
    @Test("a search sends each part; a range the wrong way round is refused by its field")
    func search() async throws {
        let server = try await LiveServer.start()
        defer { server.stop() }
        let client = TresorClient(baseURL: server.url)
        try await client.login(contract: "10000012", password: "tresor-demo")
        #expect(try await client.searchReceipts(text: "no such shop", from: try LocalDate(parsing: "2026-01-01")).isEmpty)
        do {
            _ = try await client.searchReceipts(
                totalFrom: Money(minorUnits: 5_000, currency: .chf), totalUpTo: Money(minorUnits: 1_000, currency: .chf))
            Issue.record("a range from 50 to 10 was accepted")
        } catch let error as TresorError {
            #expect(error.field == "max_amount" && error.status == 400)
        }
    }
}
