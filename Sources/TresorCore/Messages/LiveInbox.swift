import Foundation
import TresorDomain
import TresorLedger

/// What an open event stream receives: a new message, or a keep-alive so proxies and phones do
/// not close an idle connection.
public enum InboxEvent: Sendable {
    case message(CustomerMessage)
    case keepAlive
}

extension MessageService {
    /// The customer's new messages as they are committed, by this instance or another on the
    /// same database. With `after` (the last message id the client saw, from `Last-Event-ID`) the
    /// ones it missed come first; without, only what arrives from now on.
    /// `stop` ends the stream from outside (a server shutting down).
    public func live(for customer: CustomerID, after: Int64?, keepAlive: Duration = .seconds(15)) async throws
        -> (events: AsyncStream<InboxEvent>, stop: @Sendable () -> Void)
    {
        let wakeups = try await database.listen(Self.channel)
        var start = after ?? 0
        if after == nil { start = try await latestID(of: customer) }
        let me = String(customer.rawValue)
        let (events, output) = AsyncStream<InboxEvent>.makeStream()
        let (signals, signal) = AsyncStream<Bool>.makeStream()
        let listener = Task {
            for await payload in wakeups where payload == me || payload == NotificationHub.everyone { signal.yield(true) }
        }
        let ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: keepAlive)
                signal.yield(false)
            }
        }
        // why unbound: the stream's reads outlive the request that opened it; counted from its
        // arrival, every read after the answer deadline would be cut off as late.
        let pump = Task { [start] in
            await RequestArrival.$instant.withValue(nil) {
                var last = start
                // why: a read that failed (the database out of reach a moment) is tried again at
                // the next keep-alive; waiting for the next wake-up could leave a message unsent
                // for as long as the customer gets none.
                var behind = false
                // The backlog first: what was committed after the client's last event.
                signal.yield(true)
                for await isWake in signals {
                    if !isWake { output.yield(.keepAlive) }
                    guard isWake || behind else { continue }
                    behind = false
                    // Read again while full pages come back, so a burst larger than a page is not held back.
                    while true {
                        guard let new = try? await messages(of: customer, after: last) else {
                            behind = true
                            break
                        }
                        for message in new {
                            output.yield(.message(message))
                            last = message.id
                        }
                        if new.count < Self.pageMax { break }
                    }
                }
            }
        }
        output.onTermination = { _ in
            listener.cancel()
            ticker.cancel()
            pump.cancel()
            signal.finish()
        }
        return (events, { output.finish() })
    }

    /// The customer's messages after `id`, oldest first (at most a page).
    func messages(of customer: CustomerID, after id: Int64) async throws -> [CustomerMessage] {
        try await database.read { session in
            try await session.query(
                SQL(
                    "SELECT \(Self.columns) FROM messages WHERE customer_id = ? AND id > ? AND deleted_at_ms IS NULL AND quiet = 0 ORDER BY id LIMIT ?",
                    [.int(customer.rawValue), .int(id), .int(Int64(Self.pageMax))])
            ).map(Self.message)
        }
    }

    func latestID(of customer: CustomerID) async throws -> Int64 {
        try await database.read { session in
            try await session.queryOne(
                SQL("SELECT CAST(COALESCE(MAX(id), 0) AS BIGINT) FROM messages WHERE customer_id = ?", [.int(customer.rawValue)]))!.int(0)
        }
    }
}
