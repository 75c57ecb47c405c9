import Foundation
import TresorDomain

/// Seeds a demo bank's branches, ATMs, advisors, banknote stock, loan prices and rates.
public struct DemoBranchNetwork: Sendable {
    struct BranchSpec: Sendable {
        let code, name, street, postcode, town, lat, lon, phone, services, hours: String
        let advisors: Int
        init(
            _ code: String, _ name: String, _ street: String, _ postcode: String, _ town: String, _ lat: String, _ lon: String, phone: String,
            services: String, hours: String, advisors: Int
        ) {
            (self.code, self.name, self.street, self.postcode, self.town, self.lat, self.lon) = (code, name, street, postcode, town, lat, lon)
            (self.phone, self.services, self.hours, self.advisors) = (phone, services, hours, advisors)
        }
    }
    struct ATMSpec: Sendable {
        let code, name, street, postcode, town, lat, lon, currencies: String
        let deposit: Bool
        init(
            _ code: String, _ name: String, _ street: String, _ postcode: String, _ town: String, _ lat: String, _ lon: String, currencies: String,
            deposit: Bool
        ) {
            (self.code, self.name, self.street, self.postcode, self.town, self.lat, self.lon) = (code, name, street, postcode, town, lat, lon)
            (self.currencies, self.deposit) = (currencies, deposit)
        }
    }
    struct Site: Sendable {
        let branches: [BranchSpec]
        let atms: [ATMSpec]
    }

    let branches: BranchService
    let appointments: AppointmentService
    let fx: FXService
    let loans: LoanService

    public init(branches: BranchService, appointments: AppointmentService, fx: FXService, loans: LoanService) {
        self.branches = branches
        self.appointments = appointments
        self.fx = fx
        self.loans = loans
    }

    /// The demo loan price table (CHF; amounts in centimes).
    public static let loanPrices: [LoanPrice] = [
        LoanPrice(purpose: .car, amounts: 500_000...8_000_000, months: 6...84, rateBasisPoints: 490, feeMinor: 0),
        LoanPrice(purpose: .renovation, amounts: 1_000_000...15_000_000, months: 12...120, rateBasisPoints: 540, feeMinor: 15_000),
        LoanPrice(purpose: .education, amounts: 200_000...4_000_000, months: 6...60, rateBasisPoints: 420, feeMinor: 0),
        LoanPrice(purpose: .personal, amounts: 100_000...2_000_000, months: 6...60, rateBasisPoints: 790, feeMinor: 0),
        LoanPrice(purpose: .personal, amounts: 2_000_001...8_000_000, months: 12...84, rateBasisPoints: 690, feeMinor: 0),
    ]

    func seed(_ site: Site) async throws {
        let staff = "demo"
        var advisorIndex = 0
        for spec in site.branches {
            let branch = try await branches.save(
                Branch(
                    code: spec.code, kind: .branch, name: spec.name, street: spec.street, postcode: spec.postcode, town: spec.town,
                    position: try GeoPoint(latitude: spec.lat, longitude: spec.lon), phone: spec.phone,
                    services: spec.services.split(separator: ",").compactMap { Branch.Service(rawValue: String($0)) },
                    hours: try WeeklyHours(parsing: spec.hours)), staff: staff)
            // The ATM in the branch's lobby keeps the branch's hours and its name (the finder
            // says "Bancomat" beside it, in the customer's language).
            _ = try await branches.save(
                Branch(
                    code: "ATM-\(spec.code)", kind: .atm, name: spec.name, street: spec.street, postcode: spec.postcode, town: spec.town,
                    position: branch.position, hours: branch.hours, parentID: branch.id, currencies: [.chf, .eur], deposit: true), staff: staff)
            // Advisors see customers on weekdays, with the branch's lunch break.
            let weekdays = WeeklyHours(days: (0..<7).map { $0 < 5 ? branch.hours.days[$0] : [] })
            for _ in 0..<spec.advisors {
                try await appointments.addAdvisor(
                    branch: branch.id, name: Self.advisorNames[advisorIndex % Self.advisorNames.count], hours: weekdays)
                advisorIndex += 1
            }
            if branch.services.contains(.foreignCash) {
                let large = spec.advisors > 1
                for (code, units) in [
                    ("EUR", large ? 20_000 : 3_000), ("USD", large ? 10_000 : 2_000), ("GBP", large ? 5_000 : 0), ("JPY", large ? 1_000_000 : 0),
                ]
                where units > 0 {
                    let currency = Currency(code: code)!
                    try await branches.setStock(
                        branch.id, Money(minorUnits: Int64(units) * (currency.minorDigits == 2 ? 100 : 1), currency: currency), staff: staff)
                }
            }
        }
        for spec in site.atms {
            _ = try await branches.save(
                Branch(
                    code: spec.code, kind: .atm, name: spec.name, street: spec.street, postcode: spec.postcode, town: spec.town,
                    position: try GeoPoint(latitude: spec.lat, longitude: spec.lon), hours: .alwaysOpen,
                    currencies: spec.currencies.split(separator: ",").compactMap { Currency(code: String($0)) }, deposit: spec.deposit), staff: staff)
        }
        try await fx.importRates(Data(Self.ratesSnapshot.utf8))
        try await loans.setPrices(Self.loanPrices)
    }
}
