import Foundation
import Hummingbird
import NIOCore
import TresorCore
import TresorDomain
import TresorLedger

/// Staff's clearing desk (`/v1/staff/clearing/…`): import a file from the payment provider, the
/// credits held in suspense and those with a reference that failed its check, assigning one
/// to a customer's account or returning it to its bank (with the pacs.004 to send).
struct ClearingRoutes {
    let clearing: ClearingService

    /// Streams the request's body into a temporary file, at most `limits.fileBytesMax` bytes:
    /// a clearing file of any size is read from disk, never held in memory.
    static func spool(_ request: Request, limit: Int) async throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tresor-clearing-\(UUID().uuidString).xml")
        // why the result unread: a file not made fails the handle's opening just below.
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        do {
            var written = 0
            for try await chunk in request.body {
                written += chunk.readableBytes
                guard written <= limit else {
                    throw ClearingRefusal(.tooLarge, "The file has more than \(limit) bytes; a clearing file has at most \(limit).").domainError
                }
                try handle.write(contentsOf: Data(buffer: chunk))
            }
            try handle.close()
            return url
        } catch {
            try? handle.close()
            try? FileManager.default.removeItem(at: url)
            throw error
        }
    }

    func importFile(_ request: Request, context: TresorRequestContext) async throws -> Response {
        _ = try context.requireStaff()
        // why printable characters only: the name is kept in the books, and PostgreSQL refuses a NUL.
        let name =
            request.text("name").map {
                String(String.UnicodeScalarView($0.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }).prefix(200))
            }
            .flatMap { $0.isEmpty ? nil : $0 } ?? "upload.xml"
        let limits = ClearingLimits()
        let file = try await Self.spool(request, limit: limits.fileBytesMax)
        defer { try? FileManager.default.removeItem(at: file) }
        do {
            let report = try await clearing.importFile(file, name: name, limits: limits)
            return try JSON.response(["import": ImportDTO(report)], status: report.alreadyImported ? .ok : .created)
        } catch let refusal as ClearingRefusal {
            throw refusal.domainError
        }
    }

    func suspense(_ request: Request, context: TresorRequestContext) async throws -> Response {
        _ = try context.requireStaff()
        let flagged = try request.flag("flagged") ?? false
        let after = Int64(try request.integer("after", default: 0, range: 0...Int(Int32.max)))
        let limit = try request.integer("limit", default: 100, range: 1...1_000)
        let credits = try await clearing.credits(suspense: !flagged, flagged: flagged, after: after, limit: limit)
        return try JSON.response(["credits": credits.map(CreditDTO.init)])
    }

    func show(_ request: Request, context: TresorRequestContext) async throws -> Response {
        _ = try context.requireStaff()
        guard let credit = try await clearing.credit(try context.parameters.number("id", what: "credit")) else {
            throw DomainError(.notFound, field: "id", "No such credit.")
        }
        return try JSON.response(["credit": CreditDTO(credit)])
    }

    func assign(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let staff = try context.requireStaff()
        struct Input: Decodable { let account: AccountID }
        let id = try context.parameters.number("id", what: "credit")
        let input = try JSON.decode(Input.self, from: try await JSON.body(request))
        let credit = try await clearing.assign(id, to: input.account, staff: staff)
        return try JSON.response(["credit": CreditDTO(credit)])
    }

    func returnCredit(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let staff = try context.requireStaff()
        struct Input: Decodable { let reason: String }
        let id = try context.parameters.number("id", what: "credit")
        let input = try JSON.decode(Input.self, from: try await JSON.body(request))
        let document = try await clearing.returnCredit(id, reason: input.reason, staff: staff)
        struct DocumentDTO: Encodable {
            let kind: String
            let messageID: String
            let href: String
            enum CodingKeys: String, CodingKey {
                case kind, href
                case messageID = "message_id"
            }
        }
        return try JSON.response(
            ["document": DocumentDTO(kind: document.kind, messageID: document.messageID, href: "/v1/staff/clearing/documents/\(document.messageID)")],
            status: .created)
    }

    func document(_ request: Request, context: TresorRequestContext) async throws -> Response {
        _ = try context.requireStaff()
        guard let id = context.parameters.get("id"), id.count <= 35, let document = try await clearing.document(messageID: id) else {
            throw DomainError(.notFound, field: "id", "No such document.")
        }
        var headers = HTTPFields()
        headers[.contentType] = "application/xml; charset=utf-8"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: document.text)))
    }
}

/// What an import did, for staff.
struct ImportDTO: Encodable {
    let file: String
    let message: String?
    let messageID: String?
    let alreadyImported: Bool
    let booked: Int
    let suspense: Int
    let known: Int
    let flagged: Int
    let passedOver: Int
    let invoicesPaid: Int
    let settled: Int
    let returned: [String]
    let unknownStatuses: [String]

    init(_ report: ClearingService.ImportReport) {
        file = report.file
        message = report.message?.kind
        messageID = report.message?.messageID
        alreadyImported = report.alreadyImported
        booked = report.bookedCount
        suspense = report.suspenseCount
        known = report.known
        flagged = report.flagged
        passedOver = report.message?.passedOver ?? 0
        invoicesPaid = report.invoicesPaid
        settled = report.settled
        returned = report.returned.map(String.init)
        unknownStatuses = report.unknownStatuses
    }

    enum CodingKeys: String, CodingKey {
        case file, message, booked, suspense, known, flagged, settled, returned
        case messageID = "message_id"
        case alreadyImported = "already_imported"
        case passedOver = "passed_over"
        case invoicesPaid = "invoices_paid"
        case unknownStatuses = "unknown_statuses"
    }
}

/// A credit from another bank as staff see it.
struct CreditDTO: Encodable {
    let id: String
    let amount: Money
    let status: String
    let suspenseReason: String?
    let creditorAccount: String?
    let debtor: PartyDTO
    let reference: CreditReferenceDTO?
    let message: String?
    let endToEndID: String?
    let uetr: String?
    let entryReference: String?
    let bookingDate: LocalDate
    let valueDate: LocalDate
    let file: String
    let resolvedBy: String?

    init(_ credit: ClearingCredit) {
        id = String(credit.id)
        amount = credit.amount
        status = credit.status
        suspenseReason = credit.suspenseReason
        creditorAccount = credit.creditorAccount
        debtor = PartyDTO(name: credit.debtorName, address: credit.debtorAddress, iban: credit.debtorIBAN)
        reference = credit.reference.map { CreditReferenceDTO($0, flag: credit.referenceFlag) }
        message = credit.message
        endToEndID = credit.endToEndID
        uetr = credit.uetr
        entryReference = credit.entryReference
        bookingDate = credit.bookingDate
        valueDate = credit.valueDate
        file = credit.file
        resolvedBy = credit.resolvedBy
    }

    enum CodingKeys: String, CodingKey {
        case id, amount, status, debtor, reference, message, uetr, file
        case suspenseReason = "suspense_reason"
        case creditorAccount = "creditor_account"
        case endToEndID = "end_to_end_id"
        case entryReference = "entry_reference"
        case bookingDate = "booking_date"
        case valueDate = "value_date"
        case resolvedBy = "resolved_by"
    }
}

struct PartyDTO: Encodable {
    let name: String?
    let address: [String]
    let iban: String?
}

struct CreditReferenceDTO: Encodable {
    let kind: String
    let value: String
    /// Whether its check digits hold.
    let valid: Bool

    init(_ reference: CreditReference, flag: String?) {
        kind = reference.kind.rawValue
        value = reference.value
        valid = flag == nil
    }
}
