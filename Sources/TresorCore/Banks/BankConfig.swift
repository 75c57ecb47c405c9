import Foundation
import TresorDomain

/// One bank of a deployment, as its operators describe it in `banks/<id>.json`.
///
/// Tenancy rule (README, "Several banks"): every bank has a database of its own. A request is
/// matched to its bank by host name (or the `/banks/<id>/` prefix of the API) before any
/// service runs, and only that bank's services are reachable from it. No table carries a bank
/// column and no query filters by bank: isolation holds by construction, not by every query
/// remembering a `WHERE`.
public struct BankConfig: Sendable, Hashable, Codable {
    /// Lower-case letters, digits and `-`, 1–32 characters: used in file names, URL prefixes
    /// and blob-store folders.
    public var id: String
    public var name: String
    /// Swiss IID the bank's IBANs are built from; must match the one its database was founded with.
    public var clearing: Int
    public var bic: String?
    /// Host names (no port) whose requests belong to this bank.
    public var hosts: [String]
    /// Requests whose host names no bank serves go to the default bank (at most one).
    public var isDefault: Bool
    /// An SQLite path (relative to the configuration folder) or a `postgres://` URL; `${NAME}`
    /// is replaced by the environment variable, so passwords stay out of the file.
    public var database: String
    /// The languages the bank speaks to its customers; the first is the default.
    public var languages: [String]
    public var theme: Theme?
    /// Payments to whitelisted payees up to this amount need no signature (`"1000.00"`, CHF).
    public var signingLimit: String?
    /// The currencies the bank keeps own accounts in when it is founded.
    public var currencies: [String]
    /// The factors a login needs for full access (`AuthConfig.loginFactors`): 2 (password and
    /// an authenticator app or the device) for a bank `tresor banks add` makes; 1 where the file
    /// does not say (the demo banks, so the README's password logins stay simple).
    public var loginFactors: Int
    /// The risk check's thresholds and rules (`RiskRules`); the standard ones where the file has none.
    public var risk: RiskRules?

    public struct Theme: Sendable, Hashable, Codable {
        public var brand: String
        public var brandContrast: String
        /// Path of an SVG file, relative to the configuration folder.
        public var logoSVG: String?

        public init(brand: String, brandContrast: String, logoSVG: String? = nil) {
            self.brand = brand
            self.brandContrast = brandContrast
            self.logoSVG = logoSVG
        }

        enum CodingKeys: String, CodingKey {
            case brand
            case brandContrast = "brand_contrast"
            case logoSVG = "logo_svg"
        }
    }

    /// The languages the web app and messages are written in (Arabic right to left).
    public static let knownLanguages = ["de", "fr", "it", "en", "ar"]
    /// What a bank speaks when its file does not say: the four of Switzerland.
    public static let defaultLanguages = ["de", "fr", "it", "en"]

    public init(
        id: String, name: String, clearing: Int, bic: String? = nil, hosts: [String], isDefault: Bool = false, database: String,
        languages: [String] = BankConfig.defaultLanguages, theme: Theme? = nil, signingLimit: String? = nil, currencies: [String] = ["CHF", "EUR"],
        loginFactors: Int = 1
    ) {
        self.id = id
        self.name = name
        self.clearing = clearing
        self.bic = bic
        self.hosts = hosts
        self.isDefault = isDefault
        self.database = database
        self.languages = languages
        self.theme = theme
        self.signingLimit = signingLimit
        self.currencies = currencies
        self.loginFactors = loginFactors
    }

    enum CodingKeys: String, CodingKey {
        case id, name, clearing, bic, hosts, database, languages, theme, currencies
        case isDefault = "default"
        case signingLimit = "signing_limit_chf"
        case loginFactors = "login_factors"
        case risk
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        clearing = try container.decode(Int.self, forKey: .clearing)
        bic = try container.decodeIfPresent(String.self, forKey: .bic)
        hosts = try container.decodeIfPresent([String].self, forKey: .hosts) ?? []
        isDefault = try container.decodeIfPresent(Bool.self, forKey: .isDefault) ?? false
        database = try container.decode(String.self, forKey: .database)
        languages = try container.decodeIfPresent([String].self, forKey: .languages) ?? Self.defaultLanguages
        theme = try container.decodeIfPresent(Theme.self, forKey: .theme)
        signingLimit = try container.decodeIfPresent(String.self, forKey: .signingLimit)
        currencies = try container.decodeIfPresent([String].self, forKey: .currencies) ?? ["CHF", "EUR"]
        loginFactors = try container.decodeIfPresent(Int.self, forKey: .loginFactors) ?? 1
        risk = try container.decodeIfPresent(RiskRules.self, forKey: .risk)
    }

    /// The signing policy this bank's payments are decided by.
    public func signingPolicy() throws -> SigningPolicy {
        var policy = SigningPolicy()
        if let risk { policy.risk = risk }
        if let signingLimit {
            policy.defaultLimitMinor = try Money(parsing: signingLimit, currency: .chf, field: "signing_limit_chf").minorUnits
        }
        return policy
    }

    /// The founding currencies, parsed.
    public var bookedCurrencies: [Currency] { currencies.compactMap(Currency.init(code:)) }
}
