import Foundation
import Testing

@testable import TresorCore

/// The test server does not check signatures, so the signer is held to AWS's own published
/// example ("GET Bucket (List Objects)" in the Signature Version 4 documentation for S3).
@Suite("AWS Signature Version 4")
struct SigV4Tests {
    @Test("the published list-objects example signs to the published signature")
    func publishedExample() throws {
        let request = SigV4.sign(
            method: "GET", endpoint: URL(string: "https://examplebucket.s3.amazonaws.com")!, path: "/", query: [("max-keys", "2"), ("prefix", "J")],
            body: [], region: "us-east-1", accessKey: "AKIAIOSFODNN7EXAMPLE", secretKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            date: Date(timeIntervalSince1970: 1_369_353_600))
        let authorization = try #require(request.value(forHTTPHeaderField: "Authorization"))
        #expect(authorization.hasSuffix("Signature=34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7"), "\(authorization)")
        #expect(authorization.contains("Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request"))
        #expect(request.url?.absoluteString == "https://examplebucket.s3.amazonaws.com/?max-keys=2&prefix=J")
    }
}
