import NIOCore
import NIOHTTP1

/// Answers `Expect: 100-continue` with `100 Continue` (RFC 9110 §10.1.1), which Hummingbird
/// does not.
///
/// why: curl (and libcurl in PHP, R, …) sends the expectation with any body over 1 KiB, .NET
/// Framework's `HttpWebRequest` and Windows PowerShell 5.1 with every POST, and then holds the
/// body back until the server says go on. Unanswered, each photo upload and each larger JSON or
/// XML request from them waited a second first (`curl -v`: "Done waiting for 100-continue").
///
/// It sits between NIO's request decoder and Hummingbird's codec, where the HTTP version is still
/// known: an HTTP/1.0 client must get no 1xx answer. With requests pipelined, a request's
/// `100 Continue` waits until every answer before it is complete, so that the client reads it
/// for the right request.
final class ExpectContinueHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// Requests read whose final answer is not written yet, oldest first: the version of each
    /// still owed a `100 Continue`, `nil` for one owed nothing (any more).
    private var unanswered = CircularBuffer<HTTPVersion?>()

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data) {
            unanswered.append(Self.expectsContinue(head) ? head.version : nil)
            if unanswered.count == 1 { sendContinueIfOwed(context: context) }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let isEnd: Bool
        if case .end = unwrapOutboundIn(data) { isEnd = true } else { isEnd = false }
        context.write(data, promise: promise)
        // why after the write: the next request's 100 must follow the answer before it.
        if isEnd, !unanswered.isEmpty {
            unanswered.removeFirst()
            sendContinueIfOwed(context: context)
        }
    }

    private func sendContinueIfOwed(context: ChannelHandlerContext) {
        guard let owed = unanswered.first, let version = owed else { return }
        unanswered[unanswered.startIndex] = nil
        context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: version, status: .continue))), promise: nil)
    }

    /// An HTTP/1.1 (or later) request with a body that lists the `100-continue` expectation.
    static func expectsContinue(_ head: HTTPRequestHead) -> Bool {
        // why the expectation first: almost no request lists one, and the body's checks below
        // trim with Foundation (`perf`: 1.4 % of the server's CPU on payments, for nothing).
        let expectations = head.headers["expect"]
        guard !expectations.isEmpty else { return false }
        guard head.version.major > 1 || (head.version.major == 1 && head.version.minor >= 1) else { return false }
        let hasBody =
            head.headers["content-length"].first.map { $0.trimmingCharacters(in: .whitespaces) != "0" }
            ?? head.headers.contains(name: "transfer-encoding")
        guard hasBody else { return false }
        return expectations.contains { value in
            value.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == "100-continue" }
        }
    }
}
