extension Migration {
    /// Certificates the bank issued (the PDF kept as issued, so its digest can be checked by a
    /// third party with the verification code printed on it) and requests to open an account,
    /// which staff approve.
    static let m014Certificates = Migration(
        version: 14, name: "certificates",
        statements: [
            """
            CREATE TABLE certificates (id %PK%, customer_id BIGINT NOT NULL REFERENCES customers(id), type TEXT NOT NULL, \
            fields TEXT NOT NULL, language TEXT NOT NULL, code TEXT NOT NULL UNIQUE, sha256 TEXT NOT NULL, pdf_base64 TEXT NOT NULL, \
            created_at_ms BIGINT NOT NULL)
            """,
            "CREATE INDEX certificates_customer ON certificates (customer_id, id)",
            """
            CREATE TABLE account_requests (id %PK%, customer_id BIGINT NOT NULL REFERENCES customers(id), \
            certificate_id BIGINT REFERENCES certificates(id), kind TEXT NOT NULL, currency TEXT NOT NULL, status TEXT NOT NULL, \
            account_id BIGINT REFERENCES accounts(id), decided_by TEXT, decided_at_ms BIGINT, created_at_ms BIGINT NOT NULL)
            """,
        ])
}
