import CScanLibraries
import CZXing
import Foundation

/// Finds QR codes with ZXing-C++ (it finds codes at an angle, small on an A4 page or under glare
/// that zbar misses, and is faster), with our reader of bent codes behind it. zbar is no longer
/// tried by default: on the 36 QR-bills of the corpus and the phone photos of `make bench` it read
/// none that ZXing missed (`bench/results/scan.json` measures each alone), and its six extra
/// attempts cost ~450 ms on every photo without a code (an orange slip). `TRESOR_QR_DECODERS`
/// (`zxing`, `zbar`, comma-separated; default `zxing`) puts it back behind ZXing — as taken,
/// smaller, thresholded and turned — and lets the benchmark measure what each adds.
enum QRCodeReader {
    enum Decoder: String, CaseIterable { case zxing, zbar }

    static let decoders: Set<Decoder> = {
        let chosen = Set(
            (ProcessInfo.processInfo.environment["TRESOR_QR_DECODERS"] ?? "").split(separator: ",").compactMap { Decoder(rawValue: String($0)) })
        return chosen.isEmpty ? [.zxing] : chosen
    }()

    static func read(_ image: ScanImage) throws -> [String] {
        let gray = try image.gray()
        if decoders.contains(.zxing) {
            let found = zxing(gray)
            if !found.isEmpty { return found }
        }
        guard decoders.contains(.zbar) else { return [] }
        var attempts: [() throws -> ScanImage] = [{ gray }]
        let longest = max(gray.width, gray.height)
        if longest > 1600 { attempts.append { try gray.scaled(1600 / Float(longest)) } }
        attempts.append { try gray.binarized() }
        for degrees: Float in [-15, 15, -30, 30, 90, 45] { attempts.append { try gray.rotated(degrees: degrees) } }
        for attempt in attempts {
            let found = scan(try attempt())
            if !found.isEmpty { return found }
        }
        return []
    }

    /// ZXing-C++ on the greyscale pixels, then the reader of bent codes (CZXing's BentQR.cpp) when
    /// ZXing finds none; each code's raw bytes read as UTF-8 (a QR-bill's coding). `readers` is
    /// for tests that show what one reader alone reads.
    static func zxing(_ gray: ScanImage, readers: Int32 = Int32(CZXING_READERS_ALL)) -> [String] {
        let bytes = gray.grayBytes()
        guard !bytes.isEmpty else { return [] }
        let max = 4
        var contents = [UnsafeMutablePointer<UInt8>?](repeating: nil, count: max)
        var lengths = [Int](repeating: 0, count: max)
        let found = bytes.withUnsafeBufferPointer { pixels in
            czxing_read_qr(pixels.baseAddress, Int32(gray.width), Int32(gray.height), Int32(gray.width), &contents, &lengths, Int32(max), readers)
        }
        var results: [String] = []
        for index in 0..<Int(found) {
            guard let content = contents[index] else { continue }
            results.append(String(decoding: UnsafeBufferPointer(start: content, count: lengths[index]), as: UTF8.self))
            czxing_free(content)
        }
        return results
    }

    static func scan(_ image: ScanImage) -> [String] {
        guard let scanner = zbar_image_scanner_create() else { return [] }
        defer { zbar_image_scanner_destroy(scanner) }
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0)
        zbar_image_scanner_set_config(scanner, ZBAR_QRCODE, ZBAR_CFG_ENABLE, 1)
        // why: a QR-bill is UTF-8; without this zbar guesses a legacy charset for umlauts.
        zbar_image_scanner_set_config(scanner, ZBAR_QRCODE, ZBAR_CFG_BINARY, 1)
        guard let zimage = zbar_image_create() else { return [] }
        defer { zbar_image_destroy(zimage) }
        let bytes = image.grayBytes()
        let fourcc = UInt(UInt8(ascii: "Y")) | UInt(UInt8(ascii: "8")) << 8 | UInt(UInt8(ascii: "0")) << 16 | UInt(UInt8(ascii: "0")) << 24
        zbar_image_set_format(zimage, UInt(fourcc))
        zbar_image_set_size(zimage, UInt32(image.width), UInt32(image.height))
        return bytes.withUnsafeBytes { buffer -> [String] in
            zbar_image_set_data(zimage, buffer.baseAddress, UInt(buffer.count), nil)
            guard zbar_scan_image(scanner, zimage) > 0 else { return [] }
            var results: [String] = []
            var symbol = zbar_image_first_symbol(zimage)
            while let current = symbol {
                if let data = zbar_symbol_get_data(current) {
                    let length = Int(zbar_symbol_get_data_length(current))
                    let raw = UnsafeRawBufferPointer(start: data, count: length)
                    results.append(String(decoding: raw, as: UTF8.self))
                }
                symbol = zbar_symbol_next(current)
            }
            return results
        }
    }
}
