import Foundation
import Hummingbird
import Logging
import TresorCore

/// Builds the router: the seam tests drive directly (`app.test(.router)`).
public func buildRouter(services: Services, metrics: ServerMetrics) -> Router<TresorRequestContext> {
    let router = Router(context: TresorRequestContext.self)
    router.add(middleware: MetricsMiddleware(metrics: metrics))
    router.add(middleware: ErrorMiddleware())

    router.get("/healthz") { _, _ in
        try await services.database.read { _ = try await $0.query("SELECT 1") }
        return try JSON.response(["status": "ok"])
    }
    router.get("/metrics") { _, _ in
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; version=0.0.4"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: metrics.registry.emitToBuffer())))
    }
    router.get("/openapi.yaml") { _, _ in
        var headers = HTTPFields()
        headers[.contentType] = "application/yaml"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: OpenAPIDocument.bytes)))
    }

    let sessions = SessionRoutes(auth: services.auth)
    let accounts = AccountRoutes(accounts: services.accounts)
    let transfers = TransferRoutes(transfers: services.transfers)
    router.post("/v1/sessions", use: sessions.login)
    let v1 = router.group("/v1").add(middleware: BearerAuthMiddleware(auth: services.auth))
    v1.delete("/sessions/current", use: sessions.logout)
    v1.get("/accounts", use: accounts.list)
    v1.get("/accounts/{id}", use: accounts.show)
    v1.get("/accounts/{id}/transactions", use: accounts.transactions)
    v1.get("/accounts/{id}/balance-history", use: accounts.balanceHistory)
    v1.post("/transfers", use: transfers.create)
    return router
}

/// The application `tresor serve` runs.
public func buildApplication(
    services: Services, metrics: ServerMetrics, host: String, port: Int, logger: Logger,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) -> some ApplicationProtocol {
    Application(
        router: buildRouter(services: services, metrics: metrics),
        configuration: .init(address: .hostname(host, port: port), serverName: "Tresor"),
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) },
        logger: logger)
}

/// The OpenAPI 3.1 document of the `/v1` API, shipped as a resource.
enum OpenAPIDocument {
    static let bytes: [UInt8] = {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml"), let data = try? Data(contentsOf: url) else {
            preconditionFailure("openapi.yaml resource missing from the bundle")
        }
        return Array(data)
    }()
}
