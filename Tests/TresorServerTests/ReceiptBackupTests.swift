import Crypto
import Foundation
import Testing
import TresorCore
import TresorTestSupport

/// `tresor receipts backup` and `restore`, run as an operator runs them: the real binary on a
/// real encrypted store.
@Suite("Receipt image backup and restore")
struct ReceiptBackupTests {
    static func tresor(_ arguments: [String], key: String) throws -> (status: Int32, output: String) {
        try ToolRun.tresor(arguments, environment: ["TRESOR_BLOB_KEY": key, "PATH": "/usr/bin:/bin"])
    }

    @Test("a backup restores into an empty store, twice without change, and a damaged copy is refused")
    func backupRestore() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tresor-backup-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let keyBytes = SymmetricKey(size: .bits256)
        let key = keyBytes.withUnsafeBytes { Data($0).base64EncodedString() }
        let store = try FileBlobStore(directory: root.appendingPathComponent("blobs"), key: keyBytes)
        let images = [try Corpus.bytes("receipts", "receipt-00-de-clean.jpg"), try Corpus.bytes("receipts", "receipt-12-fr-clean.jpg")]
        var hashes: [String] = []
        for image in images { hashes.append(try await store.put(image)) }
        #expect(try await store.put(images[0]) == hashes[0], "content-addressed: the same image is one object")
        let stored = try await store.sealed(hashes[0])
        #expect(!stored.starts(with: images[0].prefix(16)), "encrypted at rest")

        let backup = root.appendingPathComponent("backup").path
        let made = try Self.tresor(["receipts", "backup", "--blob-dir", store.directory.path, "--to", backup], key: key)
        #expect(made.status == 0, "\(made.output)")
        #expect(made.output.contains("backed up 2 images"))

        let fresh = root.appendingPathComponent("restored")
        let first = try Self.tresor(["receipts", "restore", "--blob-dir", fresh.path, "--from", backup], key: key)
        #expect(first.output.contains("restored 2 images, 0 already present"), "\(first.output)")
        let second = try Self.tresor(["receipts", "restore", "--blob-dir", fresh.path, "--from", backup], key: key)
        #expect(second.output.contains("restored 0 images, 2 already present"), "\(second.output)")
        let restored = try FileBlobStore(directory: fresh, key: keyBytes)
        #expect(try await restored.get(hashes[1]) == images[1])

        let copy = URL(fileURLWithPath: backup).appendingPathComponent("objects").appendingPathComponent(hashes[0])
        var damaged = try Data(contentsOf: copy)
        damaged[damaged.count / 2] ^= 0xFF
        try damaged.write(to: copy)
        let refused = try Self.tresor(
            ["receipts", "restore", "--blob-dir", root.appendingPathComponent("third").path, "--from", backup], key: key)
        #expect(refused.status != 0)
        #expect(refused.output.contains("damaged"), "\(refused.output)")
    }
}
