import NIOCore

/// Answers a plain-HTTP request that reaches the HTTPS port (`http://bank.example:8443/`) with
/// `400` and a line saying to use `https://`, as nginx does, instead of a connection reset the
/// client reports as an empty answer. Removes itself once the first bytes are a TLS handshake
/// record (0x16), so a TLS connection pays one byte's look.
final class PlainHTTPOnTLSPortHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    static let answer: String = {
        let text = "This port speaks HTTPS: use https:// to reach it.\n"
        return "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(text.utf8.count)\r\n"
            + "Connection: close\r\n\r\n\(text)"
    }()

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data)
        guard let first = bytes.getInteger(at: bytes.readerIndex, as: UInt8.self), first != 0x16 else {
            context.fireChannelRead(data)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: Self.answer))).whenComplete { _ in context.close(promise: nil) }
    }
}
