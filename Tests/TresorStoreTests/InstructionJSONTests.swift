import Foundation
import Testing
import TresorTestSupport

@testable import TresorCore
@testable import TresorDomain
@testable import TresorLedger

/// A payment's instruction and signing decision are kept as the text `JSONEncoder` wrote before
/// (`InstructionJSON`): the same bytes for any instruction, whatever its texts hold, and the
/// array literals of a batch (`PostgresArray`) carry any text to PostgreSQL unchanged.
@Suite("Instruction JSON and PostgreSQL array literals")
struct InstructionJSONTests {
    /// Texts a payer or a slip may put in a message, a name or a reference: quotes, slashes,
    /// backslashes, control characters, non-Latin scripts, emoji.
    static let awkward = [
        "", "Miete 11/2026", "Zahlung \"Miete\"", "back\\slash", "line\nbreak\ttab\r", "\u{01}\u{08}\u{0C}\u{1F}\u{7F}", "Café Zürich — ☕️",
        "👩‍👩‍👧 family", "עברית", "</script>", "{a,b}", "NULL", "\u{2028}",
    ]

    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    static func instruction(_ random: inout SplitMix) -> PaymentInstruction {
        func text() -> String { awkward.randomElement(using: &random)! }
        func maybe() -> String? { Bool.random(using: &random) ? nil : text() }
        func address() -> PostalAddress? {
            Bool.random(using: &random)
                ? nil
                : PostalAddress(name: text(), street: maybe(), buildingNumber: maybe(), postalCode: text(), town: text(), country: text())
        }
        let currency = [Currency.chf, .eur, Currency(code: "JPY") ?? .chf].randomElement(using: &random)!
        var instruction = PaymentInstruction(
            type: PaymentType.allCases.randomElement(using: &random)!, debtorAccount: AccountID(Int64.random(in: 1...Int64.max, using: &random)),
            amount: Money(minorUnits: Int64.random(in: -10_000_000...10_000_000, using: &random), currency: currency))
        if Bool.random(using: &random) { instruction.creditorAccount = AccountID(Int64.random(in: 1...99_999, using: &random)) }
        if Bool.random(using: &random) { instruction.creditorIBAN = try? IBAN("CH93 0076 2011 6238 5295 7") }
        if Bool.random(using: &random) { instruction.creditorBIC = try? BIC("UBSWCHZH80A") }
        instruction.creditor = address()
        instruction.ultimateDebtor = address()
        instruction.participant = maybe()
        instruction.message = maybe()
        instruction.billingInformation = maybe()
        switch Int.random(in: 0...2, using: &random) {
        case 0: instruction.reference = try? .qrReference("210000000003139471430009017")
        case 1: instruction.reference = try? .creditorReference("RF18539007547034")
        default: break
        }
        if Bool.random(using: &random) { instruction.topup = PaymentInstruction.TopUp(operator: text(), phone: text()) }
        return instruction
    }

    @Test("an instruction is written as JSONEncoder wrote it, byte for byte, and reads back", arguments: 1...200 as ClosedRange<UInt64>)
    func instructions(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        let instruction = Self.instruction(&random)
        let text = InstructionCoding.encode(instruction)
        #expect(text == String(decoding: try Self.encoder().encode(instruction), as: UTF8.self))
        #expect(try InstructionCoding.decode(text) == instruction)
    }

    @Test("a signing decision is written as JSONEncoder wrote it, and none as no text")
    func decisions() throws {
        for required in [true, false] {
            for reason in ["own_account", "payee_not_whitelisted"] + Self.awkward {
                let decision = SigningDecision(required: required, reason: reason)
                let text = InstructionCoding.encode(decision)
                #expect(text == String(decoding: try Self.encoder().encode(decision), as: UTF8.self))
                #expect(InstructionCoding.decodeDecision(text) == decision)
            }
        }
        #expect(InstructionCoding.encode(nil as SigningDecision?) == nil)
    }

    @Test("array literals carry texts, nulls and integers to PostgreSQL unchanged", .enabled(if: TestStore.available.contains(.postgres)))
    func arrayLiterals() async throws {
        let database = try await TestStore.postgres.makeDatabase()
        let texts: [String?] = Self.awkward + [nil, "\"", "\\", "\\\"", "a,b", " space "]
        let ints: [Int64?] = [0, -1, 1, Int64.max, Int64.min, nil, 42]
        let rows = try await database.read { session in
            try await session.query(
                SQL(
                    "SELECT t.v, t.n FROM unnest(?::text[]) WITH ORDINALITY AS t (v, n) ORDER BY t.n",
                    [.text(PostgresArray.text(texts))]))
        }
        #expect(rows.map { $0.optionalText(0) } == texts)
        let numbers = try await database.read { session in
            try await session.query(
                SQL("SELECT t.v FROM unnest(?::bigint[]) WITH ORDINALITY AS t (v, n) ORDER BY t.n", [.text(PostgresArray.int(ints))]))
        }
        #expect(numbers.map { $0.optionalInt(0) } == ints)
        #expect(PostgresArray.ints(PostgresArray.int([3, -2, Int64.min])) == [3, -2, Int64.min])
        try await database.close()
    }
}
