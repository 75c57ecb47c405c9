import Foundation
import TresorDomain

/// One file of a bank's resource pack: a path such as `images/logo.svg`, `styles/theme.css` or
/// `i18n/fr.json`, and its bytes.
public struct ResourceFile: Sendable, Hashable {
    public let path: String
    public let bytes: Data

    public init(path: String, bytes: Data) {
        self.path = path
        self.bytes = bytes
    }

    public var hash: String { Hashing.sha256Hex(bytes) }
}

/// One line of a published version's manifest: where a file goes and which bytes it is.
public struct ManifestEntry: Sendable, Hashable, Codable {
    public let path: String
    /// SHA-256 of the bytes, hex; the file is served at `/v1/resources/files/{hash}`.
    public let hash: String
    public let size: Int
    public let contentType: String

    enum CodingKeys: String, CodingKey {
        case path, hash, size
        case contentType = "content_type"
    }
}

/// What a client must do to go from one version to another: the union of `added` and `changed`
/// to download, `removed` to delete. Applying it to the older state gives the newer one exactly.
public struct ManifestDelta: Sendable, Hashable {
    public let version: Int64
    public let since: Int64
    public let added: [ManifestEntry]
    public let changed: [ManifestEntry]
    public let removed: [String]
}

/// A pack that cannot be published, with the path at fault.
public struct ResourcePackError: Error, Sendable, Equatable, CustomStringConvertible {
    public let path: String
    public let message: String

    public var description: String { "\(path): \(message)" }
}

/// The rules a pack must pass before any of it is published.
public enum ResourcePack {
    /// why these bounds: a pack is synced to every phone; it must stay small.
    public static let fileBytesMax = 1024 * 1024
    public static let packBytesMax = 8 * 1024 * 1024
    public static let filesMax = 500

    /// Folders and the kinds of file each may hold.
    static let kinds: [String: [String: String]] = [
        "images": ["svg": "image/svg+xml", "png": "image/png"],
        "styles": ["css": "text/css; charset=utf-8"],
        "i18n": ["json": "application/json"],
        "screens": ["json": "application/json"],
    ]

