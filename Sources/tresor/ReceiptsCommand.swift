import ArgumentParser
import Foundation
import TresorCore

/// `tresor receipts backup --to DIR` and `restore --from DIR`: every receipt image, copied
/// encrypted as stored, with a manifest of SHA-256 hashes of the copies. Restore checks every
/// copy against the manifest before it writes, and skips what the store already has, so running
/// it twice changes nothing.
struct ReceiptsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "receipts", abstract: "Back up and restore the receipt images.", subcommands: [Backup.self, Restore.self])

    struct Manifest: Codable {
        struct Object: Codable {
            let hash: String
            let sealedSHA256: String
            let bytes: Int
        }
        var objects: [Object]
    }

    struct Backup: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Copy every image to DIR with a verified manifest.")
        @OptionGroup var blobs: BlobOptions
        @Option(help: "Where several banks share a server: the bank whose images (the folder or prefix of its id).") var bank: String?
        @Option(help: "Backup directory (created).") var to: String

        func run() async throws {
            let store = try await blobs.store(bank: bank)
            let target = URL(fileURLWithPath: to)
            try FileManager.default.createDirectory(at: target.appendingPathComponent("objects"), withIntermediateDirectories: true)
            var manifest = Manifest(objects: [])
            for hash in try await store.hashes() {
                let sealed = try await store.sealed(hash)
                _ = try await store.get(hash)  // why: back up only objects that decrypt to their hash
                let file = target.appendingPathComponent("objects").appendingPathComponent(hash)
                try Data(sealed).write(to: file)
                guard Self.readBack(file) == Hashing.sha256Hex(sealed) else { throw ValidationError("Copy of \(hash) does not read back.") }
                manifest.objects.append(.init(hash: hash, sealedSHA256: Hashing.sha256Hex(sealed), bytes: sealed.count))
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(manifest).write(to: target.appendingPathComponent("manifest.json"))
            print("backed up \(manifest.objects.count) images to \(target.path)")
        }

        static func readBack(_ file: URL) -> String? {
            (try? Data(contentsOf: file)).map { Hashing.sha256Hex([UInt8]($0)) }
        }
    }

    struct Restore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Restore images from a backup; idempotent.")
        @OptionGroup var blobs: BlobOptions
        @Option(help: "Where several banks share a server: the bank whose images (the folder or prefix of its id).") var bank: String?
        @Option(help: "Backup directory.") var from: String

        func run() async throws {
            let store = try await blobs.store(bank: bank)
            let source = URL(fileURLWithPath: from)
            let manifestFile = source.appendingPathComponent("manifest.json")
            let manifestData = try Data(contentsOf: manifestFile)
            guard let manifest = try? JSONDecoder().decode(Manifest.self, from: manifestData) else {
                throw ValidationError("\(manifestFile.path) is not the manifest of a receipt image backup (`tresor receipts backup` writes one).")
            }
            let present = Set(try await store.hashes())
            var restored = 0
            for object in manifest.objects {
                let sealed = [UInt8](try Data(contentsOf: source.appendingPathComponent("objects").appendingPathComponent(object.hash)))
                guard Hashing.sha256Hex(sealed) == object.sealedSHA256, sealed.count == object.bytes else {
                    throw ValidationError("Backup copy of \(object.hash) is damaged; nothing after it was restored.")
                }
                if present.contains(object.hash) { continue }
                try await store.putSealed(object.hash, sealed)
                _ = try await store.get(object.hash)  // decrypts and checks the hash with this store's key
                restored += 1
            }
            print("restored \(restored) images, \(manifest.objects.count - restored) already present")
        }
    }
}
