extension Migration {
    /// The position of the TAN list a password session was asked for as its second login
    /// factor (`SecondFactorService.tanPosition`), kept until it is answered; and the index the
    /// overview's "last login" reads (`AuthService.lastLogin`: a customer's sessions newest first),
    /// which otherwise sorted every session the customer ever opened on each view.
    static let m025TANLogin = Migration(
        version: 25, name: "tan login",
        statements: [
            "ALTER TABLE sessions ADD COLUMN tan_position INTEGER",
            "CREATE INDEX sessions_customer_created ON sessions (customer_id, created_at_ms)",
        ])
}
