import Foundation
import Testing
import TresorDomain
import TresorLedger
import TresorTestSupport

@testable import TresorCore
@testable import TresorServer

/// The hand-written JSON of the hottest responses must say exactly what `JSONEncoder` said
/// before: the same keys, values and nulls, for any text a counterparty or remittance may hold.
@Suite("JSON writer")
struct JSONWriterTests {
    static let awkward = [
        "", "Migros Bern", "Zahlung \"Miete\" 11/2026", "back\\slash", "line\nbreak\ttab\r", "\u{01}\u{1F}\u{7F}", "Café Zürich — ☕️",
        "👩‍👩‍👧 family", "עברית", "</script>", "a/b",
    ]

    static func encoded(_ value: some Encodable) throws -> Any {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try JSONSerialization.jsonObject(with: encoder.encode(value))
    }

    static func written(_ value: some JSONWritable) throws -> Any {
        var writer = JSONWriter()
        value.write(to: &writer)
        return try JSONSerialization.jsonObject(with: Data(writer.bytes))
    }

    @Test("a page of transactions: the writer and JSONEncoder give the same document", arguments: 1...20 as ClosedRange<UInt64>)
    func transactionPages(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        let currency = [Currency.chf, .eur, Currency(code: "JPY") ?? .chf].randomElement(using: &random)!
        func money() -> Money { Money(minorUnits: Int64.random(in: -10_000_000...10_000_000, using: &random), currency: currency) }
        func text() -> String? { Bool.random(using: &random) ? nil : Self.awkward.randomElement(using: &random)! }
        let entries = (0..<Int.random(in: 0...60, using: &random)).map { index in
            EntryDTO(
                id: TransactionID(Int64(index) * 7_919), bookingDate: LocalDate(year: 2026, month: 1 + index % 12, day: 1 + index % 28)!,
                valueDate: LocalDate(year: 2025, month: 12, day: 31)!, amount: money(), counterparty: text(), remittance: text(),
                balanceAfter: money(), receiptID: Bool.random(using: &random) ? Int64(index) : nil)
        }
        let page = EntryPageDTO(transactions: entries, nextCursor: Bool.random(using: &random) ? "c2Vlay8xMjM=" : nil)
        let written = try Self.written(page) as! NSDictionary
        #expect(written.isEqual(try Self.encoded(page)))
        #expect((written["transactions"] as! [Any]).count == entries.count)
    }

    @Test("a list of accounts: the writer and JSONEncoder give the same document", arguments: 1...10 as ClosedRange<UInt64>)
    func accountLists(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        let accounts = (0..<Int.random(in: 0...8, using: &random)).map { index in
            let money = Money(minorUnits: Int64.random(in: -99_999...99_999_999, using: &random), currency: .chf)
            return AccountDTO(
                id: AccountID(Int64(index + 1)), iban: "CH9300762011623852957", name: Self.awkward.randomElement(using: &random)!,
                kind: ["current", "savings", "card"][index % 3], currency: "CHF", booked: money, available: money,
                overdraftLimit: Money(minorUnits: 0, currency: .chf), blocked: index % 3 == 2 ? Bool.random(using: &random) : nil,
                status: AccountStatus.allCases.randomElement(using: &random)!.rawValue,
                cardExpires: index % 3 == 2 ? "20\(Int.random(in: 26...36, using: &random))-0\(Int.random(in: 1...9, using: &random))" : nil)
        }
        struct Body: Encodable { let accounts: [AccountDTO] }
        #expect((try Self.written(AccountListDTO(accounts: accounts)) as! NSDictionary).isEqual(try Self.encoded(Body(accounts: accounts))))
    }

    @Test("a booked transfer: the writer and JSONEncoder give the same document", arguments: 1...10 as ClosedRange<UInt64>)
    func transactions(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        func money() -> Money { Money(minorUnits: Int64.random(in: -10_000_000...10_000_000, using: &random), currency: .eur) }
        func text() -> String? { Bool.random(using: &random) ? nil : Self.awkward.randomElement(using: &random)! }
        let transaction = TransactionDTO(
            PostedTransaction(
                id: TransactionID(Int64.random(in: 1...Int64.max, using: &random)), kind: "transfer",
                bookingDate: LocalDate(year: 2026, month: 11, day: 23)!, valueDate: LocalDate(year: 2026, month: 11, day: 24)!,
                postings: (0..<Int.random(in: 1...4, using: &random)).map { index in
                    PostedTransaction.PostedLine(
                        accountID: AccountID(Int64(index + 1)), amount: money(), balanceAfter: money(), counterparty: text(), remittance: text())
                }))
        struct Body: Encodable { let transaction: TransactionDTO }
        let written = try Self.written(TransactionEnvelopeDTO(transaction: transaction)) as! NSDictionary
        #expect(written.isEqual(try Self.encoded(Body(transaction: transaction))))
    }

