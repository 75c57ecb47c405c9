extension Migration {
    /// Login lockout, devices with their keys and PINs, one-time activation codes, device login
    /// challenges, and staff logins.
    static let m006Devices = Migration(
        version: 6, name: "devices",
        statements: [
            """
            CREATE TABLE login_failures (contract TEXT PRIMARY KEY, failures INTEGER NOT NULL, locked_until_ms BIGINT NOT NULL, \
            updated_at_ms BIGINT NOT NULL)
            """,
            """
            CREATE TABLE devices (id %PK%, customer_id BIGINT NOT NULL REFERENCES customers(id), name TEXT NOT NULL, \
            public_key TEXT NOT NULL, pin_hash TEXT, status TEXT NOT NULL, created_at_ms BIGINT NOT NULL, last_used_at_ms BIGINT)
            """,
            "CREATE INDEX devices_customer ON devices (customer_id)",
            """
            CREATE TABLE activation_codes (id %PK%, customer_id BIGINT NOT NULL REFERENCES customers(id), code_hash TEXT NOT NULL, \
            issued_by TEXT NOT NULL, attempts INTEGER NOT NULL, expires_at_ms BIGINT NOT NULL, used_at_ms BIGINT, created_at_ms BIGINT NOT NULL)
            """,
            "CREATE INDEX activation_codes_customer ON activation_codes (customer_id)",
            """
            CREATE TABLE device_challenges (nonce TEXT PRIMARY KEY, device_id BIGINT NOT NULL REFERENCES devices(id), \
            expires_at_ms BIGINT NOT NULL, used INTEGER NOT NULL)
            """,
            "ALTER TABLE sessions ADD COLUMN device_id BIGINT",
            """
            CREATE TABLE staff (name TEXT PRIMARY KEY, password_hash TEXT NOT NULL, created_at_ms BIGINT NOT NULL)
            """,
            """
            CREATE TABLE staff_sessions (token_hash TEXT PRIMARY KEY, staff_name TEXT NOT NULL REFERENCES staff(name), \
            created_at_ms BIGINT NOT NULL, expires_at_ms BIGINT NOT NULL, last_seen_ms BIGINT NOT NULL, revoked INTEGER NOT NULL DEFAULT 0)
            """,
        ])
}
