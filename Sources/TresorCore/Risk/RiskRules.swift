import TresorDomain

/// What the risk check can see about a payment and the customer making it.
public enum RiskSignal: String, Sendable, Codable, CaseIterable, Comparable {
    /// A device enrolled within `recent_hours`.
    case newDevice = "new_device"
    /// A passkey registered within `recent_hours`.
    case newPasskey = "new_passkey"
    /// The password was reset with a letter within `reset_hours`.
    case passwordReset = "password_reset"
    /// A browser never used before (not the customer's first) logged in within `recent_hours`.
    case newBrowser = "new_browser"
    /// Never paid before, and not whitelisted before `recent_hours` ago.
    case newPayee = "new_payee"
    /// At least `unusual_floor` and more than `unusual_factor` × the largest debit among the
    /// paying account's last `history_size` bookings.
    case unusualAmount = "unusual_amount"
    /// The payee's account is in a country this customer never paid to, nor the bank's own.
    case newCountry = "new_country"
    /// `burst_count` payments or more (this one included) within `burst_minutes`.
    case burst

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// What a rule makes of a payment, weakest first: the strongest of the rules that match wins.
public enum RiskAction: String, Sendable, Codable, Comparable {
    case allow
    /// The customer signs it, whatever the signing limit and whitelist say.
    case signature
    /// Held for the bank's review: the amount is reserved and nothing leaves until staff release it.
    case hold

