import Foundation
import Testing

@testable import TresorScan

/// QR-bills as they reach customers by e-mail: PDF invoices made by the PyPI `qrbill` package
/// (drawn to PDF by CairoSVG, a second page joined by pypdf; Tests/corpus/slips-pdf/truth.json),
/// read in the scan worker as a photo of one would be.
@Suite("QR-bills sent as PDF")
struct PDFSlipTests {
    struct Truth: Decodable {
        let file, iban, creditor, amount, currency, reference: String
    }

    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
        "corpus/slips-pdf")

    static func bytes(_ file: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: corpus.appendingPathComponent(file))) }

    @Test("an invoice's payment part, on its one page or on the second of two, becomes the bill's draft")
    func invoices() throws {
        let truths = try JSONDecoder().decode([Truth].self, from: Data(contentsOf: Self.corpus.appendingPathComponent("truth.json")))
        #expect(truths.count == 2)
        for truth in truths {
            let output = ScanJob.run(.slip, image: try Self.bytes(truth.file))
            #expect(output.error == nil, "\(truth.file): \(output.error?.message ?? "")")
            let draft = try #require(output.slip?.draft, "\(truth.file)")
            #expect(output.slip?.source == "qrbill")
            #expect(draft.creditor?.iban == truth.iban.replacingOccurrences(of: " ", with: ""), "\(truth.file)")
            #expect(draft.creditor?.name == truth.creditor, "\(truth.file)")
            #expect(draft.amount?.decimalString == truth.amount && draft.currency.code == truth.currency, "\(truth.file)")
            #expect(draft.reference?.value == truth.reference, "\(truth.file)")
        }
    }

    @Test("a PDF without a payment part, a damaged one and one that is no PDF are refused with the reason, never a crash")
    func refusals() throws {
        let none = ScanJob.run(.slip, image: try Self.bytes("invoice-without-qr.pdf"))
        #expect(none.slip == nil && none.error != nil)
        let invoice = try Self.bytes("qrbill-invoice-a4.pdf")
        let damaged = ScanJob.run(.slip, image: Array(invoice.prefix(invoice.count / 3)))
        #expect(damaged.slip == nil && damaged.error?.code == ScanErrorCode.unreadable.rawValue, "\(damaged.error?.message ?? "")")
        let header = ScanJob.run(.slip, image: Array("%PDF-1.7\n".utf8))
        #expect(header.slip == nil && header.error?.code == ScanErrorCode.unreadable.rawValue)
        // A receipt is a photo: a PDF is refused there as before.
        let receipt = ScanJob.run(.receipt, image: invoice)
        #expect(receipt.receipt == nil && receipt.error?.code == ScanErrorCode.unsupportedImage.rawValue)
    }
}
