import HTTPTypes
import Hummingbird
import TresorCore
import TresorDomain

/// `POST /v1/transfers`: an immediate transfer between two of the caller's accounts.
struct TransferRoutes {
    let transfers: TransferService

    func create(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let key = try IdempotencyKey.validate(request.headers[.idempotencyKey])
        let body = try await JSON.body(request)
        let transfer = try JSON.decode(TransferRequest.self, from: body)
        let hash = IdempotencyKey.requestHash(method: "POST", path: "/v1/transfers", body: body.readableBytesView)
        let outcome = try await transfers.transfer(transfer, by: principal, idempotencyKey: key, requestHash: hash)
        var response = JSON.response(writing: TransactionEnvelopeDTO(transaction: TransactionDTO(outcome.transaction)), status: .created)
        if case .replayed = outcome { response.headers[.idempotentReplayed] = "true" }
        return response
    }
}

extension HTTPField.Name {
    static let idempotencyKey = Self("Idempotency-Key")!
    static let idempotentReplayed = Self("Idempotent-Replayed")!
}
