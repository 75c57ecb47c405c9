import Foundation
import TresorDomain

/// The clearing gateway of a provider that exchanges ISO 20022 files: camt.054 (.001.04 and
/// .001.08), pacs.008.001.08 and pain.002.001.10 come in, detected by their namespace and
/// validated against their XSD as they stream; pacs.004.001.09 goes out for returned credits.
public struct ISO20022FileGateway: ClearingGateway {
    /// The messages read, by the namespace their `Document` declares.
    static let readable = ["camt.054.001.04", "camt.054.001.08", "pacs.008.001.08", "pain.002.001.10"]
    static let namespacePrefix = "urn:iso:std:iso:20022:tech:xsd:"
    /// Nodes read between two hand-overs of events. why: bounds what is held while booking waits.
    static let nodesPerStep = 16_384

    public init() {}

    public func read(_ delivery: URL, limits: ClearingLimits, _ handle: ([ClearingEvent]) async throws -> Void) async throws
        -> ClearingMessage
    {
        let size = (try? FileManager.default.attributesOfItem(atPath: delivery.path)[.size] as? Int) ?? nil
        guard let size else { throw ClearingRefusal(.unreadable, "The file could not be read.") }
        guard size <= limits.fileBytesMax else {
            throw ClearingRefusal(.tooLarge, "The file has \(size) bytes; a clearing file has at most \(limits.fileBytesMax).")
        }
        let kind = try Self.kind(of: delivery)
        let parser: any MessageParser =
            switch kind {
            case "pacs.008.001.08": Pacs008Parser()
            case "pain.002.001.10": Pain002Parser()
            default: Camt054Parser()
            }
        let reader = try ISO20022Reader(file: delivery, schema: try ISO20022Schema.of(kind))
        var events: [ClearingEvent] = []
        var more = true
        while more {
            more = try reader.read(nodes: Self.nodesPerStep) { event in try parser.take(event, from: reader, into: &events) }
            if !more { try parser.finish(line: reader.line) }
            if !events.isEmpty {
                try await handle(events)
                events.removeAll(keepingCapacity: true)
            }
        }
        return ClearingMessage(kind: kind, messageID: parser.messageID, passedOver: (parser as? Camt054Parser)?.passedOver ?? 0)
    }

    /// The message `file` holds, by its root's namespace; one not read here is refused.
    static func kind(of file: URL) throws -> String {
        let namespace = try ISO20022Reader(file: file, schema: nil).rootNamespace()
        guard let namespace, namespace.hasPrefix(namespacePrefix) else {
            throw ClearingRefusal(
                .unknownMessage, line: 1, path: "Document",
                "The file is not an ISO 20022 message (its root's namespace is \(namespace.map { "\"\($0)\"" } ?? "none")).")
        }
        let kind = String(namespace.dropFirst(namespacePrefix.count))
        guard readable.contains(kind) else {
            throw ClearingRefusal(
                .unknownMessage, line: 1, path: "Document",
                "\(kind) is not a message Tresor reads; it reads \(readable.joined(separator: ", ")).")
        }
        return kind
    }

    public func returnsDocument(_ returns: [CreditReturn], messageID: String, createdAt: Date, bank: BankProfile) -> ClearingDocument {
        ClearingDocument(
            kind: "pacs.004.001.09", messageID: messageID,
            text: Pacs004Document(messageID: messageID, createdAt: createdAt, bank: bank, returns: returns).xml)
    }
}
