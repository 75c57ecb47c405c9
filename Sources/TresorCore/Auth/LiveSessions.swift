import TresorLedger

/// Where sessions are read, and what makes one live at a moment (not idle longer than the
/// timeout): what the readers of many callers' sessions in one statement share
/// (`SessionLookups`, `JoinedReads`).
struct LiveSessions: Sendable {
    let database: any SQLDatabase
    let clock: any Clock
    let idleMillis: Int64

    init(database: any SQLDatabase, clock: any Clock, idleTimeoutSeconds: Int64) {
        self.database = database
        self.clock = clock
        idleMillis = idleTimeoutSeconds * 1000
    }

    /// Now, and the last-seen time a live session is past (`AuthService.sessionLookup`).
    func window() -> (now: Int64, idleCutoff: Int64) {
        let now = clock.unixMillis
        return (now, now - idleMillis)
    }
}
