import Foundation
import Testing
import TresorCore
import TresorDomain

/// Assertions recorded from real authenticators by another implementation (py_webauthn's test
/// suite, duo-labs/py_webauthn `tests/test_verify_authentication_response.py`, BSD-3-Clause),
/// checked by our relying-party code: the ES256, RS256 and EdDSA signatures verify with the
/// stored COSE keys and the counters move as py_webauthn expects; a wrong key and a user not
/// verified are refused. RP id `localhost`, origin `http://localhost:5000` as recorded.
@Suite("WebAuthn: another implementation's recorded assertions")
struct WebAuthnVectorTests {
    struct Vector {
        let authenticatorData: String
        let clientDataJSON: String
        let signature: String
        let challenge: String
        let publicKey: String
        let storedCount: UInt32
    }

    static let ec2 = Vector(
        authenticatorData: "SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MBAAAATg",
        clientDataJSON:
            "eyJjaGFsbGVuZ2UiOiJ4aTMwR1BHQUZZUnhWRHBZMXNNMTBEYUx6VlFHNjZudi1fN1JVYXpIMHZJMll2RzhMWWdERW52TjVmWlpOVnV2RUR1TWk5dGUzVkxxYjQyTjBma0xHQSIsImNsaWVudEV4dGVuc2lvbnMiOnt9LCJoYXNoQWxnb3JpdGhtIjoiU0hBLTI1NiIsIm9yaWdpbiI6Imh0dHA6Ly9sb2NhbGhvc3Q6NTAwMCIsInR5cGUiOiJ3ZWJhdXRobi5nZXQifQ",
        signature: "MEUCIGisVZOBapCWbnJJvjelIzwpixxIwkjCCb5aCHafQu68AiEA88v-2pJNNApPFwAKFiNuf82-2hBxYW5kGwVweeoxCwo",
        challenge: "xi30GPGAFYRxVDpY1sM10DaLzVQG66nv-_7RUazH0vI2YvG8LYgDEnvN5fZZNVuvEDuMi9te3VLqb42N0fkLGA",
        publicKey: "pQECAyYgASFYIIeDTe-gN8A-zQclHoRnGFWN8ehM1b7yAsa8I8KIvmplIlgg4nFGT5px8o6gpPZZhO01wdy9crDSA_Ngtkx0vGpvPHI", storedCount: 77)

    static let rsaKey =
        "pAEDAzkBACBZAQDfV20epzvQP-HtcdDpX-cGzdOxy73WQEvsU7Dnr9UWJophEfpngouvgnRLXaEUn_d8HGkp_HIx8rrpkx4BVs6X_B6ZjhLlezjIdJbLbVeb92BaEsmNn1HW2N9Xj2QM8cH-yx28_vCjf82ahQ9gyAr552Bn96G22n8jqFRQKdVpO-f-bvpvaP3IQ9F5LCX7CUaxptgbog1SFO6FI6ob5SlVVB00lVXsaYg8cIDZxCkkENkGiFPgwEaZ7995SCbiyCpUJbMqToLMgojPkAhWeyktu7TlK6UBWdJMHc3FPAIs0lH_2_2hKS-mGI1uZAFVAfW1X-mzKL0czUm2P1UlUox7IUMBAAE"

