import Hummingbird
import Synchronization
import TresorLedger

/// An encoded answer kept with the revision it was read at (`KeptPages`).
struct KeptPage: Sendable {
    let revision: Int64
    let body: ByteBuffer
    /// The strong ETag of `body` (`ETagMiddleware.tag(of:)`), computed once per page.
    let tag: String
}

/// Encoded answers of the reads an app makes most, each kept with the revision it was read at:
/// pages of `GET /v1/accounts/{id}/transactions` by their query (the account's revision), the
/// accounts overview `GET /v1/accounts` by customer (`Ledger.callerOverviewRevision`). A request
/// still looks up its session and the revision in its own read; only when that revision is the
/// kept page's are the rows neither read nor encoded again. why correct: the revision grows in
/// the same transaction as every change a page shows (`Ledger+Revisions`), so an equal revision
/// read in this request's snapshot means the same page, whichever server instance wrote since.
/// why kept: an app asks for the overview and the same first page at every launch and
/// pull-to-refresh, and fifty postings read and encoded cost three times an overview (`make
/// bench`, `http_reads`: 14,400 against 43,000 answers a second); the overview's rows decoded
/// and encoded were a third of its server CPU (72 → 58–63 µs a request kept, 64 connections).
///
/// One cache per bank and kind (its routes are built per bank); bounded by bytes, least
/// recently used pages leave first.
final class KeptPages<Key: Hashable & Sendable>: Sendable {
    private struct Kept {
        var page: KeptPage
        var lastUsed: UInt64
    }

    private struct State {
        var pages: [Key: Kept] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    private let state = Mutex(State())
    let bytesMax: Int

    /// why 8 MiB for transaction pages: ~700 pages of 50 transactions, the first pages of
    /// several hundred customers active at once, within the server's memory budget (`make
    /// bench`: RSS < 150 MB); an overview of two accounts is ~550 bytes.
    init(bytesMax: Int) {
        self.bytesMax = bytesMax
    }

    /// The page kept for `key` if it was made at `revision`.
    func page(_ key: Key, at revision: Int64) -> KeptPage? {
        state.withLock { state in
            guard var kept = state.pages[key], kept.page.revision == revision else { return nil }
            state.clock += 1
            kept.lastUsed = state.clock
            state.pages[key] = kept
            return kept.page
        }
    }

    /// Whether a page is kept for `key`, whatever its revision.
    func keeps(_ key: Key) -> Bool {
        state.withLock { $0.pages[key] != nil }
    }

    /// Whether any page is kept.
    var isEmpty: Bool { state.withLock { $0.pages.isEmpty } }

    /// Keeps `page` for `key` unless a page of a later revision is kept already (two requests
    /// may finish out of order).
    func keep(_ page: KeptPage, for key: Key) {
        let size = page.body.readableBytes
        guard size <= bytesMax / 8 else { return }
        state.withLock { state in
            if let kept = state.pages[key] {
                guard kept.page.revision < page.revision else { return }
                state.bytes -= kept.page.body.readableBytes
            }
            state.clock += 1
            state.pages[key] = Kept(page: page, lastUsed: state.clock)
            state.bytes += size
            if state.bytes > bytesMax { Self.evict(&state, downTo: bytesMax * 3 / 4) }
        }
    }

    /// Drops the least recently used pages until at most `bytes` are kept. why in one sweep to
    /// three quarters: sorting on every insert would cost more than the pages save.
    private static func evict(_ state: inout State, downTo bytes: Int) {
        for (key, kept) in state.pages.sorted(by: { $0.value.lastUsed < $1.value.lastUsed }) {
            guard state.bytes > bytes else { break }
            state.pages[key] = nil
            state.bytes -= kept.page.body.readableBytes
        }
    }

    /// Bytes and pages kept, for tests and metrics.
    var usage: (pages: Int, bytes: Int) { state.withLock { ($0.pages.count, $0.bytes) } }
}
