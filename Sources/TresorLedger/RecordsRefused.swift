/// Thrown by a `BookingRecorder` that cannot write the records of some created bookings: a
/// key a service claims in its own table (a payment's idempotency key) was taken meanwhile by
/// another writer, or twice in the same batch. The transaction rolls back; the group committer
/// answers those bookings with their errors and writes the rest again, so a refused record
/// fails only its own booking, like a refused booking.
public struct RecordsRefused: Error {
    /// The error of each refused record, by its position in the `created` array the recorder
    /// was given.
    public let errors: [Int: any Error]

    public init(_ errors: [Int: any Error]) {
        precondition(!errors.isEmpty, "a refusal names at least one record")
        self.errors = errors
    }
}