    static let rsa = Vector(
        authenticatorData: "SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MFAAAAAQ",
        clientDataJSON:
            "eyJ0eXBlIjoid2ViYXV0aG4uZ2V0IiwiY2hhbGxlbmdlIjoiaVBtQWkxUHAxWEw2b0FncTNQV1p0WlBuWmExekZVRG9HYmFRMF9LdlZHMWxGMnMzUnRfM280dVN6Y2N5MHRtY1RJcFRUVDRCVTFULUk0bWFhdm5kalEiLCJvcmlnaW4iOiJodHRwOi8vbG9jYWxob3N0OjUwMDAiLCJjcm9zc09yaWdpbiI6ZmFsc2V9",
        signature:
            "iOHKX3erU5_OYP_r_9HLZ-CexCE4bQRrxM8WmuoKTDdhAnZSeTP0sjECjvjfeS8MJzN1ArmvV0H0C3yy_FdRFfcpUPZzdZ7bBcmPh1XPdxRwY747OrIzcTLTFQUPdn1U-izCZtP_78VGw9pCpdMsv4CUzZdJbEcRtQuRS03qUjqDaovoJhOqEBmxJn9Wu8tBi_Qx7A33RbYjlfyLm_EDqimzDZhyietyop6XUcpKarKqVH0M6mMrM5zTjp8xf3W7odFCadXEJg-ERZqFM0-9Uup6kJNLbr6C5J4NDYmSm3HCSA6lp2iEiMPKU8Ii7QZ61kybXLxsX4w4Dm3fOLjmDw",
        challenge: "iPmAi1Pp1XL6oAgq3PWZtZPnZa1zFUDoGbaQ0_KvVG1lF2s3Rt_3o4uSzccy0tmcTIpTTT4BU1T-I4maavndjQ", publicKey: rsaKey, storedCount: 0)

    static let okp = Vector(
        authenticatorData: "SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MBAAAABw",
        clientDataJSON:
            "eyJ0eXBlIjoid2ViYXV0aG4uZ2V0IiwiY2hhbGxlbmdlIjoiZVo0ZWVBM080ank1Rkl6cURhU0o2SkROR3UwYkJjNXpJMURqUV9rTHNvMVdOcWtHNms1bUNZZjFkdFFoVlVpQldaV2xaa3pSNU1GZWVXQ3BKUlVOWHciLCJvcmlnaW4iOiJodHRwOi8vbG9jYWxob3N0OjUwMDAiLCJjcm9zc09yaWdpbiI6ZmFsc2V9",
        signature: "RRWV8mYDRvK7YdQgdtZD4pJ2dh1D_IWZ_D6jsZo6FHJBoenbj0CVT5nA20vUzlRhN4R6dOEUHmUwP1F8eRBhBg",
        challenge: "eZ4eeA3O4jy5FIzqDaSJ6JDNGu0bBc5zI1DjQ_kLso1WNqkG6k5mCYf1dtQhVUiBWZWlZkzR5MFeeWCpJRUNXw",
        publicKey: "pAEBAycgBiFYIMz6_SUFLiDid2Yhlq0YboyJ-CDrIrNpkPUGmJp4D3Dp", storedCount: 3)

    /// Signed by another credential than the RSA key it is checked with.
    static let wrongKey = Vector(
        authenticatorData: "SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MFAAAAJA",
        clientDataJSON:
            "eyJ0eXBlIjoid2ViYXV0aG4uZ2V0IiwiY2hhbGxlbmdlIjoienNmaU1aajE2VFVWQ3JUNXREUllYZFlsVXJKcDd6bl9VTmQ1Tm1Cb2NQYzRJMmRLWmJlRVdwd0JBd0E0czZvSGtWWDZfbHlfamdwNzQzZHlpV0hZWXciLCJvcmlnaW4iOiJodHRwOi8vbG9jYWxob3N0OjUwMDAiLCJjcm9zc09yaWdpbiI6ZmFsc2V9",
        signature: "MEQCIBX9B1LaLaQ0LYJsRv7cOyMS-Do1rJfFJoF9oO1tHMA4AiBRKdNneMKPlN53i8uoTZ5y9Gj4ORZySmiercS38655_g",
        challenge: "zsfiMZj16TUVCrT5tDRYXdYlUrJp7zn_UNd5NmBocPc4I2dKZbeEWpwBAwA4s6oHkVX6_ly_jgp743dyiWHYYw", publicKey: rsaKey, storedCount: 35)

