import Foundation
import Mustache

/// The web app's templates, each read with `HTMLEscaping` as its content type.
enum WebTemplates {
    /// Every `*.mustache` file of `directory`, named by its file name without the extension (as
    /// `MustacheLibrary(directory:)` names them).
    static func load(directory: URL) throws -> MustacheLibrary {
        _ = HTMLEscaping.registered
        var library = MustacheLibrary()
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        for file in files where file.pathExtension == "mustache" {
            let text = try String(contentsOf: file, encoding: .utf8)
            do {
                library.register(try MustacheTemplate(string: HTMLEscaping.pragma + text), named: file.deletingPathExtension().lastPathComponent)
            } catch {
                throw TemplateFault(file: file.lastPathComponent, error: error)
            }
        }
        return library
    }

    /// A template that does not parse, by file.
    struct TemplateFault: Error, CustomStringConvertible {
        let file: String
        let error: any Error
        var description: String { "template \(file): \(error)" }
    }
}
