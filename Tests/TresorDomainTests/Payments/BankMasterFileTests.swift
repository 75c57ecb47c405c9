import Foundation
import Testing
import TresorDomain

@Suite("SIX's bank master file (bcbankenstamm)")
struct BankMasterFileTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("corpus/bank-master")

    static func realFile() throws -> Data {
        try Data(contentsOf: corpus.appendingPathComponent("bcbankenstamm-alappextensions.txt"))
    }

    /// The file's first line (the SNB's head office), as bytes, for refusals built from it.
    static func firstLine() throws -> [UInt8] {
        Array(try realFile().prefix(BankMasterFile.lineLength))
    }

    @Test("Business Central's copy of the real file: every line, head offices, branches naming their head office's account, banks abroad")
    func realFileParses() throws {
        let entries = try BankMasterFile.parse(try Self.realFile())
        #expect(entries.count == 3_564)
        #expect(entries.filter { $0.postalAccount != nil }.count == 886)
        let ubs = try #require(entries.first { $0.clearing == 230 && $0.branchID == "0000" })
        #expect(ubs.kind == .headOffice && ubs.name == "UBS AG" && ubs.postalAccount == "800000022")
        #expect(ubs.street == "Bahnhofstrasse 45" && ubs.postalCode == "8098" && ubs.town == "Zürich", "Latin-1 read as such")
        #expect(ubs.bic == "UBSWCHZH80A" && ubs.country == "CH")
        let dubendorf = try #require(entries.first { $0.clearing == 202 && $0.branchID == "0001" })
        #expect(dubendorf.kind == .branch && dubendorf.headOffice == 230 && dubendorf.town == "Dübendorf 1")
        #expect(dubendorf.postalAccount == nil && dubendorf.bic == nil, "`*80-2-2` is UBS's account, not the branch's own")
        let secb = try #require(entries.first { $0.clearing == 193 })
        #expect(secb.country == "DE" && secb.town == "Frankfurt am Main" && secb.postalAccount == nil)
    }

    @Test("the same file saved as UTF-8, with or without a byte-order mark, reads the same")
    func utf8() throws {
        let latin1 = try Self.realFile()
        let text = String(decoding: latin1.map { UInt16($0) }, as: UTF16.self)
        #expect(try BankMasterFile.parse(Data(text.utf8)) == BankMasterFile.parse(latin1))
        #expect(try BankMasterFile.parse(Data([0xEF, 0xBB, 0xBF] + Array(text.utf8))).count == 3_564, "with a byte-order mark")
    }

    @Test("a wrong line is refused by its number and column, and the file with it")
    func refusals() throws {
        let line = try Self.firstLine()
        func refusal(_ lines: [[UInt8]]) -> String? {
            do {
                _ = try BankMasterFile.parse(Data(lines.joined(separator: [13, 10])))
                return nil
            } catch let error as DomainError {
                return error.field
            } catch {
                return "\(error)"
            }
        }
        #expect(refusal([line]) == nil)
        #expect(refusal([line, Array(line.dropLast())]) == "line 2", "a character short")
        var account = line
        account[282] = UInt8(ascii: "2")  // 87-620350-1 becomes 87-620350-2
        #expect(refusal([account]) == "line 1: postal_account")
        var kind = line
        kind[27] = UInt8(ascii: "4")
        #expect(refusal([kind]) == "line 1: kind")
        var clearing = line
        clearing.replaceSubrange(2...6, with: Array("1x0  ".utf8))
        #expect(refusal([clearing]) == "line 1: clearing")
        #expect(refusal([line, line]) == "line 2", "one clearing number and branch twice")
        #expect(refusal([]) == "file")
        #expect(refusal([Array(repeating: UInt8(ascii: " "), count: 10)]) == "file", "blank lines only")
    }

    @Test("a postal account's IBAN is PostFinance's, as PostFinance's own files write it")
    func postalIBAN() throws {
        // The account of PostFinance's camt.054 test files (Tests/corpus/clearing): 25-9423-9.
        #expect(SlipCodeLine.postalIBAN("250094239")?.electronic == "CH2909000000250094239")
        #expect(SlipCodeLine.postalIBAN("25009423") == nil && SlipCodeLine.postalIBAN("25009423x") == nil)
        #expect(try BankMasterFile.postalAccount("25-9423-9", line: 1) == "250094239")
    }
}
