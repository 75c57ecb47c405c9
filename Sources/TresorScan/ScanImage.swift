import CScanLibraries
import TresorDomain

/// A decoded image (a Leptonica `PIX`), checked against the limits from its header before the
/// pixels are decoded, so a small file that claims a huge image is refused without the memory.
public final class ScanImage {
    let pix: UnsafeMutablePointer<PIX>

    init(owning pix: UnsafeMutablePointer<PIX>) { self.pix = pix }

    deinit {
        var pointer: UnsafeMutablePointer<PIX>? = pix
        pixDestroy(&pointer)
    }

    static func decode(_ bytes: [UInt8], limits: ScanLimits) throws -> ScanImage {
        try decode(bytes, limits: limits, keepingHEIC: false).image
    }

    /// The image to read (grey) and, with `keepingHEIC`, a HEIC photo again as a colour JPEG to
    /// keep: browsers other than Safari show no HEIC. nil for every other format, kept as sent.
    static func decode(_ bytes: [UInt8], limits: ScanLimits, keepingHEIC: Bool) throws -> (image: ScanImage, jpeg: [UInt8]?) {
        guard bytes.count <= limits.maxBytes else { throw limits.tooManyBytes }
        if HEIFImage.isHEIF(bytes) {
            let colour = try HEIFImage.decode(bytes, limits: limits)
            return (try colour.luminance(), keepingHEIC ? try colour.jpeg() : nil)
        }
        guard isJPEG(bytes) || isPNG(bytes) else { throw ScanError(.unsupportedImage, "Send a JPEG, PNG or HEIC image.") }
        var format: Int32 = 0
        var width: Int32 = 0
        var height: Int32 = 0
        var bits: Int32 = 0
        var samples: Int32 = 0
        var colormap: Int32 = 0
        let header = bytes.withUnsafeBufferPointer {
            pixReadHeaderMem($0.baseAddress, $0.count, &format, &width, &height, &bits, &samples, &colormap)
        }
        guard header == 0, width > 0, height > 0 else { throw ScanError(.unreadable, "The image cannot be decoded.") }
        guard Int(width) * Int(height) <= limits.maxPixels else {
            throw limits.tooManyPixels
        }
        // why luminance only: every reader wants grey; libjpeg then skips the colour planes and
        // their conversion, which was a third of the time of a 12-megapixel photo.
        // A JPEG libjpeg cannot give as luminance (CMYK) is decoded whole.
        let luminance =
            isJPEG(bytes) ? bytes.withUnsafeBufferPointer { pixReadMemJpeg($0.baseAddress, $0.count, 0, 1, nil, Int32(L_JPEG_READ_LUMINANCE)) } : nil
        guard let pix = luminance ?? bytes.withUnsafeBufferPointer({ pixReadMem($0.baseAddress, $0.count) }) else {
            throw ScanError(.unreadable, "The image cannot be decoded.")
        }
        let image = ScanImage(owning: pix)
        let orientation = isJPEG(bytes) ? ExifOrientation.of(jpeg: bytes) : isPNG(bytes) ? ExifOrientation.of(png: bytes) : 1
        return (try image.upright(exifOrientation: orientation), nil)
    }

    static func isJPEG(_ bytes: [UInt8]) -> Bool { contentType(of: bytes) == "image/jpeg" }
    static func isPNG(_ bytes: [UInt8]) -> Bool { contentType(of: bytes) == "image/png" }

    /// `image/jpeg`, `image/png` or a HEIF brand from the file's signature, nil for anything else.
    public static func contentType(of bytes: [UInt8]) -> String? {
        if let type = FileKind.contentType(of: bytes), type.hasPrefix("image/") { return type }
        return HEIFImage.brand(of: bytes)
    }

    var width: Int { Int(pixGetWidth(pix)) }
    var height: Int { Int(pixGetHeight(pix)) }

    private func derived(_ make: (UnsafeMutablePointer<PIX>) -> UnsafeMutablePointer<PIX>?) throws -> ScanImage {
        guard let result = make(pix) else { throw ScanError(.unreadable, "The image cannot be processed.") }
        return ScanImage(owning: result)
    }

