/// When the client's request that a piece of database work serves arrived at the server; nil
/// outside a request (the scheduler, a command). Bound by the server's outermost middleware.
///
/// why: a store with an answer deadline (`PostgresDatabase.answerDeadline`) counts it from here,
/// not from the statement's own start. A request waits behind others before its statement runs
/// (the session lookup of concurrent requests is one statement at a time, `SessionLookups`), and
/// with PostgreSQL frozen each wait took a whole deadline: one request answered 503 after 43 s
/// where its statement alone kept to 15.
public enum RequestArrival {
    @TaskLocal public static var instant: ContinuousClock.Instant?
}
