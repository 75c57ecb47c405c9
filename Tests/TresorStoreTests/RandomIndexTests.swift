import Synchronization
import Testing
import TresorCore

/// `RandomSource.index(below:)`: what picks a TAN list's position, fair to every position.
@Suite("A fair random index")
struct RandomIndexTests {
    /// Hands out the byte groups it was given, one per call.
    final class Scripted: RandomSource {
        let groups: Mutex<[[UInt8]]>
        init(_ groups: [[UInt8]]) { self.groups = Mutex(groups) }
        func bytes(_ count: Int) -> [UInt8] { groups.withLock { $0.removeFirst() } }
    }

    @Test("a draw past the last whole multiple of the count is drawn again, not folded onto the low numbers")
    func redraw() {
        // 2³² leaves 1 over 3: 0xFFFFFFFF would favour 0 and is drawn again; 5 gives 2.
        #expect(Scripted([[0xFF, 0xFF, 0xFF, 0xFF], [0, 0, 0, 5]]).index(below: 3) == 2)
        #expect(Scripted([[0xFF, 0xFF, 0xFF, 0xFE]]).index(below: 3) == Int(UInt32(0xFFFF_FFFE) % 3))
        #expect(Scripted([[0xFF, 0xFF, 0xFF, 0xFF]]).index(below: 1 << 16) == 0xFFFF, "a power of two never draws again")
    }

    @Test("every index of 7 comes up about as often in 70,000 system draws")
    func spread() {
        var counts = [Int](repeating: 0, count: 7)
        for _ in 0..<70_000 { counts[SystemRandom().index(below: 7)] += 1 }
        // 10,000 expected each; 9,500–10,500 is over 5 standard deviations (≈93) wide.
        #expect(counts.allSatisfy { (9_500...10_500).contains($0) }, "\(counts)")
    }
}
