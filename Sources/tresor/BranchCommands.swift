import ArgumentParser
import Foundation
import TresorCore
import TresorDomain

/// `tresor branches …`: the bank's branches and ATMs, their hours, closures, stock and advisors.
struct BranchesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "branches", abstract: "Manage branches, ATMs, closures, banknote stock and advisors.",
        subcommands: [List.self, Import.self, Close.self, Stock.self, Advisor.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List branches and ATMs with their hours and whether they are open now.")
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            for item in try await database.withServices({ try await $0.branches.search(near: nil, limit: 200) }) {
                let branch = item.branch
                let state = item.status.isOpen ? "open" : "closed"
                print("\(branch.id)\t\(branch.code)\t\(branch.kind.rawValue)\t\(branch.name)\t\(branch.town)\t\(state)\t\(item.hours)")
            }
        }
    }

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add or update branches and ATMs from a CSV file (all rows or none).",
            discussion: "Header: code,kind,name,street,postcode,town,lat,lon,phone,services,hours,inside_branch,currencies,deposit")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: "The CSV file.") var file: String
        @Option(help: "Your login, for the audit log.") var staff: String

        func run() async throws {
            let rows = try BranchCSV.parse(try Data(contentsOf: URL(fileURLWithPath: file)))
            let count = try await database.withServices { try await $0.branches.saveAll(rows, staff: staff) }
            print("Imported \(count) branches and ATMs from \(file).")
        }
    }

    struct Close: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Close a branch (and its lobby ATM) for a day.")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "The branch's id.") var branch: Int64
        @Option(help: "YYYY-MM-DD") var date: String
        @Option(help: "What customers are told.") var reason: String
        @Option(help: "Your login, for the audit log.") var staff: String

        func run() async throws {
            let day = try LocalDate(parsing: date)
            try await database.withServices { try await $0.branches.close(branch, on: day, reason: reason, staff: staff) }
            print("Branch \(branch) is closed on \(date): \(reason)")
        }
    }

    struct Stock: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Set or show a branch's banknote stock.")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "The branch's id.") var branch: Int64
        @Option(help: "Currency code, with --amount to set the stock.") var currency: String?
        @Option(help: "Banknotes counted, e.g. 20000.") var amount: String?
        @Option(help: "Your login, for the audit log.") var staff = "cli"

        func run() async throws {
            var counted: Money?
            if let currency, let amount {
                guard let code = Currency(code: currency) else { throw ValidationError("unsupported currency \(currency)") }
                counted = try Money(parsing: amount, currency: code)
            }
            let stock = try await database.withServices { services in
                if let counted { try await services.branches.setStock(branch, counted, staff: staff) }
                return try await services.branches.stock(branch)
            }
            for money in stock { print(money) }
        }
    }

    struct Advisor: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add an advisor to a branch with working hours (OSM syntax).")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "The branch's id.") var branch: Int64
        @Option(help: "The advisor's name.") var name: String
        @Option(help: "e.g. \"Mo-Fr 08:30-12:00,13:30-17:00\"") var hours: String

        func run() async throws {
            let weekly = try WeeklyHours(parsing: hours)
            let advisor = try await database.withServices { try await $0.appointments.addAdvisor(branch: branch, name: name, hours: weekly) }
            print("Advisor \(advisor.id) \(advisor.name) works \(advisor.hours).")
        }
    }
}

/// `tresor appointments …`: a branch's day, confirmed or declined with a message.
struct AppointmentsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "appointments", abstract: "See a branch's appointments and confirm or decline them.",
        subcommands: [List.self, Decide.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "A branch's appointments on a day.")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "The branch's id.") var branch: Int64
        @Option(help: "YYYY-MM-DD (default today).") var date: String?

        func run() async throws {
            let chosen = try date.map { try LocalDate(parsing: $0) }
            let (zone, appointments) = try await database.withServices { services in
                let zone = try await services.branches.branch(branch).timeZone
                return (zone, try await services.appointments.day(branch: branch, date: chosen ?? services.today))
            }
            let formatter = DateFormatter()
            formatter.timeZone = zone
            formatter.dateFormat = "HH:mm"
            for (appointment, customer) in appointments {
                print(
                    "\(appointment.id)\t\(formatter.string(from: appointment.start))\t\(appointment.advisorName)\t\(customer)\t\(appointment.topic.rawValue)\t\(appointment.status.rawValue)\t\(appointment.note)"
                )
            }
        }
    }

    struct Decide: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "decide", abstract: "Confirm or decline an appointment; the customer gets the message.")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: "The appointment's id.") var id: Int64
        @Flag(help: "Decline instead of confirming (frees the slot).") var decline = false
        @Option(help: "A message for the customer.") var message = ""
        @Option(help: "Your login, for the audit log.") var staff: String

        func run() async throws {
            let appointment = try await database.withServices {
                try await $0.appointments.decide(id, confirm: !decline, message: message, staff: staff)
            }
            print("Appointment \(appointment.id) is \(appointment.status.rawValue).")
        }
    }
}

