internal import CDocumentLibraries
import Foundation

/// A bank's SVG logo drawn by librsvg: into a PDF's letterhead, or onto a square PNG for the
/// installed app's icon.
public enum SVGImage {
    /// Draws the SVG into the box, proportions kept and centred (the SVG's own
    /// `preserveAspectRatio`). False when librsvg cannot read it; nothing is drawn then.
    static func draw(_ svg: String, on cairo: OpaquePointer, x: Double, y: Double, width: Double, height: Double) -> Bool {
        let bytes = Array(svg.utf8)
        var error: UnsafeMutablePointer<GError>?
        guard let handle = bytes.withUnsafeBufferPointer({ rsvg_handle_new_from_data($0.baseAddress, gsize($0.count), &error) }) else {
            if let error { g_error_free(error) }
            return false
        }
        defer { g_object_unref(UnsafeMutableRawPointer(handle)) }
        var viewport = RsvgRectangle(x: x, y: y, width: width, height: height)
        let drawn = rsvg_handle_render_document(handle, cairo, &viewport, &error) != 0
        if let error { g_error_free(error) }
        return drawn
    }

    /// A `size`×`size` PNG: a full square of `background` (the icon is maskable, so it must
    /// fill the square) with the SVG centred in its inner `share` (0.6 keeps it inside the 80 %
    /// safe zone whatever shape the launcher cuts). Nil when the SVG cannot be read.
    public static func iconPNG(svg: String, size: Int, background: String, share: Double = 0.6) -> [UInt8]? {
        precondition(size > 0 && size <= 2048 && share > 0 && share <= 1)
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(size), Int32(size)) else { return nil }
        defer { cairo_surface_destroy(surface) }
        guard let cairo = cairo_create(surface) else { return nil }
        defer { cairo_destroy(cairo) }
        let colour = PDFCanvas.Colour(hex: background)
        cairo_set_source_rgb(cairo, colour.red, colour.green, colour.blue)
        cairo_paint(cairo)
        let side = Double(size) * share
        let offset = (Double(size) - side) / 2
        guard draw(svg, on: cairo, x: offset, y: offset, width: side, height: side) else { return nil }
        return png(surface)
    }

    /// The surface as PNG bytes, through cairo's stream writer.
    static func png(_ surface: OpaquePointer) -> [UInt8]? {
        final class Sink { var bytes: [UInt8] = [] }
        let sink = Sink()
        let status = cairo_surface_write_to_png_stream(
            surface,
            { closure, data, length in
                guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
                Unmanaged<Sink>.fromOpaque(closure).takeUnretainedValue().bytes.append(
                    contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
                return CAIRO_STATUS_SUCCESS
            }, Unmanaged.passUnretained(sink).toOpaque())
        return withExtendedLifetime(sink) { status == CAIRO_STATUS_SUCCESS ? sink.bytes : nil }
    }
}