    @Test("amounts are spelled as Money spells them, at the edges of Int64, with 2 decimals and none")
    func amounts() throws {
        var random = SplitMix(seed: 7)
        let edges: [Int64] = [0, 1, -1, 5, -5, 10, 99, 100, -100, 1_000, Int64.max, Int64.min, Int64.min + 1]
        let values = edges + (0..<300).map { _ in Int64.random(in: Int64.min...Int64.max, using: &random) }
        for code in ["CHF", "JPY"] {
            let currency = try #require(Currency(code: code))
            for value in values {
                var writer = JSONWriter()
                writer.decimal(value, digits: currency.minorDigits)
                let money = Money(minorUnits: value, currency: currency)
                #expect(String(decoding: writer.bytes, as: UTF8.self) == "\"\(money.decimalString)\"", "\(code) \(value)")
            }
        }
    }

    @Test("a payment of every kind and state: the writer and JSONEncoder give the same document", arguments: 1...30 as ClosedRange<UInt64>)
    func payments(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        func text() -> String? { Bool.random(using: &random) ? nil : Self.awkward.randomElement(using: &random)! }
        let type = PaymentType.allCases.randomElement(using: &random)!
        var instruction = PaymentInstruction(
            type: type, debtorAccount: AccountID(Int64.random(in: 1...999_999, using: &random)),
            amount: Money(minorUnits: Int64.random(in: 1...99_999_999, using: &random), currency: [.chf, .eur].randomElement(using: &random)!))
        if Bool.random(using: &random) { instruction.creditorAccount = AccountID(42) }
        if Bool.random(using: &random) { instruction.creditorIBAN = try IBAN("CH93 0076 2011 6238 5295 7") }
        if Bool.random(using: &random) { instruction.creditorBIC = try BIC("UBSWCHZH80A") }
        if Bool.random(using: &random) {
            instruction.creditor = PostalAddress(
                name: Self.awkward.randomElement(using: &random)!, street: text(), buildingNumber: text(), postalCode: "3011", town: "Bern",
                country: "CH")
        }
        instruction.participant = text()
        instruction.reference = try [nil, PaymentReference.qrReference("210000000003139471430009017"), .creditorReference("RF18539007547034")]
            .randomElement(using: &random)!
        instruction.message = text()
        instruction.billingInformation = text()
        if Bool.random(using: &random) {
            instruction.topup = try JSONDecoder().decode(
                PaymentInstruction.TopUp.self, from: Data(#"{"operator": "swisscom", "phone": "+41791234567"}"#.utf8))
        }
        let executed = Bool.random(using: &random)
        let payment = Payment(
            id: PaymentID(Int64.random(in: 1...999_999, using: &random)), customerID: CustomerID(7),
            status: Payment.Status.allCases.randomElement(using: &random)!, instruction: instruction,
            requestedDate: Bool.random(using: &random) ? LocalDate(year: 2026, month: 11, day: 28)! : nil,
            executionDate: LocalDate(year: 2026, month: 11, day: 30)!, outgoing: Bool.random(using: &random), holdID: nil,
            transactionID: executed ? TransactionID(99) : nil, reason: text(), createdAtMillis: 1_764_000_000_000,
            updatedAtMillis: 1_764_000_100_000, executedAtMillis: executed ? 1_764_000_100_000 : nil,
            signing: Bool.random(using: &random) ? SigningDecision(required: Bool.random(using: &random), reason: "payee_not_whitelisted") : nil)
        let challenge =
            Bool.random(using: &random)
            ? ChallengePrompt(
                provider: SigningProviderKind.allCases.randomElement(using: &random)!, position: Bool.random(using: &random) ? 17 : nil,
                question: text(), message: text())
            : nil
        let body = PaymentRoutes.PaymentBody(payment: PaymentDTO(payment, challenge: challenge))
        #expect((try Self.written(body) as! NSDictionary).isEqual(try Self.encoded(body)))
    }
}
