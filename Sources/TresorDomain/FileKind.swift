/// What a file is, told by its first bytes (its signature), never by its name or the type a
/// client declared: a client can say anything, the bytes decide what is stored and shown.
public enum FileKind {
    /// `application/pdf`, `image/jpeg` or `image/png`; nil for anything else.
    public static func contentType(of bytes: [UInt8]) -> String? {
        if bytes.starts(with: Array("%PDF-".utf8)) { return "application/pdf" }
        if bytes.count > 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF { return "image/jpeg" }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        return nil
    }

    public static func isPDF(_ bytes: [UInt8]) -> Bool { contentType(of: bytes) == "application/pdf" }
}
