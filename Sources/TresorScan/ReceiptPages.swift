import TresorDomain

extension ReceiptReading {
    /// A reading worth keeping: a total or a shop was found. A photo with neither is no receipt.
    static func checked(_ reading: ReceiptReading) throws -> ReceiptReading {
        guard reading.total != nil || reading.merchant != nil else {
            throw ScanError(.noReceiptFound, "No receipt text was found in the photo.")
        }
        return reading
    }

    /// One receipt from the photos of a long one, top part first (each page's `text` and OCR
    /// `confidence`, as `ScanJob.Task.receiptPage` reads them): the pages' lines in order, the
    /// lines photographed twice where one part overlaps the next taken once, read as one
    /// receipt. So the shop comes from the top, the total from the bottom, and the items add up
    /// to the total as on a receipt read whole.
    public init(pages: [ReceiptReading]) throws {
        guard !pages.isEmpty else { throw ScanError(.noReceiptFound, "No receipt text was found in the photo.") }
        var lines: [String] = []
        for page in pages {
            let next = page.text.split(whereSeparator: \.isNewline).map(String.init).filter { !Self.blank($0) }
            lines = Self.joined(lines, next)
        }
        let confidence = pages.map(\.confidence).reduce(0, +) / pages.count
        self = try Self.checked(ReceiptParser.parse(lines.joined(separator: "\n"), ocrConfidence: confidence))
    }

    static func blank(_ line: String) -> Bool { line.allSatisfy { $0.isWhitespace || $0 == "|" } }

    /// `upper` then `lower`, the lines at the foot of `upper` that `lower` opens with (the
    /// overlap of two photos) once. The OCR of a line cut by a photo's edge is noise: one such
    /// line at `upper`'s foot and one at `lower`'s head may stand outside the overlap and are
    /// dropped with it. Two lines or more must agree, so one line a till prints twice (`1 @
    /// 2.19 or 2/4.00`) is not taken for an overlap.
    static func joined(_ upper: [String], _ lower: [String]) -> [String] {
        guard !upper.isEmpty else { return lower }
        let top = upper.map(key)
        let bottom = lower.map(key)
        var best: (end: Int, start: Int, length: Int)?
        for cut in 0...min(1, upper.count - 1) {
            let end = upper.count - cut
            for skip in 0...min(1, max(0, lower.count - 1)) {
                // The longest run of `upper`'s foot that `lower` opens with, from `skip` on.
                let longest = stride(from: min(end, lower.count - skip), through: 2, by: -1).first { length in
                    (0..<length).allSatisfy { same(top[end - length + $0], bottom[skip + $0]) }
                }
                if let longest, longest > best?.length ?? 0 { best = (end, skip, longest) }
            }
        }
        guard let best else { return upper + lower }
        return Array(upper[..<best.end]) + Array(lower[(best.start + best.length)...])
    }

    /// A line as compared across photos: letters and digits only, lower case.
    static func key(_ line: String) -> [Character] {
        Array(ReceiptParser.fold(line).filter { $0.isLetter || $0.isNumber })
    }

    /// The same printed line read twice: at most one character in five read otherwise.
    static func same(_ a: [Character], _ b: [Character]) -> Bool {
        guard !a.isEmpty, !b.isEmpty else { return a.isEmpty && b.isEmpty }
        return ReceiptParser.editDistance(a, b) * 5 <= max(a.count, b.count)
    }
}
