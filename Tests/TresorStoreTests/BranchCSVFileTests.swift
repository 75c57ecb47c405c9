import Foundation
import Testing
import TresorCore
import TresorDomain

/// Branch lists as spreadsheet programs save them (Tests/corpus/branch-csv/README.md says which
/// program wrote each file, and how).
@Suite("Branch CSV files from spreadsheets: Windows-1252 and semicolons, UTF-16 and tabs, a byte-order mark")
struct BranchCSVFileTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("corpus/branch-csv")

    static func rows(_ name: String) throws -> [(branch: Branch, parentCode: String?)] {
        try BranchCSV.parse(try Data(contentsOf: corpus.appendingPathComponent(name)))
    }

    @Test(
        "each program's file reads as the rows of the source",
        arguments: ["libreoffice-cp1252-semicolon.csv", "libreoffice-utf16-tab.csv", "python-utf8-bom-crlf.csv"])
    func sameRows(file: String) throws {
        let source = try Self.rows("source-utf8-comma.csv")
        let read = try Self.rows(file)
        #expect(read.map(\.branch) == source.map(\.branch))
        #expect(read.map(\.parentCode) == source.map(\.parentCode))
    }

    @Test("the source's rows are the branches it names, accents and quotes intact")
    func sourceRows() throws {
        let source = try Self.rows("source-utf8-comma.csv")
        #expect(source.map(\.branch.code) == ["ZH-HB", "ATM-ZH-HB", "GE-CORN", "ATM-LUG", "ATM-BS-SBB"])
        #expect(source[1].branch.name == "Zürich HB (Halle «Nord»)" && source[1].parentCode == "ZH-HB")
        #expect(source[2].branch.town == "Genève" && source[2].branch.currencies.map(\.code) == ["EUR", "USD", "GBP"])
        #expect(source[2].branch.position == (try GeoPoint(latitude: "46.2102", longitude: "6.1424")))
    }

    @Test("with semicolons, coordinates may have a decimal comma; with commas, the comma splits fields")
    func decimalComma() throws {
        let header = "code;kind;name;street;postcode;town;lat;lon\n"
        let rows = try BranchCSV.parse(header + "ATM-X;atm;X;Gasse 1;8000;Zürich;47,3779;8,5403\n")
        #expect(rows.first?.branch.position == (try GeoPoint(latitude: "47.3779", longitude: "8.5403")))
        let commas = "code,kind,name,street,postcode,town,lat,lon\nATM-X,atm,X,Gasse 1,8000,Zürich,47,3779,8,5403\n"
        #expect(throws: DomainError(.invalidParameter, field: "line 2: columns", "Has 10 fields; the header has 8.")) {
            try BranchCSV.parse(commas)
        }
    }

    @Test("bytes that are no text in UTF-8 or Windows-1252 are refused as the file's fault")
    func notText() throws {
        // 0x81 is undefined in Windows-1252 and cannot stand alone in UTF-8.
        let data = Data("code,kind\nX".utf8) + Data([0x81]) + Data(",atm\n".utf8)
        let error = try #require(throws: DomainError.self) { try BranchCSV.parse(data) }
        #expect(error.field == "file" && error.message.contains("save it as CSV UTF-8"), "\(error)")
    }

    @Test("the separator is the one the header has most of", arguments: [("a,b;c,d", ","), ("a;b;c", ";"), ("a\tb\tc,d", "\t"), ("code", ",")])
    func separator(header: String, expected: String) {
        #expect(SpreadsheetText.separator(of: header + "\n1;2,3\t4") == expected.unicodeScalars.first)
    }
}
