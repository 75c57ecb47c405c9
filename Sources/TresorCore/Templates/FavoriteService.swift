import Foundation
import TresorDomain
import TresorLedger

/// A favourite: a template or a payment type, for the big buttons on the home screen.
public struct Favorite: Sendable, Hashable {
    /// `template:12` or `type:qrbill`.
    public let item: String
    public let label: String
    public let pinned: Bool
    public let score: Double
    /// The payment type it pays with (a template's own). why: a screen shows the type's icon.
    public var type: PaymentType? = nil
}

/// Ranks what a customer uses to pay: recent uses weigh more than old ones, pinned items come
/// first in the customer's order.
public struct FavoriteService: Sendable {
    let database: any SQLDatabase
    let clock: any Clock

    /// The number of favourites shown.
    public static let count = 6
    /// A use loses half its weight every this many days. why 30: a monthly bill stays on top,
    /// a one-off payment fades within a season.
    public static let halfLifeDays = 30.0
    /// Uses considered per customer. why: bounds the work of a ranking.
    static let usesConsideredMax = 500
    public static let pinsMax = 6

    /// What one payment counts a use of: its type, and the template it came from.
    static func useItems(of type: PaymentType, template: TemplateID?) -> [String] {
        var items = ["type:\(type.rawValue)"]
        if let template { items.append("template:\(template)") }
        return items
    }

    static func recordUse(of type: PaymentType, template: TemplateID?, by customer: CustomerID, now: Int64, in session: any SQLSession)
        async throws
    {
        for item in useItems(of: type, template: template) {
            try await session.send(
                SQL(
                    "INSERT INTO payment_uses (customer_id, item, used_at_ms) VALUES (?, ?, ?)",
                    [.int(customer.rawValue), .text(item), .int(now)]))
        }
    }

    public func favorites(of customer: CustomerID) async throws -> [Favorite] {
        Array(try await ranked(of: customer, everything: false).prefix(Self.count))
    }

    /// Everything the customer could pin: the pinned items in their order, then every template
    /// and payment type, most used first (never used: in a fixed order). why: the screen that sorts the
    /// favourites offers what is not among the six as well.
    public func choices(of customer: CustomerID) async throws -> [Favorite] {
        try await ranked(of: customer, everything: true)
    }

    private func ranked(of customer: CustomerID, everything: Bool) async throws -> [Favorite] {
        let now = clock.unixMillis
        let (uses, pins, templates) = try await database.read { session in
            let uses = try await session.query(
                SQL(
                    "SELECT item, used_at_ms FROM payment_uses WHERE customer_id = ? ORDER BY used_at_ms DESC LIMIT ?",
                    [.int(customer.rawValue), .int(Int64(Self.usesConsideredMax))]))
            let pins = try await session.query(
                SQL("SELECT item FROM favorite_pins WHERE customer_id = ? ORDER BY position", [.int(customer.rawValue)]))
            let templates = try await session.query(SQL("SELECT id, name, type FROM templates WHERE customer_id = ?", [.int(customer.rawValue)]))
            let named = templates.map { row in ("template:\(row.int(0))", (name: row.text(1), type: PaymentType(rawValue: row.text(2)))) }
            return (uses, pins.map { $0.text(0) }, Dictionary(uniqueKeysWithValues: named))
        }
        var scores: [String: Double] = [:]
        for use in uses {
            let ageDays = Double(max(0, now - use.int(1))) / 86_400_000
            scores[use.text(0), default: 0] += pow(0.5, ageDays / Self.halfLifeDays)
        }
        if everything {
            for item in templates.keys { scores[item, default: 0] += 0 }
            for type in PaymentType.allCases { scores["type:\(type.rawValue)", default: 0] += 0 }
        }
        func label(_ item: String) -> (name: String, type: PaymentType?)? {
            if item.hasPrefix("template:") { return templates[item] }
            return PaymentType(rawValue: String(item.dropFirst("type:".count))).map { ($0.rawValue, $0) }
        }
        // Deleted templates drop out: only items with a label are shown.
        let pinned = pins.compactMap { item in
            label(item).map { Favorite(item: item, label: $0.name, pinned: true, score: scores[item] ?? 0, type: $0.type) }
        }
        let ranked = scores.filter { !pins.contains($0.key) }.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
            .compactMap { entry in
                label(entry.key).map { Favorite(item: entry.key, label: $0.name, pinned: false, score: entry.value, type: $0.type) }
            }
        return pinned + ranked
    }

    /// Replaces the customer's pinned favourites with `items`, in this order.
    public func pin(_ items: [String], for customer: CustomerID) async throws {
        guard items.count <= Self.pinsMax, Set(items).count == items.count else {
            throw DomainError(.invalidParameter, field: "items", "Pin at most \(Self.pinsMax) different favourites.")
        }
        let templates = try await database.read { session in
            try await session.query(SQL("SELECT id FROM templates WHERE customer_id = ?", [.int(customer.rawValue)])).map { "template:\($0.int(0))" }
        }
        for (index, item) in items.enumerated() {
            let known = templates.contains(item) || (item.hasPrefix("type:") && PaymentType(rawValue: String(item.dropFirst(5))) != nil)
            guard known else { throw DomainError(.invalidParameter, field: "items[\(index)]", "Not a template or payment type of yours.") }
        }
        try await database.transaction { session in
            try await session.execute(SQL("DELETE FROM favorite_pins WHERE customer_id = ?", [.int(customer.rawValue)]))
            for (position, item) in items.enumerated() {
                try await session.execute(
                    SQL(
                        "INSERT INTO favorite_pins (customer_id, item, position) VALUES (?, ?, ?)",
                        [.int(customer.rawValue), .text(item), .int(Int64(position))]))
            }
        }
    }
}
