import Foundation
import Logging

/// Writes log lines to standard output: as swift-log's `StreamLogHandler` does (`text`, for a
/// person at a terminal), or one JSON object per line (`json`, for a log system: journald,
/// Loki, Elasticsearch). Either way the metadata is formatted only when a line is written, and
/// an IBAN in a message is cut to its country and last four characters.
///
/// why not `StreamLogHandler`: Hummingbird sets `hb.request.id` on every request's logger, and
/// `StreamLogHandler` re-renders its metadata string at each change (`perf` under `wrk`: 3 % of
/// the server's CPU on `GET /v1/accounts`) even when the level drops every line.
public struct ServerLogHandler: LogHandler {
    public enum Format: String, Sendable, CaseIterable {
        case text, json
    }

    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    public var logLevel: Logger.Level = .info
    let label: String
    let format: Format
    let file: LogFile?

    /// `file`: every line also appended there as JSON, whatever `format` says of standard output.
    public init(label: String, format: Format = .text, file: LogFile? = nil, metadataProvider: Logger.MetadataProvider? = nil) {
        self.label = label
        self.format = format
        self.file = file
        self.metadataProvider = metadataProvider
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let json = format == .json || file != nil ? jsonLine(event, time: Date()) : ""
        file?.append(json)
        // why: a terminal gets no access lines; they are for a log system (`AccessLogMiddleware`).
        if format == .text && event.metadata?["kind"] == "access" { return }
        let text = format == .json ? json : line(event, timestamp: Self.timestamp())
        // why one write: lines from several threads must not interleave.
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// The handler's, the provider's and the event's metadata, each overriding the one before.
    private func merged(_ event: LogEvent) -> Logger.Metadata {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let explicit = event.metadata { merged.merge(explicit) { _, new in new } }
        if let error = event.error { merged["error.message"] = "\(error)" }
        return merged
    }

    /// The line `StreamLogHandler` writes: time, level, label, the metadata sorted by key, source, message.
    func line(_ event: LogEvent, timestamp: String) -> String {
        let pretty = merged(event).sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.redacted("\($0.value)"))" }.joined(separator: " ")
        return "\(timestamp) \(event.level) \(label):\(pretty.isEmpty ? "" : " " + pretty) [\(event.source)] \(Self.redacted("\(event.message)"))\n"
    }

    /// `{"time","level","message", then the metadata sorted by key}`: Hummingbird's
    /// `hb.request.id` is `request_id`; whole numbers and fractions stay numbers.
    func jsonLine(_ event: LogEvent, time: Date) -> String {
        var members = [
            "\"time\":\"\(Self.utc(time))\"", "\"level\":\"\(event.level)\"", "\"message\":\(Self.quoted(Self.redacted("\(event.message)")))",
        ]
        for (key, value) in merged(event).sorted(by: { $0.key < $1.key }) {
            let name =
                switch key {
                case "hb.request.id": "request_id"
                case "error.message": "error_detail"
                default: key
                }
            members.append("\(Self.quoted(name)):\(Self.json(value))")
        }
        return "{" + members.joined(separator: ",") + "}\n"
    }

    private static func json(_ value: Logger.MetadataValue) -> String {
        switch value {
        case .stringConvertible(let number as Int): String(number)
        case .stringConvertible(let number as Int64): String(number)
        case .stringConvertible(let number as Double) where number.isFinite: "\(number)"
        case .array(let values): "[" + values.map(json).joined(separator: ",") + "]"
        case .dictionary(let values):
            "{" + values.sorted { $0.key < $1.key }.map { "\(quoted($0.key)):\(json($0.value))" }.joined(separator: ",") + "}"
        default: quoted(redacted("\(value)"))
        }
    }

    /// `text` as a JSON string: quotes, backslashes and control characters escaped (as in the API's answers).
    static func quoted(_ text: String) -> String {
        var writer = JSONWriter(capacity: text.utf8.count + 2)
        writer.appendString(text)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// An IBAN in a line (CH93 0076 2011 6238 5295 7, spaced or not) as `CH93…2957`: enough for
    /// an operator to tell accounts apart, not enough to pay one.
    static func redacted(_ text: String) -> String {
        guard text.contains(where: \.isNumber) else { return text }
        return text.replacing(iban) { match in
            let compact = match.output.filter { !$0.isWhitespace }
            return "\(compact.prefix(4))…\(compact.suffix(4))"
        }
    }

    nonisolated(unsafe) private static let iban = /\b[A-Z]{2}[0-9]{2}(?: ?[A-Z0-9]){11,30}\b/

    static func utc(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        var buffer = [Int8](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A file log lines are appended to (`tresor serve --log-file`), opened once with `O_APPEND`:
/// each line is one `write`, so lines of several threads, or of several servers sharing the
/// file, never interleave. A line that cannot be written is dropped, never the request.
public final class LogFile: Sendable {
    private let descriptor: Int32

    public init(path: String) throws {
        descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o640)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path]) }
    }

    deinit { close(descriptor) }

    func append(_ line: String) {
        var bytes = Array(line.utf8)
        _ = bytes.withUnsafeMutableBytes { write(descriptor, $0.baseAddress, $0.count) }
    }
}
