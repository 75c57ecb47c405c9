import Crypto
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Receipt images in an S3-compatible object store (AWS S3, MinIO, Ceph, …): path-style
/// requests to a configurable endpoint, signed with AWS Signature Version 4. Objects are
/// encrypted before they leave the server, like the file store's, so the store never sees an
/// image.
public struct S3BlobStore: BlobStore {
    public struct Configuration: Sendable {
        public var endpoint: URL
        public var bucket: String
        public var region: String
        public var accessKey: String
        public var secretKey: String
        /// Object names are `prefix + hash`.
        public var prefix: String
        /// Seconds a request may take in all before it fails (`BlobStoreError.remote`, 503
        /// `storage_unavailable` for the phone), the answer included. why 15: the database's answer deadline
        /// (`PostgresDatabase.serverAnswerDeadline`); URLSession's own 60 s outlasted the phone's
        /// patience, so an object store that took the connection and never answered reached the
        /// customer as a timeout instead of "try again later".
        public var answerSeconds: TimeInterval

        public init(
            endpoint: URL, bucket: String, region: String = "us-east-1", accessKey: String, secretKey: String, prefix: String = "receipts/",
            answerSeconds: TimeInterval = 15
        ) {
            self.endpoint = endpoint
            self.answerSeconds = answerSeconds
            self.bucket = bucket
            self.region = region
            self.accessKey = accessKey
            self.secretKey = secretKey
            self.prefix = prefix
        }
    }

    public let configuration: Configuration
    let cipher: BlobCipher
    let session: URLSession

    public init(_ configuration: Configuration, key: SymmetricKey) {
        self.configuration = configuration
        cipher = BlobCipher(key: key)
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        // why later than our own limit (`send`): that limit is the one a request ends by; the two
        // set alike raced, and a loaded machine let URLSession's fire first (an error of another
        // shape). URLSession's stays as a backstop.
        sessionConfiguration.timeoutIntervalForRequest = max(60, configuration.answerSeconds * 2)
        session = URLSession(configuration: sessionConfiguration)
    }

    /// Creates the bucket when it is missing (a new MinIO, a test server).
    public func ensureBucket() async throws {
        let (status, _) = try await send("HEAD", path: "")
        if status == 200 { return }
        let (created, body) = try await send("PUT", path: "")
        guard (200..<300).contains(created) else {
            throw BlobStoreError.remote("create bucket: HTTP \(created) \(String(decoding: body, as: UTF8.self))")
        }
    }

    public func put(_ plaintext: [UInt8]) async throws -> String {
        let hash = BlobCipher.hash(plaintext)
        let (status, _) = try await send("HEAD", path: configuration.prefix + hash)
        if status == 200 { return hash }
        try await putSealed(hash, try cipher.seal(plaintext))
        return hash
    }

    public func get(_ hash: String) async throws -> [UInt8] {
        try cipher.open(try await sealed(hash), hash: hash)
    }

    public func sealed(_ hash: String) async throws -> [UInt8] {
        guard BlobCipher.isHash(hash) else { throw BlobStoreError.notFound(hash) }
        let (status, body) = try await send("GET", path: configuration.prefix + hash)
        if status == 404 { throw BlobStoreError.notFound(hash) }
        guard status == 200 else { throw BlobStoreError.remote("GET \(hash): HTTP \(status)") }
        return body
    }

    public func putSealed(_ hash: String, _ sealed: [UInt8]) async throws {
        guard BlobCipher.isHash(hash) else { throw BlobStoreError.notFound(hash) }
        let (status, body) = try await send("PUT", path: configuration.prefix + hash, body: sealed)
        guard (200..<300).contains(status) else {
            throw BlobStoreError.remote("PUT \(hash): HTTP \(status) \(String(decoding: body, as: UTF8.self))")
        }
    }

    /// Every object under the prefix, following ListObjectsV2's continuation tokens.
    public func hashes() async throws -> [String] {
        var result: [String] = []
        var token: String?
        repeat {
            var query = [("list-type", "2"), ("prefix", configuration.prefix)]
            if let token { query.append(("continuation-token", token)) }
            let (status, body) = try await send("GET", path: "", query: query)
            guard status == 200 else { throw BlobStoreError.remote("LIST: HTTP \(status)") }
            let xml = String(decoding: body, as: UTF8.self)
            result += Self.elements("Key", in: xml).map { String($0.dropFirst(configuration.prefix.count)) }.filter(BlobCipher.isHash)
            token = Self.elements("IsTruncated", in: xml).first == "true" ? Self.elements("NextContinuationToken", in: xml).first : nil
        } while token != nil
        return result.sorted()
    }

