import ArgumentParser
import Foundation
import TresorCore

/// Where receipt images are kept, encrypted with the key in `$TRESOR_BLOB_KEY` or in
/// `--blob-key-file` (created on first use, mode 0600): a directory (`--blob-dir`, the default)
/// or an S3-compatible object store (`--s3-endpoint`, `--s3-bucket`; credentials from
/// `$AWS_ACCESS_KEY_ID` and `$AWS_SECRET_ACCESS_KEY`).
struct BlobOptions: ParsableArguments {
    @Option(help: "Directory of the encrypted receipt images.") var blobDir = "./tresor-blobs"
    @Option(help: "File with the images' AES key (base64); ignored when TRESOR_BLOB_KEY is set.") var blobKeyFile = "./tresor-blob.key"
    @Option(help: "S3-compatible endpoint, e.g. https://s3.eu-central-2.example.com; images go there instead of --blob-dir.")
    var s3Endpoint: String?
    @Option(help: "Bucket for the images (created when missing).") var s3Bucket = "tresor-receipts"
    @Option(help: "Region for request signing.") var s3Region = "us-east-1"

    /// The store of one bank: with several banks on a server, each keeps its images in a folder
    /// (or under a key prefix) of its own, `bank` being its id; nil for a single-bank deployment.
    func store(bank: String? = nil) async throws -> any BlobStore {
        let key = try withKeyProblem(told: "The key of the receipt images") { try FileBlobStore.loadKey(file: URL(fileURLWithPath: blobKeyFile)) }
        guard let s3Endpoint else {
            let root = URL(fileURLWithPath: blobDir, isDirectory: true)
            try refuseFile(at: blobDir, for: "--blob-dir")
            return try FileBlobStore(directory: bank.map { root.appendingPathComponent($0, isDirectory: true) } ?? root, key: key)
        }
        let environment = ProcessInfo.processInfo.environment
        guard let endpoint = URL(string: s3Endpoint), endpoint.host != nil else { throw ValidationError("--s3-endpoint is not a URL.") }
        guard let accessKey = environment["AWS_ACCESS_KEY_ID"], let secretKey = environment["AWS_SECRET_ACCESS_KEY"] else {
            throw ValidationError("Set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY for the S3 store.")
        }
        let store = S3BlobStore(
            .init(
                endpoint: endpoint, bucket: s3Bucket, region: s3Region, accessKey: accessKey, secretKey: secretKey,
                prefix: bank.map { "\($0)/receipts/" } ?? "receipts/"),
            key: key)
        try await store.ensureBucket()
        return store
    }
}
