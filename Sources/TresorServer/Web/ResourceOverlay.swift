import Foundation
import Hummingbird
import Synchronization
import TresorCore
import TresorDomain

/// What the bank's current resource pack changes in the web app: stylesheet additions
/// (`styles/theme.css`), strings (`i18n/<lang>.json` over the built-in catalogues) and the logo
/// (`images/logo.svg`), screens (`screens/<id>.json`). Checked at most once a second, so `tresor resources publish` shows on
/// the next page without a restart, at the cost of one indexed query a second.
final class ResourceOverlay: Sendable {
    struct Snapshot: Sendable {
        var version: Int64 = 0
        var checkedAtMillis: Int64 = .min
        var css = ""
        var strings: [String: [String: String]] = [:]
        var logoSVG: String?
        /// The pack's screen descriptions, each passed its contract when published.
        var screens: [String: ScreenDescription] = [:]
    }

    let resources: ResourceService
    let clock: any TresorCore.Clock
    let state = Mutex(Snapshot())
    static let recheckMillis: Int64 = 1_000

    init(resources: ResourceService, clock: any TresorCore.Clock) {
        self.resources = resources
        self.clock = clock
    }

    var snapshot: Snapshot { state.withLock { $0 } }

    /// Reloads the pack's parts when a newer version is published; a failed read keeps the last.
    func refreshIfStale() async {
        let now = clock.unixMillis
        let (stale, known) = state.withLock { ($0.checkedAtMillis <= now - Self.recheckMillis, $0.version) }
        guard stale else { return }
        state.withLock { $0.checkedAtMillis = now }
        guard let version = try? await resources.currentVersion(), version != known else { return }
        var next = Snapshot(version: version, checkedAtMillis: now)
        if let css = try? await resources.currentFile(path: "styles/theme.css") { next.css = String(decoding: css, as: UTF8.self) }
        if let logo = try? await resources.currentFile(path: "images/logo.svg") { next.logoSVG = String(decoding: logo, as: UTF8.self) }
        for language in BankConfig.knownLanguages {
            if let data = try? await resources.currentFile(path: "i18n/\(language).json"),
                let strings = try? JSONDecoder().decode([String: String].self, from: data)
            {
                next.strings[language] = strings
            }
        }
        for id in ScreenContract.ids {
            // why parse again: a pack published by an older server is checked by today's rules;
            // a description that fails them leaves the built-in screen in place.
            if let data = try? await resources.currentFile(path: "screens/\(id).json"),
                let screen = try? ScreenDescription.parse(data, expectedID: id)
            {
                next.screens[id] = screen
            }
        }
        state.withLock { $0 = next }
    }
}

/// Brings the overlay up to date before a web page is rendered.
struct ResourceRefreshMiddleware: RouterMiddleware {
    typealias Context = TresorRequestContext
    let overlay: ResourceOverlay

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        await overlay.refreshIfStale()
        return try await next(request, context)
    }
}
