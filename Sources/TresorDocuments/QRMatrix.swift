internal import CDocumentLibraries

/// A QR code as a square of dark and light modules, made by libqrencode (error correction M,
/// which survives a smudge or a reflection on a kiosk screen).
public struct QRMatrix: Sendable, Hashable {
    public let size: Int
    let modules: [Bool]

    /// nil when the text does not fit a QR code (over ~2 KB at level M).
    public init?(_ text: String) {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        size = width
        // why `& 1`: the low bit of each byte is the module's colour; the others describe its role.
        modules = (0..<width * width).map { code.pointee.data[$0] & 1 == 1 }
    }

    public subscript(row: Int, column: Int) -> Bool { modules[row * size + column] }

    /// An SVG of the code with the four-module quiet zone the standard asks for; one path, so a
    /// page can colour it with `currentColor` and it stays sharp at any size.
    public func svg(title: String) -> String {
        let quiet = 4
        let side = size + 2 * quiet
        var path = ""
        for row in 0..<size {
            var column = 0
            while column < size {
                guard self[row, column] else {
                    column += 1
                    continue
                }
                let start = column
                while column < size && self[row, column] { column += 1 }
                path += "M\(start + quiet) \(row + quiet)h\(column - start)v1h-\(column - start)z"
            }
        }
        let escaped = title.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(side) \(side)" role="img" shape-rendering="crispEdges">\
            <title>\(escaped)</title><rect width="\(side)" height="\(side)" fill="#fff"/><path fill="#000" d="\(path)"/></svg>
            """
    }

    /// 8-bit greyscale pixels, `scale` pixels per module, with the quiet zone: what a camera
    /// would see, for decoding it back in tests.
    public func grayscale(scale: Int) -> (width: Int, pixels: [UInt8]) {
        let quiet = 4
        let width = (size + 2 * quiet) * scale
        var pixels = [UInt8](repeating: 255, count: width * width)
        for row in 0..<size {
            for column in 0..<size where self[row, column] {
                for y in 0..<scale {
                    let base = ((row + quiet) * scale + y) * width + (column + quiet) * scale
                    for x in 0..<scale { pixels[base + x] = 0 }
                }
            }
        }
        return (width, pixels)
    }
}
