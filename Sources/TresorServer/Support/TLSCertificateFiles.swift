import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOSSL

/// The certificate chain and private key `tresor serve --tls-certificate … --tls-key …` serves,
/// as PEM files (certbot's `fullchain.pem` and `privkey.pem`, or any CA's).
///
/// why read again: a Let's Encrypt certificate lasts 90 days and certbot replaces the files in
/// place; a server that read them once would serve the old one until it expires or someone
/// restarts it. Each new connection looks at the files (at most once a second, a `stat` of
/// each) and a changed pair is loaded for it and the ones after. A pair that does not load, half
/// written or a key of another certificate, is logged once and the last good pair stays.
public final class TLSCertificateFiles: Sendable {
    public let certificatePath: String
    public let keyPath: String
    /// The protocols offered in the handshake (ALPN), preferred first.
    let protocols: [String]
    let logger: Logger
    private let state: NIOLockedValueBox<State>

    struct State {
        var context: NIOSSLContext
        var loaded: Stamp
        /// A pair that failed to load: not tried again until one of its files changes.
        var refused: Stamp?
        var checked: ContinuousClock.Instant
    }

    /// What tells a file changed: certbot renews by pointing a symlink at a new file (another
    /// inode), an editor or `cp` rewrites in place (another time or size).
    struct Stamp: Equatable {
        var files: [[Int]]

        init(certificate: String, key: String) throws {
            files = try [("--tls-certificate", certificate), ("--tls-key", key)].map { option, path in
                var info = stat()
                guard stat(path, &info) == 0 else { throw TLSFilesError("\(option) \(path): \(String(cString: strerror(errno))).") }
                return [Int(info.st_dev), Int(info.st_ino), Int(info.st_size), info.st_mtim.tv_sec, info.st_mtim.tv_nsec]
            }
        }
    }

    /// Loads the pair; a missing file, one that holds no PEM certificate or key, or a key that
    /// is not the certificate's, throws with the option at fault.
    /// `http2: false` offers HTTP/1.1 only (`tresor serve --no-http2`).
    public init(certificate: String, key: String, http2: Bool = true, logger: Logger) throws {
        certificatePath = certificate
        keyPath = key
        protocols = http2 ? ["h2", "http/1.1"] : ["http/1.1"]
        self.logger = logger
        let stamp = try Stamp(certificate: certificate, key: key)
        let (context, leaf) = try Self.load(certificate: certificate, key: key, protocols: protocols)
        state = NIOLockedValueBox(State(context: context, loaded: stamp, refused: nil, checked: .now))
        Self.warnIfExpired(leaf, path: certificate, logger: logger)
    }

    /// The TLS context for a connection being accepted now.
    func context() -> NIOSSLContext {
        state.withLockedValue { state in
            let now = ContinuousClock.now
            guard now - state.checked >= .seconds(1) else { return state.context }
            state.checked = now
            do {
                let stamp = try Stamp(certificate: certificatePath, key: keyPath)
                guard stamp != state.loaded, stamp != state.refused else { return state.context }
                do {
                    let (context, leaf) = try Self.load(certificate: certificatePath, key: keyPath, protocols: protocols)
                    (state.context, state.loaded, state.refused) = (context, stamp, nil)
                    logger.info("TLS certificate \(certificatePath) read again: valid until \(Self.expiry(of: leaf))")
                    Self.warnIfExpired(leaf, path: certificatePath, logger: logger)
                } catch {
                    state.refused = stamp
                    logger.warning("TLS certificate files changed but do not load; the last good pair stays: \(error)")
                }
            } catch {
                logger.warning("TLS certificate files not readable; the last good pair stays: \(error)")
            }
            return state.context
        }
    }

    /// A server context for the chain in `certificate` and the key in `key`, offering
    /// `protocols` (ALPN), and the chain's first (leaf) certificate.
    static func load(certificate: String, key: String, protocols: [String]) throws -> (NIOSSLContext, NIOSSLCertificate) {
        let chain: [NIOSSLCertificate]
        do { chain = try NIOSSLCertificate.fromPEMFile(certificate) } catch {
            throw TLSFilesError("--tls-certificate \(certificate) holds no PEM certificate (-----BEGIN CERTIFICATE-----).")
        }
        guard let leaf = chain.first else {
            throw TLSFilesError("--tls-certificate \(certificate) holds no PEM certificate (-----BEGIN CERTIFICATE-----).")
        }
        let privateKey: NIOSSLPrivateKey
        do { privateKey = try NIOSSLPrivateKey(file: key, format: .pem) } catch {
            throw TLSFilesError("--tls-key \(key) holds no unencrypted PEM private key (-----BEGIN PRIVATE KEY-----).")
        }
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(privateKey))
        configuration.minimumTLSVersion = .tlsv12
        configuration.applicationProtocols = protocols
        do { return (try NIOSSLContext(configuration: configuration), leaf) } catch {
            // why the library's words too: a key of another type BoringSSL refuses fails here as well.
            throw TLSFilesError("--tls-key \(key) is not the private key of the certificate in --tls-certificate \(certificate) (\(error)).")
        }
    }

    static func expiry(of certificate: NIOSSLCertificate) -> Date {
        Date(timeIntervalSince1970: TimeInterval(certificate.notValidAfter))
    }

    /// why only a warning: an expired certificate still serves clients told to accept it, and
    /// a renewal under way replaces it at the next connection.
    static func warnIfExpired(_ leaf: NIOSSLCertificate, path: String, logger: Logger) {
        if expiry(of: leaf) < Date() { logger.warning("TLS certificate \(path) expired on \(expiry(of: leaf)); clients will refuse it") }
    }
}

/// Why the certificate or key cannot be served, worded for the operator.
public struct TLSFilesError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
