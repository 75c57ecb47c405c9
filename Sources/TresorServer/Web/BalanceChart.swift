import TresorDomain

/// An inline SVG line chart of a balance history, drawn by the server: no script, no canvas,
/// readable by screen readers through its title and description.
enum BalanceChart {
    static let width = 320
    static let height = 120

    static func svg(points: [(date: LocalDate, minor: Int64)], title: String, description: String) -> String {
        guard points.count >= 2 else { return "" }
        let values = points.map(\.minor)
        let low = min(values.min()!, 0)
        let high = max(values.max()!, low + 1)
        let stepX = Double(width - 8) / Double(points.count - 1)
        let coordinates = points.enumerated().map { index, point -> String in
            let x = 4 + Double(index) * stepX
            let y = 4 + Double(height - 8) * (1 - Double(point.minor - low) / Double(high - low))
            return "\(Int(x.rounded())),\(Int(y.rounded()))"
        }
        let zeroY = 4 + Int((Double(height - 8) * (1 - Double(0 - low) / Double(high - low))).rounded())
        return """
            <svg class="chart" viewBox="0 0 \(width) \(height)" role="img" aria-labelledby="chart-title chart-desc" xmlns="http://www.w3.org/2000/svg">\
            <title id="chart-title">\(escape(title))</title><desc id="chart-desc">\(escape(description))</desc>\
            <line class="chart-zero" x1="0" y1="\(zeroY)" x2="\(width)" y2="\(zeroY)"/>\
            <polyline class="chart-line" points="\(coordinates.joined(separator: " "))"/></svg>
            """
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }
}
