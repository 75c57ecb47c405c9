import Testing

extension Trait where Self == TimeLimitTrait {
    /// The time limit of a test that waits for other tasks to reach a state (callers queued, a
    /// batch stuck): if they never do, the test fails instead of holding the run until CI stops
    /// it. why 3 minutes: under the whole suite, whose tests set up their stores in parallel, a
    /// PostgreSQL case that takes 1.3 s alone took 58 s on a machine at half speed, and 1 minute
    /// failed there.
    public static var hangLimit: Self { .timeLimit(.minutes(3)) }
}
