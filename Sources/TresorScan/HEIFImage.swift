import CScanLibraries
import Foundation

/// HEIF photos (`.heic`, what an iPhone's camera writes by default; AVIF too), decoded with
/// libheif, which Leptonica cannot read.
///
/// why: an app that uploads the photo a customer picked sends the file as the phone stored it;
/// on an iPhone that is HEIC, and the answer was "Send a JPEG or PNG image". libheif applies
/// the file's rotation and mirroring (`irot`, `imir`), the HEIF counterpart of EXIF orientation.
public enum HEIFImage {
    /// An ISO base media file whose brands name a still HEIF or AVIF image.
    public static func isHEIF(_ bytes: [UInt8]) -> Bool { brand(of: bytes) != nil }

    /// `image/heic` (HEVC), `image/avif` (AV1) or `image/heif` (another codec), from the `ftyp` box.
    static func brand(of bytes: [UInt8]) -> String? {
        guard bytes.count >= 16, bytes[4..<8].elementsEqual("ftyp".utf8) else { return nil }
        let size = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        guard size >= 16, size <= min(bytes.count, 4_096), size % 4 == 0 else { return nil }
        // The major brand, then the compatible ones after the minor version.
        let brands = ([8] + Array(stride(from: 16, to: size, by: 4))).map { String(decoding: bytes[$0..<$0 + 4], as: UTF8.self) }
        if brands.contains(where: ["heic", "heix", "heim", "heis"].contains) { return "image/heic" }
        if brands.contains("avif") { return "image/avif" }
        if brands.contains("mif1") { return "image/heif" }
        return nil
    }

    /// The primary image, turned and mirrored as the file says, as a 32-bit colour image; its
    /// size is checked against `limits` before a pixel is decoded (its bytes by the caller,
    /// `ScanImage.decode`).
    static func decode(_ bytes: [UInt8], limits: ScanLimits) throws -> ScanImage {
        let unreadable = ScanError(.unreadable, "The image cannot be decoded.")
        guard let context = heif_context_alloc() else { throw unreadable }
        defer { heif_context_free(context) }
        let read = bytes.withUnsafeBufferPointer { heif_context_read_from_memory_without_copy(context, $0.baseAddress, $0.count, nil) }
        guard read.code == heif_error_Ok else { throw unreadable }
        var handle: OpaquePointer?
        guard heif_context_get_primary_image_handle(context, &handle).code == heif_error_Ok, let handle else { throw unreadable }
        defer { heif_image_handle_release(handle) }
        let claimed = Int(heif_image_handle_get_width(handle)) * Int(heif_image_handle_get_height(handle))
        guard claimed > 0 else { throw unreadable }
        guard claimed <= limits.maxPixels else {
            throw limits.tooManyPixels
        }
        var decoded: OpaquePointer?
        guard heif_decode_image(handle, &decoded, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, nil).code == heif_error_Ok, let decoded
        else { throw unreadable }
        defer { heif_image_release(decoded) }
        let width = heif_image_get_width(decoded, heif_channel_interleaved)
        let height = heif_image_get_height(decoded, heif_channel_interleaved)
        var stride: Int32 = 0
        guard width > 0, height > 0, Int(width) * Int(height) <= limits.maxPixels,
            let plane = heif_image_get_plane_readonly(decoded, heif_channel_interleaved, &stride),
            let pix = pixCreate(width, height, 32)
        else { throw unreadable }
        let image = ScanImage(owning: pix)
        // why a copy per row and one byte swap: Leptonica keeps a pixel as a 32-bit word with red
        // in the high byte; libheif's RGBA bytes, read as little-endian words, are that word's
        // bytes reversed, which `pixEndianByteSwap` turns round for the whole image at once.
        let words = pixGetData(pix)!
        let wordsPerLine = Int(pixGetWpl(pix))
        for row in 0..<Int(height) {
            memcpy(words + row * wordsPerLine, plane + row * Int(stride), Int(width) * 4)
        }
        guard pixEndianByteSwap(pix) == 0 else { throw unreadable }
        return image
    }
}