    static func elements(_ name: String, in xml: String) -> [String] {
        xml.components(separatedBy: "<\(name)>").dropFirst().compactMap { $0.components(separatedBy: "</\(name)>").first }
    }

    /// One signed request; answers the status and the body.
    func send(_ method: String, path: String, query: [(String, String)] = [], body: [UInt8] = []) async throws -> (Int, [UInt8]) {
        let request = SigV4.sign(
            method: method, endpoint: configuration.endpoint, path: "/\(configuration.bucket)" + (path.isEmpty ? "" : "/\(path)"), query: query,
            body: body, region: configuration.region, accessKey: configuration.accessKey, secretKey: configuration.secretKey, date: Date())
        let seconds = configuration.answerSeconds
        return try await withCheckedThrowingContinuation { continuation in
            let answer = OnceAnswer(continuation)
            let task = session.dataTask(with: request) { data, response, error in
                if let error { return answer.resume(throwing: BlobStoreError.remote("\(method) \(path): \(error.localizedDescription)")) }
                answer.resume(returning: ((response as? HTTPURLResponse)?.statusCode ?? 0, [UInt8](data ?? Data())))
            }
            // why a timer of our own beside URLSession's: on Linux its timeout fires on the
            // session's own queue, which a process busy with other requests kept from firing for
            // 30 s (a 1 s answer limit, the whole test suite on two loaded cores).
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
                answer.resume(throwing: BlobStoreError.remote("\(method) \(path): no answer within \(seconds) s"))
                task.cancel()
            }
            task.resume()
        }
    }

    /// A continuation resumed by whichever comes first, the answer or the timer.
    final class OnceAnswer: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<(Int, [UInt8]), any Error>?

        init(_ continuation: CheckedContinuation<(Int, [UInt8]), any Error>) { self.continuation = continuation }

        func resume(returning value: (Int, [UInt8])) { take()?.resume(returning: value) }
        func resume(throwing error: any Error) { take()?.resume(throwing: error) }

        private func take() -> CheckedContinuation<(Int, [UInt8]), any Error>? {
            lock.withLock {
                defer { continuation = nil }
                return continuation
            }
        }
    }
}

/// AWS Signature Version 4 for S3 (header-based, payload hash included).
enum SigV4 {
    static func sign(
        method: String, endpoint: URL, path: String, query: [(String, String)], body: [UInt8], region: String, accessKey: String,
        secretKey: String, date: Date
    ) -> URLRequest {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let amzDate = formatter.string(from: date)
        let day = String(amzDate.prefix(8))
        let host = endpoint.port.map { "\(endpoint.host ?? ""):\($0)" } ?? (endpoint.host ?? "")
        let payloadHash = BlobCipher.hash(body)
        let canonicalQuery = query.map { (encode($0.0), encode($0.1)) }.sorted { $0 < $1 }.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        let canonicalPath = path.split(separator: "/", omittingEmptySubsequences: false).map { encode(String($0)) }.joined(separator: "/")
        let signedHeaders = "host;x-amz-content-sha256;x-amz-date"
        let canonicalRequest = [
            method, canonicalPath, canonicalQuery, "host:\(host)\nx-amz-content-sha256:\(payloadHash)\nx-amz-date:\(amzDate)\n", signedHeaders,
            payloadHash,
        ].joined(separator: "\n")
        let scope = "\(day)/\(region)/s3/aws4_request"
        let stringToSign = "AWS4-HMAC-SHA256\n\(amzDate)\n\(scope)\n\(BlobCipher.hash(Array(canonicalRequest.utf8)))"
        var key = SymmetricKey(data: Array("AWS4\(secretKey)".utf8))
        for part in [day, region, "s3", "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Array(part.utf8), using: key)))
        }
        let signature = HMAC<SHA256>.authenticationCode(for: Array(stringToSign.utf8), using: key).hexadecimal

        var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)!
        components.percentEncodedPath = canonicalPath
        components.percentEncodedQuery = canonicalQuery.isEmpty ? nil : canonicalQuery
        var request = URLRequest(url: components.url!)
        request.httpMethod = method
        request.setValue(amzDate, forHTTPHeaderField: "x-amz-date")
        request.setValue(payloadHash, forHTTPHeaderField: "x-amz-content-sha256")
        request.setValue(
            "AWS4-HMAC-SHA256 Credential=\(accessKey)/\(scope), SignedHeaders=\(signedHeaders), Signature=\(signature)",
            forHTTPHeaderField: "Authorization")
        if !body.isEmpty || method == "PUT" { request.httpBody = Data(body) }
        return request
    }

    /// RFC 3986 encoding as SigV4 wants it: everything but unreserved characters.
    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
