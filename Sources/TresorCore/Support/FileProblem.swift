import Foundation

/// A file a command could not read or write, said as `PATH: what went wrong`.
///
/// why: the command line prints an error as it describes itself, and Foundation's file errors
/// describe themselves as an `NSError` dump (`Error Domain=NSCocoaErrorDomain Code=260 … UserInfo=
/// {NSFilePath=…}`); an operator who mistyped a path should read the path and the reason.
public struct FileProblem: Error, CustomStringConvertible {
    public let description: String

    /// The problem the C library's `errno` names for `path`.
    public init(path: String, errno code: Int32) {
        description = "\(path): \(String(cString: strerror(code)))"
    }

    /// The problem `error` is, when it is a Foundation file error naming its path.
    public init?(_ error: any Error) {
        let error = error as NSError
        guard error.domain == NSCocoaErrorDomain, let path = error.userInfo[NSFilePathErrorKey] as? String else { return nil }
        // why the POSIX reason first: it is the precise one ("Permission denied", "Is a
        // directory"), where Cocoa's text is a general one ("The file couldn’t be opened.").
        // The underlying error is a `POSIXError` (swift-foundation) or an `NSError` of its domain.
        let underlying = error.userInfo[NSUnderlyingErrorKey]
        let code =
            (underlying as? POSIXError).map { $0.code.rawValue }
            ?? (underlying as? NSError).flatMap { $0.domain == NSPOSIXErrorDomain ? Int32($0.code) : nil }
        description = "\(path): \(code.map { String(cString: strerror($0)) } ?? error.localizedDescription)"
    }
}
