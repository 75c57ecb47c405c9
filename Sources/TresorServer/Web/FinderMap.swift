import Foundation
import TresorCore
import TresorDomain

/// The finder's map, drawn by the server as inline SVG: no tile server is reachable from a
/// bank's network, and a map of numbered pins over the country's outline is what the finder
/// needs. Positions are projected equirectangularly around the middle latitude (distortion
/// under 1 % across Switzerland); the pins carry the list's numbers.
enum FinderMap {
    static let width = 340.0
    static let height = 240.0

    struct Pin {
        let number: Int
        let point: GeoPoint
        let isBranch: Bool
        let isOpen: Bool
        let label: String
        /// Where tapping a cluster this pin leads (the finder around the pin's town), or nil
        /// where it would show the same map again (a search's map already is zoomed in).
        var zoom: String?
    }

    /// A rough outline of Switzerland (clockwise from Basel), for orientation at country scale.
    static let outline: [(Double, Double)] = [
        (47.59, 7.59), (47.62, 8.10), (47.80, 8.63), (47.66, 9.18), (47.48, 9.56), (47.27, 9.53), (47.05, 9.48), (47.06, 9.88), (46.85, 10.47),
        (46.63, 10.45), (46.23, 10.16), (46.45, 9.46), (45.82, 9.03), (46.09, 8.70), (46.23, 8.10), (45.92, 7.04), (46.13, 5.96), (46.40, 6.08),
        (46.71, 6.37), (47.06, 6.75), (47.50, 6.99), (47.47, 7.45), (47.59, 7.59),
    ]

    static func svg(pins: [Pin], you: GeoPoint?, title: String, youLabel: String) -> String {
        let points = pins.map(\.point) + (you.map { [$0] } ?? [])
        // Country view without a position; else the box around the position and its pins.
        var minLat = 45.80
        var maxLat = 47.85
        var minLon = 5.90
        var maxLon = 10.55
        if you != nil, !points.isEmpty {
            minLat = points.map(\.latitude).min()!
            maxLat = points.map(\.latitude).max()!
            minLon = points.map(\.longitude).min()!
            maxLon = points.map(\.longitude).max()!
            let padLat = max((maxLat - minLat) * 0.15, 0.004)
            let padLon = max((maxLon - minLon) * 0.15, 0.006)
            (minLat, maxLat, minLon, maxLon) = (minLat - padLat, maxLat + padLat, minLon - padLon, maxLon + padLon)
        }
        let midLat = (minLat + maxLat) / 2
        let xScale = cos(midLat * .pi / 180)
        // Keep the aspect: metres per pixel equal along both axes.
        let spanX = (maxLon - minLon) * xScale
        let spanY = maxLat - minLat
        let scale = min((width - 24) / spanX, (height - 24) / spanY)
        let originX = (width - spanX * scale) / 2
        let originY = (height - spanY * scale) / 2
        func project(_ lat: Double, _ lon: Double) -> (Double, Double) {
            (originX + (lon - minLon) * xScale * scale, originY + (maxLat - lat) * scale)
        }
        var svg =
            "<svg class=\"map\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-labelledby=\"map-title\" xmlns=\"http://www.w3.org/2000/svg\">"
            + "<title id=\"map-title\">\(HTMLEscaping.escape(title))</title>"
            + "<rect class=\"map-sea\" x=\"0\" y=\"0\" width=\"\(Int(width))\" height=\"\(Int(height))\"/>"
        let outlinePoints = outline.map { project($0.0, $0.1) }.map { "\(f($0.0)),\(f($0.1))" }.joined(separator: " ")
        svg += "<polygon class=\"map-land\" points=\"\(outlinePoints)\"/>"
        // A scale bar: the round distance closest to a quarter of the width.
        let metresPerPixel = 111_195.0 / scale
        let target = metresPerPixel * width / 4
        let steps: [Double] = [100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000]
        let bar = steps.min { abs($0 - target) < abs($1 - target) }!
        let barPixels = bar / metresPerPixel
        svg += "<line class=\"map-scale\" x1=\"10\" y1=\"\(f(height - 10))\" x2=\"\(f(10 + barPixels))\" y2=\"\(f(height - 10))\"/>"
        svg += "<text class=\"map-text\" x=\"10\" y=\"\(f(height - 14))\">\(bar >= 1_000 ? "\(Int(bar / 1_000)) km" : "\(Int(bar)) m")</text>"
        if let you {
            let (x, y) = project(you.latitude, you.longitude)
            svg +=
                "<g class=\"map-you\"><title>\(HTMLEscaping.escape(youLabel))</title><circle cx=\"\(f(x))\" cy=\"\(f(y))\" r=\"11\" class=\"map-halo\"/>"
            svg += "<circle cx=\"\(f(x))\" cy=\"\(f(y))\" r=\"5\"/></g>"
        }
        let gathering = you == nil ? Gathering.country : .search
        let placed = pins.map { pin in
            let (x, y) = project(pin.point.latitude, pin.point.longitude)
            return Placed(pin: pin, x: x, y: y)
        }
        for group in groups(placed, near: gathering.near).reversed() {
            svg +=
                group.count > gathering.sideBySide
                ? cluster(group) : group.enumerated().map { pin($0.element.pin, at: spread($0.offset, of: group)) }.joined()
        }
        return svg + "</svg>"
    }

