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

    /// What `inflate` found wrong.
    enum InflateError: Error {
        case corrupt
        case tooLarge
    }

    /// A gzip (RFC 1952) or zlib (RFC 1950, HTTP's "deflate") stream inflated, stopped as soon
    /// as it would pass `limit` bytes, so a small bomb never becomes a large buffer.
    static func inflate(_ bytes: [UInt8], limit: Int) throws(InflateError) -> [UInt8] {
        var stream = z_stream()
        // why windowBits 15 + 32: zlib tells gzip from zlib by the header itself.
        guard inflateInit2_(&stream, 15 + 32, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { throw .corrupt }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var input = bytes
        var status = Z_OK
        var tooLarge = false
        input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = uInt(source.count)
            repeat {
                chunk.withUnsafeMutableBufferPointer { target in
                    stream.next_out = target.baseAddress
                    stream.avail_out = uInt(target.count)
                    status = CZlib.inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                guard output.count + produced <= limit else {
                    tooLarge = true
                    return
                }
                output.append(contentsOf: chunk.prefix(produced))
            } while status == Z_OK
        }
        if tooLarge { throw .tooLarge }
        // A cut stream stops with Z_BUF_ERROR; bytes after its end are not part of it.
        guard status == Z_STREAM_END, stream.avail_in == 0 else { throw .corrupt }
        return output
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
