import Foundation
import Hummingbird
import TresorCore
import TresorDomain

/// The customer's settings the bank writes by: `GET /v1/settings` and `PUT /v1/settings`
/// `{"language", "notify_categories", "notify_threshold"}` (each optional on PUT). Messages are
/// written in `language`; those of a category not in `notify_categories`, and payments below
/// `notify_threshold` (in the payment's own currency), land in the inbox without a live
/// notification.
struct SettingsAPIRoutes {
    let messages: MessageService

    struct SettingsDTO: Codable {
        let language: String?
        let notifyCategories: [String]?
        let notifyThreshold: String?
        enum CodingKeys: String, CodingKey {
            case language
            case notifyCategories = "notify_categories"
            case notifyThreshold = "notify_threshold"
        }
    }

    func show(_ request: Request, context: TresorRequestContext) async throws -> Response {
        try await body(for: try context.requirePrincipal().customerID)
    }

    func body(for customer: CustomerID) async throws -> Response {
        let settings = try await messages.notificationSettings(of: customer)
        return try JSON.response(
            SettingsDTO(
                language: try await messages.language(of: customer),
                notifyCategories: MessageCategory.allCases.filter { !settings.muted.contains($0) }.map(\.rawValue),
                notifyThreshold: Money(minorUnits: settings.thresholdMinor, currency: .chf).decimalString))
    }

    func update(_ request: Request, context: TresorRequestContext) async throws -> Response {
        let customer = try context.requirePrincipal().customerID
        let input = try JSON.decode(SettingsDTO.self, from: try await JSON.body(request))
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
        if let language = input.language { try await messages.setLanguage(language, of: customer) }
        try await messages.setNotificationSettings(settings, of: customer)
        return try await body(for: customer)
    }
}
