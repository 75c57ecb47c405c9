import NIOCore
import NIOTLS

/// Bounds how long a TLS connection can hold the server: the handshake must be done within
/// `TLSConnectionLimits.handshake` (10 s), and once the server is stopping (SIGTERM) a connection is closed
/// at the latest `stoppingGrace` (25 s) later.
///
/// why: a client that connects and says nothing, or an HTTP/2 client that never answers the
/// server's PING after its GOAWAY, kept `tresor serve` from ever stopping on SIGTERM (seen: still
/// running after 30 s, until `kill -9`); plain HTTP closes an idle connection at once. The
/// grace is longer than the slowest request (a photo read by the scan worker, 20 s at most) and
/// shorter than the 30 s a container runtime waits before killing.
final class TLSConnectionGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    let limits: TLSConnectionLimits
    private var handshakeDone = false
    private var handshakeDeadline: Scheduled<Void>?

    init(limits: TLSConnectionLimits) { self.limits = limits }

    func handlerAdded(context: ChannelHandlerContext) {
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        handshakeDeadline = context.eventLoop.scheduleTask(in: limits.handshake) { bound.value.close(promise: nil) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        handshakeDeadline?.cancel()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .handshakeCompleted = event as? TLSUserEvent {
            handshakeDone = true
            handshakeDeadline?.cancel()
        }
        if event is ChannelShouldQuiesceEvent {
            guard handshakeDone else { return context.close(promise: nil) }
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.eventLoop.scheduleTask(in: limits.stoppingGrace) { bound.value.close(promise: nil) }
        }
        context.fireUserInboundEventTriggered(event)
    }
}

/// How long a TLS connection may take to say hello, and to finish once the server is stopping.
public struct TLSConnectionLimits: Sendable {
    public var handshake: TimeAmount
    public var stoppingGrace: TimeAmount

    public init(handshake: TimeAmount = .seconds(10), stoppingGrace: TimeAmount = .seconds(25)) {
        self.handshake = handshake
        self.stoppingGrace = stoppingGrace
    }
}
