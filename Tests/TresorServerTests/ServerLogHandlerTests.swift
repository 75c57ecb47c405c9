import Logging
import Testing

@testable import TresorServer

/// The server's log lines read as swift-log's `StreamLogHandler` wrote them, though the
/// metadata is rendered only when a line is written.
@Suite("Server log lines")
struct ServerLogHandlerTests {
    @Test("time, level, label, metadata sorted with the event's overriding the logger's, source, message")
    func line() {
        var handler = ServerLogHandler(label: "tresor")
        handler[metadataKey: "hb.request.id"] = "42"
        handler[metadataKey: "bank"] = "tresor"
        handler[metadataKey: "bank"] = "leman"
        let event = LogEvent(
            level: .warning, message: "slow booking", metadata: ["bank": "override", "ms": "12"], source: "TresorLedger", file: "f",
            function: "g", line: 1)
        #expect(
            handler.line(event, timestamp: "2026-11-24T10:00:00+0000")
                == "2026-11-24T10:00:00+0000 warning tresor: bank=override hb.request.id=42 ms=12 [TresorLedger] slow booking\n")
        #expect(handler[metadataKey: "bank"] == "leman")
    }

    @Test("no metadata: no blank before the source")
    func bare() {
        let handler = ServerLogHandler(label: "tresor")
        let event = LogEvent(level: .info, message: "listening", metadata: nil, source: "tresor", file: "f", function: "g", line: 1)
        #expect(handler.line(event, timestamp: "T") == "T info tresor: [tresor] listening\n")
    }

    @Test("the timestamp has the form StreamLogHandler writes")
    func timestamp() {
        let stamp = ServerLogHandler.timestamp()
        #expect(stamp.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4}/) != nil, "\(stamp)")
    }
}
