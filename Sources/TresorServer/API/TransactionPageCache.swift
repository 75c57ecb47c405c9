import Hummingbird
import Synchronization
import TresorLedger

/// Encoded pages of `GET /v1/accounts/{id}/transactions`, each kept with the account revision it
/// was read at. A request still looks up its session and the account's owner and revision in
/// its own read; only when that revision is the kept page's are the postings neither read nor
/// encoded again. why correct: the revision grows in the same transaction as every change a
/// page shows (`Ledger.revision`), so an equal revision read in this request's snapshot means
/// the same page, whichever server instance wrote since. why kept: an app asks for the same
/// first page at every launch and pull-to-refresh, and fifty postings read and encoded cost three
/// times an overview (`make bench`, `http_reads`: 14,400 against 43,000 answers a second).
///
/// One cache per bank (its routes are built per bank); bounded by bytes, least recently used
/// pages leave first.
final class TransactionPageCache: Sendable {
    struct Page: Sendable {
        let revision: Int64
        let body: ByteBuffer
        /// The strong ETag of `body` (`ETagMiddleware.tag(of:)`), computed once per page.
        let tag: String
    }

    private struct Kept {
        var page: Page
        var lastUsed: UInt64
    }

    private struct State {
        var pages: [EntryQuery: Kept] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    private let state = Mutex(State())
    let bytesMax: Int

    /// why 8 MiB: ~700 pages of 50 transactions, the first pages of several hundred customers
    /// active at once, within the server's memory budget (`make bench`: RSS < 150 MB).
    init(bytesMax: Int = 8 << 20) {
        self.bytesMax = bytesMax
    }

    /// The page kept for `query` if it was made at `revision`.
    func page(_ query: EntryQuery, at revision: Int64) -> Page? {
        state.withLock { state in
            guard var kept = state.pages[query], kept.page.revision == revision else { return nil }
            state.clock += 1
            kept.lastUsed = state.clock
            state.pages[query] = kept
            return kept.page
        }
    }

    /// Whether a page is kept for `query`, whatever its revision.
    func keeps(_ query: EntryQuery) -> Bool {
        state.withLock { $0.pages[query] != nil }
    }

    /// Keeps `page` for `query` unless a page of a later revision is kept already (two requests
    /// may finish out of order).
    func keep(_ page: Page, for query: EntryQuery) {
        let size = page.body.readableBytes
        guard size <= bytesMax / 8 else { return }
        state.withLock { state in
            if let kept = state.pages[query] {
                guard kept.page.revision < page.revision else { return }
                state.bytes -= kept.page.body.readableBytes
            }
            state.clock += 1
            state.pages[query] = Kept(page: page, lastUsed: state.clock)
            state.bytes += size
            if state.bytes > bytesMax { Self.evict(&state, downTo: bytesMax * 3 / 4) }
        }
    }

    /// Drops the least recently used pages until at most `bytes` are kept. why in one sweep to
    /// three quarters: sorting on every insert would cost more than the pages save.
    private static func evict(_ state: inout State, downTo bytes: Int) {
        for (query, kept) in state.pages.sorted(by: { $0.value.lastUsed < $1.value.lastUsed }) {
            guard state.bytes > bytes else { break }
            state.pages[query] = nil
            state.bytes -= kept.page.body.readableBytes
        }
    }

    /// Bytes and pages kept, for tests and metrics.
    var usage: (pages: Int, bytes: Int) { state.withLock { ($0.pages.count, $0.bytes) } }
}
