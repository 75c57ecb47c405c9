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
            let disposition = dispositionParameters(header("content-disposition", in: headers) ?? "")
            parts.append(
                Part(
                    name: disposition["name"], filename: disposition["filename*"].flatMap(extendedValue) ?? disposition["filename"],
                    contentType: header("content-type", in: headers), content: Array(body[(headersStop + headerEnd.count)..<next])))
            start = next + 2
        }
        return parts
    }

    /// The parameters of a `Content-Disposition` value by lower-cased name, quoted or not:
    /// browsers, curl and Python write `name="photo"`, .NET's `MultipartFormDataContent` writes
    /// `name=photo; filename=receipt.jpg; filename*=utf-8''receipt.jpg` (RFC 6266). A quoted
    /// value may hold `;` and `\"`.
    static func dispositionParameters(_ value: String) -> [String: String] {
        var parameters: [String: String] = [:]
        var characters = value.drop { $0 != ";" }.dropFirst()[...]
        while !characters.isEmpty {
            let key = characters.prefix { $0 != "=" && $0 != ";" }
            characters = characters.dropFirst(key.count)
            guard characters.first == "=" else {
                characters = characters.dropFirst()
                continue
            }
            characters = characters.dropFirst().drop { $0 == " " || $0 == "\t" }
            var parsed = ""
            if characters.first == "\"" {
                characters = characters.dropFirst()
                while let character = characters.first, character != "\"" {
                    characters = characters.dropFirst()
                    if character == "\\", let escaped = characters.first {
                        parsed.append(escaped)
                        characters = characters.dropFirst()
                    } else {
                        parsed.append(character)
                    }
                }
                characters = characters.dropFirst().drop { $0 != ";" }.dropFirst()
            } else {
                let token = characters.prefix { $0 != ";" }
                parsed = token.trimmingCharacters(in: .whitespaces)
                characters = characters.dropFirst(token.count).dropFirst()
            }
            let name = key.trimmingCharacters(in: .whitespaces).lowercased()
            if !name.isEmpty, parameters[name] == nil { parameters[name] = parsed }
        }
        return parameters
    }

    /// An RFC 5987 value, `utf-8''Quittung%20M%C3%BCller.jpg`: UTF-8 only (what every client
    /// sends), nil for another charset or bad escapes, so the plain `filename` is taken instead.
    static func extendedValue(_ value: String) -> String? {
        let pieces = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard pieces.count == 3, pieces[0].lowercased() == "utf-8" else { return nil }
        return pieces[2].removingPercentEncoding
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
