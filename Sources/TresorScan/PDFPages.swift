import CPDFPages
import CScanLibraries

/// The pages of a PDF drawn as grey images, for reading a QR-bill e-mailed as a PDF invoice.
///
/// why: most QR-bills reach customers as PDF attachments, not on paper; a customer should not
/// have to print one, or photograph their own screen, to pay it. The pages are drawn by Poppler
/// in the scan worker's process, like every other decoder, so a hostile file ends that process
/// only.
enum PDFPages {
    /// 200 dots per inch: a QR-bill's 46 mm code of up to 117 modules gets three pixels a module,
    /// what the QR readers need; an A4 page is then 1,654 × 2,339 pixels.
    static let dotsPerInch = 200.0

    /// The last `count` pages, the last first (a payment part is printed at the foot of an
    /// invoice's last page), each within `limits.maxPixels`.
    static func lastPages(of bytes: [UInt8], count: Int, limits: ScanLimits) throws -> [ScanImage] {
        let data = g_bytes_new(bytes, gsize(bytes.count))
        defer { g_bytes_unref(data) }
        var failure: UnsafeMutablePointer<GError>?
        guard let document = poppler_document_new_from_bytes(data, nil, &failure) else {
            if failure != nil { g_error_free(failure) }
            throw ScanError(.unreadable, "The PDF cannot be opened (damaged, or protected by a password).")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(document)) }
        let total = Int(poppler_document_get_n_pages(document))
        guard total > 0 else { throw ScanError(.unreadable, "The PDF has no pages.") }
        return try (max(0, total - count)..<total).reversed().map { index in
            guard let page = poppler_document_get_page(document, Int32(index)) else {
                throw ScanError(.unreadable, "A page of the PDF cannot be read.")
            }
            defer { g_object_unref(UnsafeMutableRawPointer(page)) }
            return try draw(page, limits: limits)
        }
    }

    private static func draw(_ page: OpaquePointer, limits: ScanLimits) throws -> ScanImage {
        var points = (width: 0.0, height: 0.0)
        poppler_page_get_size(page, &points.width, &points.height)
        guard points.width > 0, points.height > 0, points.width < 20_000, points.height < 20_000 else {
            throw ScanError(.unreadable, "A page of the PDF has no size.")
        }
        // A page larger than A4 is drawn at a lower resolution, within the pixel limit.
        var scale = dotsPerInch / 72
        let area = points.width * points.height * scale * scale
        if area > Double(limits.maxPixels) { scale *= (Double(limits.maxPixels) / area).squareRoot() }
        let width = Int32(points.width * scale)
        let height = Int32(points.height * scale)
        guard width > 0, height > 0 else { throw ScanError(.unreadable, "A page of the PDF has no size.") }
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height)
        defer { cairo_surface_destroy(surface) }
        let context = cairo_create(surface)
        cairo_set_source_rgb(context, 1, 1, 1)
        cairo_paint(context)
        cairo_scale(context, scale, scale)
        poppler_page_render_for_printing(page, context)
        cairo_destroy(context)
        cairo_surface_flush(surface)
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let pixels = cairo_image_surface_get_data(surface) else {
            throw ScanError(.unreadable, "A page of the PDF cannot be drawn.")
        }
        // Grey as a PGM file, which Leptonica reads: each RGB24 pixel is 32 bits, blue first in memory.
        let stride = Int(cairo_image_surface_get_stride(surface))
        var pgm = Array("P5\n\(width) \(height)\n255\n".utf8)
        pgm.reserveCapacity(pgm.count + Int(width) * Int(height))
        for row in 0..<Int(height) {
            let line = pixels + row * stride
            for column in 0..<Int(width) {
                let pixel = line + column * 4
                let grey = (Int(pixel[2]) * 299 + Int(pixel[1]) * 587 + Int(pixel[0]) * 114) / 1000
                pgm.append(UInt8(grey))
            }
        }
        guard let pix = pgm.withUnsafeBufferPointer({ pixReadMemPnm($0.baseAddress, $0.count) }) else {
            throw ScanError(.unreadable, "A page of the PDF cannot be drawn.")
        }
        return ScanImage(owning: pix)
    }
}
