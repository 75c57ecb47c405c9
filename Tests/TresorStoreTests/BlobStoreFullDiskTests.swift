import Crypto
import Foundation
import Testing
import TresorCore
import TresorDomain
import TresorTestSupport

/// A receipt store on a real, tiny tmpfs filled to the last byte: the image is refused with
/// `storage_unavailable`, no receipt row names a missing image, no half-written file stays
/// behind, and the same upload works once space is freed. Needs `mount` (root, as the test
/// machines run); elsewhere the suite is reported skipped.
@Suite("Receipt images on a full disk", .enabled(if: TinyDisk.canMount))
struct BlobStoreFullDiskTests {
    @Test("a full disk refuses the image with nothing saved, and the retry succeeds after space is freed")
    func fullDisk() async throws {
        let disk = try TinyDisk(kilobytes: 256)
        defer { disk.remove() }
        let key = SymmetricKey(size: .bits256)
        let store = try FileBlobStore(directory: disk.root.appendingPathComponent("blobs"), key: key)
        let fixture = try await PaymentFixture.make(.sqlite)
        let services = Services(database: fixture.services.database, clock: ManualClock(PaymentFixture.start), blobs: store)
        let customer = fixture.principal.customerID
        let reading = ReceiptInput(merchant: "Coop", date: nil, total: nil, currency: .chf, text: "", confidence: 50)

        var generator = SystemRandomNumberGenerator()
        func image() -> [UInt8] { (0..<40_000).map { _ in UInt8.random(in: .min ... .max, using: &generator) } }
        var stored: [(Receipt, [UInt8])] = []
        for _ in 0..<3 {
            let bytes = image()
            stored.append((try await services.receipts.create(image: bytes, reading: reading, for: customer), bytes))
        }
        try disk.fill()
        let pending = image()
        var refusal: DomainError?
        do { _ = try await services.receipts.create(image: pending, reading: reading, for: customer) } catch let error as DomainError {
            refusal = error
        }
        let refused = try #require(refusal, "a 256 KiB disk filled by a filler file must refuse a 40 KB image")
        #expect(refused.code == .storageUnavailable && refused.field == "image" && refused.suggested == "30")
        #expect(try await services.receipts.list(of: customer).count == 3, "no row for the refused image")
        let stray = try disk.strayFiles()
        #expect(stray.isEmpty, "no half-written temporary file: \(stray)")
        for (receipt, bytes) in stored { #expect(try await services.receipts.image(receipt.id, of: customer) == bytes) }

        try disk.free()
        let retried = try await services.receipts.create(image: pending, reading: reading, for: customer)
        #expect(try await services.receipts.image(retried.id, of: customer) == pending)
        #expect(try await services.receipts.list(of: customer).count == 4)
    }
}

/// A tmpfs of a few hundred kilobytes mounted in a temporary directory, and a filler file that
/// takes every byte left.
struct TinyDisk {
    let root: URL
    var filler: URL { root.appendingPathComponent("filler") }

    static let canMount: Bool = {
        guard geteuid() == 0 else { return false }
        guard let disk = try? TinyDisk(kilobytes: 64) else { return false }
        disk.remove()
        return true
    }()

    init(kilobytes: Int) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("tresor-tinydisk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let mounted = try ToolRun.run(URL(fileURLWithPath: "/bin/mount"), ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", root.path])
        guard mounted.status == 0 else {
            try? FileManager.default.removeItem(at: root)
            throw CocoaError(.fileWriteNoPermission)
        }
    }

    /// Writes zeros until the disk says ENOSPC.
    func fill() throws {
        let descriptor = open(filler.path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
        defer { close(descriptor) }
        let block = [UInt8](repeating: 0, count: 4_096)
        while block.withUnsafeBytes({ write(descriptor, $0.baseAddress!, $0.count) }) > 0 {}
    }

    func free() throws { try FileManager.default.removeItem(at: filler) }

    /// Files in the store's shard folders that are not objects (a temporary name starts with '.').
    func strayFiles() throws -> [String] {
        let blobs = root.appendingPathComponent("blobs")
        return try FileManager.default.contentsOfDirectory(atPath: blobs.path).flatMap { shard in
            try FileManager.default.contentsOfDirectory(atPath: blobs.appendingPathComponent(shard).path).filter { $0.hasPrefix(".") }
        }
    }

    func remove() {
        _ = try? ToolRun.run(URL(fileURLWithPath: "/bin/umount"), [root.path])
        try? FileManager.default.removeItem(at: root)
    }
}
