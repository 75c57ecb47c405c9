import ArgumentParser
import Foundation
import TresorCore

/// The `tresor` command: the server and the operators' tools.
@main
struct Tresor: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Tresor: a mobile banking platform.",
        version: BuildVersion.text,
        subcommands: [
            Serve.self, Migrate.self, Demo.self, LedgerCommand.self, PaymentsCommand.self, ExportCommand.self, WhitelistCommand.self,
            AuditCommand.self, SigningCommand.self, SecretsCommand.self,
            StaffCommand.self, CustomersCommand.self, DevicesCommand.self,
            ReceiptsCommand.self, BanksCommand.self, ResourcesCommand.self, BackupCommand.self, RestoreCommand.self, CardsCommand.self,
            AccountsCommand.self,
            BranchesCommand.self, AppointmentsCommand.self, FXCommand.self, CashOrdersCommand.self, StatementsCommand.self, CertificatesCommand.self,
            StationsCommand.self, ClearingCommand.self, BankMasterCommand.self, InvoicesCommand.self, StandingOrdersCommand.self, HoldsCommand.self,
            AdvisorsCommand.self,
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
