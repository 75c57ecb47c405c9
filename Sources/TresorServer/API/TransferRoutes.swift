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
        // why parsed first, thrown inside the read: a caller without a valid session hears 401
        // before anything about its request.
        let parsed = Result { () throws -> (key: String, transfer: TransferRequest, hash: String) in
            let key = try IdempotencyKey.validate(request.headers[.idempotencyKey])
            let transfer = try JSON.decode(TransferRequest.self, from: body)
            return (key, transfer, IdempotencyKey.requestHash(method: "POST", path: "/v1/transfers", body: body.readableBytesView))
        }
        let principal: Principal
        let found: [Account]
        if let transfer = try? parsed.get().transfer, let known = transfers.known.pair(transfer.fromAccount, transfer.toAccount) {
            principal = try await context.caller()
            found = known
        } else {
            let accountsQuery = (try? parsed.get()).map { Ledger.accountsQuery([$0.transfer.fromAccount, $0.transfer.toAccount]) }
            (principal, found) = try await context.readAsCaller(joining: accountsQuery) { _, rows, _ in
                _ = try parsed.get()
                return Ledger.accounts(from: rows)
            }
            transfers.known.keep(found)
        }
        let (key, transfer, hash) = try parsed.get()
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
