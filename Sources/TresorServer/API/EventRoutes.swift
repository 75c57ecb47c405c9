import Foundation
import HTTPTypes
import Hummingbird
import ServiceLifecycle
import TresorCore
import TresorDomain

/// `GET /v1/events`: the customer's new inbox messages as Server-Sent Events, each with its
/// message id as the event id, so a client that reconnects with `Last-Event-ID` gets what it
/// missed first. The web app opens the same stream at `/events` with its session cookie.
enum EventStream {
    static func response(_ request: Request, customer: CustomerID, messages: MessageService) async throws -> Response {
        // why both read: each is refused when malformed, as the document says, even beside the other.
        let header = try eventID(request.headers[HTTPField.Name("Last-Event-ID")!], field: "Last-Event-ID")
        let query = try eventID(request.uri.queryParameters.get("last_event_id").map { String($0) }, field: "last_event_id")
        let after = header ?? query
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream; charset=utf-8"
        headers[.cacheControl] = "no-store"
        // why: a reverse proxy that buffers would hold the events back.
        headers[HTTPField.Name("X-Accel-Buffering")!] = "no"
        // why before `live`: a HEAD drops the body, so the stop below would never run.
        if HeadRequest.active { return Response(status: .ok, headers: headers, body: ResponseBody { try await $0.finish(nil) }) }
        let (events, stop) = try await messages.live(for: customer, after: after)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                // why: the listening tasks end with the stream, also when the client went away.
                defer { stop() }
                try await writer.write(ByteBuffer(string: "retry: 3000\n\n"))
                // why: a stream never ends by itself; a server stopping (SIGTERM) ends it, or
                // it would wait for the stream as for any request in flight.
                try await withGracefulShutdownHandler {
                    for await event in events {
                        switch event {
                        case .keepAlive:
                            try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                        case .message(let message):
                            let data = String(decoding: try encoder.encode(MessageRoutes.MessageDTO(message)), as: UTF8.self)
                            try await writer.write(ByteBuffer(string: "id: \(message.id)\nevent: message\ndata: \(data)\n\n"))
                        }
                    }
                } onGracefulShutdown: {
                    stop()
                }
                try await writer.finish(nil)
            })
    }

    /// An event id as the document has it (1 to 18 digits), nil when absent.
    static func eventID(_ text: String?, field: String) throws -> Int64? {
        guard let text else { return nil }
        guard (1...18).contains(text.utf8.count), text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let id = Int64(text) else {
            throw DomainError(.invalidParameter, field: field, "\(field) is the id of the last event received.")
        }
        return id
    }
}

struct EventRoutes {
    let messages: MessageService

    func events(_ request: Request, context: TresorRequestContext) async throws -> Response {
        try await EventStream.response(request, customer: try context.requirePrincipal().customerID, messages: messages)
    }
}
