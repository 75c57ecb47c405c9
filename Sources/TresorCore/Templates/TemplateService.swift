import Foundation
import TresorDomain
import TresorLedger

public struct TemplateFolder: Sendable, Hashable {
    public let id: FolderID
    public let name: String
}

/// A saved payment without a date, to pay again in a few taps.
public struct PaymentTemplate: Sendable, Hashable {
    public let id: TemplateID
    public let name: String
    public let folderID: FolderID?
    public let request: PaymentRequest
}

/// Template folders (one level, no sub-folders) and templates of one customer.
public struct TemplateService: Sendable {
    let database: any SQLDatabase
    let clock: any Clock

    public static let nameLengthMax = 60
    /// why: a list a person can scroll; beyond this a customer needs folders, not more rows.
    public static let templatesMax = 500
    public static let foldersMax = 50

    static func validName(_ name: String, field: String = "name") throws -> String {
        let trimmed = String(name.trimmingCharacters(in: .whitespaces))
        guard !trimmed.isEmpty else { throw DomainError(.missingField, field: field, "Enter a name.") }
        try TextLength.check(trimmed, field: field, max: nameLengthMax)
        return trimmed
    }

    // MARK: folders

    public func createFolder(named name: String, for customer: CustomerID) async throws -> TemplateFolder {
        let name = try Self.validName(name)
        let now = clock.unixMillis
        return try await database.transaction { session in
            let count = try await session.queryOne(SQL("SELECT COUNT(*) FROM template_folders WHERE customer_id = ?", [.int(customer.rawValue)]))!
            guard count.int(0) < Self.foldersMax else {
                throw DomainError(.invalidParameter, field: "name", "At most \(Self.foldersMax) folders.")
            }
            guard
                let row = try await session.queryOne(
                    SQL(
                        "INSERT INTO template_folders (customer_id, name, created_at_ms) VALUES (?, ?, ?) ON CONFLICT DO NOTHING RETURNING id",
                        [.int(customer.rawValue), .text(name), .int(now)]))
            else { throw DomainError(.nameTaken, field: "name", "You already have a folder with this name.") }
            return TemplateFolder(id: FolderID(row.int(0)), name: name)
        }
    }

    public func folders(of customer: CustomerID) async throws -> [TemplateFolder] {
        try await database.read { session in
            try await session.query(SQL("SELECT id, name FROM template_folders WHERE customer_id = ? ORDER BY name", [.int(customer.rawValue)]))
                .map { TemplateFolder(id: FolderID($0.int(0)), name: $0.text(1)) }
        }
    }

    public func renameFolder(_ id: FolderID, to name: String, for customer: CustomerID) async throws -> TemplateFolder {
        let name = try Self.validName(name)
        return try await database.transaction { session in
            try await Self.requireFolder(id, of: customer, in: session)
            let clash = try await session.queryOne(
                SQL(
                    "SELECT id FROM template_folders WHERE customer_id = ? AND name = ? AND id <> ?",
                    [.int(customer.rawValue), .text(name), .int(id.rawValue)]))
            guard clash == nil else { throw DomainError(.nameTaken, field: "name", "You already have a folder with this name.") }
            try await session.execute(SQL("UPDATE template_folders SET name = ? WHERE id = ?", [.text(name), .int(id.rawValue)]))
            return TemplateFolder(id: id, name: name)
        }
    }

    /// Deletes a folder; its templates move to the top level rather than disappear.
    public func deleteFolder(_ id: FolderID, for customer: CustomerID) async throws {
        try await database.transaction { session in
            try await Self.requireFolder(id, of: customer, in: session)
            try await session.execute(SQL("UPDATE templates SET folder_id = NULL WHERE folder_id = ?", [.int(id.rawValue)]))
            try await session.execute(SQL("DELETE FROM template_folders WHERE id = ?", [.int(id.rawValue)]))
        }
    }

    static func requireFolder(_ id: FolderID, of customer: CustomerID, in session: any SQLSession) async throws {
        let row = try await session.queryOne(
            SQL("SELECT id FROM template_folders WHERE id = ? AND customer_id = ?", [.int(id.rawValue), .int(customer.rawValue)]))
        guard row != nil else { throw DomainError(.notFound, field: "folder_id", "No such folder.") }
    }

    // MARK: templates

