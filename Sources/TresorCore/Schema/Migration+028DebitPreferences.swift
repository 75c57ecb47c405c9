extension Migration {
    /// The account a customer pays from unless they choose another, and the amount from which
    /// each debit gets an advice in the inbox (`DebitPreferenceService`); NULL: none chosen, no
    /// advice. why columns of `customers`: one row per customer, read with the payer's other
    /// settings; nothing is removed, so an older instance keeps running beside a newer one.
    static let m028DebitPreferences = Migration(
        version: 28, name: "debit preferences",
        statements: [
            "ALTER TABLE customers ADD COLUMN default_debit_account_id BIGINT",
            "ALTER TABLE customers ADD COLUMN debit_advice_minor BIGINT",
        ])
}
