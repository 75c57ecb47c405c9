extension Migration {
    /// The browsers each customer logged in from (a random id in a long-lived cookie, kept
    /// hashed): a login from one not seen before tells the customer at once.
    static let m032KnownBrowsers = Migration(
        version: 32, name: "known browsers",
        statements: [
            """
            CREATE TABLE known_browsers (customer_id BIGINT NOT NULL REFERENCES customers(id), browser_hash TEXT NOT NULL, \
            label TEXT NOT NULL, first_at_ms BIGINT NOT NULL, last_at_ms BIGINT NOT NULL, PRIMARY KEY (customer_id, browser_hash))
            """
        ])
}
