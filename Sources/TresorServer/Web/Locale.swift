import Foundation
import TresorDomain

/// The web app's languages and how each writes amounts and dates.
enum WebLanguage: String, CaseIterable, Sendable {
    case de, fr, it, en, ar

    /// Arabic is written right to left: pages get `dir="rtl"` and mirror.
    var isRightToLeft: Bool { self == .ar }

    /// The language's name in itself, as a language menu lists it (a customer who switched by
    /// mistake finds the way back without reading the language switched to).
    var autonym: String {
        switch self {
        case .de: "Deutsch"
        case .fr: "Français"
        case .it: "Italiano"
        case .en: "English"
        case .ar: "العربية"
        }
    }

    /// why isolates: in right-to-left text a number, a minus sign and a currency code would be
    /// reordered by the bidi algorithm; U+2066…U+2069 keep them one left-to-right unit.
    func isolated(_ text: String) -> String { isRightToLeft ? "\u{2066}\(text)\u{2069}" : text }

    /// From the `lang` cookie, else the language of `Accept-Language` the bank speaks with the
    /// highest weight (the earlier of equal ones; `q=0` is "not this one"), else the bank's first
    /// language (German when it speaks all four).
    static func choose(cookie: String?, acceptLanguage: String?, among spoken: [WebLanguage] = allCases) -> WebLanguage {
        if let cookie, let language = WebLanguage(rawValue: cookie), spoken.contains(language) { return language }
        var best: (language: WebLanguage, weight: Int)?
        for part in (acceptLanguage ?? "").split(separator: ",") {
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let tag = pieces.first, tag.count == 2 || tag.dropFirst(2).first == "-",
                let language = WebLanguage(rawValue: String(tag.prefix(2))), spoken.contains(language)
            else { continue }
            let weight = pieces.dropFirst().first { $0.hasPrefix("q=") }.map { Self.thousandths(String($0.dropFirst(2))) } ?? 1_000
            if weight > 0, weight > best?.weight ?? 0 { best = (language, weight) }
        }
        return best?.language ?? spoken.first ?? .de
    }

    /// A weight `0.8` as 800 (at most three decimals, RFC 9110); 0 for what is none.
    static func thousandths(_ text: String) -> Int {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard let whole = parts.first.flatMap({ Int($0) }), (0...1).contains(whole), parts.count <= 2 else { return 0 }
        let decimals = parts.count == 2 ? String(parts[1].prefix(3)) : ""
        guard decimals.allSatisfy(\.isASCII), decimals.allSatisfy(\.isNumber) else { return 0 }
        return min(1_000, whole * 1_000 + (Int(decimals.padding(toLength: 3, withPad: "0", startingAt: 0)) ?? 0))
    }

    /// The amount as the language writes it (`Money.localized`), isolated in right-to-left text.
    func format(_ money: Money) -> String { isolated(money.localized(rawValue)) }

    /// A share as the language writes it, `number` with a dot for decimals: "4.50 %" in German
    /// and Italian, "4,50 %" in French (a space that does not break), "4.50%" in English and
    /// Arabic. why isolated in Arabic: a "%" after a space read right to left stood before the
    /// number ("% 92").
    func percent(_ number: String) -> String {
        switch self {
        case .en: "\(number)%"
        case .ar: isolated("\(number)%")
        case .fr: "\(number.replacingOccurrences(of: ".", with: ","))\u{00A0}%"
        case .de, .it: "\(number)\u{00A0}%"
        }
    }

    /// `22.11.2026` (de, fr, it: Swiss usage) or `22/11/2026` (en, ar).
    func format(_ date: LocalDate) -> String {
        let day = date.day < 10 ? "0\(date.day)" : "\(date.day)"
        let month = date.month < 10 ? "0\(date.month)" : "\(date.month)"
        return isolated(self == .en || self == .ar ? "\(day)/\(month)/\(date.year)" : "\(day).\(month).\(date.year)")
    }
}

extension WebLanguage {
    /// "Today", "Yesterday", else "Mon 16 Nov" (with the year when it is not this year's).
    func friendly(_ date: LocalDate, today: LocalDate, strings: [String: String]) -> String {
        if date == today { return strings["today"] ?? format(date) }
        if date == today.adding(days: -1) { return strings["yesterday"] ?? format(date) }
        let day = strings["day_\(date.isoWeekday)"] ?? ""
        let month = strings["month_\(date.month)"] ?? ""
        let text = self == .de ? "\(day) \(date.day). \(month)" : "\(day) \(date.day) \(month)"
        return isolated(date.year == today.year ? text : "\(text) \(date.year)")
    }

    /// "November 2026".
    func monthName(_ date: LocalDate, strings: [String: String]) -> String {
        "\(strings["month_long_\(date.month)"] ?? String(date.month)) \(date.year)"
    }

    /// An amount with its sign spelled out for credits too (`CHF +7’420.00`): colour is never
    /// the only sign of money coming in.
    func formatSigned(_ money: Money) -> String {
        let text = format(money)
        guard money.minorUnits > 0 else { return text }
        let code = money.currency.code
        if let range = text.range(of: "\(code)\u{00A0}") { return text.replacingCharacters(in: range, with: "\(code)\u{00A0}+") }
        return "+" + text
    }
}

/// Message catalogues, one JSON file per language in Resources/web/i18n. Every string the
/// pages show comes from here.
struct Catalogues: Sendable {
    let messages: [WebLanguage: [String: String]]
    /// Each language's catalogue with English under it, merged once. why: every page asks for
    /// it, and merging ~700 strings per page was a tenth of rendering a short screen (`perf`).
    private let merged: [WebLanguage: [String: String]]

    init(messages: [WebLanguage: [String: String]]) {
        self.messages = messages
        merged = Dictionary(
            uniqueKeysWithValues: WebLanguage.allCases.map { language in
                (language, messages[.en, default: [:]].merging(messages[language, default: [:]]) { $1 })
            })
    }

    static func load() throws -> Catalogues {
        var messages: [WebLanguage: [String: String]] = [:]
        for language in WebLanguage.allCases {
            guard let url = Bundle.module.url(forResource: "web/i18n/\(language.rawValue)", withExtension: "json") else {
                throw CocoaError(.fileNoSuchFile)
            }
            messages[language] = try JSONDecoder().decode([String: String].self, from: Data(contentsOf: url))
        }
        return Catalogues(messages: messages)
    }

    /// The catalogue of `language`, falling back to English, then to the key itself.
    func strings(_ language: WebLanguage) -> [String: String] {
        merged[language, default: [:]]
    }
}
