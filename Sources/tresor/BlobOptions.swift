import ArgumentParser
import Foundation
import TresorCore

/// Where receipt images are kept: `--blob-dir` (default `./tresor-blobs`), encrypted with the
/// key in `$TRESOR_BLOB_KEY` or in `--blob-key-file` (created on first use, mode 0600).
struct BlobOptions: ParsableArguments {
    @Option(help: "Directory of the encrypted receipt images.") var blobDir = "./tresor-blobs"
    @Option(help: "File with the images' AES key (base64); ignored when TRESOR_BLOB_KEY is set.") var blobKeyFile = "./tresor-blob.key"

    func store() throws -> FileBlobStore {
        try FileBlobStore(
            directory: URL(fileURLWithPath: blobDir), key: try FileBlobStore.loadKey(file: URL(fileURLWithPath: blobKeyFile)))
    }
}
