import Foundation
import Testing
import TresorDomain
import TresorServer

@Suite("OpenAPI document")
struct OpenAPITests {
    /// `METHOD /path` pairs of the document, read from its `paths:` section.
    static func documentedRoutes(_ yaml: String) -> Set<String> {
        var routes = Set<String>()
        var inPaths = false
        var path: String?
        for line in yaml.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "paths:" {
                inPaths = true
                continue
            }
            guard inPaths else { continue }
            if !line.hasPrefix(" ") && !line.isEmpty { break }
            if line.hasPrefix("  /"), line.hasSuffix(":"), !line.hasPrefix("   ") {
                path = String(line.dropFirst(2).dropLast())
            } else if let path, line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":") {
                let method = line.trimmingCharacters(in: .whitespaces).dropLast()
                if ["get", "post", "put", "patch", "delete"].contains(method) {
                    routes.insert("\(method.uppercased()) \(path)")
                }
            }
        }
        return routes
    }

    @Test("every /v1 route is documented and every documented route exists")
    func routesMatchDocument() async throws {
        let harness = try await APIHarness.make()
        let served = Set(harness.router.routes.map { "\($0.method) \($0.path)" }.filter { $0.contains(" /v1/") })
        let yaml = try await harness.run { client in try await client.call(.get, "/openapi.yaml").text }
        let documented = Self.documentedRoutes(yaml)
        #expect(yaml.hasPrefix("openapi: 3.1.0"))
        #expect(served.count >= 7)
        #expect(served == documented)
    }

    /// The pattern `name` (`text` or `named`) of the document's `x-text-patterns`, unquoted.
    static func textPattern(_ name: String, in yaml: String) throws -> NSRegularExpression {
        let line = try #require(yaml.split(separator: "\n").first { $0.hasPrefix("    \(name): &\(name) '") })
        let quoted = line.drop { $0 != "'" }.dropFirst().dropLast()
        return try NSRegularExpression(pattern: quoted.replacingOccurrences(of: "''", with: "'"))
    }

    @Test("the document's text patterns refuse exactly the characters the server refuses")
    func textPatternsAreTheServersRule() async throws {
        let yaml = try await APIHarness.make().run { client in try await client.call(.get, "/openapi.yaml").text }
        let text = try Self.textPattern("text", in: yaml)
        let named = try Self.textPattern("named", in: yaml)
        func matches(_ pattern: NSRegularExpression, _ value: String) -> Bool {
            pattern.firstMatch(in: value, range: NSRange(value.startIndex..., in: value)) != nil
        }
        let scalars = (0...0x7F).map { Unicode.Scalar($0)! } + ["\u{85}", "\u{A0}", "\u{2028}", "\u{FFFD}", "\u{FFFE}", "\u{FFFF}", "\u{1F600}"]
        for scalar in scalars {
            let value = "a" + String(scalar) + "b"
            #expect(matches(text, value) == !RefusedCharacters.isRefused(scalar), "U+\(String(scalar.value, radix: 16))")
            #expect(matches(named, value) == !RefusedCharacters.isRefused(scalar), "U+\(String(scalar.value, radix: 16))")
        }
        #expect(matches(text, "") && matches(text, "Miete\r\nDezember\t12"))
        // A name is not blank.
        #expect(!matches(named, "") && !matches(named, " \t\r\n") && matches(named, " Ferien ") && matches(named, "\u{3000}x"))
    }
}