    var rank: Int {
        switch self {
        case .allow: 0
        case .signature: 1
        case .hold: 2
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
}

/// One rule: when all its signals fire, its action applies.
public struct RiskRule: Sendable, Hashable, Codable {
    public var name: String
    public var when: [RiskSignal]
    public var action: RiskAction

    public init(_ name: String, when: [RiskSignal], _ action: RiskAction) {
        self.name = name
        self.when = when
        self.action = action
    }
}

/// The bank's rules for holding or stepping up suspicious payments, as data (`risk` in the
/// bank's `banks/<id>.json`): the thresholds the signals are measured by, and the rules.
/// why data, not code: fraud patterns change monthly, and a bank's fraud team tunes them
/// without a release.
public struct RiskRules: Sendable, Hashable, Codable {
    public var recentHours: Int = 24
    public var resetHours: Int = 72
    public var unusualFactor: Int = 3
    /// In minor units of the paying account's currency.
    public var unusualFloorMinor: Int64 = 50_000
    public var historySize: Int = 100
    public var burstCount: Int = 8
    public var burstMinutes: Int = 15
    public var rules: [RiskRule] = RiskRules.standardRules

    public init() {}

    /// The rules a bank has until it writes its own: each takeover pattern the fraud teams
    /// report is held; one signal alone at most asks for a signature.
    public static let standardRules: [RiskRule] = [
        RiskRule("takeover_new_device", when: [.newDevice, .newPayee, .unusualAmount], .hold),
        RiskRule("takeover_new_passkey", when: [.newPasskey, .newPayee, .unusualAmount], .hold),
        RiskRule("new_device_abroad", when: [.newDevice, .newCountry, .newPayee], .hold),
        RiskRule("new_passkey_abroad", when: [.newPasskey, .newCountry, .newPayee], .hold),
        RiskRule("after_reset_new_payee", when: [.passwordReset, .newPayee], .hold),
        RiskRule("burst_new_payees", when: [.burst, .newPayee], .hold),
        RiskRule("large_abroad", when: [.newCountry, .unusualAmount], .hold),
        RiskRule("new_browser_new_payee", when: [.newBrowser, .newPayee], .signature),
        RiskRule("unusual_amount", when: [.unusualAmount], .signature),
        RiskRule("new_country", when: [.newCountry], .signature),
    ]

    enum CodingKeys: String, CodingKey {
        case recentHours = "recent_hours"
        case resetHours = "reset_hours"
        case unusualFactor = "unusual_factor"
        case unusualFloorMinor = "unusual_floor_minor"
        case historySize = "history_size"
        case burstCount = "burst_count"
        case burstMinutes = "burst_minutes"
        case rules
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let standard = RiskRules()
        recentHours = try container.decodeIfPresent(Int.self, forKey: .recentHours) ?? standard.recentHours
        resetHours = try container.decodeIfPresent(Int.self, forKey: .resetHours) ?? standard.resetHours
        unusualFactor = try container.decodeIfPresent(Int.self, forKey: .unusualFactor) ?? standard.unusualFactor
        unusualFloorMinor = try container.decodeIfPresent(Int64.self, forKey: .unusualFloorMinor) ?? standard.unusualFloorMinor
        historySize = try container.decodeIfPresent(Int.self, forKey: .historySize) ?? standard.historySize
        burstCount = try container.decodeIfPresent(Int.self, forKey: .burstCount) ?? standard.burstCount
        burstMinutes = try container.decodeIfPresent(Int.self, forKey: .burstMinutes) ?? standard.burstMinutes
        rules = try container.decodeIfPresent([RiskRule].self, forKey: .rules) ?? standard.rules
    }

    /// Why a bank's `risk` cannot be used, or nil.
    public var problem: String? {
        if recentHours < 1 || resetHours < 1 || burstMinutes < 1 { return "risk: hours and minutes are at least 1" }
        if unusualFactor < 1 || unusualFloorMinor < 0 { return "risk: unusual_factor is at least 1, unusual_floor_minor at least 0" }
        if !(1...1_000).contains(historySize) { return "risk: history_size is 1 to 1000" }
        if burstCount < 2 { return "risk: burst_count is at least 2" }
        if let empty = rules.first(where: { $0.when.isEmpty }) { return "risk: rule \(empty.name) has no signal in `when`" }
        return nil
    }

    /// The signals `facts` show for a payment of `amountMinor` at `now`.
    public func signals(_ facts: RiskFacts, amountMinor: Int64, now: Int64) -> Set<RiskSignal> {
        let recent = now - Int64(recentHours) * 3_600_000
        func since(_ at: Int64?, _ from: Int64) -> Bool { at.map { $0 >= from } ?? false }
        var fired: Set<RiskSignal> = []
        if since(facts.newestDeviceAtMillis, recent) { fired.insert(.newDevice) }
        if since(facts.newestPasskeyAtMillis, recent) { fired.insert(.newPasskey) }
        if since(facts.lastResetAtMillis, now - Int64(resetHours) * 3_600_000) { fired.insert(.passwordReset) }
        if since(facts.newestBrowserAtMillis, recent) { fired.insert(.newBrowser) }
        let whitelistedLongAgo = facts.whitelistedAtMillis.map { $0 < recent } ?? false
        if !facts.payeePaidBefore && !whitelistedLongAgo { fired.insert(.newPayee) }
        if amountMinor >= unusualFloorMinor && amountMinor > Int64(unusualFactor) * facts.largestRecentDebitMinor {
            fired.insert(.unusualAmount)
        }
        if facts.countryIsNew { fired.insert(.newCountry) }
        if since(facts.burstStartAtMillis, now - Int64(burstMinutes) * 60_000) { fired.insert(.burst) }
        return fired
    }

    /// The strongest action among the rules whose signals all fired, and which rules those were.
    public func assess(_ facts: RiskFacts, amountMinor: Int64, now: Int64) -> RiskAssessment {
        let fired = signals(facts, amountMinor: amountMinor, now: now)
        let matched = rules.filter { Set($0.when).isSubset(of: fired) }
        let action = matched.map(\.action).max() ?? .allow
        return RiskAssessment(action: action, signals: fired.sorted(), rules: matched.filter { $0.action == action }.map(\.name))
    }
}

/// The risk check's answer for one payment.
public struct RiskAssessment: Sendable, Hashable {
    public var action: RiskAction
    public var signals: [RiskSignal]
    /// The rules that decided `action` (none for `allow`).
    public var rules: [String]

    public static let none = RiskAssessment(action: .allow, signals: [], rules: [])
}
