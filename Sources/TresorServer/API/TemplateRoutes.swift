import Hummingbird
import TresorCore
import TresorDomain

/// `/v1/template-folders` and `/v1/templates`, and paying from a template.
struct TemplateRoutes {
    let templates: TemplateService
    let payments: PaymentService

    struct FolderDTO: Encodable {
        let id: FolderID
        let name: String
        init(_ folder: TemplateFolder) {
            id = folder.id
            name = folder.name
        }
    }

    struct TemplateDTO: Encodable {
        let id: TemplateID
        let name: String
        let folderID: FolderID?
        let payment: PaymentRequest
        enum CodingKeys: String, CodingKey {
            case id, name
            case folderID = "folder_id"
            case payment
        }
        init(_ template: PaymentTemplate) {
            id = template.id
            name = template.name
            folderID = template.folderID
            payment = template.request
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(name, forKey: .name)
            try container.encode(folderID, forKey: .folderID)
            try container.encode(payment, forKey: .payment)
        }
    }

    struct NameInput: Decodable { let name: String }

    func createFolder(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let input = try JSON.decode(NameInput.self, from: try await JSON.body(request))
        struct Body: Encodable { let folder: FolderDTO }
        return try JSON.response(
            Body(folder: FolderDTO(try await templates.createFolder(named: input.name, for: principal.customerID))), status: .created)
    }

    func folders(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        struct Body: Encodable { let folders: [FolderDTO] }
        return try JSON.response(Body(folders: try await templates.folders(of: principal.customerID).map(FolderDTO.init)))
    }

    func renameFolder(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let input = try JSON.decode(NameInput.self, from: try await JSON.body(request))
        let folder = try await templates.renameFolder(try context.parameters.typedID(), to: input.name, for: principal.customerID)
        struct Body: Encodable { let folder: FolderDTO }
        return try JSON.response(Body(folder: FolderDTO(folder)))
    }

    func deleteFolder(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        try await templates.deleteFolder(try context.parameters.typedID(), for: principal.customerID)
        return Response(status: .noContent)
    }

    /// `{"name", "folder_id"?, "payment": {...}}` or `{"name", "folder_id"?, "from_payment": id}`.
    func create(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        struct Input: Decodable {
            let name: String
            let folderID: FolderID?
            let payment: PaymentRequest?
            let fromPayment: PaymentID?
            enum CodingKeys: String, CodingKey {
                case name
                case folderID = "folder_id"
                case payment
                case fromPayment = "from_payment"
            }
        }
        let input = try JSON.decode(Input.self, from: try await JSON.body(request))
        let paymentRequest: PaymentRequest
        if let source = input.fromPayment {
            paymentRequest = try await payments.repeatDraft(source, by: principal)
        } else if let payment = input.payment {
            paymentRequest = payment
        } else {
            throw DomainError(.missingField, field: "payment", "Send the payment to save, or from_payment.")
        }
        let template = try await templates.create(named: input.name, folder: input.folderID, request: paymentRequest, for: principal.customerID)
        struct Body: Encodable { let template: TemplateDTO }
        return try JSON.response(Body(template: TemplateDTO(template)), status: .created)
    }

    func list(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let folder = try request.uri.queryParameters.get("folder_id").map { text -> FolderID in
            guard let id = FolderID(text: text) else { throw DomainError(.invalidParameter, field: "folder_id", "Not a folder id.") }
            return id
        }
        struct Body: Encodable { let templates: [TemplateDTO] }
        return try JSON.response(Body(templates: try await templates.templates(of: principal.customerID, folder: folder).map(TemplateDTO.init)))
    }

    func show(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        struct Body: Encodable { let template: TemplateDTO }
        return try JSON.response(
            Body(template: TemplateDTO(try await templates.template(try context.parameters.typedID(), of: principal.customerID))))
    }

    /// `{"name"?, "folder_id"?}`; `"folder_id": null` moves the template to the top level.
    func update(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        struct Input: Decodable {
            let name: String?
            let folder: FolderID??
            enum CodingKeys: String, CodingKey {
                case name
                case folder = "folder_id"
            }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                name = try container.decodeIfPresent(String.self, forKey: .name)
                folder = container.contains(.folder) ? .some(try container.decodeIfPresent(FolderID.self, forKey: .folder)) : .none
            }
        }
        let input = try JSON.decode(Input.self, from: try await JSON.body(request))
        let template = try await templates.update(try context.parameters.typedID(), name: input.name, folder: input.folder, for: principal.customerID)
        struct Body: Encodable { let template: TemplateDTO }
        return try JSON.response(Body(template: TemplateDTO(template)))
    }

    func delete(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        try await templates.delete(try context.parameters.typedID(), for: principal.customerID)
        return Response(status: .noContent)
    }

    /// Creates a payment from a template; the body overrides `amount`, `execution_date`,
    /// `message` and `debtor_account`. Needs an `Idempotency-Key` like any payment.
    func pay(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let id: TemplateID = try context.parameters.typedID()
        // why the template first: another customer's id is 404 whatever else is wrong.
        let template = try await templates.template(id, of: principal.customerID)
        let key = try IdempotencyKey.validate(request.headers[.idempotencyKey])
        let body = try await JSON.body(request)
        struct Overrides: Decodable {
            let amount: Money?
            let executionDate: LocalDate?
            let message: String?
            let debtorAccount: AccountID?
            enum CodingKeys: String, CodingKey {
                case amount
                case executionDate = "execution_date"
                case message
                case debtorAccount = "debtor_account"
            }
        }
        let overrides = body.readableBytes == 0 ? nil : try JSON.decode(Overrides.self, from: body)
        var paymentRequest = template.request
        if let amount = overrides?.amount { paymentRequest.amount = amount }
        if let date = overrides?.executionDate { paymentRequest.executionDate = date }
        if let message = overrides?.message { paymentRequest.message = message }
        if let account = overrides?.debtorAccount { paymentRequest.debtorAccount = account }
        let hash = IdempotencyKey.requestHash(method: "POST", path: "/v1/templates/\(id)/payments", body: body.readableBytesView)
        let created = try await payments.create(paymentRequest, by: principal, idempotencyKey: key, requestHash: hash, templateID: id)
        var response = JSON.response(writing: PaymentRoutes.PaymentBody(payment: PaymentDTO(created.payment)), status: .created)
        if created.replayed { response.headers[.idempotentReplayed] = "true" }
        return response
    }
}

extension Parameters {
    /// A typed id from `{id}`; malformed is as unknown as missing (404).
    func typedID<Tag>() throws -> ID<Tag> {
        guard let text = get("id"), let id = ID<Tag>(text: text) else { throw DomainError(.notFound, field: "id", "Not found.") }
        return id
    }
}
