/// A customer's contract number: seven digits and a mod 10 recursive check digit (the scheme of
/// Swiss payment references), eight in all. why a check digit: the login form catches a mistyped
/// number before it is sent, so a typo does not count as a failed login against someone else's
/// contract; mod 10 recursive catches every single wrong digit and about 97 % of swapped
/// neighbours (ContractNumberTests measures both).
public enum ContractNumber {
    public static let length = 8

    /// The contract number whose first seven digits are `serial` (0 … 9,999,999, zero-padded).
    public static func make(serial: Int) -> String {
        precondition((0...9_999_999).contains(serial))
        let base = String(repeating: "0", count: 7 - String(serial).count) + String(serial)
        return base + String(CheckDigits.mod10Recursive(base)!)
    }

    /// Whether `text` (ASCII digits) is eight digits ending in the right check digit.
    public static func isValid(_ text: String) -> Bool {
        text.utf8.count == length && text.utf8.allSatisfy { (48...57).contains($0) } && CheckDigits.isValidMod10Recursive(text)
    }
}
