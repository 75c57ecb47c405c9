import TresorDomain
import TresorLedger

/// The few figures a bank's staff tune without a release, kept in its database: the margin on
/// banknotes per currency and the share of income a loan instalment may take.
public struct BankSettings: Sendable {
    let database: any SQLDatabase

    public init(database: any SQLDatabase) { self.database = database }

    /// Default margin on banknotes over the reference rate: 2.50 %.
    public static let defaultCashMarginBasisPoints = 250
    /// Default share of monthly income a loan instalment may take: 33.00 %.
    public static let defaultAffordableShareBasisPoints = 3300

    public func cashMarginBasisPoints(_ currency: Currency) async throws -> Int {
        if let specific = try await integer("fx.cash_margin_bp.\(currency.code)") { return specific }
        return try await integer("fx.cash_margin_bp") ?? Self.defaultCashMarginBasisPoints
    }

    public func affordableShareBasisPoints() async throws -> Int {
        try await integer("loan.affordable_share_bp") ?? Self.defaultAffordableShareBasisPoints
    }

    /// The names staff may set, each a whole number of basis points 0…10000.
    public static func isKnown(_ name: String) -> Bool {
        name == "fx.cash_margin_bp" || name == "loan.affordable_share_bp"
            || (name.hasPrefix("fx.cash_margin_bp.") && Currency(code: String(name.dropFirst("fx.cash_margin_bp.".count))) != nil)
    }

    public func set(_ name: String, basisPoints: Int) async throws {
        guard Self.isKnown(name) else {
            throw DomainError(.invalidParameter, field: "name", "Known settings: fx.cash_margin_bp[.CCY], loan.affordable_share_bp.")
        }
        guard (0...10_000).contains(basisPoints) else { throw DomainError(.invalidParameter, field: "value", "Basis points are 0…10000.") }
        try await database.transaction { session in
            try await session.execute(SQL("DELETE FROM bank_settings WHERE name = ?", [.text(name)]))
            try await session.execute(SQL("INSERT INTO bank_settings (name, value) VALUES (?, ?)", [.text(name), .text(String(basisPoints))]))
        }
    }

    public func all() async throws -> [(name: String, value: String)] {
        try await database.read { session in
            try await session.query(SQL("SELECT name, value FROM bank_settings ORDER BY name")).map { ($0.text(0), $0.text(1)) }
        }
    }

    /// How many business days after its date a standing order short of funds is tried again
    /// (0 to 10; `StandingOrderService.defaultRetryDays` until set).
    public func setStandingOrderRetryDays(_ days: Int) async throws {
        guard (0...10).contains(days) else {
            throw DomainError(.invalidParameter, field: "days", "A standing order is tried again for 0 to 10 business days.")
        }
        try await database.transaction { session in
            try await session.execute(SQL("DELETE FROM bank_settings WHERE name = ?", [.text(Self.retryDaysName)]))
            try await session.execute(
                SQL("INSERT INTO bank_settings (name, value) VALUES (?, ?)", [.text(Self.retryDaysName), .text(String(days))]))
        }
    }

    static let retryDaysName = "standing_orders.retry_days"

    func integer(_ name: String) async throws -> Int? {
        try await database.read { session in
            try await session.queryOne(SQL("SELECT value FROM bank_settings WHERE name = ?", [.text(name)])).flatMap { Int($0.text(0)) }
        }
    }
}
