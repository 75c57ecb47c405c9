import Crypto
import Foundation
import Testing
import TresorDomain
import TresorTestSupport

@testable import TresorCore

/// An object store that takes the connection and never answers (frozen, behind a partition):
/// a listening socket nobody accepts on, the kernel completing the handshakes.
@Suite("S3 blob store that does not answer")
struct S3SilentStoreTests {
    @Test("a store silent past answerSeconds fails the upload (503 storage_unavailable), long before URLSession's own 60 s")
    func silentStore() async throws {
        let silent = try LoopbackSocket(listening: true)
        let configuration = S3BlobStore.Configuration(
            endpoint: URL(string: "http://127.0.0.1:\(silent.port)")!, bucket: "tresor", accessKey: "tresor-test",
            secretKey: "tresor-test-secret", answerSeconds: 1)
        let store = S3BlobStore(configuration, key: SymmetricKey(size: .bits256))
        let start = ContinuousClock.now
        do {
            _ = try await ReceiptService.store(Array("an image".utf8), in: store)
            Issue.record("a store that never answered took the image")
        } catch let error as DomainError {
            #expect(error.code == .storageUnavailable && error.field == "image")
            #expect(ContinuousClock.now - start < .seconds(30), "failed at answerSeconds, not at URLSession's 60 s")
        }
        withExtendedLifetime(silent) {}
    }
}
