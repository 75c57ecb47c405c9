import NIOCore
import TresorCore
import TresorDomain

/// The text members of a small JSON object, read without Foundation: `"key": "text"`, `null`,
/// and objects of those one level down (named `outer.inner`). Anything else (a number, an
/// array, an escape, a control character, U+FFFE or U+FFFF, a key twice, invalid UTF-8, more
/// than one level) gives nil, and the caller decodes the body with `JSONDecoder` as before,
/// which accepts or refuses it with its own errors.
///
/// why: `JSONDecoder` was 7 % of the server's CPU under `POST /v1/transfers` (`perf` at 64
/// connections on SQLite), for a body of four short texts. What this reads, it reads as
/// `JSONDecoder` would; what it does not, it leaves to it.
struct JSONFields {
    /// Text members by dotted name; a `null` member is absent.
    private var texts: [String: String] = [:]
    /// Names given `null`, so that a key given twice is seen even when one was null.
    private var nulls: Set<String> = []
    /// Names of the members that are objects (`amount`).
    private var objects: Set<String> = []

    subscript(name: String) -> String? { texts[name] }

    /// Whether the member `name` is an object.
    func hasObject(_ name: String) -> Bool { objects.contains(name) }

    /// An optional text member as `JSONDecoder` reads it: `.some(nil)` when missing or null,
    /// `.some(text)`, or nil when it is an object (which `JSONDecoder` refuses).
    func optionalText(_ name: String) -> String?? {
        objects.contains(name) ? nil : .some(texts[name])
    }

    /// Whether an optional object member is missing (true), present as an object (false), or nil
    /// when it is a text (which `JSONDecoder` refuses) or null (which `JSON.refuseNullObjects`
    /// refuses: read here as absent, `{"creditor": null}` was taken and the same body with a
    /// number in it refused).
    func lacksObject(_ name: String) -> Bool? {
        if texts[name] != nil || nulls.contains(name) { return nil }
        return !objects.contains(name)
    }

    /// The members of the object in `buffer`, or nil for anything this does not read.
    static func read(_ buffer: ByteBuffer) -> JSONFields? {
        buffer.withUnsafeReadableBytes { bytes in
            var reader = Reader(bytes: bytes)
            var fields = JSONFields()
            guard reader.object(prefix: nil, into: &fields) else { return nil }
            reader.skipSpace()
            return reader.index == bytes.count ? fields : nil
        }
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var index = 0

        init(bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
        }

        mutating func skipSpace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
                index += 1
            }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            skipSpace()
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// An object; `prefix` is the name of the member holding it (nil at the top).
        mutating func object(prefix: String?, into fields: inout JSONFields) -> Bool {
            guard take(UInt8(ascii: "{")) else { return false }
            if take(UInt8(ascii: "}")) { return true }
            while true {
                skipSpace()
                // why no dot in a key: `a.b` must name member `b` of object `a` only.
                guard let key = string(), !key.utf8.contains(UInt8(ascii: ".")), take(UInt8(ascii: ":")) else { return false }
                let name = prefix.map { "\($0).\(key)" } ?? key
                guard fields.texts[name] == nil, !fields.nulls.contains(name), !fields.objects.contains(name) else { return false }
                skipSpace()
                guard index < bytes.count else { return false }
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    guard let text = string() else { return false }
                    fields.texts[name] = text
                case UInt8(ascii: "n"):
                    guard null() else { return false }
                    fields.nulls.insert(name)
                case UInt8(ascii: "{"):
                    guard prefix == nil else { return false }
                    fields.objects.insert(name)
                    guard object(prefix: name, into: &fields) else { return false }
                default:
                    return false
                }
                if take(UInt8(ascii: ",")) { continue }
                return take(UInt8(ascii: "}"))
            }
        }

        /// A string without escapes or control characters, as valid UTF-8; the reader is at its quote.
        mutating func string() -> String? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            let start = index + 1
            var end = start
            while end < bytes.count {
                let byte = bytes[end]
                if byte == UInt8(ascii: "\"") { break }
                if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
                // U+FFFE or U+FFFF, which `JSON.refuseCharacters` refuses.
                if byte == 0xEF, end + 2 < bytes.count, bytes[end + 1] == 0xBF, bytes[end + 2] >= 0xBE { return nil }
                end += 1
            }
            guard end < bytes.count else { return nil }
            index = end + 1
            return String(validating: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }

        mutating func null() -> Bool {
            guard index + 4 <= bytes.count, bytes[index + 1] == UInt8(ascii: "u"), bytes[index + 2] == UInt8(ascii: "l"),
                bytes[index + 3] == UInt8(ascii: "l")
            else { return false }
            index += 4
            return true
        }
    }
}

