import Foundation
import Testing

/// GET /v1/events refuses a resume point that is no message id before it opens the stream (the
/// contract test leaves the stream out: a valid request stays open until the client leaves).
@Suite("Event stream: the resume point")
struct EventStreamAPITests {
    @Test("Last-Event-ID and last_event_id are message ids; anything else is a 400 naming Last-Event-ID")
    func resumePoint() async throws {
        try await APIHarness.make().run { client in
            let token = try await client.login("10000012")
            for (uri, headers) in [
                ("/v1/events?last_event_id=abc", [:]), ("/v1/events?last_event_id=-1", [:]), ("/v1/events?last_event_id=", [:]),
                ("/v1/events", ["Last-Event-ID": "1e3"]),
            ] {
                let refused = try await client.call(.get, uri, token: token, headers: headers)
                #expect(refused.status == .badRequest && refused.errorField == "Last-Event-ID", "\(uri) \(headers): \(refused.text)")
            }
            #expect(try await client.call(.get, "/v1/events?last_event_id=5").status == .unauthorized)
        }
    }
}