    /// The pixels turned as EXIF orientation 1–8 says a viewer must show them (2, 4, 5 and 7
    /// are mirrored; phones write 1, 3, 6 and 8).
    func upright(exifOrientation: Int) throws -> ScanImage {
        switch exifOrientation {
        case 2: try derived { pixFlipLR(nil, $0) }
        case 3: try derived { pixRotateOrth($0, 2) }
        case 4: try derived { pixFlipTB(nil, $0) }
        case 5: try derived { pixRotateOrth($0, 1) }.derived { pixFlipLR(nil, $0) }
        case 6: try derived { pixRotateOrth($0, 1) }
        case 7: try derived { pixRotateOrth($0, 1) }.derived { pixFlipTB(nil, $0) }
        case 8: try derived { pixRotateOrth($0, 3) }
        default: self
        }
    }

    /// 8 bits of grey, what zbar and the deskewer want.
    func gray() throws -> ScanImage { try derived { pixConvertTo8($0, 0) } }

    /// A colour image's luminance, as libjpeg gives a JPEG's (8-bit grey).
    func luminance() throws -> ScanImage { try derived { pixConvertRGBToLuminance($0) } }

    /// The image as a baseline JPEG.
    func jpeg(quality: Int32 = 90) throws -> [UInt8] {
        var data: UnsafeMutablePointer<UInt8>?
        var size = 0
        guard pixWriteMemJpeg(&data, &size, pix, quality, 0) == 0, let data else { throw ScanError(.unreadable, "The image cannot be converted.") }
        defer { free(data) }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    func scaled(_ factor: Float) throws -> ScanImage { try derived { pixScale($0, factor, factor) } }

    /// Straightens text lines (a photo taken askew, up to 15° either way; Leptonica's default
    /// search stops at 7°); leaves the image as is when no skew is found.
    func deskewed() throws -> ScanImage { try derived { pixDeskewGeneral($0, 0, 15, 0, 0, 0, nil, nil) ?? pixClone($0) } }

    /// The receipt without the table it lies on (`PaperFinder`, on a thumbnail of about 200
    /// pixels a side); the image itself when there is nothing to cut. 8-bit grey in and out.
    func paperCropped() throws -> ScanImage {
        let cell = max(width, height) / 200
        // A strip a few pixels across has no table around it worth finding.
        guard cell > 1, min(width, height) / cell >= 3 else { return self }
        let thumbnail = try derived { pixScaleAreaMap($0, 1 / Float(cell), 1 / Float(cell)) }
        guard let paper = PaperFinder.paper(in: thumbnail.grayBytes(), width: thumbnail.width, height: thumbnail.height) else { return self }
        // One thumbnail pixel of margin each side: the paper's edge is a blend of paper and table.
        let x = max(0, (paper.x - 1) * cell)
        let y = max(0, (paper.y - 1) * cell)
        let box = boxCreate(Int32(x), Int32(y), Int32(min(width - x, (paper.width + 2) * cell)), Int32(min(height - y, (paper.height + 2) * cell)))
        defer {
            var pointer = box
            boxDestroy(&pointer)
        }
        return try derived { pixClipRectangle($0, box, nil) }
    }

    func rotated(degrees: Float) throws -> ScanImage {
        try derived { pixRotate($0, degrees * .pi / 180, Int32(L_ROTATE_AREA_MAP), Int32(L_BRING_IN_WHITE), 0, 0) }
    }

    /// Black and white by local thresholds, which copes with shadows and uneven light.
    func binarized() throws -> ScanImage {
        try derived { source in
            var result: UnsafeMutablePointer<PIX>?
            guard pixOtsuAdaptiveThreshold(source, 64, 64, 8, 8, 0.1, nil, &result) == 0, let binary = result else { return nil }
            defer {
                var pointer: UnsafeMutablePointer<PIX>? = binary
                pixDestroy(&pointer)
            }
            return pixConvertTo8(binary, 0)
        }
    }

    /// The grey rows as bytes, top to bottom (Leptonica keeps them in 32-bit words, the first
    /// pixel in the most significant byte): four pixels per word swapped into place.
    func grayBytes() -> [UInt8] {
        let width = self.width
        let height = self.height
        let wordsPerLine = Int(pixGetWpl(pix))
        guard let data = pixGetData(pix), pixGetDepth(pix) == 8 else { return [] }
        var bytes = [UInt8](repeating: 0, count: width * height)
        bytes.withUnsafeMutableBytes { out in
            for y in 0..<height {
                let line = data + y * wordsPerLine
                let row = y * width
                for word in 0..<(width / 4) {
                    out.storeBytes(of: line[word].byteSwapped, toByteOffset: row + word * 4, as: UInt32.self)
                }
                for x in (width / 4 * 4)..<width {
                    out[row + x] = UInt8(truncatingIfNeeded: line[x >> 2] >> UInt32(8 * (3 - (x & 3))))
                }
            }
        }
        return bytes
    }
}