/// A request body with a reading from `JSONFields` beside its `Decodable` one (`JSON.decode`).
protocol FieldsDecodable: Decodable {
    /// The value the fields hold, or nil whenever anything is missing, extra in a way that
    /// matters, or invalid: `JSONDecoder` then decodes the body and names the error.
    init?(fields: JSONFields)
}

extension TransferRequest: FieldsDecodable {
    init?(fields: JSONFields) {
        guard let from = fields["from_account"].flatMap(AccountID.init(text:)), let to = fields["to_account"].flatMap(AccountID.init(text:)),
            fields.hasObject("amount"), let currency = fields["amount.currency"].flatMap(Currency.init(code:)),
            let text = fields["amount.amount"], let amount = try? Money(parsing: text, currency: currency)
        else { return nil }
        self.init(fromAccount: from, toAccount: to, amount: amount, message: fields["message"])
    }
}

extension PaymentRequest: FieldsDecodable {
    init?(fields: JSONFields) {
        guard let type = fields["type"].flatMap(PaymentType.init(rawValue:)), let debtor = fields["debtor_account"].flatMap(AccountID.init(text:)),
            let reference = fields.optionalText("reference"), let message = fields.optionalText("message"),
            let qrbillPayload = fields.optionalText("qrbill_payload"), let codeLine = fields.optionalText("code_line"),
            let executionText = fields.optionalText("execution_date"), let noAmount = fields.lacksObject("amount"),
            let noCreditor = fields.lacksObject("creditor"), let noTopUp = fields.lacksObject("topup")
        else { return nil }
        var request = PaymentRequest(
            type: type, debtorAccount: debtor, reference: reference, message: message, qrbillPayload: qrbillPayload, codeLine: codeLine)
        if let executionText {
            guard let date = try? LocalDate(parsing: executionText) else { return nil }
            request.executionDate = date
        }
        if !noAmount {
            guard let currency = fields["amount.currency"].flatMap(Currency.init(code:)), let text = fields["amount.amount"],
                let amount = try? Money(parsing: text, currency: currency)
            else { return nil }
            request.amount = amount
        }
        if !noCreditor {
            var creditor = CreditorInput()
            guard let account = fields.optionalText("creditor.account"), let name = fields.optionalText("creditor.name"),
                let iban = fields.optionalText("creditor.iban"), let bic = fields.optionalText("creditor.bic"),
                let street = fields.optionalText("creditor.street"), let building = fields.optionalText("creditor.building_number"),
                let postalCode = fields.optionalText("creditor.postal_code"), let town = fields.optionalText("creditor.town"),
                let country = fields.optionalText("creditor.country")
            else { return nil }
            if let account {
                guard let id = AccountID(text: account) else { return nil }
                creditor.account = id
            }
            (creditor.name, creditor.iban, creditor.bic, creditor.street) = (name, iban, bic, street)
            (creditor.buildingNumber, creditor.postalCode, creditor.town, creditor.country) = (building, postalCode, town, country)
            request.creditor = creditor
        }
        if !noTopUp {
            guard let `operator` = fields["topup.operator"], let phone = fields["topup.phone"] else { return nil }
            request.topup = TopUpInput(operator: `operator`, phone: phone)
        }
        self = request
    }
}
