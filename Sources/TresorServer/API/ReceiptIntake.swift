import TresorCore
import TresorDomain
import TresorScan

/// A receipt photo read by the scan worker and stored for the customer: what `POST /v1/receipts`
/// and the web app's receipts screen both do.
enum ReceiptIntake {
    static func store(_ image: [UInt8], for customer: CustomerID, scanner: ScanWorkerPool, receipts: ReceiptService, limiter: RateLimiter)
        async throws -> Receipt
    {
        try await limiter.hit(limiter.limits.scanPerContract, key: "customer:\(customer.rawValue)")
        let (reading, photo) = try await scanner.receiptAndPhoto(image)
        return try await receipts.create(
            image: photo,
            reading: ReceiptInput(
                merchant: reading.merchant, date: reading.date, total: reading.total, currency: reading.total?.currency ?? .chf,
                text: reading.text, confidence: reading.confidence, vat: reading.vat.map { VATAmount(rate: $0.rate, amount: $0.amount) }),
            for: customer)
    }
}
