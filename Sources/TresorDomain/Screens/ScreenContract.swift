/// What the server understands of one screen, whatever a bank's description of it says: the
/// fields its route reads (each with the types that may present it), those a bank may not remove
/// or make conditional (the route cannot do without them), and where it submits. A description
/// is checked against its contract, so a bank can reorder, relabel, add help, make optional
/// fields mandatory or hide them, but never describe a screen the server cannot serve.
public struct ScreenContract: Sendable {
    public let id: String
    let fields: [String: Set<ScreenDescription.FieldType>]
    let kept: Set<String>
    let route: String?

    /// Validator names a field may ask for (the `TresorDomain` rules behind them).
    public static let validators: Set<String> = [
        "iban", "amount", "reference", "qr_reference", "creditor_reference", "code_line", "qrbill_payload", "phone",
        "date_today_or_later", "bic",
    ]
    /// Run-time sources of choices.
    public static let choiceSources: Set<String> = ["accounts", "topup_operators", "template_folders", "languages", "signing_providers"]
    public static let scanTargets: Set<String> = ["slip", "receipt"]

    static let payment: [String: Set<ScreenDescription.FieldType>] = [
        "debtor_account": [.account], "amount": [.amount], "execution_date": [.date], "message": [.text, .multiline],
    ]

    public static let all: [String: ScreenContract] = Dictionary(
        uniqueKeysWithValues: [
            ScreenContract(
                id: "pay-internal", fields: payment.merging(["creditor_account": [.account]]) { $1 },
                kept: ["debtor_account", "creditor_account", "amount"], route: "POST /v1/payments"),
            ScreenContract(
                id: "pay-iban",
                fields: payment.merging(
                    [
                        "creditor_name": [.text], "creditor_iban": [.iban, .text], "creditor_street": [.text],
                        "creditor_building_number": [.text], "creditor_postal_code": [.text, .number], "creditor_town": [.text],
                        "reference": [.reference, .text],
                    ]
                ) { $1 },
                kept: ["debtor_account", "creditor_name", "creditor_iban", "creditor_postal_code", "creditor_town", "amount"],
                route: "POST /v1/payments"),
            ScreenContract(
                id: "pay-qrbill", fields: payment.merging(["qrbill_payload": [.multiline]]) { $1 },
                kept: ["debtor_account", "qrbill_payload"], route: "POST /v1/payments"),
            ScreenContract(
                id: "pay-esr", fields: payment.merging(["code_line": [.number, .text]]) { $1 }, kept: ["debtor_account", "code_line"],
                route: "POST /v1/payments"),
            ScreenContract(
                id: "pay-topup", fields: payment.merging(["topup_operator": [.choice], "topup_phone": [.phone]]) { $1 },
                kept: ["debtor_account", "topup_operator", "topup_phone", "amount"], route: "POST /v1/payments"),
            ScreenContract(
                id: "login", fields: ["contract": [.number, .text], "password": [.password], "remember": [.choice]],
                kept: ["contract", "password"], route: "POST /v1/sessions"),
            ScreenContract(
                id: "templates", fields: ["name": [.text], "folder_id": [.choice], "from_payment": [.text]], kept: ["name"],
                route: "POST /v1/templates"),
            ScreenContract(
                id: "settings", fields: ["language": [.choice], "signing_provider": [.choice]], kept: ["signing_provider"],
                route: "PUT /v1/signing/provider"),
        ].map { ($0.id, $0) })

    /// The screens every bank has; a bank's pack may describe any of them anew.
    public static var ids: [String] { all.keys.sorted() }
}
