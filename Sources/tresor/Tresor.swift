import ArgumentParser
import Foundation

/// The `tresor` command: the server and the operators' tools.
@main
struct Tresor: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Tresor: a mobile banking platform.",
        subcommands: [
            Serve.self, Migrate.self, Demo.self, LedgerCommand.self, PaymentsCommand.self, ExportCommand.self, WhitelistCommand.self,
            AuditCommand.self, SigningCommand.self, SecretsCommand.self,
            StaffCommand.self, DevicesCommand.self,
            ReceiptsCommand.self, BanksCommand.self, ResourcesCommand.self, BackupCommand.self, RestoreCommand.self, CardsCommand.self,
            BranchesCommand.self, AppointmentsCommand.self, FXCommand.self, CashOrdersCommand.self, StatementsCommand.self, CertificatesCommand.self,
            StationsCommand.self,
            Bench.self,
            ScanWorker.self,
        ])

    /// ArgumentParser's own `main`, with file errors made readable (`FileProblem`), and a
    /// `ValidationError` from a command's `run` said without a usage line. why: it is about what
    /// the operator named (a file, an id, a port), and ArgumentParser, not knowing the command
    /// any more, would add the root's "Usage: tresor <subcommand>", which says nothing of it.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as ValidationError {
            FileHandle.standardError.write(Data("Error: \(error.message)\n".utf8))
            exit(withError: ExitCode.validationFailure)
        } catch {
            exit(withError: FileProblem(error) ?? error)
        }
    }
}

/// A file a command could not read or write, said as `PATH: what went wrong`.
///
/// why: ArgumentParser prints an error as it describes itself, and Foundation's file errors
/// describe themselves as an `NSError` dump (`Error Domain=NSCocoaErrorDomain Code=260 … UserInfo=
/// {NSFilePath=…}`); an operator who mistyped a path should read the path and the reason.
struct FileProblem: Error, CustomStringConvertible {
    let description: String

    /// The problem `error` is, when it is a Foundation file error naming its path.
    init?(_ error: any Error) {
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
