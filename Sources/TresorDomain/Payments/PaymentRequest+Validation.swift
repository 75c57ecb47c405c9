extension PaymentRequest {
    /// Checks everything that needs no data of the bank: presence of the type's fields, IBAN,
    /// BIC, addresses, references, QR-bill and code line, message length, top-up. Account
    /// ownership, balances and dates are the server's part.
    public func validated() throws -> PaymentInstruction {
        let message = type.leavesTheBank ? try self.message.map { try PaymentText.checked($0, field: "message") } : self.message
        try TextLength.check(message, field: "message", max: Self.messageLengthMax)
        var instruction: PaymentInstruction
        switch type {
        case .internal:
            instruction = try validatedInternal()
        case .iban:
            instruction = try validatedIBAN()
        case .qrbill:
            instruction = try validatedQRBill()
        case .esr:
            instruction = try validatedSlip()
        case .topup:
            instruction = try validatedTopUp()
        }
        if instruction.message == nil { instruction.message = message.nonEmpty }
        guard instruction.amount.minorUnits > 0 else {
            throw DomainError(.amountNotPositive, field: "amount", "The amount must be more than zero.")
        }
        return instruction
    }

    func requiredAmount() throws -> Money {
        guard let amount else { throw DomainError(.missingField, field: "amount", "Enter an amount.") }
        return amount
    }

    private func validatedInternal() throws -> PaymentInstruction {
        guard let account = creditor?.account else {
            throw DomainError(.missingField, field: "creditor.account", "Choose the account to transfer to.")
        }
        guard account != debtorAccount else {
            throw DomainError(.sameAccount, field: "creditor.account", "Choose a different account to transfer to.")
        }
        var instruction = PaymentInstruction(type: .internal, debtorAccount: debtorAccount, amount: try requiredAmount())
        instruction.creditorAccount = account
        return instruction
    }

    private func validatedIBAN() throws -> PaymentInstruction {
        guard let creditor, let ibanText = creditor.iban, !ibanText.isEmpty else {
            throw DomainError(.missingField, field: "creditor.iban", "Enter the payee's IBAN.")
        }
        let iban = try IBAN(strict: ibanText, field: "creditor.iban")
        guard let address = try creditor.address(field: "creditor") else {
            throw DomainError(.missingField, field: "creditor.name", "Enter the payee's name.")
        }
        var instruction = PaymentInstruction(type: .iban, debtorAccount: debtorAccount, amount: try requiredAmount())
        instruction.creditorIBAN = iban
        instruction.creditorBIC = try creditor.bic.nonEmpty.map { try BIC($0, field: "creditor.bic") }
        instruction.creditor = address
        if let reference = reference.nonEmpty {
            guard !iban.isQRIBAN else {
                throw DomainError(.qrbillQRIBANRequiresQRR, field: "creditor.iban", "A QR-IBAN is paid with a QR-bill.")
            }
            instruction.reference = try PaymentReference.creditorReference(reference)
        } else if iban.isQRIBAN {
            throw DomainError(.qrbillQRIBANRequiresQRR, field: "creditor.iban", "A QR-IBAN is paid with a QR-bill.")
        }
        return instruction
    }

    private func validatedQRBill() throws -> PaymentInstruction {
        guard let payload = qrbillPayload, !payload.isEmpty else {
            throw DomainError(.missingField, field: "qrbill_payload", "Scan or paste the QR-bill.")
        }
        let bill: QRBill
        do {
            bill = try QRBill(payload: payload)
        } catch let error as DomainError {
            // why: the client sent one field; name the element inside it.
            throw DomainError(
                error.code, field: "qrbill_payload.\(error.field ?? "payload")", error.message, suggested: error.suggested, rewritten: error.rewritten
            )
        }
        let amount: Money
        if let fixed = bill.amount {
            if let given = self.amount, given != fixed {
                throw DomainError(.invalidAmount, field: "amount", "The bill fixes the amount at \(fixed).", suggested: fixed.decimalString)
            }
            amount = fixed
        } else {
            amount = try requiredAmount()
            guard amount.currency == bill.currency else {
                throw DomainError(.currencyMismatch, field: "amount", "The bill is payable in \(bill.currency.code).")
            }
            guard amount.minorUnits <= QRBill.amountMinorMax else {
                throw DomainError(.amountTooLarge, field: "amount", "A QR-bill is at most 999999999.99.")
            }
        }
        var instruction = PaymentInstruction(type: .qrbill, debtorAccount: debtorAccount, amount: amount)
        instruction.creditorIBAN = bill.account
        instruction.creditor = bill.creditor
        instruction.reference = bill.reference
        instruction.message = bill.message
        instruction.ultimateDebtor = bill.ultimateDebtor
        instruction.billingInformation = bill.billingInformation
        return instruction
    }

    private func validatedSlip() throws -> PaymentInstruction {
        guard let codeLine, !codeLine.isEmpty else {
            throw DomainError(.missingField, field: "code_line", "Enter the code line printed at the bottom of the slip.")
        }
        let slip = try SlipCodeLine(codeLine)
        let amount: Money
        if let fixed = slip.amount {
            if let given = self.amount, given != fixed {
                throw DomainError(.invalidAmount, field: "amount", "The slip fixes the amount at \(fixed).", suggested: fixed.decimalString)
            }
            amount = fixed
        } else {
            amount = try requiredAmount()
            guard amount.currency == slip.currency else {
                throw DomainError(.currencyMismatch, field: "amount", "The slip is payable in \(slip.currency.code).")
            }
        }
        var instruction = PaymentInstruction(type: .esr, debtorAccount: debtorAccount, amount: amount)
        instruction.participant = slip.participant
        instruction.reference = slip.reference
        instruction.creditor = try creditor?.address(field: "creditor")
        return instruction
    }

    private func validatedTopUp() throws -> PaymentInstruction {
        guard let topup else { throw DomainError(.missingField, field: "topup", "Choose the operator and phone number.") }
        guard let op = TopUpOperator.named(topup.operator) else {
            throw DomainError(.unknownOperator, field: "topup.operator", "Choose one of: \(TopUpOperator.all.map(\.id).joined(separator: ", ")).")
        }
        let phone = try TopUpOperator.phoneNumber(topup.phone)
        let amount = try requiredAmount()
        guard op.denominations.contains(amount) else {
            throw DomainError(
                .invalidDenomination, field: "amount", "\(op.name) sells \(op.denominations.map(\.decimalString).joined(separator: ", ")).")
        }
        var instruction = PaymentInstruction(type: .topup, debtorAccount: debtorAccount, amount: amount)
        instruction.topup = PaymentInstruction.TopUp(operator: op.id, phone: phone)
        return instruction
    }
}
