import Foundation

/// An amount as a customer types it into a form, rewritten as the decimal the services parse
/// (`Money(parsing:)`): `12,50` → `12.50`; `1’234.50`, `1 234,50`, `1,234.50` and `1.234,50` →
/// `1234.50`. Anything else is left as typed, for the parser to refuse with its own words.
///
/// why: the decimal keypad of a phone set to French, German or Italian (`inputmode="decimal"`)
/// has a comma and no dot, and a Swiss customer writes thousands with an apostrophe; "must be a
/// decimal number like 12.30" for an amount anyone can read is the form's fault. The JSON API
/// and the XML channel keep the one strict form, and name this reading as the `suggested` value
/// of their refusal (`Money(parsing:)`), for the customer to confirm. `app.js` (`typedAmount`)
/// reads amounts the same way, so its live check and the server agree.
///
/// Digits of any script count (`Digits`), and the Arabic decimal and thousands separators
/// (`٢٬٥٠٠٫٥٠`) read as a dot and a group mark: an iPhone set to an Arabic region types them on
/// its decimal pad, and the web app speaks Arabic.
public enum TypedAmount {
    public static func normalized(_ typed: String) -> String {
        var text = Digits.ascii(typed.trimmingCharacters(in: .whitespaces))
        if text.unicodeScalars.contains(where: { $0 == "\u{066B}" || $0 == "\u{066C}" }) {
            text = text.replacingOccurrences(of: "\u{066B}", with: ".").replacingOccurrences(of: "\u{066C}", with: "'")
        }
        // Thousands grouped with an apostrophe or a space (French writes a narrow no-break one).
        if text.wholeMatch(of: #/-?[0-9]{1,3}(['’ʼ\u{00A0}\u{202F} ][0-9]{3})+([.,][0-9]+)?/#) != nil {
            text.removeAll { "'’ʼ\u{00A0}\u{202F} ".contains($0) }
        }
        // English grouping (commas, a decimal dot) or German (dots, a decimal comma).
        if text.wholeMatch(of: #/-?[0-9]{1,3}(,[0-9]{3})+(\.[0-9]+)?/#) != nil {
            text.removeAll { $0 == "," }
        } else if text.wholeMatch(of: #/-?[0-9]{1,3}(\.[0-9]{3})+,[0-9]{1,2}/#) != nil {
            text.removeAll { $0 == "." }
        }
        // A decimal comma: one or two digits after it (three would be a thousands group).
        if text.wholeMatch(of: #/-?[0-9]+,[0-9]{1,2}/#) != nil {
            text = text.replacingOccurrences(of: ",", with: ".")
        }
        return text
    }
}
