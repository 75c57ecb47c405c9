import Crypto
import Foundation

/// Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP): what every authenticator app
/// (Google Authenticator, Microsoft Authenticator, 1Password, iOS Passwords) shows from an
/// `otpauth://totp/` QR code. SHA-1, 6 digits, 30 s: the parameters those apps all accept.
public enum TOTP {
    public static let period: Int64 = 30
    public static let digits = 6

    /// The time step of a moment (Unix seconds), as RFC 6238 counts them from T0 = 0.
    public static func step(atUnixSeconds seconds: Int64) -> Int64 { seconds / period }

    /// The code of one time step (RFC 4226 §5.3 dynamic truncation).
    public static func code(secret: [UInt8], step: Int64, digits: Int = digits) -> String {
        var counter = UInt64(bitPattern: step).bigEndian
        let message = withUnsafeBytes(of: &counter) { Array($0) }
        let mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: SymmetricKey(data: secret)))
        let offset = Int(mac[mac.count - 1] & 0x0f)
        let value =
            (UInt32(mac[offset] & 0x7f) << 24) | (UInt32(mac[offset + 1]) << 16) | (UInt32(mac[offset + 2]) << 8) | UInt32(mac[offset + 3])
        var modulus: UInt32 = 1
        for _ in 0..<digits { modulus *= 10 }
        let number = String(value % modulus)
        return String(repeating: "0", count: digits - number.count) + number
    }

    /// The step `typed` is the code of, looking one step back and one ahead (a phone's clock a
    /// little off, a code typed as it changed), or nil.
    public static func matchingStep(_ typed: String, secret: [UInt8], atUnixSeconds seconds: Int64) -> Int64? {
        guard typed.count == digits, typed.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        let now = step(atUnixSeconds: seconds)
        return [now, now - 1, now + 1].first { code(secret: secret, step: $0) == typed }
    }

    /// The `otpauth://` URI an authenticator app reads from a QR code (Key Uri Format).
    public static func uri(secret: [UInt8], issuer: String, account: String) -> String {
        func escaped(_ text: String) -> String {
            text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? text
        }
        return "otpauth://totp/\(escaped(issuer)):\(escaped(account))?secret=\(Base32.encode(secret))&issuer=\(escaped(issuer))"
            + "&algorithm=SHA1&digits=\(digits)&period=\(period)"
    }
}
