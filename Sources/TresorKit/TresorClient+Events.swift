import Foundation
import OpenAPIRuntime

extension TresorClient {
    /// New inbox messages as they are written, from any server instance. The stream reconnects
    /// by itself after a dropped connection, resuming after the last message it delivered, and
    /// ends when the task reading it is cancelled or the session ends (then it throws).
    public nonisolated func events(after lastID: String? = nil) -> AsyncThrowingStream<InboxMessage, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                var last = lastID
                var failures = 0
                while !Task.isCancelled {
                    do {
                        let resume = last
                        let body = try await call { try await $0.getV1Events(headers: .init(lastEventID: resume)).ok.body.textEventStream }
                        let decoder = JSONDecoder()
                        decoder.dateDecodingStrategy = .iso8601
                        for try await event in body.asDecodedServerSentEventsWithJSONData(of: InboxMessage.self, decoder: decoder) {
                            guard let message = event.data else { continue }
                            continuation.yield(message)
                            last = event.id ?? message.id
                            failures = 0
                        }
                    } catch let error as TresorError where error.code != TresorError.offline {
                        continuation.finish(throwing: error)
                        return
                    } catch {
                        if Task.isCancelled { break }
                        failures += 1
                    }
                    // why: a server restart or a proxy's idle timeout ends the stream; back off
                    // a little more each time it fails in a row, at most 30 s.
                    try? await Task.sleep(for: .milliseconds(min(30_000, 250 * (1 << min(failures, 7)))))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
