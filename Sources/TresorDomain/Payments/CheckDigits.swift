/// Check-digit schemes of Swiss payment slips and ISO 11649 creditor references.
public enum CheckDigits {
    /// The table of the "modulo 10 recursive" scheme of Swiss ESR/QR references (SIX IG QR-bill,
    /// annex B). why a table: the scheme is defined by it, not by a formula.
    static let mod10Table = [0, 9, 4, 6, 8, 2, 7, 1, 3, 5]

    /// The check digit that, appended to `digits`, makes a valid mod 10 recursive number.
    /// `nil` if `digits` holds anything but ASCII digits.
    public static func mod10Recursive(_ digits: some StringProtocol) -> Int? {
        var carry = 0
        for byte in digits.utf8 {
            guard byte >= 48, byte <= 57 else { return nil }
            carry = mod10Table[(carry + Int(byte - 48)) % 10]
        }
        return (10 - carry) % 10
    }

    /// Whether the last digit of `number` is the mod 10 recursive check digit of the rest.
    public static func isValidMod10Recursive(_ number: some StringProtocol) -> Bool {
        guard let last = number.last?.wholeNumberValue, number.count >= 2 else { return false }
        return mod10Recursive(number.dropLast()) == last
    }

    /// ISO 7064 mod 97-10 over letters and digits (A=10 … Z=35), as IBAN and ISO 11649 use it.
    /// `nil` for characters outside A–Z and 0–9.
    public static func mod97(_ text: some StringProtocol) -> Int? {
        var remainder = 0
        for byte in text.utf8 {
            switch byte {
            case 48...57: remainder = (remainder * 10 + Int(byte - 48)) % 97
            case 65...90: remainder = (remainder * 100 + Int(byte - 55)) % 97
            default: return nil
            }
        }
        return remainder
    }
}
