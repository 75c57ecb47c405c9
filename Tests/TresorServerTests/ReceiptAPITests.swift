import Foundation
import Testing
import TresorCore
import TresorDomain

@Suite("Receipts and budgets")
struct ReceiptAPITests {
    /// receipt-00: Migros, 14.46 CHF, 02.12.2025, groceries (Tests/corpus/receipts/truth.json).
    static let migros = "receipt-00-de-clean.jpg"

    @Test("a photo becomes a receipt with merchant, date, total and category; the image comes back; a correction is learnt")
    func receiptLifecycle() async throws {
        let image = try Corpus.bytes("receipts", Self.migros)
        try await APIHarness.make().run { client in
            let token = try await client.login("10000012")
            let created = try await client.upload("/v1/receipts", token: token, bytes: image, contentType: "image/jpeg")
            #expect(created.status == .created, "\(created.text)")
            let receipt = try #require(created.json["receipt"] as? [String: Any])
            #expect(receipt["merchant"] as? String == "Migros")
            #expect(receipt["date"] as? String == "2025-12-02")
            #expect(receipt.money("total") == "14.46")
            #expect(receipt["category"] as? String == "groceries")
            #expect((receipt["vat"] as? [[String: Any]])?.first?["rate"] as? String == "2.6")
            let id = try #require(receipt["id"] as? String)

            let back = try await client.call(.get, "/v1/receipts/\(id)/image", token: token)
            #expect(back.status == .ok)
            #expect(back.headers[.contentType] == "image/jpeg")

            let wrong = try await client.call(.patch, "/v1/receipts/\(id)", token: token, json: #"{"category": "toys"}"#)
            #expect(wrong.status == .badRequest && wrong.errorField == "category")
            let added = try await client.call(.post, "/v1/receipt-categories", token: token, json: #"{"name": "Kids"}"#)
            #expect((added.json["categories"] as? [String])?.contains("kids") == true)
            let corrected = try await client.call(.patch, "/v1/receipts/\(id)", token: token, json: #"{"category": "kids", "merchant": "Migros"}"#)
            #expect((corrected.json["receipt"] as? [String: Any])?["category"] as? String == "kids")
            let stored = try await client.call(.get, "/v1/receipts/\(id)", token: token)
            let vat = (stored.json["receipt"] as? [String: Any])?["vat"] as? [[String: Any]]
            #expect(vat?.first?["rate"] as? String == "2.6" && vat?.first?.money("amount") == "0.36", "VAT lines are kept")

            let again = try await client.upload("/v1/receipts", token: token, bytes: image, contentType: "image/jpeg")
            #expect((again.json["receipt"] as? [String: Any])?["category"] as? String == "kids", "the same merchant gets the learnt category")
            let listed = try await client.call(.get, "/v1/receipts?month=2025-12", token: token)
            #expect((listed.json["receipts"] as? [[String: Any]])?.count == 2)
            // An empty value is no date and no amount here (the web app's form says "no condition" itself).
            for field in ["to", "from", "min_amount", "max_amount"] {
                let empty = try await client.call(.get, "/v1/receipts?\(field)=", token: token)
                #expect(empty.status == .badRequest && empty.errorField == field, "\(field): \(empty.text)")
            }
            #expect(try await client.call(.delete, "/v1/receipts/\(id)", token: token).status == .noContent)
            #expect(try await client.call(.get, "/v1/receipts/\(id)", token: token).status == .notFound)
            let other = try await client.login("10000028")
            let foreign = (again.json["receipt"] as? [String: Any])?["id"] as? String ?? ""
            #expect(try await client.call(.get, "/v1/receipts/\(foreign)", token: other).status == .notFound, "receipts are private")
        }
    }

    /// The photos of a long receipt as one multipart form, `image` once per part, top first.
    static func parts(_ images: [[UInt8]]) -> (body: [UInt8], contentType: String) {
        let boundary = "tresor-parts-7MA4YWxkTrZu0gW"
        var body: [UInt8] = []
        for (index, image) in images.enumerated() {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"image\"; filename=\"part-\(index + 1).jpg\"\r\n".utf8)
            body += Array("Content-Type: image/jpeg\r\n\r\n".utf8) + image + Array("\r\n".utf8)
        }
        body += Array("--\(boundary)--\r\n".utf8)
        return (body, "multipart/form-data; boundary=\(boundary)")
    }

    @Test("a long receipt sent in parts is one receipt: read as a whole, each photo kept and sent back by page, deleted with it")
    func receiptInParts() async throws {
        let images = try (1...3).map { try Corpus.bytes("receipts-real/parts", "walgreens-san-mateo-\($0).jpg") }
        try await APIHarness.make().run { client in
            let token = try await client.login("10000012")
            let (body, contentType) = Self.parts(images)
            let created = try await client.upload("/v1/receipts", token: token, bytes: body, contentType: contentType)
            #expect(created.status == .created, "\(created.text)")
            let receipt = try #require(created.json["receipt"] as? [String: Any])
            #expect(receipt["pages"] as? Int == 3)
            #expect(receipt["merchant"] as? String == "Walgreens", "from the last part's thanks: the logo is no text")
            #expect(receipt["date"] as? String == "2022-05-24", "from the first part")
            #expect(receipt.money("total") == "29.53", "from the second part, not the loyalty savings of the last")
            let id = try #require(receipt["id"] as? String)
            for page in 1...3 {
                let back = try await client.call(.get, "/v1/receipts/\(id)/image\(page == 1 ? "" : "?page=\(page)")", token: token)
                #expect(back.status == .ok && back.bytes == images[page - 1], "page \(page)")
            }
            let missing = try await client.call(.get, "/v1/receipts/\(id)/image?page=4", token: token)
            #expect(missing.status == .notFound && missing.errorField == "page")
            let outside = try await client.call(.get, "/v1/receipts/\(id)/image?page=0", token: token)
            #expect(outside.status == .badRequest && outside.errorField == "page")
            let listed = try await client.call(.get, "/v1/receipts?month=2022-05", token: token)
            #expect((listed.json["receipts"] as? [[String: Any]])?.first?["pages"] as? Int == 3)

            // Six parts are a stack of receipts, not one: refused before any is read.
            let (six, sixType) = Self.parts(Array(repeating: images[0], count: 6))
            let refused = try await client.upload("/v1/receipts", token: token, bytes: six, contentType: sixType)
            #expect(refused.status == .unprocessableContent && refused.errorCode == "too_many_pages", "\(refused.text)")
            // A part that is no image refuses the whole, saying which.
            let (broken, brokenType) = Self.parts([images[0], Array("not a photo".utf8)])
            let unreadable = try await client.upload("/v1/receipts", token: token, bytes: broken, contentType: brokenType)
            #expect(unreadable.status == .unsupportedMediaType && unreadable.text.contains("Photo 2 of 2"), "\(unreadable.text)")
            let count = try await client.call(.get, "/v1/receipts", token: token)
            #expect((count.json["receipts"] as? [[String: Any]])?.count == 1, "nothing saved of a refused receipt")

            #expect(try await client.call(.delete, "/v1/receipts/\(id)", token: token).status == .noContent)
            #expect(try await client.call(.get, "/v1/receipts/\(id)/image?page=2", token: token).status == .notFound)
        }
    }

    @Test("a receipt is matched to the payment of its amount within 3 days, counted once in the budget, and alerts at 80 and 100 %")
    func matchingAndBudget() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let anna = try await PayingCustomer.annaMeier(client)
            func spent(_ category: String) async throws -> String? {
                let report = try await client.call(.get, "/v1/budgets?month=2026-11", token: anna.token)
                let lines = (report.json["budget"] as? [String: Any])?["categories"] as? [[String: Any]] ?? []
                return lines.first { $0["category"] as? String == category }?.money("spent")
            }
            let groceriesBefore = try #require(try await spent("groceries"), "the demo month has grocery payments")
            // A debit to the grocer today (2026-11-22): the merchant rules count it as groceries.
            let paid = try await anna.pay(
                #"{"type": "iban", "debtor_account": "\#(anna.current)", "amount": \#(PayingCustomer.money("14.46")), "creditor": {"name": "Migros Zürich", "iban": "\#(ForeignIBANs.swiss)", "country": "CH", "postal_code": "8005", "town": "Zürich"}}"#
            )
            #expect(paid.status == .created, "\(paid.text)")
            let transaction = try #require(paid.payment["transaction_id"] as? String)
            let withPayment = try #require(try await spent("groceries"))
            #expect(try Money(parsing: withPayment, currency: .chf).minorUnits - Money(parsing: groceriesBefore, currency: .chf).minorUnits == 1446)

            let created = try await client.upload(
                "/v1/receipts", token: anna.token, bytes: try Corpus.bytes("receipts", Self.migros), contentType: "image/jpeg")
            let id = try #require((created.json["receipt"] as? [String: Any])?["id"] as? String)
            #expect((created.json["receipt"] as? [String: Any])?["transaction_id"] == nil, "December 2025 has no such payment")

            _ = try await client.call(.post, "/v1/receipt-categories", token: anna.token, json: #"{"name": "treats"}"#)
            let budget = try await client.call(
                .put, "/v1/budgets?month=2026-11", token: anna.token, json: #"{"categories": {"treats": {"amount": "15.00", "currency": "CHF"}}}"#)
            #expect(budget.status == .ok, "\(budget.text)")
            let moved = try await client.call(.patch, "/v1/receipts/\(id)", token: anna.token, json: #"{"date": "2026-11-20", "category": "treats"}"#)
            #expect((moved.json["receipt"] as? [String: Any])?["transaction_id"] as? String == transaction, "\(moved.text)")
            let timeline = try await client.call(.get, "/v1/accounts/\(anna.current)/transactions?limit=10", token: anna.token)
            let entry = try #require((timeline.json["transactions"] as? [[String: Any]])?.first { $0["id"] as? String == transaction })
            #expect(entry["receipt_id"] as? String == id, "linked both ways")

            #expect(try await spent("groceries") == groceriesBefore, "the matched payment is no longer counted as groceries")
            #expect(try await spent("treats") == "14.46", "the receipt and its payment count once")
            let report = try await client.call(.get, "/v1/budgets?month=2026-11", token: anna.token)
            let treats = try #require(
                ((report.json["budget"] as? [String: Any])?["categories"] as? [[String: Any]])?.first { $0["category"] as? String == "treats" })
            #expect(treats.money("remaining") == "0.54")
            #expect(treats["percent"] as? Int == 96)
            #expect((report.json["budget"] as? [String: Any])?["not_counted"] as? [Any] != nil, "receipts in other currencies: none, as []")
            let customer = try #require(
                try await harness.services.database.read { try await $0.queryOne("SELECT customer_id FROM contracts WHERE number = '10000012'") })
            let messages = try await harness.services.messages.messages(of: CustomerID(customer.int(0)))
            #expect(messages.filter { $0.subject.contains("treats at 80%") }.count == 1)
            #expect(messages.filter { $0.subject.contains("treats at 100%") }.isEmpty)
            _ = try await client.call(.patch, "/v1/receipts/\(id)", token: anna.token, json: #"{"merchant": "Migros"}"#)
            let again = try await harness.services.messages.messages(of: CustomerID(customer.int(0)))
            #expect(again.filter { $0.subject.contains("treats at 80%") }.count == 1, "an alert is sent once")
            let inbox = try await client.call(.get, "/v1/messages", token: anna.token)
            #expect(
                (inbox.json["messages"] as? [[String: Any]])?.contains { ($0["subject"] as? String)?.contains("treats at 80%") == true } == true,
                "the customer reads the alert in the inbox")

            let bad = try await client.call(
                .put, "/v1/budgets?month=2026-13", token: anna.token, json: #"{"overall": {"amount": "1.00", "currency": "CHF"}}"#)
            #expect(bad.status == .badRequest && bad.errorField == "month")
        }
    }
}
