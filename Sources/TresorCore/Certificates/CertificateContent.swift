import Foundation
import TresorDomain
import TresorLedger

/// What a certificate says, computed from the books; TresorDocuments sets it as a PDF.
public struct CertificateContent: Sendable {
    public let request: CertificateRequest
    public let bankName: String
    public let ownerName: String
    public let code: String
    public let issuedOn: LocalDate
    public let lines: [Line]

    /// One account on the certificate. For a balance confirmation only `balance` is set; for the
    /// tax statement the year's gross interest, the tax withheld and the year-end balance.
    public struct Line: Sendable {
        public let accountName: String
        public let iban: IBAN
        public let balance: Money
        public let grossInterest: Money?
        public let withholdingTax: Money?
    }
}

/// A certificate as the customer's list shows it.
public struct IssuedCertificate: Sendable {
    public let id: Int64
    public let type: CertificateType
    public let code: String
    public let sha256: String
    public let createdAtMillis: Int64
}

/// What the public verification answers: enough for a third party to tell the document is the
/// bank's and unchanged (its digest), no more about the customer than the document shows.
public struct CertificateVerification: Sendable {
    public let type: CertificateType
    public let sha256: String
    public let issuedAtMillis: Int64
    public let bankName: String
}
