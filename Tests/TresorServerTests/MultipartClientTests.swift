import Foundation
import Testing
import TresorScan

@testable import TresorServer

/// Tests/corpus/multipart: one photo upload as each of .NET (Mono), curl, requests and urllib3
/// writes it (see its README).
@Suite("Photo uploads written by other HTTP clients")
struct MultipartClientTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("corpus")

    @Test(
        "each client's body gives the photo byte for byte and the text field",
        arguments: [
            "dotnet-mono-untyped", "dotnet-mono-typed", "dotnet-mono-non-ascii-name", "curl", "python-requests", "python-urllib3",
        ])
    func client(_ name: String) throws {
        let folder = Self.corpus.appendingPathComponent("multipart")
        let body = [UInt8](try Data(contentsOf: folder.appendingPathComponent("\(name).body")))
        let contentType = try String(contentsOf: folder.appendingPathComponent("\(name).content-type"), encoding: .utf8)
        let photo = [UInt8](try Data(contentsOf: Self.corpus.appendingPathComponent("exif/hopper.jpg")))
        let form = try ImageBody.form(body, contentType: contentType, limits: ScanLimits())
        #expect(form.image == photo)
        #expect(form.fields == ["csrf": "token-123"])
    }

    @Test("Content-Disposition parameters: quoted or not, in any case, with ; and \\\" inside quotes; RFC 5987 file names")
    func parameters() {
        #expect(Multipart.dispositionParameters(#"form-data; name=photo; filename=receipt.jpg"#) == ["name": "photo", "filename": "receipt.jpg"])
        #expect(
            Multipart.dispositionParameters(#"form-data; NAME="a;b"; filename="say \"hi\".jpg""#) == ["name": "a;b", "filename": #"say "hi".jpg"#])
        #expect(Multipart.dispositionParameters("form-data") == [:])
        #expect(Multipart.dispositionParameters(#"form-data; name="unterminated"#) == ["name": "unterminated"])
        #expect(Multipart.extendedValue("utf-8''Quittung%20M%C3%BCller.jpg") == "Quittung Müller.jpg")
        #expect(Multipart.extendedValue("iso-8859-1''M%FCller.jpg") == nil)
    }
}
