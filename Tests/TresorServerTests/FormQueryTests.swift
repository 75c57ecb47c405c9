import Foundation
import Testing

@testable import TresorServer

@Suite("A query's + is a space, as a GET form sends it")
struct FormQueryTests {
    @Test("only the query's pluses are rewritten; %2B stays a plus")
    func rewrite() {
        #expect(FormQueryMiddleware.spaced("/branches?q=St.+Gallen&kind=atm") == "/branches?q=St.%20Gallen&kind=atm")
        #expect(FormQueryMiddleware.spaced("/static/a+b.css") == nil)
        #expect(FormQueryMiddleware.spaced("/a+b?q=x+y") == "/a+b?q=x%20y")
        #expect(FormQueryMiddleware.spaced("/branches?q=a%2Bb") == nil)
        #expect(FormQueryMiddleware.spaced("/branches") == nil)
    }

    /// The name of the first place the finder lists, the search field's value and whether the
    /// page says it does not know the search.
    static func finder(_ client: APIHarness.Client, _ query: String) async throws -> (first: String?, value: String?, unknown: Bool) {
        let page = try await client.call(.get, "/branches?q=\(query)", headers: ["Accept": "text/html", "Accept-Language": "de"]).text
        let value = page.range(of: #"name="q" value=""#).map { String(page[$0.upperBound...].prefix { $0 != "\"" }) }
        let list = page.range(of: #"id="places""#).map { String(page[$0.upperBound...]) } ?? ""
        let first = list.range(of: #"<strong>[^<]*</strong>"#, options: .regularExpression).map {
            String(list[$0]).replacingOccurrences(of: #"</?strong>"#, with: "", options: .regularExpression)
        }
        return (first, value, page.contains(#"class="notice""#))
    }

    @Test("the branch finder, searched as a browser sends it: two-word towns and place names are found")
    func finderSearch() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let gallen = try await Self.finder(client, "St.+Gallen")
            #expect(gallen.value == "St. Gallen" && !gallen.unknown && gallen.first?.hasPrefix("St. Gallen") == true, "\(gallen)")
            let station = try await Self.finder(client, "Z%C3%BCrich+HB")
            #expect(station.first == "Zürich HB, Bahnhofhalle" && !station.unknown, "\(station)")
            let square = try await Self.finder(client, "paradeplatz")
            #expect(square.first == "Zürich Paradeplatz" && !square.unknown, "\(square)")
            let plus = try await Self.finder(client, "a%2Bb")
            #expect(plus.value == "a+b" && plus.unknown, "a plus sent as %2B is a plus: \(plus)")
        }
    }
}
