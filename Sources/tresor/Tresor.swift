import ArgumentParser

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
}
