extension Migration {
    /// When a customer finished (or skipped) the web app's first-launch tour; NULL: not yet, so
    /// the overview shows it (`WelcomeTour`). Customers from before it see it once.
    static let m030WelcomeTour = Migration(
        version: 30, name: "welcome tour", statements: ["ALTER TABLE customers ADD COLUMN tour_seen_at_ms BIGINT"])
}
