import TresorDomain

/// The balance history as an inline SVG drawn by the server: the line over a light area, a
/// dashed zero line when the balance went negative, the lowest and highest balance on the
/// y axis, month (or week) labels on the x axis and a dot on today's value. No script, no
/// canvas; screen readers get the title and description, and the page offers the same figures
/// as a table.
enum BalanceChart {
    static let width = 320
    static let height = 150
    static let left = 4.0
    static let right = 4.0
    static let top = 8.0
    static let bottom = 22.0

    static func svg(
        points: [(date: LocalDate, minor: Int64)], title: String, description: String, labels: [(index: Int, text: String)],
        axis: (low: String, high: String)
    )
        -> String
    {
        guard points.count >= 2 else { return "" }
        let values = points.map(\.minor)
        let low = min(values.min()!, 0)
        let high = max(values.max()!, low + 1)
        let plotWidth = Double(width) - left - right
        let plotHeight = Double(height) - top - bottom
        func x(_ index: Int) -> Double { left + Double(index) * plotWidth / Double(points.count - 1) }
        func y(_ minor: Int64) -> Double { top + plotHeight * (1 - Double(minor - low) / Double(high - low)) }
        func f(_ value: Double) -> String { String(Int(value.rounded())) }
        let line = points.enumerated().map { "\(f(x($0.offset))),\(f(y($0.element.minor)))" }.joined(separator: " ")
        let base = f(y(low))
        var svg = """
            <svg class="chart" viewBox="0 0 \(width) \(height)" role="img" aria-labelledby="chart-title chart-desc" xmlns="http://www.w3.org/2000/svg">\
            <title id="chart-title">\(HTMLEscaping.escape(title))</title><desc id="chart-desc">\(HTMLEscaping.escape(description))</desc>
            """
        svg += "<line class=\"chart-grid\" x1=\"0\" y1=\"\(f(top))\" x2=\"\(width)\" y2=\"\(f(top))\"/>"
        svg += "<line class=\"chart-grid\" x1=\"0\" y1=\"\(base)\" x2=\"\(width)\" y2=\"\(base)\"/>"
        svg += "<text class=\"chart-label\" x=\"\(f(left))\" y=\"\(f(top + 10))\">\(HTMLEscaping.escape(axis.high))</text>"
        svg += "<text class=\"chart-label\" x=\"\(f(left))\" y=\"\(f(y(low) - 4))\">\(HTMLEscaping.escape(axis.low))</text>"
        if low < 0 { svg += "<line class=\"chart-zero\" x1=\"0\" y1=\"\(f(y(0)))\" x2=\"\(width)\" y2=\"\(f(y(0)))\"/>" }
        svg += "<polygon class=\"chart-area\" points=\"\(f(x(0))),\(base) \(line) \(f(x(points.count - 1))),\(base)\"/>"
        svg += "<polyline class=\"chart-line\" points=\"\(line)\"/>"
        svg += "<circle class=\"chart-dot\" cx=\"\(f(x(points.count - 1)))\" cy=\"\(f(y(values.last!)))\" r=\"4\"/>"
        for label in labels {
            let anchor = label.index == 0 ? "start" : label.index == points.count - 1 ? "end" : "middle"
            svg +=
                "<text class=\"chart-label\" x=\"\(f(x(label.index)))\" y=\"\(height - 6)\" text-anchor=\"\(anchor)\">\(HTMLEscaping.escape(label.text))</text>"
        }
        return svg + "</svg>"
    }
}
