import Foundation
import TresorDomain

/// The bank's border with its payment provider (ARCHITECTURE rule 10): how credits and the fate
/// of payments come in, and how returned credits go out. `ISO20022FileGateway` is the one for
/// the ISO 20022 files a provider exchanges (camt.054, pacs.008, pain.002 in; pacs.004 out); a
/// provider with an API of its own adds an implementation, and no payment code changes.
/// `ClearingService` books what a gateway reads and asks it for what must be sent.
public protocol ClearingGateway: Sendable {
    /// Reads a delivery, handing its events to `handle` in order, a batch at a time, holding
    /// none of what was handed over. A delivery refused whole throws `ClearingRefusal`, possibly
    /// after events were handed over (totals are known at the end): the caller books inside one
    /// transaction, which the refusal rolls back.
    func read(_ delivery: URL, limits: ClearingLimits, _ handle: ([ClearingEvent]) async throws -> Void) async throws -> ClearingMessage

    /// What sends `returns` back to the banks their credits came from, for the provider.
    func returnsDocument(_ returns: [CreditReturn], messageID: String, createdAt: Date, bank: BankProfile) -> ClearingDocument
}

/// What a gateway hands over for the provider: a file's name and bytes, kept in the books.
public struct ClearingDocument: Sendable, Hashable {
    /// `pacs.004.001.09`.
    public let kind: String
    public let messageID: String
    public let text: String

    public init(kind: String, messageID: String, text: String) {
        self.kind = kind
        self.messageID = messageID
        self.text = text
    }
}

/// Bounds on what a delivery may be (ARCHITECTURE rule 5).
public struct ClearingLimits: Sendable {
    /// Largest file read. why 512 MiB: a day of a large bank's credits (a camt.054 of 100,000
    /// credits is ~130 MB) with room; read streamed, so memory does not follow it.
    public var fileBytesMax = 512 << 20
    /// Payments of an export read at a time while a status report (pain.002) is applied to it.
    /// why pages: a day's export is 100,000 payments.
    public var statusPageSize = 1000

    public init(fileBytesMax: Int = 512 << 20, statusPageSize: Int = 1000) {
        self.fileBytesMax = fileBytesMax
        self.statusPageSize = statusPageSize
    }
}

/// A credit sent back to its sender: the original as it came and why it goes back.
public struct CreditReturn: Sendable, Hashable {
    public let credit: InboundCredit
    /// The message the credit came in.
    public let original: ClearingMessage
    /// The ISO return reason (`AC01` account unknown, `AC04` closed, `AM03` currency not kept, `CUST`).
    public let reasonCode: String
    public let returnID: String
    /// The day the money goes back.
    public let date: LocalDate

    public init(credit: InboundCredit, original: ClearingMessage, reasonCode: String, returnID: String, date: LocalDate) {
        self.credit = credit
        self.original = original
        self.reasonCode = reasonCode
        self.returnID = returnID
        self.date = date
    }
}
