import Hummingbird
import TresorCore
import TresorDomain
import TresorScan

/// `POST /v1/scan/slip`: a photo of a QR-bill or an orange/red slip → a payment draft. The
/// decoding runs in a worker process (ScanWorkerPool), never in the server.
struct ScanRoutes {
    let scanner: ScanWorkerPool
    let limiter: RateLimiter

    struct SlipBody: Encodable {
        let draft: SlipDraft
        let source: String
        let corrections: [CodeLineRepair.Correction]
    }

    func slip(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        try await limiter.hit(limiter.limits.scanPerContract, key: "customer:\(principal.customerID.rawValue)")
        let image = try await ImageBody.read(request, limits: scanner.limits)
        let slip = try await scanner.slip(image)
        return try JSON.response(SlipBody(draft: slip.draft, source: slip.source, corrections: slip.corrections))
    }
}
