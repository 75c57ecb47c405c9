import TresorCore
import TresorDomain
import TresorScan

/// A receipt photo read by the scan worker and stored for the customer: what `POST /v1/receipts`
/// and the web app's receipts screen both do.
enum ReceiptIntake {
    /// `images`: one photo, or the parts of a long receipt top first; each part counts against
    /// the customer's scan limit as the photo it is.
    static func store(_ images: [[UInt8]], for customer: CustomerID, scanner: ScanWorkerPool, receipts: ReceiptService, limiter: RateLimiter)
        async throws -> Receipt
    {
        for _ in images { try await limiter.hit(limiter.limits.scanPerContract, key: "customer:\(customer.rawValue)") }
        let (reading, photos) = try await scanner.receiptAndPhotos(images)
        return try await receipts.create(
            images: photos,
            reading: ReceiptInput(
                merchant: reading.merchant, date: reading.date, total: reading.total, currency: reading.total?.currency ?? .chf,
                text: reading.text, confidence: reading.confidence, vat: reading.vat.map { VATAmount(rate: $0.rate, amount: $0.amount) }),
            for: customer)
    }
}
