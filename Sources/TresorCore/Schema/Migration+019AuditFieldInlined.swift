extension Migration {
    /// PostgreSQL: `tresor_audit_field` (migration 17) declared STABLE, its body unchanged, so
    /// every hash it helps compute stays the same.
    ///
    /// why: a SQL function is inlined into the statement that calls it only when it is declared
    /// no stricter than its body, and `convert_to` is STABLE; declared IMMUTABLE it ran as a
    /// function call of its own, ten per audit entry. Once the server kept a generic plan (from
    /// the sixth run of a prepared statement) a payment's audit statement took 0.20–0.26 ms,
    /// against 0.06–0.08 ms inlined (EXPLAIN ANALYZE of the prepared statement, PostgreSQL 15);
    /// `tresor_book_set` calls it ten times for every audited booking.
    static let m019AuditFieldInlined = Migration(
        version: 19, name: "audit field inlined", statements: [],
        postgresStatements: [auditFieldFunction(declared: "STABLE")])
}
