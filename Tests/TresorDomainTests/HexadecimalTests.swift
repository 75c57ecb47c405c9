import Foundation
import Testing
import TresorDomain

@Suite("Hexadecimal")
struct HexadecimalTests {
    @Test("two lower-case digits per byte, as String(format: \"%02x\") wrote them", arguments: 0...20)
    func matchesFormat(length: Int) {
        var random = SystemRandomNumberGenerator()
        let bytes = (0..<length * 3).map { _ in UInt8.random(in: 0...255, using: &random) } + [0x00, 0x0F, 0xA5, 0xFF]
        #expect(bytes.hexadecimal == bytes.map { String(format: "%02x", $0) }.joined())
        #expect([0x00, 0x0F, 0xA5, 0xFF].hexadecimal == "000fa5ff")
    }
}
