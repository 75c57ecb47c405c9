extension Migration {
    /// The customer's personal advisor (one of a branch's advisors, with a phone number) and the
    /// secure thread between them: what the customer writes and what staff answer for the advisor.
    static let m035AdvisorThread = Migration(
        version: 35, name: "advisor thread",
        statements: [
            "ALTER TABLE customers ADD COLUMN advisor_id BIGINT REFERENCES advisors(id)",
            "ALTER TABLE advisors ADD COLUMN phone TEXT",
            """
            CREATE TABLE advisor_messages (id %PK%, customer_id BIGINT NOT NULL REFERENCES customers(id), author TEXT NOT NULL, \
            body TEXT NOT NULL, created_at_ms BIGINT NOT NULL)
            """,
            "CREATE INDEX advisor_messages_customer ON advisor_messages (customer_id, id)",
        ])
}
