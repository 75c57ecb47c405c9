import Foundation
import FoundationXML
import Testing
import TresorDomain
import TresorLedger
import TresorTestSupport

/// Statements through the API, read back with tools that are not ours: xmllint against the
/// official camt.053 schema, pdftotext (poppler) for the PDF, an RFC 4180 reader for the CSV.
@Suite("Account statements: camt.053, PDF and CSV")
struct StatementAPITests {
    @Test("camt.053 validates against the official schema and matches the transactions API for random periods")
    func camt053MatchesTransactions() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let payer = try await PayingCustomer.annaMeier(client, harness: harness)
            // A QR-bill paid on Monday 23 November: its reference must reach the statement.
            let payload = try String(data: JSONEncoder().encode(QRBillSamples.withAmount(amount: "49.75")), encoding: .utf8)!
            #expect(
                try await payer.payAndSign(#"{"type": "qrbill", "debtor_account": "\#(payer.current)", "qrbill_payload": \#(payload)}"#).status
                    == .created)
            harness.clock.advance(seconds: 86_400)
            _ = try await harness.services.scheduler.runDue()
            let anna = try await PayingCustomer.annaMeier(client)

            var random = SplitMix(seed: 20_261_123)
            let first = try LocalDate(parsing: "2025-11-01")
            var periods = [(try LocalDate(parsing: "2026-11-01"), try LocalDate(parsing: "2026-11-30"))]
            for _ in 0..<6 {
                let from = first.adding(days: Int(random.next() % 380))
                periods.append((from, from.adding(days: Int(random.next() % 120))))
            }
            var sawReference = false
            for (from, to) in periods {
                let reply = try await client.call(
                    .get, "/v1/accounts/\(anna.current)/statements?from=\(from)&to=\(to)&format=camt053", token: anna.token)
                #expect(reply.status == .ok)
                #expect(reply.headers[.contentType]?.hasPrefix("application/xml") == true)
                let file = FileManager.default.temporaryDirectory.appendingPathComponent("camt-\(UUID().uuidString).xml")
                try Data(reply.text.utf8).write(to: file)
                let lint = try ToolRun.run("/usr/bin/xmllint", ["--noout", "--nonet", "--schema", Self.camtSchema, file.path])
                #expect(lint.status == 0, "\(from)…\(to): \(lint.output)")

                let camt = try CamtReading(reply.text)
                #expect(camt.opening + camt.entries.reduce(0) { $0 + $1.minor } == camt.closing, "opening + entries = closing")
                let api = try await Self.transactions(client, anna, account: anna.current, from: from, to: to)
                #expect(camt.entries.map(\.minor) == api.map(\.minor), "\(from)…\(to): same bookings, same order")
                #expect(camt.entries.map(\.bookingDate) == api.map(\.bookingDate))
                if let last = api.last { #expect(camt.closing == last.balanceAfter) }
                sawReference = sawReference || reply.text.contains("<Prtry>QRR</Prtry></CdOrPrtry></Tp><Ref>210000000003139471430009017</Ref>")
            }
            #expect(sawReference, "the QR reference of the paid bill is in November's statement")
        }
    }

    @Test("texts in any script at the limit, and texts stored before the rules, still give a camt.053 the schema takes")
    func camt053HoldsAnyText() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let anna = try await PayingCustomer.annaMeier(client)
            // 140 scalars: Devanagari, an emoji family, flags, a decomposed accent.
            let message = String(repeating: "नमस्ते ", count: 14) + "👨‍👩‍👧‍👦🇨🇭🇳🇵e\u{301}" + String(repeating: "x", count: 29)
            #expect(TextLength.of(message) == 140 && message.count < 140)
            for text in [message, "LEGACY"] {
                let transfer = try await client.call(
                    .post, "/v1/transfers", token: anna.token,
                    json:
                        #"{"from_account": "\#(anna.current)", "to_account": "\#(anna.savings)", "amount": {"amount": "1.00", "currency": "CHF"}, "message": "\#(text)"}"#,
                    headers: ["Idempotency-Key": UUID().uuidString])
                #expect(transfer.status == .created, "\(transfer.text)")
            }
            // What a text stored before the limits counted scalars and before U+FFFF was refused
            // can hold: 150 decomposed letters (300 scalars) and characters no XML carries.
            let legacy = String(repeating: "e\u{301}", count: 150) + "\u{FFFF}\u{7}"
            try await harness.services.database.transaction { session in
                try await session.execute(SQL("UPDATE postings SET remittance = ? WHERE remittance = 'LEGACY'", [.text(legacy)]))
            }
            let reply = try await client.call(
                .get, "/v1/accounts/\(anna.current)/statements?from=2026-11-01&to=2026-11-30&format=camt053", token: anna.token)
            #expect(reply.status == .ok)
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("camt-\(UUID().uuidString).xml")
            try Data(reply.text.utf8).write(to: file)
            let lint = try ToolRun.run("/usr/bin/xmllint", ["--noout", "--nonet", "--schema", Self.camtSchema, file.path])
            #expect(lint.status == 0, "\(lint.output)")
            #expect(reply.text.contains("<Ustrd>\(message)</Ustrd>"), "a text at the limit is written whole")
            #expect(reply.text.contains("<Ustrd>\(String(repeating: "e\u{301}", count: 70))</Ustrd>"), "a longer one is cut at 140 scalars")
            for format in ["pdf", "csv"] {
                let other = try await client.call(
                    .get, "/v1/accounts/\(anna.current)/statements?from=2026-11-01&to=2026-11-30&format=\(format)", token: anna.token)
                #expect(other.status == .ok, "\(format)")
            }
        }
    }

    @Test("the PDF reads back with pdftotext: letterhead, balances, and a balance carried across every page break")
    func pdfReadsBack() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let anna = try await PayingCustomer.annaMeier(client)
            let download = try await client.download(
                "/v1/accounts/\(anna.current)/statements?from=2025-11-01&to=2026-11-30&format=pdf", token: anna.token)
            #expect(download.status == .ok)
            #expect(download.headers[.contentType] == "application/pdf")
            #expect(Array(download.bytes.prefix(5)) == Array("%PDF-".utf8))
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("statement-\(UUID().uuidString).pdf")
            try Data(download.bytes).write(to: file)
            let info = try ToolRun.run("/usr/bin/pdfinfo", [file.path]).output
            let pages = try #require(info.split(separator: "\n").first { $0.hasPrefix("Pages:") }.flatMap { Int($0.split(separator: " ").last!) })
            #expect(pages >= 3, "a year of bookings takes several pages")

            let api = try await Self.transactions(
                client, anna, account: anna.current, from: try LocalDate(parsing: "2025-11-01"), to: try LocalDate(parsing: "2026-11-30"))
            let closing = try #require(api.last).balanceAfter
            var carried: [String] = []
            for page in 1...pages {
                let text = try ToolRun.run("/usr/bin/pdftotext", ["-layout", "-f", "\(page)", "-l", "\(page)", file.path, "-"]).output
                #expect(text.contains("Tresor Demo Bank") && text.contains("Kontoauszug"))
                #expect(text.contains("Seite \(page) von \(pages)"))
                let lines = text.split(separator: "\n").map(String.init)
                if page > 1 {
                    // The first row of a following page brings forward what the page before carried.
                    let brought = try #require(lines.first { $0.contains("Übertrag") && !$0.contains("nächste") })
                    #expect(Self.lastAmount(brought) == carried.last)
                }
                if page < pages {
                    let carriedLine = try #require(lines.first { $0.contains("Übertrag auf nächste Seite") })
                    // The carried balance is the running balance of the page's last booking.
                    let bookings = lines.filter { $0.range(of: #"^\s*\d\d\.\d\d\.\d{4} "#, options: .regularExpression) != nil }
                    #expect(Self.lastAmount(try #require(bookings.last)) == Self.lastAmount(carriedLine))
                    carried.append(try #require(Self.lastAmount(carriedLine)))
                } else {
                    #expect(text.contains("Schlusssaldo"))
                    #expect(text.contains(Self.swiss(closing)), "closing balance \(Self.swiss(closing)) printed")
                }
            }
            let french = try await client.download(
                "/v1/accounts/\(anna.current)/statements?from=2026-10-01&to=2026-10-31&format=pdf&lang=fr", token: anna.token)
            try Data(french.bytes).write(to: file)
            let text = try ToolRun.run("/usr/bin/pdftotext", ["-layout", file.path, "-"]).output
            #expect(text.contains("Relevé de compte") && text.contains("Solde initial") && text.contains("Page 1 sur 1"))
            // In Italian the currency is "Divisa": "Valuta" heads the value dates' column alone.
            let italian = try await client.download(
                "/v1/accounts/\(anna.current)/statements?from=2026-10-01&to=2026-10-31&format=pdf&lang=it", token: anna.token)
            try Data(italian.bytes).write(to: file)
            let italianText = try ToolRun.run("/usr/bin/pdftotext", ["-layout", file.path, "-"]).output
            #expect(italianText.contains("Estratto conto") && italianText.contains("Divisa"))
            #expect(italianText.components(separatedBy: "Valuta").count - 1 == 1)
        }
    }

    @Test("the CSV parses back: one header, quoted fields round-trip, formulas defused, amounts add up")
    func csvParsesBack() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let anna = try await PayingCustomer.annaMeier(client)
            let transfer = try await client.call(
                .post, "/v1/transfers", token: anna.token,
                json:
                    #"{"from_account": "\#(anna.current)", "to_account": "\#(anna.savings)", "amount": {"amount": "12.50", "currency": "CHF"}, "message": "=SUM(A1) \"Ferien\", Teil 2"}"#,
                headers: ["Idempotency-Key": UUID().uuidString])
            #expect(transfer.status == .created)
            // A CR LF, and a comma, a quote and a formula sign each followed by a combining mark:
            // one character each in Swift, which the writer once compared whole.
            let awkward = [#"Teil 1\r\nTeil 2"#, "Miete,\u{301} Mai", #"Zitat \"\#u{301}x"#, "=\u{301}SUM(A1)"]
            for (index, message) in awkward.enumerated() {
                let booked = try await client.call(
                    .post, "/v1/transfers", token: anna.token,
                    json:
                        #"{"from_account": "\#(anna.current)", "to_account": "\#(anna.savings)", "amount": {"amount": "0.0\#(index + 1)", "currency": "CHF"}, "message": "\#(message)"}"#,
                    headers: ["Idempotency-Key": UUID().uuidString])
                #expect(booked.status == .created, "\(booked.text)")
            }
            let reply = try await client.call(
                .get, "/v1/accounts/\(anna.current)/statements?from=2026-10-01&to=2026-11-30&format=csv", token: anna.token)
            #expect(reply.status == .ok)
            #expect(reply.text.hasPrefix("\u{FEFF}booking_date,value_date,text,counterparty,reference,amount,currency,balance\r\n"))
            let rows = Self.parseCSV(String(reply.text.dropFirst()))
            #expect(rows.first?.count == 8)
            let body = rows.dropFirst()
            #expect(body.allSatisfy { $0.count == 8 })
            let ours = try #require(body.last { $0[5] == "-12.50" })
            #expect(ours[2] == "'=SUM(A1) \"Ferien\", Teil 2")
            let written = ["Teil 1\r\nTeil 2", "Miete,\u{301} Mai", "Zitat \"\u{301}x", "'=\u{301}SUM(A1)"]
            for (index, text) in written.enumerated() {
                #expect(body.last { $0[5] == "-0.0\(index + 1)" }?[2] == text, "\(text.debugDescription)")
            }
            #expect(body.allSatisfy { $0[0].wholeMatch(of: /\d{4}-\d\d-\d\d/) != nil })
            let api = try await Self.transactions(
                client, anna, account: anna.current, from: try LocalDate(parsing: "2026-10-01"), to: try LocalDate(parsing: "2026-11-30"))
            #expect(body.map { try! Money(parsing: $0[5], currency: .chf).minorUnits } == api.map(\.minor))
            #expect(try Money(parsing: try #require(body.last)[7], currency: .chf).minorUnits == api.last?.balanceAfter)
            // For a spreadsheet set to a Swiss region: the same rows, split at semicolons; the
            // message's comma is now plain text, its quotes still quoted.
            let semicolons = try await client.call(
                .get, "/v1/accounts/\(anna.current)/statements?from=2026-10-01&to=2026-11-30&format=csv&separator=semicolon", token: anna.token)
            #expect(semicolons.status == .ok)
            #expect(semicolons.text.hasPrefix("\u{FEFF}booking_date;value_date;text;counterparty;reference;amount;currency;balance\r\n"))
            #expect(semicolons.text.contains(#";"'=SUM(A1) ""Ferien"", Teil 2";"#))
            #expect(Self.parseCSV(String(semicolons.text.dropFirst()), separator: ";") == rows)
            // The web app's download is for a person with a spreadsheet: semicolons and a header
            // line in the page's language, the same rows.
            let header = [
                "de": "Buchungsdatum;Valuta;Text;", "fr": "Date comptable;Date valeur;Libellé;", "it": "Data contabile;Data valuta;",
                "en": "Booking date;Value date;Details;",
            ]
            for (language, start) in header {
                let web = try await client.call(
                    .get, "/statements/download?account=\(anna.current)&from=2026-10-01&to=2026-11-30&format=csv",
                    headers: ["Cookie": "tresor_session=\(anna.token); lang=\(language)"])
                #expect(web.status == .ok)
                #expect(web.text.hasPrefix("\u{FEFF}" + start), "\(language)")
                let webRows = Self.parseCSV(String(web.text.dropFirst()), separator: ";")
                #expect(Set(webRows.first ?? []).count == 8, "eight columns, each named once (\(language))")
                #expect(Array(webRows.dropFirst()) == Array(rows.dropFirst()))
            }
        }
    }

    @Test("bad requests get a 4xx naming the field; another customer's account does not exist")
    func badRequests() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let anna = try await PayingCustomer.annaMeier(client)
            let luca = try await client.login("10000028")
            let base = "/v1/accounts/\(anna.current)/statements"
            let cases: [(String, String, String, String)] = [
                ("?from=2026-10-01&to=2026-10-31&format=pdf", luca, "account_not_found", "id"),
                ("?from=2026-10-01&to=2026-10-31&format=xls", anna.token, "invalid_parameter", "format"),
                ("?to=2026-10-31", anna.token, "invalid_parameter", "from"),
                ("?from=2026-10-31&to=2026-10-01", anna.token, "invalid_date_range", "from"),
                ("?from=2015-01-01&to=2026-10-31", anna.token, "invalid_date_range", "to"),
                ("?from=2026-13-01&to=2026-10-31", anna.token, "invalid_date", "from"),
                ("?from=2026-10-01&to=2026-10-31&lang=xx", anna.token, "invalid_parameter", "lang"),
                ("?from=2026-10-01&to=2026-10-31&format=csv&separator=tab", anna.token, "invalid_parameter", "separator"),
            ]
            for (query, token, code, field) in cases {
                let reply = try await client.call(.get, base + query, token: token)
                #expect((400..<500).contains(reply.status.code), "\(query)")
                #expect(reply.errorCode == code, "\(query): \(reply.text)")
                #expect(reply.errorField == field, "\(query)")
            }
            #expect(try await client.call(.get, base + "?from=2026-10-01&to=2026-10-31", token: "nope").status == .unauthorized)
            // The ten-year limit of a period in the last year a date can name lies past it;
            // computing it stopped the server.
            let late = try await client.call(.get, base + "?from=9999-06-01&to=9999-12-31&format=csv", token: anna.token)
            #expect(late.status == .ok, "\(late.text)")
        }
    }

    // MARK: - Reading back

    struct Booking {
        let bookingDate: String
        let minor: Int64
        let balanceAfter: Int64
    }

    /// Every booking of the period from the transactions API, oldest first.
    static func transactions(_ client: APIHarness.Client, _ anna: PayingCustomer, account: String, from: LocalDate, to: LocalDate) async throws
        -> [Booking]
    {
        var bookings: [Booking] = []
        var cursor: String?
        repeat {
            let page = try await client.call(
                .get, "/v1/accounts/\(account)/transactions?from=\(from)&to=\(to)&limit=200" + (cursor.map { "&cursor=\($0)" } ?? ""),
                token: anna.token)
            for entry in page.json["transactions"] as? [[String: Any]] ?? [] {
                bookings.append(
                    Booking(
                        bookingDate: entry["booking_date"] as! String, minor: try Money(parsing: entry.money("amount")!, currency: .chf).minorUnits,
                        balanceAfter: try Money(parsing: entry.money("balance_after")!, currency: .chf).minorUnits))
            }
            cursor = page.json["next_cursor"] as? String
        } while cursor != nil
        return bookings.reversed()
    }

    /// What camt.053 says, read with an XML parser.
    struct CamtReading {
        var opening: Int64 = 0
        var closing: Int64 = 0
        var entries: [(bookingDate: String, minor: Int64)] = []

        init(_ xml: String) throws {
            let document = try XMLDocument(xmlString: xml)
            func signed(_ node: XMLNode) throws -> Int64 {
                let amount = try #require(try node.nodes(forXPath: "*[local-name()='Amt']").first?.stringValue)
                let sign: Int64 = try node.nodes(forXPath: "*[local-name()='CdtDbtInd']").first?.stringValue == "DBIT" ? -1 : 1
                return sign * (try Money(parsing: amount, currency: .chf).minorUnits)
            }
            for balance in try document.nodes(forXPath: "//*[local-name()='Bal']") {
                let code = try balance.nodes(forXPath: ".//*[local-name()='Cd']").first?.stringValue
                if code == "OPBD" { opening = try signed(balance) }
                if code == "CLBD" { closing = try signed(balance) }
            }
            for entry in try document.nodes(forXPath: "//*[local-name()='Ntry']") {
                let date = try entry.nodes(forXPath: "*[local-name()='BookgDt']/*[local-name()='Dt']").first?.stringValue ?? ""
                entries.append((date, try signed(entry)))
            }
        }
    }

    /// RFC 4180: fields separated by commas (or `separator`), records by CRLF, quoted fields may
    /// hold both.
    static func parseCSV(_ text: String, separator: Unicode.Scalar = ",") -> [[String]] {
        // why by scalar: as a CSV reader reads bytes; by character, a quote or a comma with a
        // combining mark after it, or a CR LF, would not be seen as what it is.
        var rows: [[String]] = []
        var row: [String] = []
        var field = String.UnicodeScalarView()
        var quoted = false
        var scalars = Array(text.unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            if quoted {
                if scalar == "\"" {
                    if scalars.first == "\"" {
                        field.append("\"")
                        scalars.removeFirst()
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(scalar)
                }
            } else if scalar == "\"" {
                quoted = true
            } else if scalar == separator {
                row.append(String(field))
                field = String.UnicodeScalarView()
            } else if scalar == "\n" || (scalar == "\r" && scalars.first == "\n") {
                if scalar == "\r" { scalars.removeFirst() }
                row.append(String(field))
                rows.append(row)
                row = []
                field = String.UnicodeScalarView()
            } else {
                field.append(scalar)
            }
        }
        if !field.isEmpty || !row.isEmpty { rows.append(row + [String(field)]) }
        return rows
    }

    /// The last amount on a line of pdftotext output, as printed (`15’548.80`).
    static func lastAmount(_ line: String) -> String? {
        line.matches(of: /-?[\d’]+\.\d\d/).last.map { String($0.output) }
    }

    static func swiss(_ minor: Int64) -> String {
        let text = Money(minorUnits: abs(minor), currency: .chf).decimalString
        let parts = text.split(separator: ".")
        var grouped = ""
        for (index, digit) in parts[0].reversed().enumerated() {
            if index > 0, index % 3 == 0 { grouped.append("’") }
            grouped.append(digit)
        }
        return (minor < 0 ? "-" : "") + String(grouped.reversed()) + "." + parts[1]
    }

    static var camtSchema: String { Standards.path("camt.053.001.08.xsd") }
}
