import HTTPTypes
import Hummingbird
import TresorCore
import TresorDomain
import TresorLedger

/// `POST /v1/transfers`: an immediate transfer between two of the caller's accounts.
struct TransferRoutes {
    let transfers: TransferService

    /// why the accounts are read with the session: one read before the booking, not two (on
    /// PostgreSQL one checkout and round trip fewer for every transfer). Accounts named before
    /// are not read again (`KnownAccounts`): then only the session is, with other requests'.
    func create(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let body = try await JSON.body(request)
        // why parsed first, thrown after the session is looked up: a caller without a valid
        // session hears 401 before anything about its request.
        let parsed = Result { () throws -> (key: String, transfer: TransferRequest, hash: String) in
            let key = try IdempotencyKey.validate(request.headers[.idempotencyKey])
            let transfer = try JSON.decode(TransferRequest.self, from: body)
            return (key, transfer, IdempotencyKey.requestHash(method: "POST", path: "/v1/transfers", body: body.readableBytesView))
        }
        let (key, transfer, hash): (String, TransferRequest, String)
        switch parsed {
        case .failure(let error):
            _ = try await context.caller()
            throw error
        case .success(let request): (key, transfer, hash) = request
        }
        let principal: Principal
        let found: [Account]
        if let known = transfers.known.pair(transfer.fromAccount, transfer.toAccount) {
            principal = try await context.caller()
            found = known
        } else {
            let read = try await context.readJoined(Ledger.accountsQuery([transfer.fromAccount, transfer.toAccount]))
            (principal, found) = (read.principal, Ledger.accounts(from: read.rows))
            transfers.known.keep(found)
        }
        let outcome = try await transfers.transfer(transfer, by: principal, between: found, idempotencyKey: key, requestHash: hash)
        var response = JSON.response(writing: TransactionEnvelopeDTO(transaction: TransactionDTO(outcome.transaction)), status: .created)
        if case .replayed = outcome { response.headers[.idempotentReplayed] = "true" }
        return response
    }
}

extension HTTPField.Name {
    static let idempotencyKey = Self("Idempotency-Key")!
    static let idempotentReplayed = Self("Idempotent-Replayed")!
}
