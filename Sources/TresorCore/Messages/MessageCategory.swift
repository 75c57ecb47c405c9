/// What a message is about: the inbox filters by it, and a customer chooses which notify.
public enum MessageCategory: String, Sendable, CaseIterable, Codable {
    case payments, appointments, documents, security, budget
}
