extension Migration {
    /// Hits per rule, key and fixed window, shared by every instance on the database.
    static let m010RateLimits = Migration(
        version: 10, name: "rate_limits",
        statements: [
            "CREATE TABLE rate_limits (bucket TEXT NOT NULL, window_start_ms BIGINT NOT NULL, hits BIGINT NOT NULL, PRIMARY KEY (bucket, window_start_ms))",
            "CREATE INDEX rate_limits_window ON rate_limits (window_start_ms)",
        ])
}
