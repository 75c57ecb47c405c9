import Testing
import TresorTestSupport

@testable import TresorServer

/// The multipart parser that takes a phone's photo upload, on bodies made at random (a fixed
/// seed): well-formed bodies read back to exactly the parts written, whatever bytes the content
/// holds; a body cut short anywhere gives the parts completed before the cut and nothing else;
/// bytes at random and mangled bodies never crash it.
@Suite("Multipart bodies, property-based")
struct MultipartPropertyTests {
    struct Written: Equatable {
        let name: String
        let filename: String?
        let contentType: String?
        let content: [UInt8]
    }

    /// RFC 2046's characters of a boundary (without the space, which may not end one).
    static let boundaryCharacters = Array("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_,-./:=?")
    static let nameCharacters = Array("abcdefghijklmnopqrstuvwxyz0123456789-_ éüßж漢")

    static func text(_ alphabet: [Character], _ range: ClosedRange<Int>, _ random: inout SplitMix) -> String {
        String((0..<Int.random(in: range, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
    }

    /// Content as files hold it: any byte, with line breaks and dashes more often than chance.
    static func content(_ random: inout SplitMix) -> [UInt8] {
        (0..<Int.random(in: 0...300, using: &random)).map { _ in
            switch Int.random(in: 0..<10, using: &random) {
            case 0: return 13
            case 1: return 10
            case 2: return UInt8(ascii: "-")
            default: return UInt8.random(in: 0...255, using: &random)
            }
        }
    }

    /// A body as a browser writes it, and where each part's closing delimiter ends in it.
    static func encode(_ parts: [Written], boundary: String, preamble: [UInt8]) -> (body: [UInt8], ends: [Int]) {
        var body = preamble
        var ends: [Int] = []
        for part in parts {
            var headers = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\""
            if let filename = part.filename { headers += "; filename=\"\(filename)\"" }
            if let contentType = part.contentType { headers += "\r\nContent-Type: \(contentType)" }
            body += Array((headers + "\r\n\r\n").utf8) + part.content + Array("\r\n".utf8)
            ends.append(body.count + boundary.utf8.count + 2)
        }
        body += Array("--\(boundary)--\r\n".utf8)
        return (body, ends)
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool { Multipart.index(of: needle, in: haystack, from: 0) != nil }

    /// Parts whose content does not hold the delimiter (a sender picks a boundary its content
    /// does not contain), a boundary and a preamble.
    static func sample(_ random: inout SplitMix) -> (parts: [Written], boundary: String, preamble: [UInt8]) {
        let boundary = text(boundaryCharacters, 1...70, &random)
        let delimiter = Array("\r\n--\(boundary)".utf8)
        var parts: [Written] = []
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            var bytes = content(&random)
            while contains(bytes + Array("\r\n--\(boundary)".utf8.dropLast()), delimiter) || contains(bytes, Array("--\(boundary)".utf8)) {
                bytes = content(&random)
            }
            parts.append(
                Written(
                    name: text(nameCharacters, 1...12, &random),
                    filename: Bool.random(using: &random) ? text(nameCharacters, 1...20, &random) + ".jpg" : nil,
                    contentType: Bool.random(using: &random) ? "image/jpeg" : nil, content: bytes))
        }
        let preamble = Bool.random(using: &random) ? Array("This is a multi-part message.\r\n".utf8) : []
        return (parts, boundary, preamble)
    }

    static func read(_ body: [UInt8], boundary: String) -> [Written] {
        Multipart.parts(body, boundary: boundary).map {
            Written(name: $0.name ?? "", filename: $0.filename, contentType: $0.contentType, content: $0.content)
        }
    }

    @Test("well-formed bodies read back to the parts written, and the boundary back from its header")
    func roundTrip() {
        var random = SplitMix(seed: 20_261_124)
        for _ in 0..<400 {
            let (parts, boundary, preamble) = Self.sample(&random)
            let (body, _) = Self.encode(parts, boundary: boundary, preamble: preamble)
            #expect(Self.read(body, boundary: boundary) == parts, "boundary \(boundary)")
            let quoted = Bool.random(using: &random)
            let header = "multipart/form-data; charset=utf-8; boundary=" + (quoted ? "\"\(boundary)\"" : boundary)
            #expect(Multipart.boundary(of: header) == boundary)
        }
    }

    @Test("a body cut short gives the parts completed before the cut, nothing more")
    func truncated() {
        var random = SplitMix(seed: 7)
        for _ in 0..<300 {
            let (parts, boundary, preamble) = Self.sample(&random)
            let (body, ends) = Self.encode(parts, boundary: boundary, preamble: preamble)
            let cut = Int.random(in: 0...body.count, using: &random)
            let complete = ends.filter { $0 <= cut }.count
            #expect(Self.read(Array(body[..<cut]), boundary: boundary) == Array(parts.prefix(complete)), "cut at \(cut) of \(body.count)")
        }
    }

    @Test("random bytes and mangled bodies never crash the parser")
    func noCrash() {
        var random = SplitMix(seed: 99)
        for _ in 0..<300 {
            let (parts, boundary, preamble) = Self.sample(&random)
            var body = Self.encode(parts, boundary: boundary, preamble: preamble).body
            for _ in 0..<Int.random(in: 1...8, using: &random) where !body.isEmpty {
                let at = Int.random(in: 0..<body.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: body[at] = UInt8.random(in: 0...255, using: &random)
                case 1: body.remove(at: at)
                default: body.insert(contentsOf: Array("\r\n--\(boundary)\r\n\r\n".utf8), at: at)
                }
            }
            let read = Multipart.parts(body, boundary: boundary)
            #expect(read.count <= body.count)
            let noise = (0..<Int.random(in: 0...200, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            _ = Multipart.parts(noise, boundary: String(boundary.prefix(2)))
            _ = Multipart.boundary(of: String(decoding: noise, as: UTF8.self))
        }
    }
}
