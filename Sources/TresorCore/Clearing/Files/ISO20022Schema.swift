import CLibXML2
import Foundation
import Synchronization

/// An ISO 20022 message's XSD, compiled once and shared by every reading (libxml2 reads a
/// compiled schema without changing it, so validations on several threads may share it).
/// The schemas are the ISO's, kept in `Schemas/` with their sources (`Schemas/README.md`).
final class ISO20022Schema: @unchecked Sendable {
    let pointer: xmlSchemaPtr

    private init(pointer: xmlSchemaPtr) {
        self.pointer = pointer
    }

    deinit {
        xmlSchemaFree(pointer)
    }

    private static let compiled = Mutex<[String: ISO20022Schema]>([:])

    /// The schema of `message` (`camt.054.001.08`), compiled on first use.
    static func of(_ message: String) throws -> ISO20022Schema {
        try compiled.withLock { cache in
            if let schema = cache[message] { return schema }
            guard let url = Bundle.module.url(forResource: message, withExtension: "xsd", subdirectory: "Schemas") else {
                throw ClearingRefusal(.unknownMessage, "No schema for \(message) is kept.")
            }
            guard let context = xmlSchemaNewParserCtxt(url.path) else {
                throw ClearingRefusal(.unreadable, "The schema of \(message) could not be read.")
            }
            defer { xmlSchemaFreeParserCtxt(context) }
            guard let pointer = xmlSchemaParse(context) else {
                throw ClearingRefusal(.unreadable, "The schema of \(message) could not be compiled.")
            }
            let schema = ISO20022Schema(pointer: pointer)
            cache[message] = schema
            return schema
        }
    }

    /// The path of `message`'s XSD, for tests that validate what we write with xmllint too.
    static func url(of message: String) -> URL? {
        Bundle.module.url(forResource: message, withExtension: "xsd", subdirectory: "Schemas")
    }
}
