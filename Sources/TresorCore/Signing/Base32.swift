/// RFC 4648 base 32 without padding, as authenticator apps read secrets from `otpauth://` URIs.
public enum Base32 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")

    public static func encode(_ bytes: [UInt8]) -> String {
        var out = ""
        var buffer = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | Int(byte)
            bits += 8
            while bits >= 5 {
                out.append(alphabet[(buffer >> (bits - 5)) & 31])
                bits -= 5
            }
        }
        if bits > 0 { out.append(alphabet[(buffer << (5 - bits)) & 31]) }
        return out
    }

    /// The bytes of `text` (upper case, no padding), as an authenticator app reads the secret;
    /// nil for a character outside the alphabet.
    public static func decode(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        var buffer = 0
        var bits = 0
        for character in text {
            guard let value = alphabet.firstIndex(of: character) else { return nil }
            buffer = (buffer << 5) | value
            bits += 5
            if bits >= 8 {
                out.append(UInt8((buffer >> (bits - 8)) & 0xFF))
                bits -= 8
            }
        }
        return out
    }

    /// The secret of an `otpauth://` URI, as the app scanning its QR code reads it.
    public static func secret(ofURI uri: String) -> [UInt8]? {
        guard let start = uri.range(of: "secret=") else { return nil }
        return decode(String(uri[start.upperBound...].prefix { $0 != "&" }))
    }
}
