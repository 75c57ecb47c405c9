import Foundation
import Testing

@testable import TresorCore

@Suite("Password policy")
struct PasswordPolicyTests {
    func violation(_ password: String, contract: String = "10000012", name: String = "Anna Meier") -> PasswordPolicy.Violation? {
        PasswordPolicy.violation(of: password, contract: contract, name: name, lengthMax: 128)
    }

    @Test("the NCSC list's long entries are refused in any case; the short ones by length")
    func commonPasswords() throws {
        // Entries of the NCSC top 100,000 (SecLists), long enough to pass the length rule.
        for common in ["1234567890", "qwertyuiop", "1q2w3e4r5t", "password123", "Password1234", "IloveYou12", "passwort123"] {
            #expect(violation(common) == .common, "\(common)")
        }
        for short in ["123456", "password", "qwerty", "iloveyou"] { #expect(violation(short) == .tooShort, "\(short)") }
        // The shipped list: lower case, every entry at least 10 characters (README of CommonPasswords).
        #expect(PasswordPolicy.common.count == 9_286)
        #expect(PasswordPolicy.common.allSatisfy { $0.count >= 10 && $0 == $0.lowercased() })
    }

    @Test("neither the contract number nor the name, in any script of digits or case")
    func personalParts() {
        #expect(violation("Mein-10000012-Passwort") == .containsContract)
        #expect(violation("Mein-١٠٠٠٠٠١٢-Passwort") == .containsContract)
        #expect(violation("ANNA-und-die-Sonne") == .containsName)
        #expect(violation("Sonne-MEIER-2026") == .containsName)
        #expect(violation("Sonnenblume-Kaffee-42") == nil)
        #expect(violation("Sonnenblume-Kaffee-42", name: "Li Bo") == nil)  // short name parts are not matched
        #expect(violation(String(repeating: "x", count: 129)) == .tooLong)
    }
}
