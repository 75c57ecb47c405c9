/// Digits as a person types them, in whichever script their keyboard writes: `٢٥` (Arabic-Indic,
/// what an iPhone set to an Arabic region types on its number pad), `۲۵` (Persian, Urdu), `२५`
/// (Devanagari, Nepali), `２５` (full width, a Chinese or Japanese input method), all as `25`.
///
/// why: the web app speaks Arabic, and a contract number, a signing code, an IBAN or an amount
/// typed on such a keypad was refused as "not a number", which left the customer no way in or
/// out. Applied only where the text is a number (amounts typed in forms, contract numbers,
/// codes, PINs, IBANs, references, phone numbers), never to free text or to passwords.
public enum Digits {
    /// Every decimal digit of any script (Unicode's `Nd`) as its ASCII digit; the rest as it is.
    public static func ascii(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { !$0.isASCII && $0.properties.numericType == .decimal }) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if !scalar.isASCII, scalar.properties.numericType == .decimal, let value = scalar.properties.numericValue {
                out.append(Unicode.Scalar(UInt8(ascii: "0") + UInt8(value)))
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }
}
