import Foundation

/// The characters a payment to another bank carries: the Latin character set of the Swiss
/// Payment Standards (SPS 2022 for pain.001, and QR-bills since November 2025): Basic Latin
/// U+0020–U+007E, Latin-1 Supplement U+00A0–U+00FF, Latin Extended-A U+0100–U+017F, Ș ș Ț ț
/// (U+0218–U+021B) and €. No line breaks, no other script, no emoji.
///
/// why: the bank's pain.001 file leaves with every payment's texts in it, and a financial
/// institution may refuse a payment holding any other character or turn it into a full stop;
/// a customer who typed "Merci 🙏" found out days later, if at all. So what a customer types is
/// checked when the payment is made (`checked`), where it can still be changed, and what reaches
/// the file from elsewhere (a QR-bill printed by someone else's software, a text stored before
/// this rule) is converted as the SPS and the peer libraries convert it (`cleaned`).
public enum PaymentText {
    public static func isCarried(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x20...0x7E, 0xA0...0x17F, 0x218...0x21B, 0x20AC: true
        default: false
        }
    }

    /// `text` as a payment carries it, or a refusal naming `field`. Written plainly first, as the
    /// customer would not mind: composed (an accent typed as a combining mark becomes the
    /// accented letter), tab and line breaks as one space, a phone keyboard's curly quotes,
    /// dashes and spaces as their plain forms (iOS types "Anna’s" with U+2019). Refused
    /// (`invalid_character`) when a character is still outside the set; `suggested` is the text
    /// `cleaned` would send.
    public static func checked(_ text: String, field: String) throws -> String {
        if text.utf8.allSatisfy({ 0x20...0x7E ~= $0 }) { return text }
        let plain = plainly(text)
        guard let bad = plain.first(where: { !$0.unicodeScalars.allSatisfy(isCarried) }) else { return plain }
        let code = bad.unicodeScalars.first { !isCarried($0) }.map { "U+" + String($0.value, radix: 16, uppercase: true) } ?? ""
        throw DomainError(
            .invalidCharacter, field: field,
            "“\(bad)” (\(code)) cannot go in a payment to another bank: use Latin letters, digits and the usual signs.",
            suggested: cleaned(plain).nonEmptyTrimmed)
    }

    /// `text` with every character outside the set replaced, as the SPS and SwissQRBill do it:
    /// written plainly first (see `checked`); a character with a Latin compatibility
    /// form takes it without its accents (Ǒ → O, ǉ → lj, ③ → 3, Ⅶ → VII); anything else is a full
    /// stop, one per character as seen on screen (a flag is one).
    public static func cleaned(_ text: String) -> String {
        if text.utf8.allSatisfy({ 0x20...0x7E ~= $0 }) { return text }
        var out = ""
        for character in plainly(text) {
            if character.unicodeScalars.allSatisfy(isCarried) {
                out.append(character)
                continue
            }
            let base = String(character).decomposedStringWithCompatibilityMapping.unicodeScalars.filter { scalar in
                switch scalar.properties.generalCategory {
                case .nonspacingMark, .spacingMark, .enclosingMark: false
                default: true
                }
            }
            if !base.isEmpty, base.allSatisfy(isCarried) {
                out.unicodeScalars.append(contentsOf: base)
            } else {
                out.append(".")
            }
        }
        return out.precomposedStringWithCanonicalMapping
    }

    /// Composed, with line breaks and typographic punctuation written plainly.
    static func plainly(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var inBreak = false
        for scalar in text.precomposedStringWithCanonicalMapping.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D:
                // A run of tabs and line breaks, with the spaces beside it, is one space; none at
                // the start or the end.
                while out.last == " " { out.removeLast() }
                inBreak = true
                continue
            case 0x20 where inBreak:
                continue
            default:
                if inBreak && !out.isEmpty { out.append(" ") }
                inBreak = false
            }
            if let plain = plainForms[scalar.value] {
                out.append(contentsOf: plain.unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// What phone keyboards and word processors type for quotes, dashes, ellipses and spaces,
    /// and what the payment carries instead.
    static let plainForms: [UInt32: String] = {
        var forms: [UInt32: String] = [0x2026: "...", 0x2212: "-"]
        for quote: UInt32 in [0x2018, 0x2019, 0x201A, 0x201B, 0x2032] { forms[quote] = "'" }
        for quote: UInt32 in [0x201C, 0x201D, 0x201E, 0x201F, 0x2033] { forms[quote] = "\"" }
        for dash: UInt32 in 0x2010...0x2015 { forms[dash] = "-" }
        for space: UInt32 in Array(0x2000...0x200A) + [0x202F, 0x205F, 0x3000] { forms[space] = " " }
        return forms
    }()
}

extension String {
    fileprivate var nonEmptyTrimmed: String? {
        let trimmed = trimmingSpaces
        return trimmed.isEmpty ? nil : String(trimmed)
    }
}
