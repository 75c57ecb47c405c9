import NIOCore
import NIOTLS

/// Bounds how long one connection can hold the server: once the server is stopping (SIGTERM)
/// a connection is closed at the latest `ConnectionLimits.stoppingGrace` later, and over TLS
/// the handshake must be done within `tlsHello`.
///
/// why: a client that stopped halfway through its request body, a TLS client that connected
/// and said nothing, or an HTTP/2 client that never answered the server's PING after its
/// GOAWAY, each kept `tresor serve` from ever stopping on SIGTERM (seen: still running 50 s
/// later, until `kill -9`): Hummingbird waits for a request in progress to end, however long.
final class ConnectionGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    let limits: ConnectionLimits
    private var helloDone: Bool
    private var helloDeadline: Scheduled<Void>?

    /// `tls`: the connection starts with a TLS handshake, which must end within the limit.
    init(limits: ConnectionLimits, tls: Bool) {
        self.limits = limits
        helloDone = !tls
    }

    func handlerAdded(context: ChannelHandlerContext) {
        guard !helloDone else { return }
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        helloDeadline = context.eventLoop.scheduleTask(in: limits.tlsHello) { bound.value.close(promise: nil) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        helloDeadline?.cancel()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .handshakeCompleted = event as? TLSUserEvent {
            helloDone = true
            helloDeadline?.cancel()
        }
        if event is ChannelShouldQuiesceEvent {
            guard helloDone else { return context.close(promise: nil) }
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.eventLoop.scheduleTask(in: limits.stoppingGrace) { bound.value.close(promise: nil) }
        }
        context.fireUserInboundEventTriggered(event)
    }
}

/// How long a connection may take over its parts. The defaults are `tresor serve`'s.
public struct ConnectionLimits: Sendable {
    /// For the TLS handshake, from the connection's start.
    public var tlsHello: TimeAmount
    /// Once the server is stopping. why 25 s: longer than the slowest request (a photo read by
    /// the scan worker, 20 s at most), shorter than the 30 s a container runtime waits before
    /// it kills.
    public var stoppingGrace: TimeAmount
    /// Without a byte read, while a request is being read or between requests (Hummingbird's
    /// idle timeout; an answer being computed or streamed is not idle). why: a client that
    /// stops sending halfway through a request held its connection and task forever.
    public var idle: TimeAmount

    public init(tlsHello: TimeAmount = .seconds(10), stoppingGrace: TimeAmount = .seconds(25), idle: TimeAmount = .seconds(60)) {
        self.tlsHello = tlsHello
        self.stoppingGrace = stoppingGrace
        self.idle = idle
    }
}
