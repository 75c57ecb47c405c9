import Foundation
import TresorDomain

/// Reads a receipt's OCR text. Which line is the total is the hard part: tills print
/// subtotals, a second total in another currency, cash given and change. The parser takes the
/// lines named like a total (`TOTAL`, `Summe`, `Gesamt`, `Totale`, `Montant`, …, not
/// `Zwischensumme`) and prefers the one that equals the sum of the item lines above it.
public enum ReceiptParser {
    static let totalWords = [
        "total", "totale", "summe", "gesamt", "montant", "amount due", "a payer", "zu zahlen", "importo", "betrag", "net amount", "grand total",
    ]
    static let subtotalWords = [
        "zwischensumme", "sous-total", "sous total", "subtotale", "subtotal", "zwischentotal", "sub total", "sub-total", "gross amount",
    ]
    static let paymentWords =
        [
            "bar", "gegeben", "ruckgeld", "retour", "especes", "rendu", "contanti", "resto", "cash", "change", "carte", "karte", "card",
        ] + vatWords
    /// Tax lines with a rate: VAT as Swiss, German, French, Italian, English, Dutch (`btw`),
    /// Nordic (`moms`, `mva`, `alv`) tills name it, GST, and a US sales tax.
    static let vatWords = ["mwst", "mwst.", "tva", "iva", "vat", "ust", "btw", "moms", "mva", "alv", "gst", "hst", "sales tax"]

