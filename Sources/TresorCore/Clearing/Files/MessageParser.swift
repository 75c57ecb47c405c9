import Foundation
import TresorDomain

/// Turns one message's elements into clearing events as they stream past, and checks the
/// message's own totals at the end. One per file; it keeps only the item being read.
protocol MessageParser: AnyObject {
    var messageID: String { get }
    /// Takes one element event; a finished item is appended to `events`.
    func take(_ event: ISO20022Reader.Event, from reader: ISO20022Reader, into events: inout [ClearingEvent]) throws
    /// After the last element: the totals the message states against what it held.
    func finish(line: Int) throws
}

/// Values as ISO 20022 writes them.
enum ISO20022Value {
    /// `1500.00` in `currency` (trailing zeros past the currency's digits allowed, as the
    /// schema's five fraction digits permit); a currency Tresor does not book is refused.
    static func money(_ text: String?, currency code: String?, line: Int, path: ElementPath) throws -> Money {
        guard let code, let currency = Currency(code: code) else {
            throw ClearingRefusal(
                .invalidValue, line: line, path: path.description, "The currency \(code ?? "(none)") is not one this bank books.")
        }
        var digits = text ?? ""
        if let dot = digits.firstIndex(of: ".") {
            while digits.last == "0", digits.distance(from: dot, to: digits.endIndex) > currency.minorDigits + 1 { digits.removeLast() }
            if digits.last == "." { digits.removeLast() }
        }
        do {
            let money = try Money(parsing: digits, currency: currency)
            guard money.minorUnits > 0 else {
                throw ClearingRefusal(.invalidValue, line: line, path: path.description, "An amount of a credit is above zero.")
            }
            return money
        } catch let refusal as ClearingRefusal {
            throw refusal
        } catch {
            throw ClearingRefusal(
                .invalidValue, line: line, path: path.description, "\(text ?? "") is not an amount in \(code) (\(currency.minorDigits) decimals).")
        }
    }

    /// A `Dt` or the date of a `DtTm`.
    static func date(_ text: String?, line: Int, path: ElementPath) throws -> LocalDate {
        guard let text, let date = try? LocalDate(parsing: String(text.prefix(10))) else {
            throw ClearingRefusal(.invalidValue, line: line, path: path.description, "\(text ?? "") is not a date.")
        }
        return date
    }

    /// A reference's kind from `CdtrRefInf/Tp/CdOrPrtry` (`SCOR` code; `QRR` proprietary, as SIX writes it).
    static func referenceKind(_ code: String?) -> CreditReference.Kind {
        let code = code?.uppercased() ?? ""
        if code == "SCOR" { return .scor }
        // why ISR and ESR too: the 27-digit reference of the orange slip, which the QR reference
        // continues, as PostFinance's camt.054 names it ("ISR Reference").
        if code == "QRR" || code.hasPrefix("ESR") || code.hasPrefix("ISR") { return .qrr }
        return .other
    }

    /// A `CdtrRefInf/Ref` with the kind its `Tp` named, or, named none, the kind its form says.
    static func reference(_ value: String, kindCode: String?) -> CreditReference {
        CreditReference(kind: kindCode.map(referenceKind) ?? guessedKind(value), value: value)
    }

    /// A reference whose kind the message did not say: a QR reference is 27 digits, an ISO
    /// 11649 one starts RF.
    static func guessedKind(_ value: String) -> CreditReference.Kind {
        if value.count == 27, value.allSatisfy({ $0.isASCII && $0.isNumber }) { return .qrr }
        if value.hasPrefix("RF") { return .scor }
        return .other
    }

    /// `text` and `more` with a space between, either may be missing.
    static func joined(_ text: String?, _ more: String) -> String {
        [text, more].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// The address lines of a `PstlAdr` element's children, in the schema's order.
    static func addressLine(_ name: Substring, _ text: String, into address: inout [String]) {
        switch name {
        case "StrtNm", "BldgNb", "PstCd", "TwnNm", "Ctry", "AdrLine", "BldgNm", "Flr", "PstBx", "Room", "TwnLctnNm", "DstrctNm",
            "CtrySubDvsn", "Dept", "SubDept":
            address.append(text)
        default:
            break
        }
    }
}

/// Running totals a message states and what it held, compared at its end.
struct StatedTotal {
    var count = 0
    var sumMinor: Int64 = 0

    mutating func add(_ money: Money) {
        count += 1
        sumMinor += money.minorUnits
    }

    /// `stated` (`1500.00`) against the sum, in minor units of `currency`'s digits.
    static func minor(_ stated: String, digits: Int) -> Int64? {
        let parts = stated.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let whole = Int64(parts[0]) else { return nil }
        var fraction = parts.count == 2 ? String(parts[1]) : ""
        while fraction.count > digits, fraction.last == "0" { fraction.removeLast() }
        guard fraction.count <= digits, fraction.allSatisfy(\.isNumber) else { return nil }
        fraction += String(repeating: "0", count: digits - fraction.count)
        var scale: Int64 = 1
        for _ in 0..<digits { scale *= 10 }
        return whole * scale + (Int64(fraction) ?? 0)
    }
}
