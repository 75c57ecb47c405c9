import Crypto
import Foundation

enum Hashing {
    static func sha256Hex(_ bytes: some DataProtocol) -> String {
        SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
    }
}