    public static func parse(_ text: String, ocrConfidence: Int, defaultCurrency: Currency = .chf) -> ReceiptReading {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \t|")) }.filter {
            !$0.isEmpty
        }
        // why: a second total in the other currency must not decide the receipt's currency; only
        // when every total and subtotal names the same currency and no other line names one
        // (`Total USD$ 29.01`) is it the receipt's.
        let isTotalLine = { (line: String) in (totalWords + subtotalWords).contains { hasWord($0, in: fold(line)) } }
        let totalLines = lines.filter { isTotalLine($0) && trailingAmount($0) != nil }
        let totalCurrencies = Set(totalLines.map(currencyNamed))
        let named =
            dominantCurrency(lines.filter { !isTotalLine($0) }) ?? (totalCurrencies.count == 1 ? totalCurrencies.first ?? nil : nil)
        let currency: Currency
        switch named {
        case .booked(let booked): currency = booked
        // Only from the total lines (`TOTAL $29.53`); elsewhere a lone sign does not count.
        case .dollarSign: currency = .usd
        case .other, nil: currency = defaultCurrency
        }
        var items: [Int64] = []
        var totals: [(amount: Int64, currency: Currency?)] = []
        var subtotal: Int64?
        var vat: [ReceiptReading.VATLine] = []
        var pastTotals = false
        for line in lines {
            let folded = fold(line)
            guard let amount = trailingAmount(line) else { continue }
            let lineCurrency = currencyMentioned(line)
            if vatWords.contains(where: { hasWord($0, in: folded) }), let rate = vatRate(line) {
                vat.append(.init(rate: rate, amount: Money(minorUnits: amount, currency: lineCurrency ?? currency)))
                continue
            }
            if subtotalWords.contains(where: { folded.contains($0) }) {
                subtotal = amount
                pastTotals = true
            } else if totalWords.contains(where: { hasWord($0, in: folded) }) || nearTotalWord(folded) {
                totals.append((amount, lineCurrency))
                pastTotals = true
            } else if !pastTotals, !paymentWords.contains(where: { hasWord($0, in: folded) }), findDate(line) == nil {
                items.append(amount)
            }
        }
        let itemSum = items.reduce(0, +)
        var confidence = ocrConfidence
        let chosen: (amount: Int64, currency: Currency?)?
        if let match = totals.first(where: { $0.amount == itemSum && !items.isEmpty }) {
            chosen = match
        } else if let sameCurrency = totals.first(where: { $0.currency == nil || $0.currency == currency }) {
            chosen = sameCurrency
            confidence = min(confidence, 60)
        } else if let subtotal {
            chosen = (subtotal, nil)
            confidence = min(confidence, 50)
        } else {
            chosen = totals.first
            confidence = min(confidence, 40)
        }
        // A receipt in rupees has no total Tresor can book or budget (counted as francs it would
        // be wrong by a factor of about 150): the customer sees the text and types the amount.
        let total = chosen.flatMap { line -> Money? in
            if let lineCurrency = line.currency { return Money(minorUnits: line.amount, currency: lineCurrency) }
            return named == .other ? nil : Money(minorUnits: line.amount, currency: currency)
        }
        if chosen != nil, total == nil { confidence = min(confidence, 30) }
        // why: an American till writes the month first (05/24/2022); elsewhere the day comes first.
        let monthFirst = (total?.currency ?? currency) == .usd
        // why the Bikram Sambat date decides: a Nepali till's Gregorian date (07/05/2024) may be
        // either way round; its Miti (21/03/2081, 5 July 2024) is what the till meant. It is taken
        // when a Gregorian date on the receipt reads as it one way or the other, or there is none:
        // a Miti misread by the OCR does not overrule a Gregorian date it contradicts.
        let nepali = lines.lazy.compactMap(bikramSambatDate).first
        let gregorianLines = lines.filter { !isBikramSambat($0) }
        let date: LocalDate?
        if let nepali,
            gregorianLines.allSatisfy({ findDate($0) == nil })
                || gregorianLines.contains(where: { findDate($0, monthFirst: true) == nepali || findDate($0, monthFirst: false) == nepali })
        {
            date = nepali
        } else {
            date = gregorianLines.lazy.compactMap { findDate($0, monthFirst: monthFirst) }.first
        }
        return ReceiptReading(merchant: merchant(lines), date: date, total: total, vat: vat, confidence: max(0, min(100, confidence)), text: text)
    }

    /// Tills print the shop's name first: the first line above the date and the amounts that is
    /// not a store number, an address or a phone number. A logo the OCR cannot read leaves the
    /// till's thanks (`THANK YOU FOR SHOPPING AT WALGREENS`); failing both, the first line with
    /// letters among the first four.
    static func merchant(_ lines: [String]) -> String? {
        let header = lines.prefix { findDate($0) == nil && trailingAmount($0) == nil }.prefix(6)
        if let name = header.first(where: isShopName) { return shopName(name) }
        if let thanked = lines.lazy.compactMap(thankedShop).first { return thanked }
        for line in lines.prefix(4) {
            let letters = line.filter(\.isLetter).count
            guard letters >= 2, findDate(line) == nil, trailingAmount(line) == nil else { continue }
            return shopName(line)
        }
        return nil
    }

    /// Not `#03296 191 E 3RD AVE`, `SAN MATEO, CA 94401`, `8001 Zürich` or `Tel 044 123 45 67`
    /// (`COOP 1234`, a shop and its number, is a name).
    /// Nor the grain of a table read as letters (`à AN A VA OA`: most words of one or two).
    static func isShopName(_ line: String) -> Bool {
        let letters = line.filter(\.isLetter).count
        let digits = line.filter(\.isNumber).count
        guard letters >= 2, digits <= letters, !line.hasPrefix("#") else { return false }
        let words = line.split(whereSeparator: \.isWhitespace).filter { $0.contains(where: \.isLetter) }
        guard words.count < 3 || words.filter({ $0.count <= 2 }).count * 2 <= words.count else { return false }
        return line.firstMatch(of: #/\b[A-Z]{2},?\s+\d{5}(?:-\d{4})?\s*$/#) == nil && line.firstMatch(of: #/^\s*\d{4,5}\s+\p{L}/#) == nil
    }

    /// The line as printed without the punctuation around it; a web address without its ending
    /// (`Saathimart.com` is Saathimart).
    static func shopName(_ line: String) -> String {
        let name = line.trimmingCharacters(in: CharacterSet(charactersIn: " .,:;-_*'\"|\\/"))
        if let site = name.wholeMatch(of: #/(?:www\.)?([\p{L}\d-]{2,})\.(?:com|ch|de|fr|it|at|net|org)/#.ignoresCase()) { return String(site.1) }
        return name
    }

    /// The shop a till thanks the customer for visiting; a name printed all in capitals is
    /// capitalised (`WALGREENS` becomes `Walgreens`).
    static func thankedShop(_ line: String) -> String? {
        let pattern = #/(?i)\b(?:shopping|einkauf|achats?|acquisti|visit)\b.*?\b(?:at|with|bei|chez|da|presso)\s+([\p{L}][\p{L}\d&' -]{1,40})/#
        guard let match = line.firstMatch(of: pattern) else { return nil }
        let name = shopName(String(match.1))
        guard name.filter(\.isLetter).count >= 2, !["us", "uns", "nous", "noi"].contains(fold(name)) else { return nil }
        return name == name.uppercased() ? name.capitalized : name
    }

    /// Lower case without accents, so `Rückgeld`, `Espèces` and `À payer` match plain keywords.
    static func fold(_ text: String) -> String {
        String(
            text.lowercased().unicodeScalars.map { scalar -> Character in
                switch scalar {
                case "à", "â", "ä", "á": "a"
                case "é", "è", "ê", "ë": "e"
                case "ö", "ô", "ó", "ò": "o"
                case "ü", "û", "ù", "ú": "u"
                case "î", "ï", "ì", "í": "i"
                case "ç": "c"
                default: Character(scalar)
                }
            })
    }

    /// OCR misreads one letter of a long word now and then (`Gesant`): a word of five letters
    /// or more one edit away from a one-word total keyword counts as that keyword.
    static func nearTotalWord(_ folded: String) -> Bool {
        let words = folded.split { !$0.isLetter }.map(Array.init)
        return words.contains { word in
            word.count >= 5 && totalWords.contains { !$0.contains(" ") && $0.count >= 5 && editDistance(word, Array($0)) <= 1 }
        }
    }

    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }

    static func hasWord(_ word: String, in folded: String) -> Bool {
        var searchStart = folded.startIndex
        while let range = folded.range(of: word, range: searchStart..<folded.endIndex) {
            let before = range.lowerBound == folded.startIndex ? nil : folded[folded.index(before: range.lowerBound)]
            let after = range.upperBound == folded.endIndex ? nil : folded[range.upperBound]
            if !(before?.isLetter ?? false), !(after?.isLetter ?? false) { return true }
            searchStart = range.upperBound
        }
        return false
    }

    /// The amount at the end of a line, `12.50` or `12,50` (with an optional minus), in minor units.
    static func trailingAmount(_ line: String) -> Int64? {
        if let grouped = line.firstMatch(
            of: #/(?:^|[^\d'’`.,-])(-)?\s?(\d{1,3})((?:['’`.,]\d{3}){1,3})([.,])(\d{2})\s*(?:[A-Z]{1,3}|[*])?\s*$/#.asciiOnlyDigits())
        {
            // why: a total of a thousand or more has its thousands marked: 1'299.00 on a Swiss
            // till, 1,299.00 in English, 1.299,00 in German; read from the last group only it was
            // 299.00. The marks must all be one and differ from the decimal point, or it is not
            // grouping (1.299.00). At most three groups, read from the number's first digit: the
            // largest amount (999'999'999'999.99); more digits overflowed and stopped the scan.
            let marks = Set(grouped.3.filter { !$0.isNumber })
            if marks.count == 1, marks.first != grouped.4.first, let whole = Int64(grouped.2 + grouped.3.filter(\.isNumber)),
                let cents = Int64(grouped.5)
            {
                let minor = whole * 100 + cents
                return grouped.1 == nil ? minor : -minor
            }
        }
        guard let match = line.firstMatch(of: #/(-)?\s?(\d{1,6})\s?[.,:;]\s?(\d{2})\s*(?:[A-Z]{1,3}|[*])?\s*$/#.asciiOnlyDigits()),
            let whole = Int64(match.2), let cents = Int64(match.3)
        else { return nil }
        let minor = whole * 100 + cents
        return match.1 == nil ? minor : -minor
    }

    /// The rate before a `%`, with one decimal at least and no trailing zero beyond it: `8.1` from
    /// `8.1%`, `8.10 %` and `8,10%`, `9.625` from `A=9.625%`, `20.0` from `20%`. why the whole
    /// number: the pattern took only one decimal, and `8.10%` (as many Swiss tills print it) read
    /// as 10 %.
    static func vatRate(_ line: String) -> String? {
        guard let match = line.firstMatch(of: #/(?:^|[^\d.,])(\d{1,2})(?:[.,](\d{1,3}))?\s?%/#.asciiOnlyDigits()) else { return nil }
        var decimals = String(match.2 ?? "0")
        while decimals.count > 1, decimals.hasSuffix("0") { decimals.removeLast() }
        return "\(match.1).\(decimals)"
    }

    /// The Gregorian date of a line's Bikram Sambat date: after "Miti" (Nepali for date, in Latin
    /// or Devanagari letters), day first (`21/03/2081`) or year first (`2081/03/21`), in the
    /// years `BikramSambat` knows.
    static func bikramSambatDate(_ line: String) -> LocalDate? {
        guard isBikramSambat(line) else { return nil }
        if let match = line.firstMatch(of: #/(?:^|\D)(\d{1,2})([./-])(\d{1,2})\2(20\d\d)(?!\d)/#.asciiOnlyDigits()) {
            return BikramSambat.gregorian(year: Int(match.4)!, month: Int(match.3)!, day: Int(match.1)!)
        }
        if let match = line.firstMatch(of: #/(?:^|\D)(20\d\d)([./-])(\d{1,2})\2(\d{1,2})(?!\d)/#.asciiOnlyDigits()) {
            return BikramSambat.gregorian(year: Int(match.1)!, month: Int(match.3)!, day: Int(match.4)!)
        }
        return nil
    }

    /// Whether the line gives a Bikram Sambat date ("Miti"): never read as a Gregorian one.
    static func isBikramSambat(_ line: String) -> Bool { hasWord("miti", in: fold(line)) || line.contains("मिति") }

    /// A date as tills print it: `2026-11-28`, `28.11.2026`, `28/11/26`, or month first
    /// (`11/28/2026`) when the day cannot be first or `monthFirst` (an American receipt) says
    /// so. A weekday printed before an ambiguous date decides it (`Fri 04/07/2017` is 7 April).
    /// Both separators must be the same: `2/4.00` is an offer (two for 4.00), not a date.
    static func findDate(_ line: String, monthFirst: Bool = false) -> LocalDate? {
        if let iso = line.firstMatch(of: #/(20\d\d)-(\d\d)-(\d\d)/#.asciiOnlyDigits()) {
            return LocalDate(year: Int(iso.1)!, month: Int(iso.2)!, day: Int(iso.3)!)
        }
        for match in line.matches(of: #/(?:^|\D)(\d{1,2})([./-])(\d{1,2})([./-])(\d{4}|\d{2})(?!\d)/#.asciiOnlyDigits()) where match.2 == match.4 {
            var year = Int(match.5)!
            if year < 100 { year += 2000 }
            guard year >= 2000 else { continue }
            let (first, second) = (Int(match.1)!, Int(match.3)!)
            let dayFirst = LocalDate(year: year, month: second, day: first)
            let monthFirstDate = LocalDate(year: year, month: first, day: second)
            guard let dayFirst, let monthFirstDate, dayFirst != monthFirstDate else {
                if let date = dayFirst ?? monthFirstDate { return date }
                continue
            }
            if let weekday = weekdayBefore(line[..<match.range.lowerBound]) {
                if dayFirst.isoWeekday == weekday { return dayFirst }
                if monthFirstDate.isoWeekday == weekday { return monthFirstDate }
            }
            return monthFirst ? monthFirstDate : dayFirst
        }
        return nil
    }

    /// The ISO weekday (1 = Monday) named by the last word before a date: `Fri`, `Freitag`,
    /// `ven.`, `venerdì`.
    static func weekdayBefore(_ text: Substring) -> Int? {
        guard let word = fold(String(text)).split(whereSeparator: { !$0.isLetter }).last.map(String.init), word.count >= 2 else { return nil }
        return weekdayNames.firstIndex { $0.contains(word) }.map { $0 + 1 }
    }

    static let weekdayNames: [Set<String>] = [
        ["mon", "monday", "mo", "montag", "lun", "lundi", "lunedi"], ["tue", "tues", "tuesday", "di", "dienstag", "mar", "mardi", "martedi"],
        ["wed", "wednesday", "mi", "mittwoch", "mer", "mercredi", "mercoledi"],
        ["thu", "thur", "thurs", "thursday", "do", "donnerstag", "jeu", "jeudi", "gio", "giovedi"],
        ["fri", "friday", "fr", "freitag", "ven", "vendredi", "venerdi"], ["sat", "saturday", "sa", "samstag", "sam", "samedi", "sab", "sabato"],
        ["sun", "sunday", "so", "sonntag", "dim", "dimanche", "dom", "domenica"],
    ]

    /// The currency a line names as a word (`CHF`, `Fr.`, `EUR`, `€`, `USD`, `$` before or after an
    /// amount, …): `BEURRE` holds no euro, and `$137482` is a misread S, not dollars.
    static func currencyMentioned(_ line: String) -> Currency? {
        switch currencyNamed(line) {
        case .booked(let currency): currency
        case .dollarSign: .usd
        case .other, nil: nil
        }
    }

    /// A currency a receipt names: one Tresor books, a bare `$` by an amount (a misread `S` or
    /// `5` can make one), or another currency (rupees, baht, …).
    enum NamedCurrency: Hashable {
        case booked(Currency)
        case dollarSign
        case other
    }

    static let otherCurrencyWords = ["rs", "inr", "npr", "pkr", "lkr", "thb", "idr", "vnd", "mxn", "brl", "cny", "rmb", "aed", "zar"]

    static func currencyNamed(_ line: String) -> NamedCurrency? {
        let folded = fold(line)
        if line.contains(where: { "₹฿₫₱₺₩".contains($0) }) || folded.contains("r$")
            || otherCurrencyWords.contains(where: { namesAmount($0, in: folded) })
        {
            return .other
        }
        if ["chf", "fr", "sfr"].contains(where: { hasWord($0, in: folded) }) { return .booked(.chf) }
        if hasWord("eur", in: folded) || line.contains("€") { return .booked(.eur) }
        if hasWord("gbp", in: folded) || line.contains("£") { return Currency(code: "GBP").map(NamedCurrency.booked) }
        if hasWord("usd", in: folded) { return .booked(.usd) }
        if line.firstMatch(of: #/\$\s?\d+[.,]\s?\d{2}|\d[.,]\d{2}\s?\$/#) != nil { return .dollarSign }
        return nil
    }

    /// A currency word written as one (`Rs.`, `Rs 185`, `185 INR`), not two letters of a line
    /// of OCR noise: it ends in a full stop or stands by a number.
    static func namesAmount(_ word: String, in folded: String) -> Bool {
        guard hasWord(word, in: folded) else { return false }
        let escaped = NSRegularExpression.escapedPattern(for: word)
        let pattern = "(?<![a-z])\(escaped)(\\.|\\s?\\d)|\\d\\s?\(escaped)(?![a-z])"
        return folded.range(of: pattern, options: .regularExpression) != nil
    }

    /// The currency the receipt names most often (on a tie, the first named), nil when it names
    /// none. A bare `$` counts from its second line on: dollar receipts print it by every amount.
    static func dominantCurrency(_ lines: [String]) -> NamedCurrency? {
        var named = lines.compactMap(currencyNamed)
        let dollarSigns = named.filter { $0 == .dollarSign }.count
        named = named.compactMap { $0 == .dollarSign ? (dollarSigns >= 2 ? .booked(.usd) : nil) : $0 }
        var counts: [NamedCurrency: Int] = [:]
        for currency in named { counts[currency, default: 0] += 1 }
        return named.max { counts[$0]! < counts[$1]! || (counts[$0]! == counts[$1]! && named.firstIndex(of: $0)! > named.firstIndex(of: $1)!) }
    }
}
