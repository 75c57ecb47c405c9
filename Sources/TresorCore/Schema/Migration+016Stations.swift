extension Migration {
    /// Self-service stations in branch lobbies, the pairing codes they show (kept hashed, each
    /// used once) and the visits a paired device opens on a station; and the customer's
    /// language and notification settings (messages are written in the customer's language).
    static let m016Stations = Migration(
        version: 16, name: "stations",
        statements: [
            """
            CREATE TABLE stations (id %PK%, branch_id BIGINT NOT NULL REFERENCES branches(id), name TEXT NOT NULL, \
            key_hash TEXT NOT NULL UNIQUE, created_by TEXT NOT NULL, created_at_ms BIGINT NOT NULL, retired_at_ms BIGINT)
            """,
            """
            CREATE TABLE station_codes (code_hash TEXT PRIMARY KEY, station_id BIGINT NOT NULL REFERENCES stations(id), \
            expires_at_ms BIGINT NOT NULL, used_at_ms BIGINT)
            """,
            "CREATE INDEX station_codes_station ON station_codes (station_id, expires_at_ms)",
            """
            CREATE TABLE station_visits (id %PK%, station_id BIGINT NOT NULL REFERENCES stations(id), \
            customer_id BIGINT NOT NULL REFERENCES customers(id), device_id BIGINT NOT NULL REFERENCES devices(id), \
            opened_at_ms BIGINT NOT NULL, expires_at_ms BIGINT NOT NULL, ended_at_ms BIGINT)
            """,
            "CREATE INDEX station_visits_station ON station_visits (station_id, id)",
            "ALTER TABLE customers ADD COLUMN language TEXT",
            "ALTER TABLE customers ADD COLUMN notify_muted TEXT NOT NULL DEFAULT ''",
            "ALTER TABLE customers ADD COLUMN notify_threshold_minor BIGINT NOT NULL DEFAULT 0",
            "ALTER TABLE messages ADD COLUMN quiet INTEGER NOT NULL DEFAULT 0",
        ])
}
