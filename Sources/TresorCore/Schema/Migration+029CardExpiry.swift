extension Migration {
    /// The last month a card account's card is valid (`YYYY-MM`, `Account.cardExpires`), shown on
    /// the card in the apps. Cards opened before it get the default validity from the day of the
    /// migration (`CardService.validYears`); a bank loads the real dates with `tresor cards renew
    /// --expires`. why the revision too: the accounts overview a server keeps is read again.
    static let m029CardExpiry = Migration(
        version: 29, name: "card expiry",
        statements: ["ALTER TABLE accounts ADD COLUMN card_expires TEXT"],
        postgresStatements: [
            """
            UPDATE accounts SET revision = revision + 1, card_expires = to_char(now() + interval '3 years', 'YYYY-MM') \
            WHERE kind = 'card' AND card_expires IS NULL
            """
        ],
        sqliteStatements: [
            """
            UPDATE accounts SET revision = revision + 1, card_expires = strftime('%Y-%m', 'now', '+3 years') \
            WHERE kind = 'card' AND card_expires IS NULL
            """
        ])
}