    /// How pins that would cover each other are drawn. On the country map, places nearer each
    /// other than a cluster's width are one cluster with their count, as map apps draw a city
    /// before one zooms in; a tap on it shows the finder around its town. On a search's map (a
    /// town's places), up to three pins at one spot (an ATM in its branch's lobby) stand side by
    /// side, more are a cluster. why: side by side, Zürich's dozen places on the country map ran
    /// in a row past the map's edge.
    struct Gathering {
        /// Pins nearer a group's first pin than this (in pixels, both ways) join the group.
        let near: Double
        /// Groups up to this size stand side by side; larger ones are a cluster.
        let sideBySide: Int

        /// A cluster is 24 px wide with its ring: clusters at first pins 24 px apart never touch.
        static let country = Gathering(near: 24, sideBySide: 1)
        static let search = Gathering(near: 16, sideBySide: 3)
    }

    /// A pin where the map projects it.
    struct Placed {
        let pin: Pin
        let x: Double
        let y: Double
    }

    /// The pins gathered where they would cover each other: each joins the first group whose
    /// first pin is `near`, in the list's order (nearest first).
    static func groups(_ placed: [Placed], near: Double) -> [[Placed]] {
        var groups: [[Placed]] = []
        for item in placed {
            if let index = groups.firstIndex(where: { abs($0[0].x - item.x) < near && abs($0[0].y - item.y) < near }) {
                groups[index].append(item)
            } else {
                groups.append([item])
            }
        }
        return groups
    }

    /// Where the `index`th pin of a small group stands: side by side around the group's first
    /// pin, inside the map.
    static func spread(_ index: Int, of group: [Placed]) -> (Double, Double) {
        let (x, y) = (group[0].x, group[0].y)
        let step = 17.0  // a pin's width and a pixel
        let left = min(max(x - step * Double(group.count - 1) / 2, 10), width - 10 - step * Double(group.count - 1))
        return (left + step * Double(index), y)
    }

    static func pin(_ pin: Pin, at point: (Double, Double)) -> String {
        let (x, y) = point
        let kind = pin.isBranch ? "map-branch" : "map-atm"
        let state = pin.isOpen ? "" : " map-closed"
        let mark =
            pin.isBranch
            ? "<rect x=\"\(f(x - 8))\" y=\"\(f(y - 8))\" width=\"16\" height=\"16\" rx=\"3\"/>"
            : "<circle cx=\"\(f(x))\" cy=\"\(f(y))\" r=\"8\"/>"
        return "<g class=\"\(kind)\(state)\"><title>\(pin.number). \(HTMLEscaping.escape(pin.label))</title>\(mark)"
            + "<text x=\"\(f(x))\" y=\"\(f(y + 3.5))\" text-anchor=\"middle\">\(pin.number)</text></g>"
    }

    /// One mark for many pins, at the first one's place (so two clusters never cover each other),
    /// with their count; its title names them, and a tap shows the finder around the first one's
    /// town.
    static func cluster(_ group: [Placed]) -> String {
        let (x, y) = (group[0].x, group[0].y)
        let names = group.map { "\($0.pin.number). \($0.pin.label)" }.joined(separator: ", ")
        let mark =
            "<title>\(HTMLEscaping.escape(names))</title><circle cx=\"\(f(x))\" cy=\"\(f(y))\" r=\"10\"/>"
            + "<text x=\"\(f(x))\" y=\"\(f(y + 4))\" text-anchor=\"middle\">\(group.count)</text>"
        guard let zoom = group[0].pin.zoom else { return "<g class=\"map-cluster\">\(mark)</g>" }
        return "<a class=\"map-cluster\" href=\"\(HTMLEscaping.escape(zoom))\">\(mark)</a>"
    }

    static func f(_ value: Double) -> String { String(format: "%.1f", value) }
}
