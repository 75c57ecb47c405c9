import Foundation

/// A TCP socket on 127.0.0.1 at a port the system picks, closed when this goes: listening, it
/// holds the port taken; not, its port is one nothing listens on once it is closed.
public final class LoopbackSocket {
    public let port: Int
    private let descriptor: Int32

    public init(listening: Bool) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let descriptor = descriptor
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && (!listening || listen(descriptor, 1) == 0)
                    && getsockname(descriptor, address, &length) == 0
            }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        guard bound else {
            close(descriptor)
            throw POSIXError(.EADDRINUSE)
        }
    }

    deinit {
        close(descriptor)
    }
}
