import Foundation
import Testing
import TresorTestSupport

@testable import TresorServer

/// Instants written by hand must read exactly as `ISO8601DateFormatter` wrote them before.
@Suite("Timestamps in API bodies")
struct TimestampTests {
    @Test("the same text as ISO8601DateFormatter for instants from 1900 to 2200, around midnight and before 1970")
    func sameAsFoundation() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        var random = SplitMix(seed: 2026)
        let edges: [Int64] = [0, -1, -999, -1_000, -1_001, 999, 1_000, 86_399_999, 86_400_000, -86_400_000, 951_782_400_000, 1_795_552_625_314]
        let randomOnes = (0..<2_000).map { _ in Int64.random(in: -2_208_988_800_000...7_258_118_400_000, using: &random) }
        for millis in edges + randomOnes {
            let expected = formatter.string(from: Date(timeIntervalSince1970: Double(millis) / 1000))
            #expect(Timestamp.iso(millis) == expected, "\(millis)")
        }
    }
}
