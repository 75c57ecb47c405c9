import Foundation
import Hummingbird
import TresorCore
import TresorDocuments
import TresorDomain

/// Certificates: the catalogue, issuing one as a PDF with a verification code, the customer's
/// list, the public check of a code (and of a file against it), and staff's decisions on
/// account-opening requests.
struct CertificateRoutes {
    let services: Services
    let theme: WebTheme
    let languages: [String]

    struct CertificateDTO: Encodable {
        let id: String
        let type: String
        let code: String
        let sha256: String
        let createdAt: String
        let pdf: String

        init(_ certificate: IssuedCertificate) {
            id = String(certificate.id)
            type = certificate.type.rawValue
            code = certificate.code
            sha256 = certificate.sha256
            createdAt = Timestamp.iso(certificate.createdAtMillis)
            pdf = "/v1/certificates/\(certificate.id)/pdf"
        }

        enum CodingKeys: String, CodingKey {
            case id, type, code, sha256, pdf
            case createdAt = "created_at"
        }
    }

    func types(_ request: Request, context: TresorRequestContext) async throws -> Response {
        struct Field: Encodable {
            let name: String
            let kind: String
            let choices: [String]?
        }
        struct TypeDTO: Encodable {
            let type: String
            let fields: [Field]
        }
        let types = CertificateType.allCases.map { type in
            TypeDTO(
                type: type.rawValue, fields: type.fields.map { Field(name: $0.name, kind: $0.kind, choices: $0.choices.isEmpty ? nil : $0.choices) })
        }
        return try JSON.response(["types": types])
    }

    func issue(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        struct Input: Decodable {
            let type: String
            let fields: [String: String]?
            let language: String?
        }
        let input = try JSON.decode(Input.self, from: try await JSON.body(request))
        guard let type = CertificateType(rawValue: input.type) else {
            throw DomainError(
                .unknownCertificateType, field: "type", "type is one of \(CertificateType.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        let language = input.language ?? languages.first ?? "en"
        guard languages.contains(language) else {
            throw DomainError(.invalidParameter, field: "language", "language is one of \(languages.joined(separator: ", ")).")
        }
        let theme = theme
        let verifyURL = WebApp.verifyURL(request)
        let issued = try await services.certificates.issue(type, fields: input.fields ?? [:], language: language, for: principal) { content in
            CertificatePDF.render(
                content, branding: theme.documentBranding(bankName: content.bankName), language: language, verifyURL: verifyURL)
        }
        return try JSON.response(["certificate": CertificateDTO(issued)], status: .created)
    }

    func list(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        return try JSON.response(["certificates": try await services.certificates.list(of: principal).map(CertificateDTO.init)])
    }

    func pdf(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let (certificate, bytes) = try await services.certificates.pdf(try context.parameters.number("id", what: "certificate"), of: principal)
        return WebSupport.download(bytes, contentType: "application/pdf", fileName: "\(certificate.type.rawValue)-\(certificate.code).pdf")
    }

    /// Public: `GET` says what was issued under the code and its digest; `POST` with the file
    /// as the body says whether that file is the one issued.
    func verify(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let verification = try await services.certificates.verify(code: context.parameters.get("code") ?? "")
        struct Body: Encodable {
            let valid: Bool
            let type: String
            let bank: String
            let issuedAt: String
            let sha256: String
            let matches: Bool?
            let uploadedSHA256: String?
            enum CodingKeys: String, CodingKey {
                case valid, type, bank, sha256, matches
                case issuedAt = "issued_at"
                case uploadedSHA256 = "uploaded_sha256"
            }
        }
        var uploaded: String?
        if request.method == .post {
            var request = request
            let body = try await request.collectBody(upTo: Self.uploadBytesMax)
            uploaded = Hashing.sha256Hex(Data(buffer: body))
        }
        return try JSON.response(
            Body(
                valid: true, type: verification.type.rawValue, bank: verification.bankName,
                issuedAt: Timestamp.iso(verification.issuedAtMillis),
                sha256: verification.sha256, matches: uploaded.map { $0 == verification.sha256 }, uploadedSHA256: uploaded))
    }

    /// why: a certificate is one page; a larger upload is not one of ours.
    static let uploadBytesMax = 2 * 1024 * 1024

    // MARK: staff

    func accountRequests(_ request: Request, context: TresorRequestContext) async throws -> Response {
        _ = try context.requireStaff()
        struct RequestDTO: Encodable {
            let id: String
            let customer: String
            let kind: String
            let currency: String
            let status: String
        }
        let requests = try await services.certificates.accountRequests().map {
            RequestDTO(
                id: String($0.id), customer: String($0.customerID.rawValue), kind: $0.kind.rawValue, currency: $0.currency.code, status: $0.status)
        }
        return try JSON.response(["requests": requests])
    }

    func approve(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let staff = try context.requireStaff()
        let account = try await services.certificates.approve(request: try context.parameters.number("id", what: "request"), staff: staff)
        return try JSON.response(["account": AccountDTO(account)], status: .created)
    }

    func decline(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let staff = try context.requireStaff()
        struct Input: Decodable { let message: String }
        let input = try JSON.decode(Input.self, from: try await JSON.body(request))
        try await services.certificates.decline(request: try context.parameters.number("id", what: "request"), staff: staff, message: input.message)
        return try JSON.response(["declined": true])
    }
}
