import Foundation

/// A plain TCP connection to 127.0.0.1, for writing HTTP by hand where a client library would
/// hide what is tested (interim answers, pipelined requests). Reads give up after
/// `limitSeconds` without new bytes, so a test of an answer that never comes fails instead of
/// hanging. Closed when this goes.
/// why unchecked: one test uses it at a time; reads run off Swift's pool (see `read`).
public final class LoopbackClient: @unchecked Sendable {
    private let descriptor: Int32
    /// Everything read so far.
    public private(set) var received = ""

    public init(port: Int, limitSeconds: Int = 10) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        var limit = timeval(tv_sec: limitSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        let descriptor = descriptor
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else {
            close(descriptor)
            throw POSIXError(.ECONNREFUSED)
        }
    }

    deinit {
        close(descriptor)
    }

    public func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { throw POSIXError(.EPIPE) }
            sent += n
        }
    }

    /// Reads until `received` holds `marker` `count` times; false when the peer closes or stays
    /// silent for the limit first.
    /// why off the pool: a blocking read on one of Swift's few pool threads can starve a server
    /// running in the same test process, which then never answers.
    @discardableResult
    public func read(until marker: String, count: Int = 1) async -> Bool {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: self.readBlocking(until: marker, count: count)) }
        }
    }

    /// Whether the peer closes the connection before `limitSeconds` pass without a byte.
    public func closedByPeer() async -> Bool {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var buffer = [UInt8](repeating: 0, count: 4_096)
                while true {
                    let n = buffer.withUnsafeMutableBytes { recv(self.descriptor, $0.baseAddress, $0.count, 0) }
                    guard n > 0 else { return continuation.resume(returning: n == 0) }
                }
            }
        }
    }

    private func readBlocking(until marker: String, count: Int) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while received.components(separatedBy: marker).count - 1 < count {
            let n = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { return false }
            received += String(decoding: buffer[..<n], as: UTF8.self)
        }
        return true
    }
}
