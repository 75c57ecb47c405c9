import Foundation

/// The parts of a `multipart/form-data` body (RFC 7578), as a browser's file form sends them:
/// enough for a photo and a few text fields; nested multiparts are not needed here.
enum Multipart {
    struct Part {
        let name: String?
        let filename: String?
        let contentType: String?
        let content: [UInt8]
        var text: String { String(decoding: content, as: UTF8.self) }
    }

    /// The boundary of a `multipart/form-data; boundary=…` content type, nil for other types.
    static func boundary(of contentType: String) -> String? {
        guard contentType.lowercased().hasPrefix("multipart/form-data") else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.trimmingCharacters(in: .whitespaces)
            if pair.lowercased().hasPrefix("boundary=") {
                return String(pair.dropFirst("boundary=".count)).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
        }
        return nil
    }

    static func parts(_ body: [UInt8], boundary: String) -> [Part] {
        let delimiter = Array("--\(boundary)".utf8)
        let headerEnd = Array("\r\n\r\n".utf8)
        var parts: [Part] = []
        var start = 0
        while let found = index(of: delimiter, in: body, from: start) {
            let headersStart = found + delimiter.count
            guard let headersStop = index(of: headerEnd, in: body, from: headersStart),
                let next = index(of: Array("\r\n".utf8) + delimiter, in: body, from: headersStop + headerEnd.count)
            else { break }
            let headers = String(decoding: body[headersStart..<headersStop], as: UTF8.self)
            parts.append(
                Part(
                    name: parameter("name", in: headers), filename: parameter("filename", in: headers),
                    contentType: header("content-type", in: headers),
                    content: Array(body[(headersStop + headerEnd.count)..<next])))
            start = next + 2
        }
        return parts
    }

    static func parameter(_ name: String, in headers: String) -> String? {
        guard let range = headers.range(of: "\(name)=\"") else { return nil }
        // why: `name="` also matches inside `filename="`; require a separator before it.
        if range.lowerBound > headers.startIndex, headers[headers.index(before: range.lowerBound)].isLetter {
            return parameter(name, in: String(headers[range.upperBound...]))
        }
        let rest = headers[range.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    static func header(_ name: String, in headers: String) -> String? {
        for line in headers.split(separator: "\r\n") {
            let pieces = line.split(separator: ":", maxSplits: 1)
            if pieces.count == 2, pieces[0].trimmingCharacters(in: .whitespaces).lowercased() == name {
                return pieces[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    static func index(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        var position = start
        while position <= haystack.count - needle.count {
            if haystack[position] == needle[0], haystack[position..<position + needle.count].elementsEqual(needle) { return position }
            position += 1
        }
        return nil
    }
}