    /// The content type of a path the pack may hold, or nil.
    static func contentType(of path: String) -> String? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 2, let kinds = kinds[String(parts[0])], let dot = path.lastIndex(of: ".") else { return nil }
        return kinds[String(path[path.index(after: dot)...])]
    }

    /// Checks every file and the pack as a whole; `baseLanguage` is the bank's first language,
    /// whose catalogue must hold every key any other language overrides.
    public static func validate(_ files: [ResourceFile], baseLanguage: String) throws -> [ManifestEntry] {
        guard files.count <= filesMax else { throw ResourcePackError(path: "", message: "more than \(filesMax) files") }
        guard files.reduce(0, { $0 + $1.bytes.count }) <= packBytesMax else {
            throw ResourcePackError(path: "", message: "larger than \(packBytesMax / 1024 / 1024) MiB")
        }
        var entries: [ManifestEntry] = []
        var catalogues: [String: [String: String]] = [:]
        for file in files.sorted(by: { $0.path < $1.path }) {
            let path = file.path
            guard path.count <= 200, path.wholeMatch(of: /[a-z0-9_\-]+(\/[a-z0-9_\-]+)*\.[a-z0-9]+/) != nil else {
                throw ResourcePackError(path: path, message: "paths are lower-case letters, digits, '-', '_' and '/'")
            }
            guard let contentType = contentType(of: path) else {
                throw ResourcePackError(
                    path: path, message: "not a kind of file the pack holds (images/*.svg|png, styles/*.css, i18n/*.json, screens/*.json)")
            }
            guard file.bytes.count <= fileBytesMax else { throw ResourcePackError(path: path, message: "larger than 1 MiB") }
            try check(file, contentType: contentType)
            if path.hasPrefix("screens/") {
                do { _ = try ScreenDescription.parse(file.bytes, expectedID: String(path.dropFirst(8).dropLast(5))) } catch let error as ScreenError {
                    throw ResourcePackError(path: path, message: error.description)
                }
            }
            if path.hasPrefix("i18n/") {
                catalogues[String(path.dropFirst(5).dropLast(5))] = try catalogue(file)
            }
            entries.append(ManifestEntry(path: path, hash: file.hash, size: file.bytes.count, contentType: contentType))
        }
        if !catalogues.isEmpty {
            guard let base = catalogues[baseLanguage] else {
                throw ResourcePackError(path: "i18n/\(baseLanguage).json", message: "the base language's catalogue is missing")
            }
            for (language, strings) in catalogues.sorted(by: { $0.key < $1.key }) {
                if let key = strings.keys.sorted().first(where: { base[$0] == nil }) {
                    throw ResourcePackError(path: "i18n/\(language).json", message: "\(key) is not in the base language's catalogue")
                }
            }
        }
        return entries
    }

    /// What a file of each kind must be: an SVG without scripts, a PNG, a stylesheet that loads
    /// nothing from elsewhere, JSON.
    static func check(_ file: ResourceFile, contentType: String) throws {
        let text = String(decoding: file.bytes, as: UTF8.self).lowercased()
        switch contentType {
        case "image/svg+xml":
            guard text.contains("<svg"), !text.contains("<script"), text.firstMatch(of: /\son[a-z]+\s*=/) == nil else {
                throw ResourcePackError(path: file.path, message: "an SVG without scripts or event handlers")
            }
        case "image/png":
            guard file.bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
                throw ResourcePackError(path: file.path, message: "not a PNG image")
            }
        case "text/css; charset=utf-8":
            guard !text.contains("@import"), text.firstMatch(of: /url\(\s*['"]?[a-z]+:/) == nil, !text.contains("</") else {
                throw ResourcePackError(path: file.path, message: "a stylesheet may not load anything from elsewhere (@import, url(scheme:))")
            }
        default:
            guard (try? JSONSerialization.jsonObject(with: file.bytes)) != nil else {
                throw ResourcePackError(path: file.path, message: "is not valid JSON" + JSONFileFault.syntaxFault(file.bytes))
            }
        }
    }

    /// A language pack: one JSON object of strings.
    static func catalogue(_ file: ResourceFile) throws -> [String: String] {
        do {
            return try JSONDecoder().decode([String: String].self, from: file.bytes)
        } catch {
            // why the fault's place: a pack exported from a translation tool is long, and
            // "one object of strings" alone did not say which entry is not a string.
            let fault = JSONFileFault(error, in: file.bytes)
            throw ResourcePackError(path: file.path, message: "a language pack is one JSON object of strings; \(fault.description)")
        }
    }

    /// Reads a folder into files, paths relative to it; hidden files are left out.
    /// A path that is no folder, or a folder without files, is refused. why: a folder that does
    /// not exist reads as empty, and an empty pack published whole would take every image,
    /// style and language pack from the bank's clients (a mistyped path did just that).
    public static func read(folder: URL) throws -> [ResourceFile] {
        let root = folder.standardizedFileURL.path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw ResourcePackError(path: folder.path, message: "is not a folder")
        }
        guard
            let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else { throw ResourcePackError(path: folder.path, message: "cannot be read") }
        var files: [ResourceFile] = []
        for case let url as URL in enumerator where (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
            guard files.count < filesMax else { throw ResourcePackError(path: "", message: "more than \(filesMax) files") }
            let path = String(url.standardizedFileURL.path.dropFirst(root.count)).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            files.append(ResourceFile(path: path, bytes: try Data(contentsOf: url)))
        }
        guard !files.isEmpty else { throw ResourcePackError(path: folder.path, message: "holds no files (images/, styles/, i18n/, screens/)") }
        return files
    }
}
