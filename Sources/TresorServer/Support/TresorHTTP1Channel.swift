import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// Hummingbird's HTTP/1.1 child channel with `ExpectContinueHandler` in its pipeline, and on
/// a plain-HTTP connection (`guarded`) a `ConnectionGuard` (over TLS one guards the whole
/// connection, before this channel's handlers are added).
struct TresorHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value
    let http1: HTTP1Channel
    var guarded: ConnectionLimits?

    /// `idle` closes a connection silent for that long while a request is read or between two.
    init(responder: @escaping HTTPChannelHandler.Responder, idle: TimeAmount, guarded: ConnectionLimits?) {
        http1 = HTTP1Channel(responder: responder, configuration: .init(idleTimeout: idle))
        self.guarded = guarded
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        http1.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let decoder = try channel.pipeline.syncOperations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try channel.pipeline.syncOperations.addHandler(ExpectContinueHandler(), position: .after(decoder))
            if let guarded { try channel.pipeline.syncOperations.addHandler(ConnectionGuard(limits: guarded, tls: false), position: .first) }
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// The server `tresor serve` runs: HTTP/1.1 that answers `Expect: 100-continue`, within
    /// the default `ConnectionLimits`.
    public static var tresor: HTTPServerBuilder { tresor(limits: ConnectionLimits()) }

    public static func tresor(limits: ConnectionLimits) -> HTTPServerBuilder {
        .init { responder in TresorHTTP1Channel(responder: responder, idle: limits.idle, guarded: limits) }
    }
}
