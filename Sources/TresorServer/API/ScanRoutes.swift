import Hummingbird
import TresorDomain
import TresorScan

/// `POST /v1/scan/slip`: a photo of a QR-bill or an orange/red slip → a payment draft. The
/// decoding runs in a worker process (ScanWorkerPool), never in the server.
struct ScanRoutes {
    let scanner: ScanWorkerPool

    struct SlipBody: Encodable {
        let draft: SlipDraft
        let source: String
        let corrections: [CodeLineRepair.Correction]
    }

    func slip(_ request: Request, context: TresorRequestContext) async throws -> Response {
        _ = try context.requirePrincipal()
        let image = try await ImageBody.read(request, limits: scanner.limits)
        let output = try await scanner.run(.slip, image: image)
        if let failure = output.error { throw ScanFailure(failure) }
        guard let slip = output.slip else { throw ScanError(.unreadable, "The image could not be read.") }
        return try JSON.response(SlipBody(draft: slip.draft, source: slip.source, corrections: slip.corrections))
    }
}

/// A worker's refusal, answered with the worker's code and field (a QR-bill's own error, such
/// as `qrbill_invalid_iban`, keeps its code).
struct ScanFailure: Error {
    let failure: ScanJob.Output.Failure
    init(_ failure: ScanJob.Output.Failure) { self.failure = failure }
}
