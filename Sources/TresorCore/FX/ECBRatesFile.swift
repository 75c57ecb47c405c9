import Foundation
import TresorDomain

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The ECB's euro foreign exchange reference rates XML: the daily file and the 90-day and full
/// history files share one shape (`<Cube time="…"><Cube currency="USD" rate="1.0812"/>…`),
/// whatever the quotes, tabs or line breaks. Rates stay decimal strings, exactly as published.
public enum ECBRatesFile {
    /// Rates per date: currency code → units per 1 EUR. Throws `invalid_parameter` when the
    /// file is not a rates file (no `Cube` with a date and rates).
    public static func parse(_ data: Data) throws -> [LocalDate: [String: String]] {
        final class Reader: NSObject, XMLParserDelegate {
            var days: [LocalDate: [String: String]] = [:]
            var current: LocalDate?
            var fault: String?

            func parser(
                _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]
            ) {
                guard name == "Cube" || name.hasSuffix(":Cube") else { return }
                if let time = attributes["time"] {
                    guard let date = try? LocalDate(parsing: time) else {
                        fault = "bad date \(time.prefix(20))"
                        parser.abortParsing()
                        return
                    }
                    current = date
                } else if let currency = attributes["currency"], let rate = attributes["rate"], let date = current {
                    guard currency.count == 3, currency.allSatisfy({ $0.isASCII && $0.isUppercase }), let value = Decimal(string: rate), value > 0,
                        rate.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") })
                    else {
                        fault = "bad rate \(currency.prefix(8)) \(rate.prefix(20))"
                        parser.abortParsing()
                        return
                    }
                    days[date, default: [:]][currency] = rate
                }
            }
        }
        // why first: the file comes from the network (`--fx-url`), and on some bytes Foundation's
        // XMLParser stops the process (`XMLParserGuard`); the ECB writes UTF-8.
        if let hazard = XMLParserGuard.hazard(in: [UInt8](data)) {
            throw DomainError(.invalidParameter, field: "file", "Not an ECB rates file: \(hazard).")
        }
        let reader = Reader()
        let parser = XMLParser(data: data)
        parser.delegate = reader
        let ok = parser.parse()
        if let fault = reader.fault { throw DomainError(.invalidParameter, field: "file", "Not an ECB rates file: \(fault).") }
        guard ok, !reader.days.isEmpty else {
            throw DomainError(.invalidParameter, field: "file", "Not an ECB reference rates file (no dated Cube with rates).")
        }
        return reader.days
    }
}
