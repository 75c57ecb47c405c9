import Foundation
import Hummingbird
import TresorCore
import TresorDocuments
import TresorDomain

/// The customer lifecycle over the API: staff take a customer on, find one, issue a reset
/// letter (`/v1/staff/customers…`); the customer comes in with the letter's code
/// (`POST /v1/sessions/activation`, no session needed).
struct CustomerRoutes {
    let customers: CustomerService
    let bank: BankService
    let theme: WebTheme

    struct AddInput: Decodable {
        let name: String
        let birthDate: String
        let language: String
        let address: String?
        let email: String?
        let phone: String?
        let accounts: [String]?
        enum CodingKeys: String, CodingKey {
            case name, language, address, email, phone, accounts
            case birthDate = "birth_date"
        }
    }

    struct CustomerDTO: Encodable {
        let contract: String
        let name: String
        let birthDate: LocalDate?
        let language: String?
        let address: String?
        let email: String?
        let phone: String?
        enum CodingKeys: String, CodingKey {
            case contract, name, language, address, email, phone
            case birthDate = "birth_date"
        }
        init(_ record: CustomerRecord) {
            contract = record.contract
            name = record.name
            birthDate = record.birthDate
            language = record.language
            address = record.address
            email = record.email
            phone = record.phone
        }
    }

    /// The letter's code is in this answer and in its PDF, and stored nowhere else.
    struct LetterDTO: Encodable {
        let purpose: String
        let contract: String
        let code: String
        let expiresAt: String
        let pdf: String
        enum CodingKeys: String, CodingKey {
            case purpose, contract, code, pdf
            case expiresAt = "expires_at"
        }
    }

    /// `POST /v1/staff/customers` → 201 `{"customer", "accounts", "letter"}`.
    func add(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let staff = try context.requireStaff()
        let input = try JSON.decode(AddInput.self, from: try await JSON.body(request))
        let accounts = try AccountToOpen.parse(list: (input.accounts ?? ["current"]).joined(separator: ","))
        let new = NewCustomer(
            name: input.name, birthDate: try LocalDate(parsing: input.birthDate, field: "birth_date"), language: input.language,
            address: input.address, email: input.email, phone: input.phone, accounts: accounts)
        let onboarded = try await customers.add(new, staff: staff)
        struct Body: Encodable {
            let customer: CustomerDTO
            let accounts: [AccountDTO]
            let letter: LetterDTO
        }
        return try JSON.response(
            Body(
                customer: CustomerDTO(onboarded.record), accounts: onboarded.accounts.map(AccountDTO.init),
                letter: try await letter(onboarded.letter, request)),
            status: .created)
    }

    /// `GET /v1/staff/customers?name=…&birth_date=…` → `{"customers"}`.
    func find(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let staff = try context.requireStaff()
        let query = request.uri.queryParameters
        guard let name = query.get("name").map({ String($0) }), let born = query.get("birth_date").map({ String($0) }) else {
            throw DomainError(.missingField, field: query.get("name") == nil ? "name" : "birth_date", "Give the name and the birth date.")
        }
        let found = try await customers.find(name: name, birthDate: try LocalDate(parsing: born, field: "birth_date"), staff: staff)
        return try JSON.response(["customers": found.map { CustomerDTO($0) }])
    }

    /// `POST /v1/staff/customers/{contract}/reset-letter` → 201 `{"letter"}`.
    func reset(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let staff = try context.requireStaff()
        let contract = context.parameters.get("contract") ?? ""
        let issued = try await customers.issueResetLetter(contract: contract, staff: staff)
        return try JSON.response(["letter": try await letter(issued, request)], status: .created)
    }

    struct ActivationInput: Decodable {
        let contract: String
        let activationCode: String
        let password: String
        enum CodingKeys: String, CodingKey {
            case contract, password
            case activationCode = "activation_code"
        }
    }

    /// `POST /v1/sessions/activation` `{"contract", "activation_code", "password"}` → 201 session.
    func activate(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let input = try JSON.decode(ActivationInput.self, from: try await JSON.body(request))
        let grant = try await customers.activate(
            contract: input.contract, code: input.activationCode, password: input.password, address: context.address)
        return try DeviceRoutes.session(grant)
    }

    func letter(_ letter: LoginLetter, _ request: Request) async throws -> LetterDTO {
        let bankName = try await bank.foundedProfile().name
        let pdf = LoginLetterPDF.render(letter, branding: theme.documentBranding(bankName: bankName), webURL: WebApp.origin(request))
        return LetterDTO(
            purpose: letter.purpose.rawValue, contract: letter.contract, code: letter.code,
            expiresAt: ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(letter.expiresAtMillis) / 1000)),
            pdf: Data(pdf).base64EncodedString())
    }
}
