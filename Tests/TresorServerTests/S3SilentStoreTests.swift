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
    @Test("a store silent past answerSeconds fails the upload (503 storage_unavailable) by its own limit, not URLSession's 60 s")
    func silentStore() async throws {
        let silent = try LoopbackSocket(listening: true)
        let configuration = S3BlobStore.Configuration(
            endpoint: URL(string: "http://127.0.0.1:\(silent.port)")!, bucket: "tresor", accessKey: "tresor-test",
            secretKey: "tresor-test-secret", answerSeconds: 1)
        let store = S3BlobStore(configuration, key: SymmetricKey(size: .bits256))
        do {
            _ = try await ReceiptService.store(Array("an image".utf8), in: store)
            Issue.record("a store that never answered took the image")
        } catch let error as DomainError {
            #expect(error.code == .storageUnavailable && error.field == "image")
        }
        // why the cause and not the time: what ended the request is the store's own limit (its
        // error says so); how long a loaded machine took to get there is no verdict (with the
        // whole suite on two cores, a 1 s limit was heard after 31 and 38 s).
        await #expect {
            _ = try await store.put(Array("an image".utf8))
        } throws: { error in
            "\(error)".contains("no answer within 1.0 s")
        }
        withExtendedLifetime(silent) {}
    }
}
