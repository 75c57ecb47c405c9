import HummingbirdCore
import HummingbirdHTTP2
import Logging
import NIOCore
import NIOHTTP2
import NIOSSL
import NIOTLS

/// HTTPS on `tresor serve`'s port: TLS with the certificate of `TLSCertificateFiles` as it is
/// when the connection arrives, then HTTP/2 or HTTP/1.1 as the client's ALPN asks (an iPhone's
/// URLSession, browsers and curl pick HTTP/2; a client without ALPN gets HTTP/1.1).
///
/// why not Hummingbird's `HTTP2UpgradeChannel`: it fixes the TLS context when the server starts,
/// so a renewed certificate would need a restart, and its HTTP/1.1 side is the plain channel,
/// without the `100 Continue` answer `TresorHTTP1Channel` gives.
struct TresorTLSChannel: ServerChildChannel {
    typealias Negotiated = NIONegotiatedHTTPVersion<TresorHTTP1Channel.Value, HTTP2Channel.Value>

    struct Value: ServerChildChannelValue {
        let negotiated: EventLoopFuture<Negotiated>
        let channel: any Channel
    }

    let files: TLSCertificateFiles
    let limits: ConnectionLimits
    let http1: TresorHTTP1Channel
    let http2: HTTP2Channel

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandlers(
                PlainHTTPOnTLSPortHandler(), NIOSSLServerHandler(context: files.context()), ConnectionGuard(limits: limits, tls: true))
            let negotiation = NIOTypedApplicationProtocolNegotiationHandler<Negotiated> { result, channel in
                switch result {
                case .negotiated("h2"): return http2.setup(channel: channel, logger: logger).map { .http2($0) }
                case .negotiated("http/1.1"), .fallback: return http1.setup(channel: channel, logger: logger).map { .http1_1($0) }
                case .negotiated: return channel.close().flatMapThrowing { throw NIOHTTP2Errors.invalidALPNToken() }
                }
            }
            try channel.pipeline.syncOperations.addHandler(negotiation)
            return Value(negotiated: negotiation.protocolNegotiationResult, channel: channel)
        }
    }

    func handle(value: Value, logger: Logger) async {
        do {
            switch try await value.negotiated.get() {
            case .http1_1(let connection): await http1.handle(value: connection, logger: logger)
            case .http2(let connection): await http2.handle(value: connection, logger: logger)
            }
        } catch {
            // why debug: a client that gives up during the handshake (a port scanner, a browser
            // refusing the certificate) is not the server's fault.
            logger.debug("TLS connection ended before HTTP: \(error)")
        }
    }
}

extension HTTPServerBuilder {
    /// `tresor serve --tls-certificate … --tls-key …`: HTTPS only, HTTP/2 and HTTP/1.1.
    public static func tresorTLS(_ files: TLSCertificateFiles, limits: ConnectionLimits = .init()) -> HTTPServerBuilder {
        .init { responder in
            // why the grace for HTTP/2 too: after its second GOAWAY it waits for open streams only this long.
            let http2 = HTTP2ChannelConfiguration(
                idleTimeout: .init(limits.idle), gracefulCloseTimeout: .init(limits.stoppingGrace),
                streamConfiguration: .init(idleTimeout: limits.idle))
            return TresorTLSChannel(
                files: files, limits: limits, http1: TresorHTTP1Channel(responder: responder, idle: limits.idle, guarded: nil),
                http2: HTTP2Channel(responder: responder, configuration: http2))
        }
    }
}
