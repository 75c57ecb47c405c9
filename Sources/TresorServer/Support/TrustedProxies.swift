import Foundation
import HTTPTypes
import Hummingbird

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The proxies (`serve --trusted-proxy CIDR`) whose `X-Forwarded-For` the server believes. Behind
/// one, every request comes from the proxy's address; the customer's address, which lockout
/// and the audit log need, is the nearest untrusted hop the trusted proxies appended. A request
/// from anywhere else keeps its own address, whatever header it sends (a client can write any
/// `X-Forwarded-For` it likes).
public struct TrustedProxies: Sendable {
    struct Range: Sendable {
        let bytes: [UInt8]
        let prefixBits: Int

        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            var bits = prefixBits
            for index in bytes.indices where bits > 0 {
                let mask: UInt8 = bits >= 8 ? 0xFF : ~(0xFF >> UInt8(bits))
                guard address[index] & mask == bytes[index] & mask else { return false }
                bits -= 8
            }
            return true
        }
    }

    let ranges: [Range]

    public static let none = TrustedProxies(ranges: [])

    /// `10.0.0.0/8`, `127.0.0.1`, `fd00::/8`; throws on anything else.
    public init(cidrs: [String]) throws {
        ranges = try cidrs.map { text in
            let parts = text.split(separator: "/", maxSplits: 1).map(String.init)
            guard let bytes = Self.parse(parts[0]) else { throw InvalidCIDR(text: text) }
            let prefix = parts.count == 2 ? Int(parts[1]) : bytes.count * 8
            guard let prefix, (0...bytes.count * 8).contains(prefix) else { throw InvalidCIDR(text: text) }
            return Range(bytes: bytes, prefixBits: prefix)
        }
    }

    init(ranges: [Range]) { self.ranges = ranges }

    public struct InvalidCIDR: Error, CustomStringConvertible {
        public let text: String
        public var description: String { "\(text) is not an address or a CIDR range like 10.0.0.0/8 or fd00::/8" }
    }

    func trusts(_ address: String) -> Bool {
        guard let bytes = Self.parse(address) else { return false }
        return ranges.contains { $0.contains(bytes) }
    }

    /// The client's address: `peer` unless `peer` is a trusted proxy, then the rightmost
    /// `X-Forwarded-For` hop that is not one (a malformed hop ends the walk).
    public func clientAddress(peer: String?, forwardedFor: [String]) -> String? {
        guard let peer, !ranges.isEmpty, trusts(peer) else { return peer }
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        var client = peer
        for hop in hops.reversed().prefix(32) {
            guard Self.parse(hop) != nil else { break }
            client = hop
            if !trusts(hop) { break }
        }
        return client
    }

    /// The 4 or 16 bytes of an IPv4 or IPv6 address, or nil.
    static func parse(_ text: String) -> [UInt8]? {
        guard text.count <= 45 else { return nil }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }
}

/// Puts the client's address, as `TrustedProxies` sees it, into the request context: the
/// first middleware of every bank's router, so lockout and audit use it everywhere.
struct ClientAddressMiddleware: RouterMiddleware {
    typealias Context = TresorRequestContext
    let proxies: TrustedProxies

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard !proxies.ranges.isEmpty else { return try await next(request, context) }
        var context = context
        context.address = proxies.clientAddress(peer: context.address, forwardedFor: request.headers[values: HTTPField.Name("X-Forwarded-For")!])
        return try await next(request, context)
    }
}
