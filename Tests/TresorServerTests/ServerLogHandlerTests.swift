import Foundation
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

    @Test("JSON: one object a line, time in UTC, request_id, numbers as numbers, text escaped, IBANs cut")
    func json() throws {
        var handler = ServerLogHandler(label: "tresor", format: .json)
        handler[metadataKey: "hb.request.id"] = "a1b2"
        let event = LogEvent(
            level: .info, message: "paid CH93 0076 2011 6238 5295 7 \"rent\"\nnext",
            metadata: ["status": .stringConvertible(201), "duration_ms": .stringConvertible(1.25), "route": "/v1/accounts/{id}"],
            source: "TresorServer", file: "f", function: "g", line: 1)
        let line = handler.jsonLine(event, time: Date(timeIntervalSince1970: 1_796_400_000.5))
        #expect(line.hasSuffix("}\n") && line.dropLast().contains("\n") == false, "\(line)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["time"] as? String == "2026-12-04T16:00:00.500Z")
        #expect(object["level"] as? String == "info")
        #expect(object["message"] as? String == "paid CH93…2957 \"rent\"\nnext")
        #expect(object["request_id"] as? String == "a1b2" && object["hb.request.id"] == nil)
        #expect(object["status"] as? Int == 201 && object["duration_ms"] as? Double == 1.25)
        #expect(object["route"] as? String == "/v1/accounts/{id}")
        #expect(ServerLogHandler.quoted("a\u{1}\tb") == "\"a\\u0001\\tb\"")
    }

    @Test("an IBAN is cut to country, check digits and the last four, spaced or not; other numbers stay")
    func redaction() {
        #expect(ServerLogHandler.redacted("to DE89370400440532013000 and CH56 0483 5012 3456 7800 9") == "to DE89…3000 and CH56…8009")
        #expect(ServerLogHandler.redacted("contract 10000012, 1234 5678") == "contract 10000012, 1234 5678")
    }

    @Test("a W3C traceparent is taken only well-formed: lower-case hex, four parts, no zero ids, no version ff")
    func traceparent() {
        #expect(AccessLogMiddleware.isTraceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"))
        for bad in [
            "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01", "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01", "00-4bf92f3577b34da6a3ce929d0e0e473\n-00f067aa0ba902b7-01",
        ] {
            #expect(!AccessLogMiddleware.isTraceparent(bad), "\(bad)")
        }
    }
}
