import Testing
import TresorDomain

/// The vectors marked "SwissQRBill" are those of the Java library's own tests
/// (manuelbl/SwissQRBill, `SPSCharacterSetTest` and `PaymentsCharacterSetTest`, MIT), which
/// implements the same SPS character set and its conversion.
@Suite("Payment text: the SPS Latin character set")
struct PaymentTextTests {
    @Test("carried and not, as SwissQRBill has them, and the edges of each block")
    func characterSet() {
        for carried: Unicode.Scalar in ["A", "b", "3", "%", "{", "®", "Ò", "æ", "Ă", "Ķ", "Ŕ", "ț", "€"] {
            #expect(PaymentText.isCarried(carried), "\(carried)")
        }
        for refused: Unicode.Scalar in ["\n", "\r", "\u{7F}", "\u{83}", "Ɖ", "Ǒ", "Ȑ", "Ȟ"] {
            #expect(!PaymentText.isCarried(refused), "\(refused.value)")
        }
        let edges: [(UInt32, Bool)] = [
            (0x1F, false), (0x20, true), (0x7E, true), (0x7F, false), (0x9F, false), (0xA0, true), (0x17F, true), (0x180, false),
            (0x217, false), (0x218, true), (0x21B, true), (0x21C, false), (0x20AB, false), (0x20AC, true), (0x20AD, false), (0x1F64F, false),
        ]
        for (value, carried) in edges { #expect(PaymentText.isCarried(Unicode.Scalar(value)!) == carried, "U+\(value)") }
    }

    @Test("converted as SwissQRBill converts: compatibility forms without accents, a full stop for the rest, one space for a line break")
    func cleaned() {
        let vectors = [
            "ab\nc": "ab c", "ȆȇȈȉ": "EeIi", "Ǒ": "O", "ǉǌﬃ": "ljnjffi", "Ǽ": "Æ", "ʷ": "w", "⁵": "5", "℁": "a/s", "Ⅶ": "VII", "③": "3",
            "xƉx": "x.x", "x\u{1F1E8}\u{1F1ED}x": "x.x", "Ǆ": "DZ",
        ]
        for (text, expected) in vectors { #expect(PaymentText.cleaned(text) == expected, "\(text)") }
        // SwissQRBill's text with combining accents: 59 UTF-16 units become its 46 letters.
        let composed = "àáâäçèéêëìíîïñòóôöùúûüýßÀÁÂÄÇÈÉÊËÌÍÎÏÒÓÔÖÙÚÛÜÑ"
        let decomposed = composed.unicodeScalars.flatMap { scalar -> [Unicode.Scalar] in
            // why by hand: the test must not lean on the normalisation the code uses.
            let table: [Character: (Unicode.Scalar, Unicode.Scalar)] = [
                "à": ("a", "\u{300}"), "é": ("e", "\u{301}"), "ö": ("o", "\u{308}"), "Ñ": ("N", "\u{303}"), "ç": ("c", "\u{327}"),
            ]
            guard let (base, mark) = table[Character(scalar)] else { return [scalar] }
            return [base, mark]
        }
        let decomposedText = String(String.UnicodeScalarView(decomposed))
        #expect(decomposedText.unicodeScalars.count == 51)
        #expect(PaymentText.cleaned(decomposedText) == composed)
        #expect(PaymentText.cleaned("Zahlung für Rechnung 4711, Łódź") == "Zahlung für Rechnung 4711, Łódź")
        #expect(PaymentText.cleaned("Ωμέγα 👨‍👩‍👧") == "..... .")
    }

    @Test("what a customer types: Latin kept (composed), line breaks a space, anything else refused naming the field with the conversion")
    func checked() throws {
        #expect(try PaymentText.checked("Rent March", field: "message") == "Rent March")
        #expect(try PaymentText.checked("Zu\u{308}rich Ș €", field: "message") == "Zürich Ș €")
        #expect(try PaymentText.checked("Line 1\r\nLine 2 \n\n  Line 3\n", field: "message") == "Line 1 Line 2 Line 3")
        #expect(try PaymentText.checked("\tIndented", field: "message") == "Indented")
        // As an iPhone's keyboard types them (smart punctuation on), written plainly.
        #expect(try PaymentText.checked("Anna’s „Miete“ – März…\u{202F}!", field: "message") == "Anna's \"Miete\" - März... !")
        for (text, suggested) in [("Danke 🙏", "Danke ."), ("Дмитрий", "......."), ("a\u{7F}b", "a.b"), ("Ǒ", "O")] {
            do {
                _ = try PaymentText.checked(text, field: "creditor.name")
                Issue.record("\(text) taken")
            } catch let error as DomainError {
                #expect(error.code == .invalidCharacter && error.field == "creditor.name" && error.suggested == suggested, "\(error)")
            }
        }
    }

    @Test("payments to another bank are held to it, own-account transfers and edits of them are not")
    func requests() throws {
        func iban(message: String? = nil, name: String = "Muster AG") -> PaymentRequest {
            PaymentRequest(
                type: .iban, debtorAccount: AccountID(1), amount: Money(minorUnits: 1_000, currency: .chf),
                creditor: CreditorInput(name: name, iban: "CH9300762011623852957", postalCode: "3011", town: "Bern", country: "CH"),
                message: message)
        }
        func refusal(_ request: PaymentRequest) -> DomainError? {
            do {
                _ = try request.validated()
                return nil
            } catch { return error as? DomainError }
        }
        #expect(refusal(iban(message: "Miete 🏠"))?.field == "message")
        #expect(refusal(iban(name: "Ölgesellschaft Ω"))?.field == "creditor.name")
        let taken = try iban(message: "Miete\nMärz", name: "Mu\u{308}ller").validated()
        #expect(taken.message == "Miete März" && taken.creditor?.name == "Müller")

        var own = PaymentRequest(type: .internal, debtorAccount: AccountID(1), amount: Money(minorUnits: 1_000, currency: .chf), message: "🎂")
        own.creditor = CreditorInput(account: AccountID(2))
        let transfer = try own.validated()
        #expect(transfer.message == "🎂")
        #expect(try PaymentChange(message: "🎉").applied(to: transfer).message == "🎉")
        #expect(throws: DomainError.self) { try PaymentChange(message: "🎉").applied(to: taken) }
        #expect(try PaymentChange(message: "Mie\u{301}te").applied(to: taken).message == "Miéte")
    }
}
