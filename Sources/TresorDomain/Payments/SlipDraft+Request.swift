extension SlipDraft {
    /// why here: a scanned or typed slip becomes the same request in every client (SDK, shell,
    /// future channels), so the rule lives with the draft, not in one of them.
    /// The payment this draft asks for, from `account`; `amount` fills a slip without one.
    public func paymentRequest(from account: AccountID, amount: Money? = nil, executionDate: LocalDate? = nil) -> PaymentRequest {
        switch type {
        case .qrbill:
            return PaymentRequest(
                type: .qrbill, debtorAccount: account, amount: self.amount ?? amount, executionDate: executionDate, qrbillPayload: qrbillPayload)
        default:
            return PaymentRequest(
                type: type, debtorAccount: account, amount: self.amount ?? amount, executionDate: executionDate, creditor: creditor,
                reference: reference?.value, message: message, codeLine: codeLine)
        }
    }
}
