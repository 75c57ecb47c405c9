extension Money {
    /// The amount as a language writes it: `CHF 1’234.50` in German and Italian (Swiss usage),
    /// `1 234,50 CHF` in French, `CHF 1,234.50` in English and Arabic (Latin digits, as banking
    /// apps in the Gulf show them). The minus is U+2212; spaces are no-break, so an amount is
    /// never split across lines. Another language is written as English.
    public func localized(_ language: String) -> String {
        let digits = currency.minorDigits
        let magnitude = minorUnits.magnitude
        var scale: UInt64 = 1
        for _ in 0..<digits { scale *= 10 }
        let whole = String(magnitude / scale)
        let remainder = String(magnitude % scale)
        let fraction = String(repeating: "0", count: max(0, digits - remainder.count)) + remainder
        let (group, decimal): (String, String) =
            switch language {
            case "de", "it": ("’", ".")
            case "fr": ("\u{202F}", ",")
            default: (",", ".")
            }
        var grouped = ""
        for (index, character) in whole.enumerated() {
            if index > 0 && (whole.count - index) % 3 == 0 { grouped += group }
            grouped.append(character)
        }
        let number = (minorUnits < 0 ? "−" : "") + grouped + (digits == 0 ? "" : decimal + fraction)
        return language == "fr" ? "\(number)\u{00A0}\(currency.code)" : "\(currency.code)\u{00A0}\(number)"
    }
}
