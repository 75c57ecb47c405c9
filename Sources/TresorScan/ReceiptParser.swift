import Foundation
import TresorDomain

/// Reads a receipt's OCR text. Which line is the total is the hard part: tills print
/// subtotals, a second total in another currency, cash given and change. The parser takes the
/// lines named like a total (`TOTAL`, `Summe`, `Gesamt`, `Totale`, `Montant`, …, not
/// `Zwischensumme`) and prefers the one that equals the sum of the item lines above it.
public enum ReceiptParser {
    static let totalWords = ["total", "totale", "summe", "gesamt", "montant", "amount due", "a payer", "zu zahlen", "importo", "betrag"]
    static let subtotalWords = ["zwischensumme", "sous-total", "sous total", "subtotale", "subtotal", "zwischentotal"]
    static let paymentWords = [
        "bar", "gegeben", "ruckgeld", "retour", "especes", "rendu", "contanti", "resto", "cash", "change", "carte", "karte", "card",
        "mwst", "mwst.", "tva", "iva", "vat", "ust",
    ]
    static let vatWords = ["mwst", "tva", "iva", "vat", "ust"]

    public static func parse(_ text: String, ocrConfidence: Int, defaultCurrency: Currency = .chf) -> ReceiptReading {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \t|")) }.filter {
            !$0.isEmpty
        }
        // why: a second total in the other currency must not decide the receipt's currency.
        let currency = dominantCurrency(
            lines.filter { line in !(totalWords + subtotalWords).contains { hasWord($0, in: fold(line)) } }, default: defaultCurrency)
        var items: [Int64] = []
        var totals: [(amount: Int64, currency: Currency?)] = []
        var subtotal: Int64?
        var vat: [ReceiptReading.VATLine] = []
        var date: LocalDate?
        var pastTotals = false
        for line in lines {
            let folded = fold(line)
            if date == nil { date = findDate(line) }
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
        return ReceiptReading(
            merchant: merchant(lines), date: date, total: chosen.map { Money(minorUnits: $0.amount, currency: $0.currency ?? currency) },
            vat: vat, confidence: max(0, min(100, confidence)), text: text)
    }

    /// The first line with letters that is not an address, a date or an amount: tills print the
    /// shop's name first.
    static func merchant(_ lines: [String]) -> String? {
        for line in lines.prefix(4) {
            let letters = line.filter(\.isLetter).count
            guard letters >= 2, findDate(line) == nil, trailingAmount(line) == nil else { continue }
            return line.trimmingCharacters(in: CharacterSet(charactersIn: " .,:;-_*'\""))
        }
        return nil
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
        guard let match = line.firstMatch(of: #/(-)?\s?(\d{1,6})\s?[.,:;]\s?(\d{2})\s*(?:[A-Z]{1,3}|[*])?\s*$/#),
            let whole = Int64(match.2), let cents = Int64(match.3)
        else { return nil }
        let minor = whole * 100 + cents
        return match.1 == nil ? minor : -minor
    }

    static func vatRate(_ line: String) -> String? {
        guard let match = line.firstMatch(of: #/(\d{1,2})(?:[.,](\d))?\s?%/#) else { return nil }
        return match.2.map { "\(match.1).\($0)" } ?? "\(match.1).0"
    }

    static func findDate(_ line: String) -> LocalDate? {
        if let iso = line.firstMatch(of: #/(20\d\d)-(\d\d)-(\d\d)/#) {
            return LocalDate(year: Int(iso.1)!, month: Int(iso.2)!, day: Int(iso.3)!)
        }
        guard let match = line.firstMatch(of: #/(\d{1,2})[./-](\d{1,2})[./-](\d{4}|\d{2})(?!\d)/#) else { return nil }
        var year = Int(match.3)!
        if year < 100 { year += 2000 }
        return LocalDate(year: year, month: Int(match.2)!, day: Int(match.1)!)
    }

    /// The currency a line names as a word (`CHF`, `Fr.`, `EUR`, `€`, …): `BEURRE` holds no euro.
    static func currencyMentioned(_ line: String) -> Currency? {
        let folded = fold(line)
        if ["chf", "fr", "sfr"].contains(where: { hasWord($0, in: folded) }) { return .chf }
        if hasWord("eur", in: folded) || line.contains("€") { return .eur }
        if hasWord("gbp", in: folded) || line.contains("£") { return Currency(code: "GBP") }
        return nil
    }

    /// The currency the receipt names most often, else the customer's own.
    static func dominantCurrency(_ lines: [String], default: Currency = .chf) -> Currency {
        var counts: [Currency: Int] = [:]
        for line in lines { if let currency = currencyMentioned(line) { counts[currency, default: 0] += 1 } }
        return counts.max { $0.value < $1.value }?.key ?? `default`
    }
}
