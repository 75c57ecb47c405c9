import Crypto
import Foundation

/// OCRA challenge-response (RFC 6287) for suites `OCRA-1:HOTP-SHA1-n:QNxx` and
/// `OCRA-1:HOTP-SHA256-n:QNxx`: a numeric question, no counter, PIN or time.
///
/// why OCRA: an authenticator app answers a question the bank derives from the payment's
/// amount and payee, so a code answers that payment only (PSD2 dynamic linking).
public struct OCRA: Sendable {
    public let suite: String
    let digits: Int
    let sha256: Bool

    public init?(suite: String) {
        let parts = suite.split(separator: ":")
        guard parts.count == 3, parts[0] == "OCRA-1", parts[2].hasPrefix("QN") else { return nil }
        let function = parts[1].split(separator: "-")
        guard function.count == 3, function[0] == "HOTP", let digits = Int(function[2]), (4...10).contains(digits) else { return nil }
        switch function[1] {
        case "SHA1": sha256 = false
        case "SHA256": sha256 = true
        default: return nil
        }
        self.suite = suite
        self.digits = digits
    }

    /// The response to a numeric `question` (decimal digits) under `key`.
    public func response(key: [UInt8], question: String) -> String? {
        guard !question.isEmpty, question.count <= 20, question.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        var data = Array(suite.utf8) + [0]
        data += Self.questionBytes(question)
        let mac: [UInt8] =
            sha256
            ? Array(HMAC<SHA256>.authenticationCode(for: data, using: SymmetricKey(data: key)))
            : Array(HMAC<Insecure.SHA1>.authenticationCode(for: data, using: SymmetricKey(data: key)))
        let offset = Int(mac[mac.count - 1] & 0x0f)
        let binary =
            (UInt32(mac[offset] & 0x7f) << 24) | (UInt32(mac[offset + 1]) << 16) | (UInt32(mac[offset + 2]) << 8) | UInt32(mac[offset + 3])
        var modulus: UInt64 = 1
        for _ in 0..<digits { modulus *= 10 }
        let code = String(UInt64(binary) % modulus)
        return String(repeating: "0", count: digits - code.count) + code
    }

    /// RFC 6287 numeric question: the number in hexadecimal, left-aligned in 128 bytes.
    static func questionBytes(_ question: String) -> [UInt8] {
        var hex = hexadecimal(ofDecimal: question)
        if hex.count % 2 == 1 { hex += "0" }
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return bytes + [UInt8](repeating: 0, count: 128 - bytes.count)
    }

    /// Decimal digits to upper-case hexadecimal, without a size limit on the number.
    static func hexadecimal(ofDecimal decimal: String) -> String {
        var digits = decimal.compactMap(\.wholeNumberValue)
        var hex: [Character] = []
        let alphabet = Array("0123456789ABCDEF")
        while digits.contains(where: { $0 != 0 }) {
            var remainder = 0
            var quotient: [Int] = []
            for digit in digits {
                let value = remainder * 10 + digit
                quotient.append(value / 16)
                remainder = value % 16
            }
            hex.append(alphabet[remainder])
            digits = Array(quotient.drop { $0 == 0 })
        }
        return hex.isEmpty ? "0" : String(hex.reversed())
    }
}
