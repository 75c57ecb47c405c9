import ArgumentParser
import Foundation
import TresorCore

/// `tresor resources publish|rollback|list`: a bank's versioned resource pack (images,
/// stylesheet, language packs, screens), synced to its clients.
struct ResourcesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resources", abstract: "Publish, roll back and list a bank's resource pack versions.",
        subcommands: [Publish.self, Rollback.self, List.self])

    struct Publish: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate a folder (images/, styles/, i18n/, screens/) and publish it whole as the next version.")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: "The pack's folder.") var folder: String
        @Option(help: "A note kept with the version.") var note = ""

        func run() async throws {
            let base = try database.selectedBank()?.config.languages.first ?? "de"
            let files: [ResourceFile]
            do { files = try ResourcePack.read(folder: URL(fileURLWithPath: folder, isDirectory: true)) } catch let error as ResourcePackError {
                throw ValidationError(error.description)
            }
            let (before, version) = try await database.withServices { services in
                let before = try await services.resources.currentVersion()
                do {
                    return (before, try await services.resources.publish(files, baseLanguage: base, actor: "operator", note: note))
                } catch let error as ResourcePackError {
                    throw ValidationError("Not published: \(error.description)")
                }
            }
            print(version == before ? "Nothing changed; version \(version) stays current." : "Published version \(version) (\(files.count) files).")
        }
    }

    struct Rollback: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Publish an earlier version's files again as the next version.")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "The version to go back to.") var to: Int64

        func run() async throws {
            let version = try await database.withServices { try await $0.resources.rollback(to: to, actor: "operator") }
            print("Published version \(version) with the files of version \(to).")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The published versions, newest first.")
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let formatter = ISO8601DateFormatter()
            for version in try await database.withServices({ try await $0.resources.versions() }) {
                let date = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(version.publishedAtMillis) / 1000))
                print("\(version.version)\t\(date)\t\(version.entries.count) files\t\(version.actor)\t\(version.note)")
            }
        }
    }
}
