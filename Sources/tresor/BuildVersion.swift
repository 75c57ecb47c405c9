import Foundation

/// What `tresor --version` says: the text of `tresor.version` beside the binary (written by
/// `make deb`: the version and the git commit it was built from), or that this is a build from a
/// checkout. why a file and not a compiled-in string: a build from a checkout stays incremental
/// whatever the commit, and the package says exactly what it holds.
enum BuildVersion {
    static var text: String {
        guard let binary = Bundle.main.executableURL?.resolvingSymlinksInPath(),
            let text = try? String(contentsOf: binary.deletingLastPathComponent().appendingPathComponent("tresor.version"), encoding: .utf8)
        else { return "development build (from a checkout; `make deb` writes the version and commit)" }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
