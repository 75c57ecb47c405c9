import Foundation
import Testing
import TresorCore
import TresorDomain
import TresorScan
import TresorTestSupport

@testable import TresorServer

/// Every parser of text a customer, a staff member or a file from elsewhere hands the server,
/// on strings made at random (fixed seeds) from the pieces its own grammar is made of: it
/// answers a value or a `DomainError` (which the API turns into a 4xx naming the field), and
/// never traps.
///
/// why pieces of the grammar rather than bytes: random bytes are refused at the first
/// character; a trap hides where the text almost parses (a dash with no day beside it in
/// opening hours stopped the server).
@Suite("Parsers on text made at random")
struct ParserFuzzTests {
    static let rounds = 4_000

    /// `count` strings: half of 0…`length` pieces drawn from `pieces`, half `valid` texts with
    /// 0–3 edits (a piece inserted or put in place of a character, characters deleted, the text
    /// cut, a stretch repeated), so texts also land just beside the well-formed ones.
    static func texts(_ pieces: [String], seed: UInt64, length: Int = 12, valid: [String] = [], count: Int = rounds) -> [String] {
        var random = SplitMix(seed: seed)
        return (0..<count).map { index in
            guard index.isMultiple(of: 2), let example = valid.randomElement(using: &random) else {
                return (0..<Int.random(in: 0...length, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            }
            var text = Array(example)
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                let at = Int.random(in: 0...text.count, using: &random)
                let piece = Array(pieces.randomElement(using: &random)!)
                switch Int.random(in: 0..<5, using: &random) {
                case 0: text.insert(contentsOf: piece, at: at)
                case 1 where at < text.count: text.replaceSubrange(at...at, with: piece)
                case 2: text.removeSubrange(at..<min(text.count, at + Int.random(in: 1...3, using: &random)))
                case 3: text = Array(text[..<at])
                default: text.insert(contentsOf: text[at..<min(text.count, at + 4)], at: at)
                }
            }
            return String(text)
        }
    }

    /// Runs `parse` on every text; anything thrown other than a `DomainError` is recorded.
    static func survive(_ texts: [String], _ parse: (String) throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) {
        var parsed = 0
        for text in texts {
            do {
                try parse(text)
                parsed += 1
            } catch is DomainError {
            } catch {
                Issue.record("\(text.debugDescription): \(error)", sourceLocation: sourceLocation)
            }
        }
        // Not all refused: the pieces are the grammar's own, so some texts are well formed.
        #expect(parsed > 0, sourceLocation: sourceLocation)
    }

    static let digits = (0...9).map(String.init)

    @Test("opening hours, dates, times, amounts and coordinates")
    func fieldParsers() {
        Self.survive(
            Self.texts(
                [
                    "Mo", "Tu", "Fr", "Su", "PH", "SH", "Xx", "-", "--", ",", ";", " ", "08:30", "8:30", "12:00", "24:00", "25:00", "00:00", "12:0",
                    ":",
                    "off", "closed", "24/7", "\t", "Mo-Fr ", " 09:00-12:00",
                ],
                seed: 1, valid: ["Mo-Fr 08:30-12:00,13:30-17:00; Sa 09:00-12:00", "24/7", "Mo-Su 06:00-22:00; PH off", "Fr-Mo 09:00-10:00; We off"])
        ) { _ = try WeeklyHours(parsing: $0) }
        Self.survive(
            Self.texts(
                Self.digits + ["-", "+", " ", "٣", "0000", "9999", "-12-", "-02-29", "1"], seed: 2, length: 8,
                valid: ["2026-11-28", "0001-01-01", "9999-12-31", "2024-02-29"])
        ) {
            let date = try LocalDate(parsing: $0)
            _ = (date.adding(months: 120), date.adding(months: -120), date.endOfWeek, date.endOfMonth, date.description)
        }
        Self.survive(
            Self.texts(
                Self.digits + [".", "-", "+", "e", " ", "٣", "00000", "999999", ","], seed: 3, length: 10,
                valid: ["12.50", "-0.05", "999999999999.99", "1"])
        ) {
            for currency in [Currency.chf, Currency(code: "JPY")!] { _ = try Money(parsing: $0, currency: currency) }
        }
        Self.survive(
            Self.texts(
                Self.digits + [".", "-", "+", "e", " ", "90", "180", "000000", ","], seed: 4, length: 8,
                valid: ["47.3769", "-90", "8.5417", "180.000000"])
        ) {
            _ = try GeoPoint(latitude: $0, longitude: String($0.reversed()))
        }
        Self.survive(
            Self.texts(
                Self.digits + ["+", " ", "(", ")", "-", "0041", "+41", "079", "/"], seed: 5, length: 10,
                valid: ["+41791234567", "+41 79 123 45 67", "079 123 45 67"])
        ) {
            _ = try TopUpOperator.phoneNumber($0)
        }
    }

    @Test("IBANs, BICs, references and slip code lines")
    func paymentParsers() {
        Self.survive(
            Self.texts(
                Self.digits + ["CH", "LI", "DE", "GB", "XX", " ", "-", "93", "0076", "2011", "6238", "5295", "7", "ß"], seed: 6,
                valid: ["CH9300762011623852957", "CH93 0076 2011 6238 5295 7", "LI21 0881 0000 2324 013A A", "CH4431999123000889012"])
        ) {
            _ = try IBAN($0)
        }
        Self.survive(
            Self.texts(
                ["UBS", "WCH", "ZZ", "80A", "XXX", "A", "1", " ", "-", "CH", "ZH"], seed: 7, length: 5,
                valid: ["UBSWCHZH80A", "POFICHBEXXX", "ZKBKCHZZ"])
        ) { _ = try BIC($0) }
        Self.survive(
            Self.texts(
                Self.digits + [" ", "00000", "12345", "RF", "18", "5390", "0754", "7034", "x", "-"], seed: 8,
                valid: ["210000000003139471430009017", "21 00000 00003 13947 14300 09017", "RF18539007547034", "RF18 5390 0754 7034"])
        ) {
            _ = try? PaymentReference.creditorReference($0)
            _ = try PaymentReference.qrReference($0)
        }
        Self.survive(
            Self.texts(
                Self.digits + [">", "+", " ", "<", "0100003949753>", "120000000000234478943216899+", "010001628>", "01"], seed: 9,
                valid: ["0100003949753>120000000000234478943216899+ 010001628>", "042>000000000000000000000000000+ 010001628>"])
        ) {
            _ = try SlipCodeLine($0)
        }
    }

    @Test("QR-bill payloads: the guidelines' sample mangled, and the standard's lines shuffled, cut and repeated")
    func qrBillPayloads() {
        let lines = [
            "SPC", "0200", "0100", "1", "2", "CH4431999123000889012", "CH5800791123000889012", "S", "K", "Robert Schneider AG", "Rue du Lac", "1268",
            "2501", "Biel", "CH", "", "1949.75", "0.01", "999999999.99", "1000000000.00", "-1.00", "1,00", "CHF", "EUR", "USD", "QRR", "SCOR", "NON",
            "210000000003139471430009017", "RF18539007547034", "EPD", "//S1/10/10201409", "Pia-Maria Rutschmann-Schnyder",
        ]
        var random = SplitMix(seed: 10)
        let shuffled = (0..<Self.rounds / 2).map { _ in
            (0..<Int.random(in: 0...34, using: &random)).map { _ in lines.randomElement(using: &random)! }
                .joined(separator: Bool.random(using: &random) ? "\n" : "\r\n")
        }
        let samples = ["1949.75", "0.01", "999999999.99", ""].map { QRBillSamples.withAmount(amount: $0) }
        let mangled = Self.texts(lines.map { "\r\n" + $0 } + ["\r\n", "\n", " ", "9", "é", "\u{0}"], seed: 16, valid: samples, count: Self.rounds)
        Self.survive(shuffled + mangled) { _ = try QRBill(payload: $0) }
    }

    @Test("branch CSV files, ECB rate files and Base32 secrets")
    func fileParsers() throws {
        let header = "code,kind,name,street,postcode,town,lat,lon,phone,services,hours,inside_branch,currencies,deposit\n"
        Self.survive(
            Self.texts(
                [
                    "ZH", ",", ";", "\t", "\"", "\"\"", "\n", "\r\n", "branch", "atm", "47.37", "8.54", "8001", "Zürich", "advice|cash_desk",
                    "Mo-Fr 08:30-12:00", "24/7", "CHF|EUR", "yes", "no", "-", " ", "\u{FEFF}",
                ],
                seed: 11, length: 40,
                valid: ["ZH-HB,branch,Zürich HB,Bahnhofplatz 15,8001,Zürich,47.3779,8.5403,,advice,\"Mo-Fr 08:30-12:00,13:30-17:00\",,,\n"])
        ) { text in
            _ = try BranchCSV.parse(header + text)
        }
        Self.survive(
            Self.texts(
                [
                    "<Cube", " time='2025-05-09'", " currency='USD'", " rate='1.1252'", " rate='-1'", " rate='x'", "/>", ">", "</Cube>",
                    "<gesmes:Envelope>", "</gesmes:Envelope>", "<?xml version='1.0'?>", "'", "&amp;", " ", "<!-- ", " -->", "<![CDATA[", "]]>",
                    "<?p?>", "<?p ", "?>", "<!DOCTYPE Cube [", "<!ENTITY e '&#60;?p?&#62;'>", "]>", "&e;",
                ],
                seed: 12, length: 30,
                valid: ["<gesmes:Envelope><Cube><Cube time='2025-05-09'><Cube currency='USD' rate='1.1252'/></Cube></Cube></gesmes:Envelope>"])
        ) { _ = try ECBRatesFile.parse(Data($0.utf8)) }
        // Bytes that stopped the process inside XMLParser (`XMLParserGuard`).
        for bytes in [
            Array("<Cube><!-- ".utf8) + [0xC6] + Array(" --></Cube>".utf8), Array("<Cu".utf8) + [0xFF] + Array("be/>".utf8),
            Array("<Cube><?p?></Cube>".utf8),
            // The same instruction written by an entity's expansion.
            Array("<!DOCTYPE Cube [<!ENTITY e \"&#60;?p?&#62;\">]><Cube>&e;</Cube>".utf8),
        ] {
            #expect(throws: DomainError.self) { try ECBRatesFile.parse(Data(bytes)) }
        }
        for text in Self.texts(["A", "Z", "2", "7", "=", "a", "1", "8", " ", "-"], seed: 13, length: 40) { _ = Base32.decode(text) }
    }

    @Test("XML requests as other libraries write them, their bytes mangled: read or refused with an xml_ code")
    func xmlRequests() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
            "corpus/xml-requests")
        let bodies = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".xml") }.sorted().map {
            try [UInt8](Data(contentsOf: folder.appendingPathComponent($0)))
        }
        #expect(bodies.count >= 10)
        let pieces: [[UInt8]] =
            [
                "<", ">", "</", "/>", "&", "&amp;", "&#0;", "&#x10FFFF;", "<![CDATA[", "]]>", "<?xml", "?>", "\"", "'", "=", " ", "\u{0}",
                "é", "\u{FEFF}", "encoding='UTF-16'", "<!DOCTYPE", "<a:b>", "xmlns:a='x'", "<!-- ", "-->", "<?p?>", "<?p ", "<?", "<!",
            ].map { Array($0.utf8) } + [[0xFF], [0xFE], [0xC3], [0x00]]
        var random = SplitMix(seed: 15)
        var read = 0
        for _ in 0..<Self.rounds {
            var body = bodies.randomElement(using: &random)!
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let at = Int.random(in: 0...body.count, using: &random)
                switch Int.random(in: 0..<4, using: &random) {
                case 0: body.insert(contentsOf: pieces.randomElement(using: &random)!, at: at)
                case 1: body.removeSubrange(at..<min(body.count, at + Int.random(in: 1...8, using: &random)))
                case 2: body = Array(body[..<at])
                default: if at < body.count { body[at] = UInt8.random(in: 0...255, using: &random) }
                }
            }
            do {
                _ = try XMLRequest.parse(body)
                read += 1
            } catch let refusal as XMLRefusal {
                #expect(refusal.code.hasPrefix("xml_") || refusal.code == "payload_too_large", "\(refusal.code)")
            } catch {
                Issue.record("\(String(decoding: body, as: UTF8.self).debugDescription): \(error)")
            }
        }
        #expect(read > 0)
    }

    @Test("server-driven screens as a bank's resource pack may hold them, mangled: read or refused, never a trap")
    func screens() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/TresorServer/Resources/screens")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") && !$0.contains("schema") }
            .sorted()
        let screens = try files.map { (String($0.dropLast(5)), try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)) }
        #expect(screens.count >= 5)
        let pieces = [
            "{", "}", "[", "]", ",", ":", "\"", "null", "true", "-1", "1e999", "\"\\u0000\"", "\"type\"", "\"field\"", "\"id\"", " ", "é", "😀",
        ]
        var read = 0
        for (index, text) in Self.texts(pieces, seed: 17, length: 20, valid: screens.map(\.1)).enumerated() {
            let id = screens[index % screens.count].0
            do {
                _ = try ScreenDescription.parse(Data(text.utf8), expectedID: id)
                read += 1
            } catch is ScreenError {
            } catch is DecodingError {
            } catch {
                Issue.record("\(text.prefix(200).debugDescription): \(error)")
            }
        }
        #expect(read > 0)
    }

    @Test("receipt text as OCR reads it: amounts, dates, tax lines and Nepali dates in pieces")
    func receiptText() {
        let texts = Self.texts(
            Self.digits + [
                "\n", " ", "TOTAL", "Total CHF", "MwSt", "8.10 %", "%", "1'299.00", "1.299,00", "12.50", "-", "*", ".", ",", ":", "/", "Miti",
                "मिति", "२०८१", "21/03/2081", "07/05/2024", "2024-02-30", "31.12.9999", "00.00.0000", "Coop", "Migros", "CHF", "EUR", "x",
            ], seed: 14, length: 40)
        var dated = 0
        for text in texts where ReceiptParser.parse(text, ocrConfidence: 80).date != nil { dated += 1 }
        #expect(dated > 0)
    }
}
