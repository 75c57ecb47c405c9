import TresorDomain

/// Writes a payment's instruction and its signing decision as `JSONEncoder` with `.sortedKeys`
/// writes them, byte for byte, without Foundation (`InstructionCoding`).
///
/// why: every payment stored both texts through `JSONEncoder` (a tree of boxed values, then
/// sorting, then the bytes); `perf` at 16 connections on PostgreSQL put that and the runtime
/// casts it needs at ~15 µs of a payment's ~300 µs in the server. The members are written in
/// the order the encoder sorts them to, and texts escaped as it escapes them (`/` too). A test
/// holds the bytes equal to the encoder's for random instructions with awkward texts.
struct InstructionJSON {
    private(set) var bytes: [UInt8] = []
    /// Whether the innermost open object already holds a member (so the next needs a comma).
    private var filled = false

    init() {
        bytes.reserveCapacity(256)
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The instruction's members in the encoder's sorted order; absent optionals left out, as a
    /// synthesized `Encodable` leaves them out.
    mutating func write(_ instruction: PaymentInstruction) {
        object { json in
            json.key("amount")
            json.object { json in
                json.member("amount", instruction.amount.decimalString)
                json.member("currency", instruction.amount.currency.code)
            }
            json.member("billing_information", instruction.billingInformation)
            json.address("creditor", instruction.creditor)
            json.member("creditor_account", instruction.creditorAccount.map { String($0.rawValue) })
            json.member("creditor_bic", instruction.creditorBIC?.code)
            json.member("creditor_iban", instruction.creditorIBAN?.electronic)
            json.member("debtor_account", String(instruction.debtorAccount.rawValue))
            json.member("message", instruction.message)
            json.member("participant", instruction.participant)
            if let reference = instruction.reference {
                json.key("reference")
                json.object { json in
                    json.member("type", reference.kind)
                    json.member("value", reference.value)
                }
            }
            if let topup = instruction.topup {
                json.key("topup")
                json.object { json in
                    json.member("operator", topup.operator)
                    json.member("phone", topup.phone)
                }
            }
            json.member("type", instruction.type.rawValue)
            json.address("ultimate_debtor", instruction.ultimateDebtor)
        }
    }

    mutating func write(_ decision: SigningDecision) {
        object { json in
            json.member("reason", decision.reason)
            json.key("required")
            json.bytes.append(contentsOf: decision.required ? Array("true".utf8) : Array("false".utf8))
        }
    }

    private mutating func address(_ name: StaticString, _ address: PostalAddress?) {
        guard let address else { return }
        key(name)
        object { json in
            json.member("building_number", address.buildingNumber)
            json.member("country", address.country)
            json.member("name", address.name)
            json.member("postal_code", address.postalCode)
            json.member("street", address.street)
            json.member("town", address.town)
        }
    }

    private mutating func object(_ body: (inout InstructionJSON) -> Void) {
        bytes.append(UInt8(ascii: "{"))
        let outer = filled
        filled = false
        body(&self)
        filled = outer
        bytes.append(UInt8(ascii: "}"))
    }

    private mutating func key(_ name: StaticString) {
        if filled { bytes.append(UInt8(ascii: ",")) }
        filled = true
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    private mutating func member(_ name: StaticString, _ text: String?) {
        guard let text else { return }
        key(name)
        string(text)
    }

    /// `text` quoted, escaped as `JSONEncoder` escapes: `"`, `\` and `/` with a backslash, the
    /// five control characters with a short form as such, the others as `\u00xx`.
    private mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(contentsOf: [UInt8(ascii: "\\"), byte])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0..<0x20:
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                bytes.append(contentsOf: [Self.hex[Int(byte >> 4)], Self.hex[Int(byte & 0xF)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hex = Array("0123456789abcdef".utf8)
}
