/// What a bank's documents carry of its look: its name, its logo and its brand colour.
public struct DocumentBranding: Sendable {
    public var bankName: String
    public var logoSVG: String?
    /// `#rrggbb`
    public var brand: String

    public init(bankName: String, logoSVG: String?, brand: String) {
        self.bankName = bankName
        self.logoSVG = logoSVG
        self.brand = brand
    }
}

extension PDFCanvas {
    static let margin = 48.0
    static var contentWidth: Double { a4Width - 2 * margin }

    /// The bank's letterhead: logo and name on the left, the document's title on the right, a
    /// rule in the brand colour. Returns the y below it.
    func letterhead(_ branding: DocumentBranding, title: String) -> Double {
        let top = 36.0
        var nameX = Self.margin
        if let logo = branding.logoSVG, svg(logo, x: Self.margin, y: top, width: 40, height: 40) {
            nameX += 48
        }
        // why these widths: a long title ("Attestation d’intérêts et d’impôt") must fit beside the name.
        text(branding.bankName, x: nameX, y: top + 11, width: 190, style: Style(size: 13, bold: true))
        text(title, x: Self.a4Width - Self.margin - 290, y: top + 11, width: 290, style: Style(size: 13, bold: true, alignment: .right))
        rule(x: Self.margin, y: top + 50, width: Self.contentWidth, colour: Colour(hex: branding.brand), thickness: 2)
        return top + 62
    }

    /// The page footer: a left text and "page n of total" on the right.
    func footer(_ left: String, page: String) {
        let y = Self.a4Height - 34
        rule(x: Self.margin, y: y - 6, width: Self.contentWidth)
        text(left, x: Self.margin, y: y, width: 300, style: Style(size: 7.5, colour: .muted))
        text(page, x: Self.a4Width - Self.margin - 150, y: y, width: 150, style: Style(size: 7.5, colour: .muted, alignment: .right))
    }
}
