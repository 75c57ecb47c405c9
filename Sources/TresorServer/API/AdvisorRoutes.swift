import Foundation
import Hummingbird
import TresorCore
import TresorDomain

/// The personal advisor and the secure thread: `GET /v1/advisor`, `GET|POST /v1/advisor/messages`
/// for the customer; `GET /v1/staff/conversations`, `GET /v1/staff/conversations/{contract}`,
/// `POST /v1/staff/conversations/{contract}/messages` for staff answering for the advisor.
struct AdvisorRoutes {
    let advisors: AdvisorService
    let resources: ResourceService

    /// The path of the advisor's photo in the current resource pack, if it holds one.
    static func photo(of advisor: Int64, in resources: ResourceService) async throws -> (path: String, bytes: Data)? {
        for path in AdvisorService.photoPaths(of: advisor) {
            if let bytes = try await resources.currentFile(path: path) { return (path, bytes) }
        }
        return nil
    }

    struct AdvisorDTO: Encodable {
        let id: String
        let name: String
        let phone: String?
        /// The photo's path in the bank's resource pack (`images/advisors/<id>.png`), if any.
        let photo: String?
        let branch: Branch

        struct Branch: Encodable {
            let id: String
            let name: String
            let town: String
        }

        init(_ advisor: AdvisorService.PersonalAdvisor, photo: String?) {
            id = String(advisor.id)
            name = advisor.name
            phone = advisor.phone
            self.photo = photo
            branch = Branch(id: String(advisor.branchID), name: advisor.branchName, town: advisor.branchTown)
        }
    }

    struct MessageDTO: Encodable {
        let id: String
        let from: String
        let staff: String?
        let body: String
        let at: String
        let attachment: AttachmentDTO?

        struct AttachmentDTO: Encodable {
            let name: String
            let type: String
        }

        init(_ message: AdvisorService.ThreadMessage) {
            id = String(message.id)
            from = message.fromCustomer ? "customer" : "advisor"
            staff = message.fromCustomer ? nil : String(message.author.dropFirst("staff:".count))
            body = message.body
            at = Timestamp.iso(message.atMillis)
            attachment = message.attachment.map { AttachmentDTO(name: $0.name, type: $0.type) }
        }
    }

    struct ConversationDTO: Encodable {
        let customer: String
        let name: String
        let contract: String?
        let advisor: String?
        let lastAt: String
        let waiting: Bool

        init(_ conversation: AdvisorService.Conversation) {
            customer = String(conversation.customerID.rawValue)
            name = conversation.customerName
            contract = conversation.contract
            advisor = conversation.advisorName
            lastAt = Timestamp.iso(conversation.lastAtMillis)
            waiting = conversation.waiting
        }

        enum CodingKeys: String, CodingKey {
            case customer, name, contract, advisor, waiting
            case lastAt = "last_at"
        }
    }

    struct Input: Decodable {
        let body: String
    }

    func show(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let advisor = try await advisors.advisor(of: principal.customerID)
        struct Body: Encodable { let advisor: AdvisorDTO? }
        guard let advisor else { return try JSON.response(Body(advisor: nil)) }
        return try JSON.response(Body(advisor: AdvisorDTO(advisor, photo: try await Self.photo(of: advisor.id, in: resources)?.path)))
    }

    func thread(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        return try JSON.response(["messages": try await advisors.thread(of: principal.customerID).map(MessageDTO.init)])
    }

    func write(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let input = try JSON.decode(Input.self, from: try await JSON.body(request))
        return try JSON.response(["message": MessageDTO(try await advisors.write(input.body, by: principal))], status: .created)
    }

    func writeWithFile(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let (file, fields) = try await AttachmentBody.read(request)
        guard let file else { throw DomainError(.missingField, field: "file", "The form has no file.") }
        let message = try await advisors.write(fields["body"] ?? "", attachment: file, by: principal)
        return try JSON.response(["message": MessageDTO(message)], status: .created)
    }

    func file(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let id = try context.parameters.number("id", what: "message")
        let file = try await advisors.attachment(of: id, customer: principal.customerID)
        return WebSupport.download(file.bytes, contentType: file.type, fileName: file.name, inline: true)
    }

    func staffFile(_ request: Request, context: TresorRequestContext) async throws -> Response {
        _ = try context.requireStaff()
        let customer = try await advisors.customerID(contract: context.parameters.get("contract") ?? "")
        let file = try await advisors.attachment(of: try context.parameters.number("id", what: "message"), customer: customer)
        return WebSupport.download(file.bytes, contentType: file.type, fileName: file.name, inline: true)
    }

    func answerWithFile(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let staff = try context.requireStaff()
        let contract = context.parameters.get("contract") ?? ""
        // why looked up before the body: an unknown contract is refused without taking in 10 MB.
        _ = try await advisors.customerID(contract: contract)
        let (file, fields) = try await AttachmentBody.read(request)
        guard let file else { throw DomainError(.missingField, field: "file", "The form has no file.") }
        let message = try await advisors.answer(contract: contract, body: fields["body"] ?? "", attachment: file, staff: staff)
        return try JSON.response(["message": MessageDTO(message)], status: .created)
    }

    func conversations(_ request: Request, context: TresorRequestContext) async throws -> Response {
        _ = try context.requireStaff()
        return try JSON.response(["conversations": try await advisors.conversations().map(ConversationDTO.init)])
    }

    func staffThread(_ request: Request, context: TresorRequestContext) async throws -> Response {
        _ = try context.requireStaff()
        let customer = try await advisors.customerID(contract: context.parameters.get("contract") ?? "")
        return try JSON.response(["messages": try await advisors.thread(of: customer).map(MessageDTO.init)])
    }

    func answer(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let staff = try context.requireStaff()
        let contract = context.parameters.get("contract") ?? ""
        _ = try await advisors.customerID(contract: contract)
        let input = try JSON.decode(Input.self, from: try await JSON.body(request))
        let message = try await advisors.answer(contract: contract, body: input.body, staff: staff)
        return try JSON.response(["message": MessageDTO(message)], status: .created)
    }
}
