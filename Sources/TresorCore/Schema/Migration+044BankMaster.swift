extension Migration {
    /// SIX's Swiss bank master as an operator imported it (`tresor bank-master import`): each
    /// bank and branch by clearing number, with the postal account a red slip names it by.
    static let m044BankMaster = Migration(
        version: 44, name: "bank master",
        statements: [
            """
            CREATE TABLE bank_master (clearing INTEGER NOT NULL, branch_id TEXT NOT NULL, head_office INTEGER NOT NULL, \
            kind INTEGER NOT NULL, short_name TEXT NOT NULL, name TEXT NOT NULL, street TEXT NOT NULL, postal_address TEXT NOT NULL, \
            postal_code TEXT NOT NULL, town TEXT NOT NULL, country TEXT NOT NULL, postal_account TEXT, bic TEXT, \
            PRIMARY KEY (clearing, branch_id))%CLUSTERED%
            """,
            "CREATE INDEX bank_master_by_postal_account ON bank_master (postal_account) WHERE postal_account IS NOT NULL",
        ])
}
