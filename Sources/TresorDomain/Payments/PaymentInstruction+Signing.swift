extension PaymentInstruction {
    /// The payee as one canonical string: what a signature is bound to besides the amount.
    public var payeeIdentity: String {
        switch type {
        case .internal: "account:\(creditorAccount?.description ?? "")"
        case .iban, .qrbill: "iban:\(creditorIBAN?.electronic ?? "")"
        case .esr: "participant:\(participant ?? "")"
        case .topup: "topup:\(topup?.operator ?? ""):\(topup?.phone ?? "")"
        }
    }

    /// The canonical transaction summary a signature covers (PSD2 RTS art. 5 dynamic linking):
    /// amount, currency and payee. Any change to one of them changes the summary, and so
    /// invalidates a signature or code made for the old one.
    public var signingSummary: String {
        "tresor-sign-v1|\(amount.currency.code)|\(amount.decimalString)|\(payeeIdentity)"
    }
}
