import Foundation
import TresorCore
import TresorDocuments
import TresorDomain

/// A bank's look: its colours and logo, from a JSON file given to `tresor serve --theme`.
/// `{"brand": "#0b4f6c", "brand_contrast": "#ffffff", "logo_svg": "path/to/logo.svg"}`
public struct WebTheme: Sendable, Decodable {
    public var brand: String
    public var brandContrast: String
    /// The logo's SVG text, served as /static/logo.svg (same origin, so the CSP allows it).
    public var logoSVG: String?

    enum CodingKeys: String, CodingKey {
        case brand
        case brandContrast = "brand_contrast"
        case logoSVG = "logo_svg"
    }

    /// The demo bank's own look.
    public static let demo = WebTheme(brand: "#0b4f6c", brandContrast: "#ffffff", logoSVG: nil)

    public init(brand: String, brandContrast: String, logoSVG: String?) {
        self.brand = brand
        self.brandContrast = brandContrast
        self.logoSVG = logoSVG
    }

    /// Reads a theme file; the logo path is relative to the file. Colours must be `#rrggbb`.
    public static func load(path: String) throws -> WebTheme {
        let url = URL(fileURLWithPath: path)
        let data = try Data(contentsOf: url)
        let theme: WebTheme
        do { theme = try JSONDecoder().decode(WebTheme.self, from: data) } catch {
            throw ThemeError(message: "\(path): \(JSONFileFault(error, in: data).description)")
        }
        return try make(brand: theme.brand, brandContrast: theme.brandContrast, logoPath: theme.logoSVG, folder: url.deletingLastPathComponent())
    }

    /// The look a bank's configuration names; the logo path is relative to the configuration folder.
    public static func make(_ theme: BankConfig.Theme?, folder: URL) throws -> WebTheme {
        guard let theme else { return .demo }
        return try make(brand: theme.brand, brandContrast: theme.brandContrast, logoPath: theme.logoSVG, folder: folder)
    }

    static func make(brand: String, brandContrast: String, logoPath: String?, folder: URL) throws -> WebTheme {
        let color = /^#[0-9a-fA-F]{6}$/
        guard brand.wholeMatch(of: color) != nil, brandContrast.wholeMatch(of: color) != nil else {
            throw ThemeError(message: "brand and brand_contrast must be colours like #0b4f6c")
        }
        var theme = WebTheme(brand: brand, brandContrast: brandContrast, logoSVG: nil)
        if let logoPath {
            let text = try String(contentsOf: folder.appendingPathComponent(logoPath), encoding: .utf8)
            guard text.count <= 100_000, text.contains("<svg"), !text.lowercased().contains("<script") else {
                throw ThemeError(message: "the logo must be an SVG of at most 100 kB without scripts")
            }
            theme.logoSVG = text
        }
        return theme
    }

    /// The CSS variables that override the stylesheet's defaults.
    var css: String { ":root { --brand: \(brand); --brand-contrast: \(brandContrast); --accent-dark: \(Self.tint(brand)); }\n" }

    /// The brand colour lightened for text and lines on a dark background: 35 % of it over white
    /// (as `color-mix()` would, but as a plain hex every browser and audit tool reads).
    static func tint(_ hex: String) -> String {
        let digits = Array(hex.dropFirst())
        guard digits.count == 6 else { return "#8cc8e6" }
        let parts = stride(from: 0, to: 6, by: 2).map { Int(String(digits[$0..<$0 + 2]), radix: 16) ?? 0 }
        return "#"
            + parts.map { value in
                let mixed = (value * 35 + 255 * 65 + 50) / 100
                return (mixed < 16 ? "0" : "") + String(mixed, radix: 16)
            }.joined()
    }

    public struct ThemeError: Error, CustomStringConvertible {
        public let message: String
        public var description: String { "theme: \(message)" }
    }
}

extension WebTheme {
    /// What the bank's PDFs carry of this look (statements, certificates).
    public func documentBranding(bankName: String) -> DocumentBranding {
        DocumentBranding(bankName: bankName, logoSVG: logoSVG, brand: brand)
    }
}
