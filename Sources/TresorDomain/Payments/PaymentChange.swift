/// An edit of a pending payment: `PATCH /v1/payments/{id}`. Absent fields stay as they are.
public struct PaymentChange: Hashable, Sendable, Codable {
    public var amount: Money?
    public var executionDate: LocalDate?
    public var message: String?

    enum CodingKeys: String, CodingKey {
        case amount
        case executionDate = "execution_date"
        case message
    }

    public init(amount: Money? = nil, executionDate: LocalDate? = nil, message: String? = nil) {
        self.amount = amount
        self.executionDate = executionDate
        self.message = message
    }

    /// Applies the change to `instruction`, with the same rules as a new payment.
    public func applied(to instruction: PaymentInstruction) throws -> PaymentInstruction {
        var changed = instruction
        if let amount {
            guard amount.currency == instruction.amount.currency else {
                throw DomainError(.currencyMismatch, field: "amount", "The payment is in \(instruction.amount.currency.code).")
            }
            guard amount.minorUnits > 0 else {
                throw DomainError(.amountNotPositive, field: "amount", "The amount must be more than zero.")
            }
            if instruction.type == .topup, let op = TopUpOperator.named(instruction.topup?.operator ?? ""), !op.denominations.contains(amount) {
                throw DomainError(
                    .invalidDenomination, field: "amount", "\(op.name) sells \(op.denominations.map(\.decimalString).joined(separator: ", ")).")
            }
            changed.amount = amount
        }
        if var message {
            if instruction.type.leavesTheBank { message = try PaymentText.checked(message, field: "message") }
            try TextLength.check(message, field: "message", max: PaymentRequest.messageLengthMax)
            changed.message = message.isEmpty ? nil : message
        }
        return changed
    }
}