    /// Saves `request` (its date dropped) after checking it as a payment would be checked.
    public func create(named name: String, folder: FolderID?, request: PaymentRequest, for customer: CustomerID) async throws -> PaymentTemplate {
        let name = try Self.validName(name)
        var request = request
        request.executionDate = nil
        _ = try request.validated()
        let stored = Self.encode(request)
        let now = clock.unixMillis
        return try await database.transaction { [request] session in
            if let folder { try await Self.requireFolder(folder, of: customer, in: session) }
            let count = try await session.queryOne(SQL("SELECT COUNT(*) FROM templates WHERE customer_id = ?", [.int(customer.rawValue)]))!
            guard count.int(0) < Self.templatesMax else {
                throw DomainError(.invalidParameter, field: "name", "At most \(Self.templatesMax) templates.")
            }
            guard
                let row = try await session.queryOne(
                    SQL(
                        """
                        INSERT INTO templates (customer_id, folder_id, name, type, instruction, created_at_ms) VALUES (?, ?, ?, ?, ?, ?) \
                        ON CONFLICT DO NOTHING RETURNING id
                        """,
                        [.int(customer.rawValue), SQLValue(folder?.rawValue), .text(name), .text(request.type.rawValue), .text(stored), .int(now)]))
            else { throw DomainError(.nameTaken, field: "name", "You already have a template with this name.") }
            return PaymentTemplate(id: TemplateID(row.int(0)), name: name, folderID: folder, request: request)
        }
    }

    public func templates(of customer: CustomerID, folder: FolderID? = nil) async throws -> [PaymentTemplate] {
        let filter = folder.map { SQL(" AND folder_id = ?", [.int($0.rawValue)]) } ?? SQL("")
        return try await database.read { session in
            try await session.query(
                SQL(
                    "SELECT id, name, folder_id, instruction FROM templates WHERE customer_id = ?\(filter.text) ORDER BY name",
                    [.int(customer.rawValue)] + filter.binds)
            ).map(Self.template(from:))
        }
    }

    public func template(_ id: TemplateID, of customer: CustomerID) async throws -> PaymentTemplate {
        let row = try await database.read { session in
            try await session.queryOne(
                SQL(
                    "SELECT id, name, folder_id, instruction FROM templates WHERE id = ? AND customer_id = ?",
                    [.int(id.rawValue), .int(customer.rawValue)]))
        }
        guard let row else { throw DomainError(.notFound, field: "id", "No such template.") }
        return try Self.template(from: row)
    }

    /// Renames and/or moves a template; `folder: .some(nil)` moves it to the top level.
    public func update(_ id: TemplateID, name: String?, folder: FolderID??, for customer: CustomerID) async throws -> PaymentTemplate {
        let name = try name.map { try Self.validName($0) }
        _ = try await template(id, of: customer)
        try await database.transaction { session in
            if let name {
                let clash = try await session.queryOne(
                    SQL(
                        "SELECT id FROM templates WHERE customer_id = ? AND name = ? AND id <> ?",
                        [.int(customer.rawValue), .text(name), .int(id.rawValue)]))
                guard clash == nil else { throw DomainError(.nameTaken, field: "name", "You already have a template with this name.") }
                try await session.execute(SQL("UPDATE templates SET name = ? WHERE id = ?", [.text(name), .int(id.rawValue)]))
            }
            if let folder {
                if let folder { try await Self.requireFolder(folder, of: customer, in: session) }
                try await session.execute(SQL("UPDATE templates SET folder_id = ? WHERE id = ?", [SQLValue(folder?.rawValue), .int(id.rawValue)]))
            }
        }
        return try await template(id, of: customer)
    }

    public func delete(_ id: TemplateID, for customer: CustomerID) async throws {
        _ = try await template(id, of: customer)
        try await database.transaction { session in
            try await session.execute(
                SQL("DELETE FROM favorite_pins WHERE customer_id = ? AND item = ?", [.int(customer.rawValue), .text("template:\(id)")]))
            try await session.execute(SQL("DELETE FROM templates WHERE id = ?", [.int(id.rawValue)]))
        }
    }

    static func template(from row: SQLRow) throws -> PaymentTemplate {
        PaymentTemplate(
            id: TemplateID(row.int(0)), name: row.text(1), folderID: row.optionalInt(2).map(FolderID.init),
            request: try JSONDecoder().decode(PaymentRequest.self, from: Data(row.text(3).utf8)))
    }

    static func encode(_ request: PaymentRequest) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try! encoder.encode(request), as: UTF8.self)
    }
}
