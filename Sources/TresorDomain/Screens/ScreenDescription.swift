import Foundation

/// A screen as the server describes it to every client: sections of typed fields, the rules
/// that check them (by name, the `TresorDomain` validators), and what the screen's buttons do.
/// The web app renders its pay forms from these, native clients draw them, and a bank changes a
/// screen by publishing `screens/<id>.json` in its resource pack. JSON Schema:
/// `Sources/TresorServer/Resources/screens/screen.schema.json`, served at `/v1/ui/schema`. In
/// `TresorDomain` so that native clients (TresorKit) decode and check descriptions with the very
/// types and rules the server uses.
public struct ScreenDescription: Sendable, Hashable, Codable {
    /// The format's version; a client that knows a lower one must not draw the screen.
    public var format: Int
    public var id: String
    /// A label key (looked up in the bank's language pack) or literal text.
    public var title: String
    public var sections: [Section]
    public var actions: [Action]

    public struct Section: Sendable, Hashable, Codable {
        public var id: String
        public var title: String?
        public var fields: [Field]
    }

    public struct Field: Sendable, Hashable, Codable {
        public var name: String
        public var type: FieldType
        /// A label key or literal text; so are `help` and the choices' labels.
        public var label: String
        public var help: String?
        public var required: Bool?
        /// Names of validators: `iban`, `amount`, `reference`, `qr_reference`, `creditor_reference`,
        /// `code_line`, `qrbill_payload`, `phone`, `date_today_or_later`, `bic`.
        public var validate: [String]?
        public var maxLength: Int?
        public var choices: [Choice]?
        /// Where the choices come from at run time: `accounts`, `topup_operators`.
        public var choicesFrom: String?
        public var visibleWhen: Condition?
        /// A value the bank fixes (a donation's payee, a set message): shown, not editable, and
        /// what the server uses whatever a client sends.
        public var readOnly: Bool?
        public var value: String?

        public init(
            name: String, type: FieldType, label: String, help: String? = nil, required: Bool? = nil, validate: [String]? = nil,
            maxLength: Int? = nil, choices: [Choice]? = nil, choicesFrom: String? = nil, visibleWhen: Condition? = nil,
            readOnly: Bool? = nil, value: String? = nil
        ) {
            self.name = name
            self.type = type
            self.label = label
            self.help = help
            self.required = required
            self.validate = validate
            self.maxLength = maxLength
            self.choices = choices
            self.choicesFrom = choicesFrom
            self.visibleWhen = visibleWhen
            self.readOnly = readOnly
            self.value = value
        }

        enum CodingKeys: String, CodingKey {
            case name, type, label, help, required, validate, choices, value
            case maxLength = "max_length"
            case readOnly = "read_only"
            case choicesFrom = "choices_from"
            case visibleWhen = "visible_when"
        }

        public var isRequired: Bool { required ?? false }
        /// The value the bank fixed, when the field is read-only.
        public var fixedValue: String? { readOnly == true ? value : nil }
    }

    public enum FieldType: String, Sendable, Hashable, Codable, CaseIterable {
        case text, multiline, iban, amount, date, reference, account, choice, phone, password, number
        /// What a phone shows for typing it.
        public var inputMode: String? {
            switch self {
            case .amount: "decimal"
            case .phone: "tel"
            case .number: "numeric"
            default: nil
            }
        }
    }

    public struct Choice: Sendable, Hashable, Codable {
        public var value: String
        public var label: String
    }

    /// Shows a field only when another field has a value (`not_empty`) or a given one (`equals`).
    public struct Condition: Sendable, Hashable, Codable {
        public var field: String
        public var equals: String?
        public var notEmpty: Bool?

        public init(field: String, equals: String? = nil, notEmpty: Bool? = nil) {
            self.field = field
            self.equals = equals
            self.notEmpty = notEmpty
        }

        enum CodingKeys: String, CodingKey {
            case field, equals
            case notEmpty = "not_empty"
        }
    }

    public struct Action: Sendable, Hashable, Codable {
        public var id: String
        /// `submit` (send the fields to `route`), `navigate` (open `screen`), `scan` (photograph `scan`).
        public var kind: Kind
        public var label: String
        /// For `submit`: `POST /v1/payments` and the like.
        public var route: String?
        public var screen: String?
        public var scan: String?

        public enum Kind: String, Sendable, Hashable, Codable {
            case submit, navigate, scan
        }
    }

    /// Every field, in order, across sections.
    public var fields: [Field] { sections.flatMap(\.fields) }

    /// The format this server writes and reads.
    public static let currentFormat = 1
}
