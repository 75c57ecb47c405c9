import CZlib

/// gzip (RFC 1952) at zlib's best compression, for bodies compressed once and sent many times.
enum Gzip {
    static func compress(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        // windowBits 15 + 16: zlib writes the gzip header and trailer instead of its own.
        guard
            deflateInit2_(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
                == Z_OK
        else { return nil }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))))
        var input = bytes
        let status = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        return Array(output.prefix(Int(stream.total_out)))
    }

    /// Whether `Accept-Encoding` takes gzip (RFC 9110): `gzip` with a weight above 0, else `*`
    /// with one; `gzip;q=0` refuses it whatever `*` says.
    static func accepted(by header: String?) -> Bool {
        var weights: [String: Int] = [:]
        for part in (header ?? "").split(separator: ",") {
            let pieces = part.split(separator: ";").map { WebSupport.spacesTrimmed($0).lowercased() }
            guard let coding = pieces.first else { continue }
            weights[coding] = pieces.dropFirst().first { $0.hasPrefix("q=") }.map { WebLanguage.thousandths(String($0.dropFirst(2))) } ?? 1_000
        }
        return (weights["gzip"] ?? weights["*"] ?? 0) > 0
    }
}
