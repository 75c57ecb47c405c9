import Foundation

/// One line of SIX's Swiss bank master: a bank, or one of its branches, under a clearing number.
public struct BankMasterEntry: Hashable, Sendable {
    /// The file's "BC-Art": 1 head office, 2 main branch, 3 branch.
    public enum Kind: Int, Sendable {
        case headOffice = 1
        case mainBranch = 2
        case branch = 3
    }

    /// The clearing number (BC number, IID), 1 to 99999.
    public let clearing: Int
    /// Four digits, `0000` for the clearing number's own entry.
    public let branchID: String
    public let headOffice: Int
    public let kind: Kind
    public let shortName: String
    public let name: String
    public let street: String
    public let postalAddress: String
    public let postalCode: String
    public let town: String
    /// ISO 3166 code; the file leaves it blank for Switzerland.
    public let country: String
    /// The entry's own postal account, nine digits (`800000022` for 80-2-2); nil when it has
    /// none or names its head office's (written `*80-2-2`).
    public let postalAccount: String?
    public let bic: String?

    public init(
        clearing: Int, branchID: String, headOffice: Int, kind: Kind, shortName: String, name: String, street: String,
        postalAddress: String, postalCode: String, town: String, country: String, postalAccount: String?, bic: String?
    ) {
        self.clearing = clearing
        self.branchID = branchID
        self.headOffice = headOffice
        self.kind = kind
        self.shortName = shortName
        self.name = name
        self.street = street
        self.postalAddress = postalAddress
        self.postalCode = postalCode
        self.town = town
        self.country = country
        self.postalAccount = postalAccount
        self.bic = bic
    }
}

/// SIX's bank master as published for payment software (`bcbankenstamm`): one bank or branch a
/// line, 298 characters in fixed columns, ISO 8859-1, CRLF.
///
/// why this file and not the newer CSV: it is the one with each bank's postal account, which is
/// all a red slip's code line says of the bank it pays.
public enum BankMasterFile {
    public static let lineLength = 298
    /// why a bound: the real file has some 3,600 lines; a runaway one must not fill the database.
    public static let linesMax = 50_000
    public static let bytesMax = 16 * 1024 * 1024

    /// Every line, or a refusal naming the first wrong one (`line N: column`): all or nothing,
    /// as a half-read directory would answer for banks it no longer holds.
    public static func parse(_ data: Data) throws -> [BankMasterEntry] {
        guard data.count <= bytesMax else {
            throw DomainError(.invalidParameter, field: "file", "A bank master file is at most \(bytesMax / 1024 / 1024) MiB.")
        }
        // why UTF-8 first: a file re-saved by an editor is UTF-8; SIX's own is Latin-1, which any
        // bytes decode as (byte n is U+00nn).
        // A byte-order mark (an editor's UTF-8) is no part of the first line.
        let data = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data
        let utf8 = String(validating: data, as: UTF8.self) != nil
        var entries: [BankMasterEntry] = []
        var seen: Set<Int> = []
        // why bytes: split as characters, the megabyte of a real file took seconds.
        for (offset, bytes) in data.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            let line = bytes.last == 0x0D ? bytes.dropLast() : bytes
            if line.allSatisfy({ $0 == 0x20 }) { continue }
            let number = offset + 1
            guard entries.count < linesMax else {
                throw DomainError(.invalidParameter, field: "file", "A bank master file has at most \(linesMax) lines.")
            }
            let columns = utf8 ? Array(String(decoding: line, as: UTF8.self).unicodeScalars) : line.map { Unicode.Scalar($0) }
            let entry = try self.entry(columns, line: number)
            guard seen.insert(entry.clearing * 10_000 + (Int(entry.branchID) ?? 0)).inserted else {
                throw DomainError(.invalidParameter, field: "line \(number)", "Clearing number \(entry.clearing) branch \(entry.branchID) twice.")
            }
            entries.append(entry)
        }
        guard !entries.isEmpty else { throw DomainError(.invalidParameter, field: "file", "The file holds no bank.") }
        return entries
    }

    /// The columns of SIX's record layout, 0-based: group 0–1, BC number 2–6, branch id 7–10,
    /// new BC number 11–15, SIC number 16–21, head office 22–26, BC kind 27, valid from 28–35,
    /// SIC, euroSIC, language 36–38, short name 39–53, name 54–113, domicile 114–148, postal
    /// address 149–183, postcode 184–193, town 194–228, phone 229–246, fax 247–264, dialling
    /// code 265–269, country 270–271, postal account 272–283, BIC 284–297.
    static func entry(_ columns: [Unicode.Scalar], line: Int) throws -> BankMasterEntry {
        guard columns.count == lineLength else {
            throw DomainError(.invalidParameter, field: "line \(line)", "A bank master line has \(lineLength) characters, not \(columns.count).")
        }
        func text(_ from: Int, _ to: Int) -> String {
            var slice = columns[from...to]
            while slice.last == " " { slice = slice.dropLast() }
            while slice.first == " " { slice = slice.dropFirst() }
            return String(String.UnicodeScalarView(slice))
        }
        func number(_ from: Int, _ to: Int, _ name: String, in range: ClosedRange<Int>) throws -> Int {
            guard let value = Int(text(from, to)), range.contains(value) else {
                throw DomainError(
                    .invalidParameter, field: "line \(line): \(name)", "\(name) is a number from \(range.lowerBound) to \(range.upperBound).")
            }
            return value
        }
        let clearing = try number(2, 6, "clearing", in: 1...99_999)
        let branchID = text(7, 10)
        guard branchID.count == 4, branchID.allSatisfy(\.isASCII), branchID.allSatisfy(\.isNumber) else {
            throw DomainError(.invalidParameter, field: "line \(line): branch", "The branch id has four digits.")
        }
        let headOffice = try number(22, 26, "head_office", in: 1...99_999)
        guard let kind = BankMasterEntry.Kind(rawValue: try number(27, 27, "kind", in: 1...3)) else {
            throw DomainError(.invalidParameter, field: "line \(line): kind", "The kind is 1, 2 or 3.")
        }
        let name = text(54, 113)
        guard !name.isEmpty else { throw DomainError(.invalidParameter, field: "line \(line): name", "The bank's name is missing.") }
        let account = text(272, 283)
        let country = text(270, 271)
        let bic = text(284, 297)
        return BankMasterEntry(
            clearing: clearing, branchID: branchID, headOffice: headOffice, kind: kind, shortName: text(39, 53), name: name,
            street: text(114, 148), postalAddress: text(149, 183), postalCode: text(184, 193), town: text(194, 228),
            country: country.isEmpty ? "CH" : country,
            postalAccount: account.hasPrefix("*") ? nil : try postalAccount(account, line: line), bic: bic.isEmpty ? nil : bic)
    }

    /// `80-2-2` as the nine digits a code line carries (`800000022`), its check digit checked.
    public static func postalAccount(_ text: String, line: Int) throws -> String? {
        guard !text.isEmpty else { return nil }
        guard let digits = SlipCodeLine.participantDigits(printed: text) else {
            throw DomainError(.invalidParameter, field: "line \(line): postal_account", "A postal account is written 80-2-2.")
        }
        guard CheckDigits.isValidMod10Recursive(digits) else {
            throw DomainError(.invalidParameter, field: "line \(line): postal_account", "The check digit of postal account \(text) is wrong.")
        }
        return digits
    }
}
