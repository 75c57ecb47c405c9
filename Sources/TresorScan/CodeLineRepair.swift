import TresorDomain

/// Finds the code line of an orange or red slip in OCR text and repairs single misreads with
/// the slip's own mod 10 check digits.
///
/// Every block of a code line ends in a recursive mod 10 check digit, and that check catches any
/// single wrong digit. It does not say which one: for a wrong digit almost every position has a
/// value that makes the block check again. So a repair is only taken from the digits OCR really
/// confuses (3/8, 1/7, 5/6, 0/8 …) and only when exactly one such substitution in the whole line
/// makes every check digit right; the app then asks the customer to confirm it.
public enum CodeLineRepair {
    public struct Correction: Sendable, Codable, Equatable {
        public let field: String
        public let position: Int
        public let read: String
        public let corrected: String
    }

    public struct Result: Sendable, Equatable {
        public let codeLine: String
        public let corrections: [Correction]
    }

    /// Digits Tesseract reads for one another in printed OCR-B and sans-serif code lines.
    static let confusions: [Character: [Character]] = [
        "0": ["8", "6", "9", "3"], "1": ["7", "4"], "2": ["7"], "3": ["8", "5", "9", "2"], "4": ["1", "9"],
        "5": ["6", "3", "8"], "6": ["5", "8", "0"], "7": ["1", "2"], "8": ["3", "0", "6", "9", "5"], "9": ["8", "0", "4", "3"],
    ]

    /// Letters OCR gives for digits and the marks, mapped before parsing (not a guess: a code
    /// line has no letters).
    static let lookalikes: [Character: Character] = [
        "O": "0", "o": "0", "D": "0", "Q": "0", "I": "1", "l": "1", "|": "1", "i": "1", "Z": "2", "z": "2", "S": "5", "s": "5",
        "G": "6", "b": "6", "B": "8", "g": "9", "q": "9", "»": ">", "›": ">", "t": "+", "*": "+",
    ]

    /// The candidate lines of `text`, best first: lines that end in `>` after clean-up.
    static func candidates(in text: String) -> [String] {
        text.split(whereSeparator: \.isNewline).compactMap { raw -> String? in
            let mapped = String(
                raw.compactMap { character -> Character? in
                    if character.isWhitespace { return nil }
                    return lookalikes[character] ?? character
                })
            guard let end = mapped.lastIndex(of: ">") else { return nil }
            // why: OCR often adds a stray mark after the final `>`.
            let line = String(mapped[...end]).filter { $0.isNumber || $0 == ">" || $0 == "+" }
            return line.count >= 10 ? line : nil
        }
        .sorted { $0.count > $1.count }
    }

    /// The valid code line in `text`, repaired when one plausible substitution fixes it.
    public static func find(in text: String) throws -> Result {
        var sawLine = false
        var ambiguous = false
        for line in candidates(in: text) {
            sawLine = true
            if (try? SlipCodeLine(line)) != nil { return Result(codeLine: line, corrections: []) }
            var fixes: [(String, Correction)] = []
            let characters = Array(line)
            for (index, character) in characters.enumerated() {
                for replacement in confusions[character] ?? [] {
                    var candidate = characters
                    candidate[index] = replacement
                    let text = String(candidate)
                    if (try? SlipCodeLine(text)) != nil {
                        fixes.append((text, Correction(field: "code_line", position: index, read: String(character), corrected: String(replacement))))
                    }
                }
            }
            if fixes.count == 1 { return Result(codeLine: fixes[0].0, corrections: [fixes[0].1]) }
            if fixes.count > 1 { ambiguous = true }
        }
        if ambiguous { throw ScanError(.slipAmbiguous, "The code line has a misread that cannot be repaired with certainty; type it in.") }
        if sawLine { throw ScanError(.unreadable, "The code line could not be read; type it in.") }
        throw ScanError(.noSlipFound, "No QR code and no slip code line was found in the photo.")
    }
}