    func verify(_ vector: Vector, requiringVerification: Bool) throws -> (signCount: UInt32, userVerified: Bool) {
        let verifier = WebAuthnVerifier(rpID: "localhost", origins: ["http://localhost:5000"], requiresUserVerification: requiringVerification)
        return try verifier.verifyAssertion(
            clientDataJSON: WebAuthnBase64.decode(vector.clientDataJSON)!, authenticatorData: WebAuthnBase64.decode(vector.authenticatorData)!,
            signature: WebAuthnBase64.decode(vector.signature)!, challenge: WebAuthnBase64.decode(vector.challenge)!,
            publicKey: WebAuthnBase64.decode(vector.publicKey)!, storedCount: vector.storedCount)
    }

    @Test("ES256, RS256 and EdDSA assertions verify, the counters as recorded")
    func recordedAssertionsVerify() throws {
        #expect(try verify(Self.ec2, requiringVerification: false).signCount == 78)
        let rsa = try verify(Self.rsa, requiringVerification: true)
        #expect(rsa.signCount == 1 && rsa.userVerified)
        #expect(try verify(Self.okp, requiringVerification: false).signCount == 7)
    }

    @Test("a wrong key, a user not verified, another origin and a counter gone back are refused by name")
    func refusals() throws {
        func field(_ body: () throws -> Void) -> String? {
            do {
                try body()
                return nil
            } catch let error as DomainError {
                return error.code == .passkeyRefused ? error.field : "other: \(error.code)"
            } catch { return "other: \(error)" }
        }
        #expect(field { _ = try verify(Self.wrongKey, requiringVerification: true) } == "signature")
        #expect(field { _ = try verify(Self.ec2, requiringVerification: true) } == "flags")  // recorded with UP only
        var counted = Self.okp
        counted = Vector(
            authenticatorData: counted.authenticatorData, clientDataJSON: counted.clientDataJSON, signature: counted.signature,
            challenge: counted.challenge, publicKey: counted.publicKey, storedCount: 7)
        #expect(field { _ = try verify(counted, requiringVerification: false) } == "sign_count")
        let elsewhere = WebAuthnVerifier(rpID: "localhost", origins: ["https://bank.example"], requiresUserVerification: false)
        #expect(
            field {
                _ = try elsewhere.verifyAssertion(
                    clientDataJSON: WebAuthnBase64.decode(Self.ec2.clientDataJSON)!,
                    authenticatorData: WebAuthnBase64.decode(Self.ec2.authenticatorData)!,
                    signature: WebAuthnBase64.decode(Self.ec2.signature)!, challenge: WebAuthnBase64.decode(Self.ec2.challenge)!,
                    publicKey: WebAuthnBase64.decode(Self.ec2.publicKey)!, storedCount: 77)
            } == "origin")
    }
}

@Suite("WebAuthn: the bank's RP id and origins from the host a request reached")
struct WebAuthnBankOriginTests {
    @Test("the host is the RP id; the web app's origin as reached (http only on loopback) and an app's https one are accepted")
    func origins() {
        let local = WebAuthnVerifier.bank(reachedAt: "127.0.0.1:8080")
        #expect(local.rpID == "127.0.0.1" && local.origins == ["http://127.0.0.1:8080", "https://127.0.0.1"])
        let bank = WebAuthnVerifier.bank(reachedAt: "EBanking.Alpenbank.CH")
        #expect(bank.rpID == "ebanking.alpenbank.ch" && bank.origins == ["https://ebanking.alpenbank.ch"])
        #expect(!bank.origins.contains("http://ebanking.alpenbank.ch"), "plain http is never a bank's origin")
        let proxied = WebAuthnVerifier.bank(reachedAt: "ebanking.alpenbank.ch:8443")
        #expect(proxied.origins == ["https://ebanking.alpenbank.ch:8443", "https://ebanking.alpenbank.ch"])
        let six = WebAuthnVerifier.bank(reachedAt: "[::1]:9000")
        #expect(six.rpID == "[::1]" && six.origins.contains("http://[::1]:9000"))
        #expect(WebAuthnVerifier.bank(reachedAt: nil).rpID == "localhost")
    }
}
