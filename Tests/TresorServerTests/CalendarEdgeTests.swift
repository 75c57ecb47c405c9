import Foundation
import Testing

/// The first and last days a date can name, in every date a read takes.
///
/// why: limits computed from a client's date (a year before it, ten years or two weeks after)
/// stepped outside years 1–9999, and the date arithmetic trapped there: one request from a
/// logged-in customer stopped the server (balance history to 0001-03-01, a statement from
/// 9999-06-01, slots from 9999-12-31).
@Suite("Dates at the ends of the calendar")
struct CalendarEdgeTests {
    static let edges = ["0001-01-01", "0001-12-31", "9999-01-01", "9999-12-31"]

    @Test("every date query of the reads, at 0001-01-01 and 9999-12-31 in every pairing, answers without a 5xx")
    func edgesAnswer() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let token = try await client.login("10000012")
            let account = try #require(try await client.accounts(token).first?["id"] as? String)
            let branch = try #require(
                ((try await client.call(.get, "/v1/branches?kind=branch&limit=1")).json["branches"] as? [[String: Any]])?.first?["id"] as? String)
            var paths: [String] = []
            for date in Self.edges {
                paths += [
                    "/v1/accounts/\(account)/transactions?to=\(date)", "/v1/accounts/\(account)/balance-history?to=\(date)",
                    "/v1/accounts/\(account)/balance-history?from=\(date)", "/v1/branches/\(branch)/slots?from=\(date)",
                    "/v1/fx/rates?date=\(date)",
                ]
                for to in Self.edges {
                    let range = "from=\(date)&to=\(to)"
                    paths += [
                        "/v1/accounts/\(account)/transactions?\(range)", "/v1/accounts/\(account)/balance-history?granularity=week&\(range)",
                        "/v1/accounts/\(account)/balance-history?\(range)", "/v1/accounts/\(account)/statements?format=csv&\(range)",
                        "/v1/accounts/\(account)/statements?format=camt053&\(range)", "/v1/branches/\(branch)/slots?\(range)",
                    ]
                }
            }
            var answered = 0
            for path in paths {
                let reply = try await client.call(.get, path, token: token)
                #expect(reply.status.code < 500, "\(path): \(reply.status.code) \(reply.text.prefix(200))")
                if reply.status == .ok { answered += 1 }
            }
            // Not all refused: the ranges inside the calendar and its ten-year limit are read.
            #expect(answered > paths.count / 3, "\(answered) of \(paths.count)")
        }
    }
}
