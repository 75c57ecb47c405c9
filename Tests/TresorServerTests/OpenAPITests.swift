import Foundation
import Testing
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
}
