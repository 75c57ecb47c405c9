import Crypto
import Foundation
import Testing
import TresorCore

/// The S3 store against a real S3-compatible server (scripts/s3-test-server.sh starts one for
/// `make test`; without it, and without TRESOR_REQUIRE_S3, the suite is skipped).
@Suite(
    "S3 blob store",
    .enabled(
        if: ProcessInfo.processInfo.environment["TRESOR_TEST_S3_ENDPOINT"] != nil || ProcessInfo.processInfo.environment["TRESOR_REQUIRE_S3"] != nil))
struct S3BlobStoreTests {
    static func store(bucket: String, key: SymmetricKey) throws -> S3BlobStore {
        let endpoint = try #require(ProcessInfo.processInfo.environment["TRESOR_TEST_S3_ENDPOINT"].flatMap(URL.init(string:)), "no S3 test server")
        return S3BlobStore(.init(endpoint: endpoint, bucket: bucket, accessKey: "tresor-test", secretKey: "tresor-test-secret"), key: key)
    }

    @Test("images go up encrypted, come back checked, are listed, and a tampered object is refused")
    func roundTrip() async throws {
        let key = SymmetricKey(size: .bits256)
        let store = try Self.store(bucket: "tresor-\(UUID().uuidString.lowercased())", key: key)
        try await store.ensureBucket()
        try await store.ensureBucket()
        let images = [try Corpus.bytes("receipts", "receipt-01-de-rotated.jpg"), [UInt8]("not really an image".utf8)]
        var hashes: [String] = []
        for image in images { hashes.append(try await store.put(image)) }
        #expect(try await store.put(images[0]) == hashes[0])
        #expect(try await store.hashes() == hashes.sorted())
        #expect(try await store.get(hashes[0]) == images[0])
        let sealed = try await store.sealed(hashes[1])
        #expect(sealed.count == images[1].count + 28, "nonce and tag around the ciphertext")
        #expect(!sealed.contains(subsequence: images[1]), "the store never sees the plaintext")

        var tampered = sealed
        tampered[20] ^= 1
        try await store.putSealed(hashes[1], tampered)
        await #expect(throws: BlobStoreError.corrupt(hashes[1])) { try await store.get(hashes[1]) }
        let otherKey = try Self.store(bucket: store.configuration.bucket, key: SymmetricKey(size: .bits256))
        await #expect(throws: BlobStoreError.corrupt(hashes[0])) { try await otherKey.get(hashes[0]) }
        await #expect(throws: BlobStoreError.notFound(String(repeating: "0", count: 64))) {
            try await store.get(String(repeating: "0", count: 64))
        }
    }
}

extension Array where Element == UInt8 {
    func contains(subsequence: [UInt8]) -> Bool {
        guard subsequence.count <= count else { return false }
        return (0...(count - subsequence.count)).contains { self[$0..<$0 + subsequence.count].elementsEqual(subsequence) }
    }
}
