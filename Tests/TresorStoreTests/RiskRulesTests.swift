import Foundation
import Testing
import TresorDomain

@testable import TresorCore

/// The rules as a bank writes them, and the signals they are measured by.
@Suite("Risk rules: the bank's data, and the signals")
struct RiskRulesTests {
    static let now: Int64 = 1_800_000_000_000
    static let hour: Int64 = 3_600_000

    @Test("each signal fires at its threshold and not before")
    func thresholds() {
        let rules = RiskRules()
        var facts = RiskFacts()
        facts.payeePaidBefore = true
        facts.largestRecentDebitMinor = 20_000
        #expect(rules.signals(facts, amountMinor: 60_000, now: Self.now).isEmpty)
        #expect(rules.signals(facts, amountMinor: 60_001, now: Self.now) == [.unusualAmount])
        // Below the floor nothing is unusual, however small the history.
        facts.largestRecentDebitMinor = 0
        #expect(rules.signals(facts, amountMinor: 49_999, now: Self.now).isEmpty)
        facts.newestDeviceAtMillis = Self.now - 24 * Self.hour
        facts.newestPasskeyAtMillis = Self.now - 24 * Self.hour - 1
        facts.lastResetAtMillis = Self.now - 72 * Self.hour
        facts.newestBrowserAtMillis = Self.now - 25 * Self.hour
        facts.burstStartAtMillis = Self.now - 15 * 60_000
        #expect(rules.signals(facts, amountMinor: 100, now: Self.now) == [.newDevice, .passwordReset, .burst])
        facts.burstStartAtMillis = Self.now - 15 * 60_000 - 1
        facts.payeePaidBefore = false
        facts.whitelistedAtMillis = Self.now - 25 * Self.hour
        #expect(!rules.signals(facts, amountMinor: 100, now: Self.now).contains(.newPayee))
        facts.whitelistedAtMillis = Self.now - 23 * Self.hour
        #expect(rules.signals(facts, amountMinor: 100, now: Self.now).contains(.newPayee))
    }

    @Test("the strongest matching rule decides; its name and the signals are reported")
    func strongest() {
        let rules = RiskRules()
        var facts = RiskFacts()
        facts.countryIsNew = true
        var assessed = rules.assess(facts, amountMinor: 10_000, now: Self.now)
        #expect(assessed.action == .signature)
        #expect(assessed.rules == ["new_country"])
        facts.newestDeviceAtMillis = Self.now - Self.hour
        assessed = rules.assess(facts, amountMinor: 10_000, now: Self.now)
        #expect(assessed.action == .hold)
        #expect(assessed.rules == ["new_device_abroad"])
        #expect(assessed.signals == [.newCountry, .newDevice, .newPayee])
        #expect(rules.assess(RiskFacts(), amountMinor: 100, now: Self.now).action == .allow)
    }

    @Test("a bank's file: thresholds and rules of its own, the rest standard; a wrong one is refused at its field")
    func fromTheBanksFile() throws {
        let json = """
            {"id": "alpen", "name": "Alpenbank", "clearing": 8888, "database": "alpen.sqlite", "default": true,
             "risk": {"unusual_factor": 5, "rules": [{"name": "strict", "when": ["new_payee"], "action": "hold"}]}}
            """
        let config = try JSONDecoder().decode(BankConfig.self, from: Data(json.utf8))
        try config.validate(file: "alpen.json")
        let policy = try config.signingPolicy()
        #expect(policy.risk.unusualFactor == 5)
        #expect(policy.risk.recentHours == 24)
        #expect(policy.risk.rules == [RiskRule("strict", when: [.newPayee], .hold)])
        #expect(policy.risk.assess(RiskFacts(), amountMinor: 100, now: Self.now).action == .hold)
        // Without `risk`, the standard rules.
        let plain = try JSONDecoder().decode(
            BankConfig.self, from: Data(#"{"id": "b", "name": "B", "clearing": 1, "database": "b.sqlite", "default": true}"#.utf8))
        #expect(try plain.signingPolicy().risk == RiskRules())
        // A signal that does not exist is refused when the file is read.
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(RiskRules.self, from: Data(#"{"rules": [{"name": "x", "when": ["full_moon"], "action": "hold"}]}"#.utf8))
        }
        var broken = config
        broken.risk?.rules = [RiskRule("empty", when: [], .hold)]
        #expect(throws: BankConfigError.self) { try broken.validate(file: "alpen.json") }
        broken.risk = RiskRules()
        broken.risk?.burstCount = 1
        #expect(throws: BankConfigError.self) { try broken.validate(file: "alpen.json") }
    }
}
