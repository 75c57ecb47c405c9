internal import CDocumentLibraries
import Foundation

/// A PDF being drawn on A4 pages with cairo, its text set by Pango. Pango shapes and embeds the
/// font and writes the text so that it can be searched, copied and read back by `pdftotext`;
/// nothing here writes PDF syntax.
///
/// Coordinates are PDF points (1/72 inch) from the top left of the page. Not thread-safe: one
/// document is drawn by one task, start to finish.
final class PDFCanvas {
    static let a4Width = 595.276
    static let a4Height = 841.89

    /// Where cairo's output stream lands.
    private final class Sink {
        var bytes: [UInt8] = []
    }

    private let sink = Sink()
    private let surface: OpaquePointer
    private let cairo: OpaquePointer
    private var finished = false

    /// A document with the given metadata (shown by PDF viewers as title and author). why
    /// `created`: a statement's PDF says when the statement was made, and the same statement
    /// makes the same bytes however its lines were read; without it cairo takes the clock.
    init(title: String, author: String, created: Date? = nil) {
        let closure = Unmanaged.passUnretained(sink).toOpaque()
        surface = cairo_pdf_surface_create_for_stream(
            { closure, data, length in
                guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
                let sink = Unmanaged<Sink>.fromOpaque(closure).takeUnretainedValue()
                sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
                return CAIRO_STATUS_SUCCESS
            }, closure, Self.a4Width, Self.a4Height)
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, title)
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_AUTHOR, author)
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "Tresor")
        if let created {
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATE_DATE, created.ISO8601Format())
        }
        cairo = cairo_create(surface)
    }

    deinit {
        cairo_destroy(cairo)
        cairo_surface_destroy(surface)
    }

    /// Ends the current page and starts the next.
    func newPage() {
        cairo_show_page(cairo)
    }

    /// The bytes cairo has written since the last `take`: it writes a page when the next
    /// starts, so a long document leaves a page at a time.
    func take() -> [UInt8] {
        defer { sink.bytes.removeAll(keepingCapacity: true) }
        return sink.bytes
    }

    /// Ends the document and returns its bytes not yet taken.
    func finish() -> [UInt8] {
        precondition(!finished, "a PDF is finished once")
        finished = true
        cairo_surface_finish(surface)
        return take()
    }

    enum Alignment { case left, right, centre }

    struct Style {
        var size: Double = 9
        var bold = false
        var colour: Colour = .ink
        var alignment: Alignment = .left
    }

    /// `#rrggbb` as cairo's 0…1 channels.
    struct Colour {
        var red: Double
        var green: Double
        var blue: Double

        static let ink = Colour(hex: "#1a1f24")
        static let muted = Colour(hex: "#5b6670")
        static let rule = Colour(hex: "#c9d0d6")
        static let shade = Colour(hex: "#eef1f3")

        init(red: Double, green: Double, blue: Double) {
            self.red = red
            self.green = green
            self.blue = blue
        }

        init(hex: String) {
            let digits = Array(hex.dropFirst())
            let channel = { (index: Int) -> Double in
                guard digits.count == 6, let value = UInt8(String(digits[index..<index + 2]), radix: 16) else { return 0 }
                return Double(value) / 255
            }
            self.init(red: channel(0), green: channel(2), blue: channel(4))
        }
    }

    /// Sets `text` in a box `width` wide at (x, y); one line, ellipsised at the end when too long,
    /// unless `wrap` lets it take several. Returns the height used.
    @discardableResult
    func text(_ text: String, x: Double, y: Double, width: Double, style: Style = Style(), wrap: Bool = false) -> Double {
        let layout = pango_cairo_create_layout(cairo)!
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        let font = pango_font_description_from_string("DejaVu Sans")!
        defer { pango_font_description_free(font) }
        pango_font_description_set_absolute_size(font, style.size * Double(PANGO_SCALE))
        pango_font_description_set_weight(font, style.bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL)
        pango_layout_set_font_description(layout, font)
        pango_layout_set_width(layout, Int32(width * Double(PANGO_SCALE)))
        if wrap {
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        } else {
            pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
        }
        let alignment: PangoAlignment =
            switch style.alignment {
            case .left: PANGO_ALIGN_LEFT
            case .right: PANGO_ALIGN_RIGHT
            case .centre: PANGO_ALIGN_CENTER
            }
        pango_layout_set_alignment(layout, alignment)
        pango_layout_set_text(layout, text, -1)
        var logicalWidth: Int32 = 0
        var logicalHeight: Int32 = 0
        pango_layout_get_pixel_size(layout, &logicalWidth, &logicalHeight)
        cairo_set_source_rgb(cairo, style.colour.red, style.colour.green, style.colour.blue)
        cairo_move_to(cairo, x, y)
        pango_cairo_show_layout(cairo, layout)
        return Double(logicalHeight)
    }

    /// A filled rectangle.
    func fill(x: Double, y: Double, width: Double, height: Double, colour: Colour) {
        cairo_set_source_rgb(cairo, colour.red, colour.green, colour.blue)
        cairo_rectangle(cairo, x, y, width, height)
        cairo_fill(cairo)
    }

    /// A horizontal rule.
    func rule(x: Double, y: Double, width: Double, colour: Colour = .rule, thickness: Double = 0.6) {
        cairo_set_source_rgb(cairo, colour.red, colour.green, colour.blue)
        cairo_set_line_width(cairo, thickness)
        cairo_move_to(cairo, x, y)
        cairo_line_to(cairo, x + width, y)
        cairo_stroke(cairo)
    }

    /// Draws an SVG image into the box, keeping its proportions, aligned to the box's top left.
    /// Returns false (and draws nothing) when librsvg cannot read it.
    @discardableResult
    func svg(_ svg: String, x: Double, y: Double, width: Double, height: Double) -> Bool {
        SVGImage.draw(svg, on: cairo, x: x, y: y, width: width, height: height)
    }
}
