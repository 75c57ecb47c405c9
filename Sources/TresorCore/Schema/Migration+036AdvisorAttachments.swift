extension Migration {
    /// A file with a message of the advisor thread (a PDF, a photo): kept encrypted in the blob
    /// store as receipts are, named here with its type and the name it was sent with.
    static let m036AdvisorAttachments = Migration(
        version: 36, name: "advisor attachments",
        statements: [
            "ALTER TABLE advisor_messages ADD COLUMN attachment_hash TEXT",
            "ALTER TABLE advisor_messages ADD COLUMN attachment_type TEXT",
            "ALTER TABLE advisor_messages ADD COLUMN attachment_name TEXT",
        ])
}
