extension Migration {
    /// Customers made by the bank's staff (`tresor customers add`): what the branch records about
    /// them, and the one-time letters that let them in: the activation letter of a new customer
    /// and the reset letter of one who lost the password (only a code's SHA-256 is stored); and
    /// the second factors of a login (an authenticator app's TOTP secret, sealed as the signing
    /// seeds are, with the last time step used so a code works once).
    static let m023CustomerLifecycle = Migration(
        version: 23, name: "customer lifecycle",
        statements: [
            "ALTER TABLE customers ADD COLUMN birth_date TEXT",
            "ALTER TABLE customers ADD COLUMN email TEXT",
            "ALTER TABLE customers ADD COLUMN phone TEXT",
            "ALTER TABLE customers ADD COLUMN address TEXT",
            "ALTER TABLE customers ADD COLUMN created_by TEXT",
            "CREATE INDEX customers_birth_date ON customers (birth_date)",
            """
            CREATE TABLE login_letters (id %PK%, customer_id BIGINT NOT NULL REFERENCES customers(id), purpose TEXT NOT NULL, \
            code_hash TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, issued_by TEXT NOT NULL, expires_at_ms BIGINT NOT NULL, \
            used_at_ms BIGINT, created_at_ms BIGINT NOT NULL)
            """,
            "CREATE INDEX login_letters_customer ON login_letters (customer_id, id)",
            """
            CREATE TABLE second_factors (id %PK%, customer_id BIGINT NOT NULL REFERENCES customers(id), kind TEXT NOT NULL, \
            secret TEXT NOT NULL, status TEXT NOT NULL, last_step BIGINT NOT NULL DEFAULT 0, created_at_ms BIGINT NOT NULL, \
            confirmed_at_ms BIGINT)
            """,
            "CREATE INDEX second_factors_customer ON second_factors (customer_id, kind, status)",
            // Passkeys (WebAuthn): the credential's COSE key as the authenticator wrote it, its counter.
            """
            CREATE TABLE passkeys (id %PK%, customer_id BIGINT NOT NULL REFERENCES customers(id), credential_id TEXT NOT NULL UNIQUE, \
            rp_id TEXT NOT NULL, public_key TEXT NOT NULL, algorithm INTEGER NOT NULL, sign_count BIGINT NOT NULL, aaguid TEXT NOT NULL, name TEXT NOT NULL, \
            backup_eligible INTEGER NOT NULL, created_at_ms BIGINT NOT NULL, last_used_at_ms BIGINT)
            """,
            "CREATE INDEX passkeys_customer ON passkeys (customer_id, id)",
            """
            CREATE TABLE webauthn_challenges (challenge TEXT PRIMARY KEY, purpose TEXT NOT NULL, customer_id BIGINT, \
            expires_at_ms BIGINT NOT NULL, used_at_ms BIGINT)
            """,
            // The channel a session was opened on (web, app, api, xml), for "last login" after the next.
            "ALTER TABLE sessions ADD COLUMN channel TEXT",
        ])
}
