import Foundation
import TresorDomain

/// The rules a customer's password must meet, checked when it is chosen (first login, reset,
/// change). why these: NIST SP 800-63B asks for length and a check against passwords known from
/// breaches instead of composition rules, which customers meet with "Password1!".
public enum PasswordPolicy {
    public static let lengthMin = 10

    /// Why a password was refused; each has its own text in the web app.
    public enum Violation: String, Sendable {
        case tooShort = "too_short"
        case tooLong = "too_long"
        case common
        case containsContract = "contains_contract"
        case containsName = "contains_name"
    }

    /// The first rule `password` breaks for the customer with this contract and name, or nil.
    public static func violation(of password: String, contract: String, name: String, lengthMax: Int) -> Violation? {
        let length = TextLength.of(password)
        if length < lengthMin { return .tooShort }
        if length > lengthMax { return .tooLong }
        let folded = password.precomposedStringWithCanonicalMapping.lowercased()
        if common.contains(folded) { return .common }
        if !contract.isEmpty, Digits.ascii(password).contains(contract) { return .containsContract }
        let letters = String(folded.filter(\.isLetter))
        let parts = name.precomposedStringWithCanonicalMapping.lowercased().split { !$0.isLetter }.filter { $0.count >= 4 }
        if parts.contains(where: { letters.contains($0) }) { return .containsName }
        return nil
    }

    /// `violation` as the error an API answers (`weak_password`, the field at fault).
    public static func enforce(_ password: String, field: String, contract: String, name: String, lengthMax: Int) throws {
        guard let violation = violation(of: password, contract: contract, name: name, lengthMax: lengthMax) else { return }
        let message =
            switch violation {
            case .tooShort, .tooLong: "A password has \(lengthMin) to \(lengthMax) characters."
            case .common: "This password is one of the most common ones; choose another."
            case .containsContract: "A password must not contain the contract number."
            case .containsName: "A password must not contain your name."
            }
        throw DomainError(.weakPassword, field: field, message)
    }

    /// The NCSC list's entries that the length rule lets through (see CommonPasswords/README.md),
    /// read once. why a Set of 9,286 strings: about 0.5 MB, and a lookup costs nothing next to bcrypt.
    static let common: Set<String> = {
        guard let url = Bundle.module.url(forResource: "ncsc-100k-10-or-more", withExtension: "txt", subdirectory: "CommonPasswords"),
            let text = try? String(contentsOf: url, encoding: .utf8)
        else { fatalError("CommonPasswords/ncsc-100k-10-or-more.txt is missing from TresorCore's resources") }
        return Set(text.split(separator: "\n").map(String.init))
    }()
}
