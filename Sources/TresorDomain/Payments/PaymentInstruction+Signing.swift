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

/// What a whitelist entry must hold for a payment's payee to count as trusted.
public struct WhitelistPayee: Hashable, Sendable {
    public let iban: IBAN
    /// A red slip's postal account: the entry does not count when the account is a bank's, as
    /// the slip then pays one of that bank's customers, whom its code line does not name.
    public let postalAccount: String?

    public init(iban: IBAN, postalAccount: String? = nil) {
        self.iban = iban
        self.postalAccount = postalAccount
    }

    /// A slip's payee: a red slip's postal account; none for an orange slip, whose participant
    /// number can be a bank's, carried by all its billers' slips (the reference names the biller).
    public static func slip(participant: String, reference: PaymentReference?) -> WhitelistPayee? {
        guard reference == nil, let iban = SlipCodeLine.postalIBAN(participant) else { return nil }
        return WhitelistPayee(iban: iban, postalAccount: participant)
    }
}

extension PaymentInstruction {
    /// The creditor's IBAN; for a red slip, its postal account's (PostFinance, clearing 9000).
    public var whitelistPayee: WhitelistPayee? {
        if let creditorIBAN { return WhitelistPayee(iban: creditorIBAN) }
        guard type == .esr, let participant else { return nil }
        return .slip(participant: participant, reference: reference)
    }
}
