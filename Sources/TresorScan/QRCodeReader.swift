import CScanLibraries

/// Finds QR codes with zbar. A phone photo is tried as taken, then smaller (a QR-bill on a full
/// A4 page photographed at 12 MP has modules zbar's finder skips), then thresholded (shadows),
/// then turned a little (zbar copes with 90° turns itself, not always with 10–20° ones).
enum QRCodeReader {
    static func read(_ image: ScanImage) throws -> [String] {
        let gray = try image.gray()
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