/// `tresor fx …`: the ECB reference rates and the margin on banknotes.
struct FXCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fx", abstract: "Import ECB reference rates; set the banknote margin.", subcommands: [Import.self, Margin.self])

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Import an ECB rates file (daily or history XML) from a path or an http(s) URL.")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: "eurofxref-daily.xml, eurofxref-hist-90d.xml, or a URL of one.") var source: String

        func run() async throws {
            let data = try await RatesDownload.fetch(source)
            let dates = try await database.withServices { try await $0.fx.importRates(data) }
            print("Imported rates of \(dates.count) day(s), \(dates.first!) to \(dates.last!).")
        }
    }

    struct Margin: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Set the margin on banknotes over the reference rate, for one currency or all.")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "Margin in percent with up to two decimals, e.g. 2.5") var percent: String
        @Option(help: "Only this currency.") var currency: String?

        func run() async throws {
            // why checked here: the setting's own errors speak of basis points and of setting
            // names (fx.cash_margin_bp.EUR), and a parse as money of "francs" and their decimals.
            guard let basisPoints = try? Money(parsing: percent, currency: .chf, field: "percent").minorUnits, (0...10_000).contains(basisPoints)
            else { throw ValidationError("--percent is a margin from 0 to 100 with at most two decimals, e.g. 2.5.") }
            let code = currency?.uppercased()
            if let code, Currency(code: code) == nil { throw ValidationError("--currency \(code) is not a currency code (ISO 4217, e.g. EUR).") }
            try await database.withServices {
                try await $0.settings.set(code.map { "fx.cash_margin_bp.\($0)" } ?? "fx.cash_margin_bp", basisPoints: Int(basisPoints))
            }
            print("Banknote margin\(code.map { " for \($0)" } ?? ""): \(Int(basisPoints).basisPointsAsPercent) %.")
        }
    }
}

/// `tresor cash-orders …`: the cash desk's banknote orders.
struct CashOrdersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cash-orders", abstract: "List a branch's banknote orders; mark them ready or handed out.",
        subcommands: [List.self, Ready.self, HandOut.self])

    struct List: AsyncParsableCommand {
        @OptionGroup var database: DatabaseOptions
        @Option(help: "The branch's id.") var branch: Int64

        func run() async throws {
            for order in try await database.withServices({ try await $0.cashOrders.orders(branch: branch) }) {
                print(
                    "\(order.id)\t\(order.pickupDate)\t\(order.amount)\t\(order.debit)\t\(order.status.rawValue)\(order.fromVault ? "\tvault" : "")")
            }
        }
    }

    struct Ready: AsyncParsableCommand {
        @OptionGroup var database: DatabaseOptions
        @Argument var id: Int64
        @Option(help: "Your login, for the audit log.") var staff: String

        func run() async throws {
            let order = try await database.withServices { try await $0.cashOrders.markReady(id, staff: staff) }
            print("Order \(order.id) (\(order.amount)) is ready; the customer is told.")
        }
    }

    struct HandOut: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "hand-out")
        @OptionGroup var database: DatabaseOptions
        @Argument var id: Int64
        @Option(help: "Your login, for the audit log.") var staff: String

        func run() async throws {
            let order = try await database.withServices { try await $0.cashOrders.handOut(id, staff: staff) }
            print("Order \(order.id) handed out; \(order.debit) debited.")
        }
    }
}
