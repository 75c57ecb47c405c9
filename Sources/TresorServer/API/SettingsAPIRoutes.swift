import Foundation
import Hummingbird
import TresorCore
import TresorDomain

/// The customer's settings the bank writes by: `GET /v1/settings` and `PUT /v1/settings`
/// `{"language", "notify_categories", "notify_threshold", "default_debit_account",
/// "debit_advice_from"}` (each optional on PUT; the last two cleared by `null`). Messages are
/// written in `language`; those of a category not in `notify_categories`, and payments below
/// `notify_threshold` (in the payment's own currency), land in the inbox without a live
/// notification.
struct SettingsAPIRoutes {
    let messages: MessageService
    let debits: DebitPreferenceService

    struct SettingsDTO: Codable {
        let language: String?
        let notifyCategories: [String]?
        let notifyThreshold: String?
        let defaultDebitAccount: String?
        let debitAdviceFrom: String?
        enum CodingKeys: String, CodingKey {
            case language
            case notifyCategories = "notify_categories"
            case notifyThreshold = "notify_threshold"
            case defaultDebitAccount = "default_debit_account"
            case debitAdviceFrom = "debit_advice_from"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(language, forKey: .language)
            try container.encodeIfPresent(notifyCategories, forKey: .notifyCategories)
            try container.encodeIfPresent(notifyThreshold, forKey: .notifyThreshold)
            // why written as null: absent and null mean different things on PUT; GET says "none".
            try container.encode(defaultDebitAccount, forKey: .defaultDebitAccount)
            try container.encode(debitAdviceFrom, forKey: .debitAdviceFrom)
        }
    }

    /// Which of the clearable settings a PUT names, `null` included.
    struct Named: Decodable {
        let keys: Set<String>
        init(from decoder: any Decoder) throws {
            keys = Set(try decoder.container(keyedBy: SettingsDTO.CodingKeys.self).allKeys.map(\.stringValue))
        }
    }

    func show(_ request: Request, context: TresorRequestContext) async throws -> Response {
        try await body(for: try context.requirePrincipal().customerID)
    }

    func body(for customer: CustomerID) async throws -> Response {
        let settings = try await messages.notificationSettings(of: customer)
        let preferences = try await debits.preferences(of: customer)
        return try JSON.response(
            SettingsDTO(
                language: try await messages.language(of: customer),
                notifyCategories: MessageCategory.allCases.filter { !settings.muted.contains($0) }.map(\.rawValue),
                notifyThreshold: Money(minorUnits: settings.thresholdMinor, currency: .chf).decimalString,
                defaultDebitAccount: preferences.defaultAccount.map { String($0.rawValue) },
                debitAdviceFrom: preferences.adviceFromMinor.map { Money(minorUnits: $0, currency: .chf).decimalString }))
    }

    func update(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let customer = try context.requirePrincipal().customerID
        let bytes = try await JSON.body(request)
        let input = try JSON.decode(SettingsDTO.self, from: bytes)
        let named = try JSON.decode(Named.self, from: bytes).keys
        // why refused: the document has no null for these (absent leaves them as they are).
        if named.contains("notify_threshold") && input.notifyThreshold == nil {
            throw DomainError(.invalidParameter, field: "notify_threshold", "A decimal amount from 0 to 1000000, not null.")
        }
        if named.contains("notify_categories") && input.notifyCategories == nil {
            throw DomainError(.invalidParameter, field: "notify_categories", "A list of categories (empty for none), not null.")
        }
        var preferences = try await debits.preferences(of: customer)
        if named.contains("default_debit_account") {
            preferences.defaultAccount = try input.defaultDebitAccount.map { text in
                guard let id = AccountID(text: text) else {
                    throw DomainError(.invalidParameter, field: "default_debit_account", "An account id, or null.")
                }
                return id
            }
        }
        if named.contains("debit_advice_from") {
            preferences.adviceFromMinor = try input.debitAdviceFrom.map {
                try Money(parsing: $0, currency: .chf, field: "debit_advice_from").minorUnits
            }
        }
        var settings = try await messages.notificationSettings(of: customer)
        if let categories = input.notifyCategories {
            var notify: Set<MessageCategory> = []
            for (index, name) in categories.enumerated() {
                guard let category = MessageCategory(rawValue: name) else {
                    throw DomainError(
                        .invalidParameter, field: "notify_categories.\(index)",
                        "A category is one of \(MessageCategory.allCases.map(\.rawValue).joined(separator: ", ")).")
                }
                notify.insert(category)
            }
            settings.muted = Set(MessageCategory.allCases).subtracting(notify)
        }
        if let threshold = input.notifyThreshold {
            settings.thresholdMinor = try Money(parsing: threshold, currency: .chf, field: "notify_threshold").minorUnits
        }
        let debitsNamed = named.contains("default_debit_account") || named.contains("debit_advice_from")
        // why checked first: a refused account changes nothing else of the request.
        if debitsNamed { try await debits.validate(preferences, for: customer) }
        if let language = input.language { try await messages.setLanguage(language, of: customer) }
        try await messages.setNotificationSettings(settings, of: customer)
        if debitsNamed { try await debits.set(preferences, for: customer) }
        return try await body(for: customer)
    }
}
