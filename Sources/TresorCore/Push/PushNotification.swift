import Foundation

/// What a lock screen shows of one inbox message: its subject and body when the customer
/// allowed details on that device, else only what kind of news it is (no amount, no
/// counterparty, no branch), in the customer's language. The payload the service worker (and
/// the app) reads: `{"id", "title", "body", "url", "tag"}`.
public struct PushNotification: Sendable, Hashable, Codable {
    public let id: Int64
    public let title: String
    public let body: String
    /// The screen a tap opens.
    public let url: String
    /// One per message: a second delivery of the same message replaces the first on the device.
    public let tag: String

    public init(message id: Int64, category: MessageCategory, subject: String, body: String, language: String?, details: Bool) {
        self.id = id
        let index = MessageText.languages.firstIndex(of: language ?? MessageText.defaultLanguage) ?? 3
        if details {
            title = subject
            self.body = body
        } else {
            title = Self.titles[category]![index]
            self.body = Self.openTheApp[index]
        }
        url = Self.screens[category]!
        tag = "m\(id)"
    }

    /// The JSON the service worker parses.
    public var payload: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try! encoder.encode(self))
    }

    /// How long a push service keeps a message for a device that is off (`TTL`, seconds), and
    /// how soon it must arrive (`Urgency`, RFC 8030 §5.3: `high` may wake a phone on low
    /// battery). Security alerts stay longest and wake it; a budget note can wait.
    public static func delivery(of category: MessageCategory) -> (ttl: Int, urgency: String) {
        switch category {
        case .security: (28 * 86_400, "high")
        case .payments: (4 * 86_400, "normal")
        case .appointments: (2 * 86_400, "normal")
        case .documents, .budget: (7 * 86_400, "low")
        }
    }

    /// de, fr, it, en, ar (`MessageText.languages`).
    static let titles: [MessageCategory: [String]] = [
        .payments: ["Neue Zahlungsmitteilung", "Nouvel avis de paiement", "Nuovo avviso di pagamento", "New payment notice", "إشعار دفع جديد"],
        .appointments: [
            "Neuigkeit zu Ihrem Termin", "Du nouveau pour votre rendez-vous", "Novità sul vostro appuntamento", "News about your appointment",
            "مستجدات بشأن موعدك",
        ],
        .documents: ["Neues Dokument", "Nouveau document", "Nuovo documento", "New document", "مستند جديد"],
        .security: ["Sicherheitshinweis", "Alerte de sécurité", "Avviso di sicurezza", "Security alert", "تنبيه أمني"],
        .budget: ["Budget-Hinweis", "Alerte budget", "Avviso sul budget", "Budget alert", "تنبيه الميزانية"],
    ]
    static let openTheApp = [
        "Öffnen Sie die App für die Details.", "Ouvrez l’app pour voir les détails.", "Aprite l’app per i dettagli.",
        "Open the app for the details.", "افتح التطبيق لمعرفة التفاصيل.",
    ]
    /// why the inbox for payments: the message names the payment, and the inbox links it.
    static let screens: [MessageCategory: String] = [
        .payments: "/inbox", .appointments: "/appointments", .documents: "/documents", .security: "/settings", .budget: "/budget",
    ]
}
