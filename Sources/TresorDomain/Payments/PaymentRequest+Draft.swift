extension PaymentRequest {
    /// The request that would produce `instruction` again (without a date). A QR-bill comes
    /// back as its data, so a repeat or a template does not depend on the original payload.
    public init(draftOf instruction: PaymentInstruction) {
        var creditor: CreditorInput?
        if let account = instruction.creditorAccount, instruction.type == .internal {
            creditor = CreditorInput(account: account)
        } else if instruction.creditor != nil || instruction.creditorIBAN != nil {
            let address = instruction.creditor
            creditor = CreditorInput(
                name: address?.name, iban: instruction.creditorIBAN?.electronic, bic: instruction.creditorBIC?.code, street: address?.street,
                buildingNumber: address?.buildingNumber, postalCode: address?.postalCode, town: address?.town, country: address?.country)
        }
        switch instruction.type {
        case .qrbill:
            let bill = QRBill(
                account: instruction.creditorIBAN!, creditor: instruction.creditor!, amount: instruction.amount,
                currency: instruction.amount.currency, ultimateDebtor: instruction.ultimateDebtor, reference: instruction.reference,
                message: instruction.message, billingInformation: instruction.billingInformation)
            self.init(type: .qrbill, debtorAccount: instruction.debtorAccount, amount: instruction.amount, qrbillPayload: bill.payload)
        case .esr:
            let codeLine =
                instruction.reference.map {
                    SlipCodeLine.make(
                        documentType: instruction.amount.currency == .eur ? "31" : "04", amount: nil, reference: $0.value,
                        participant: instruction.participant!)
                } ?? "\(instruction.participant!)>"
            self.init(
                type: .esr, debtorAccount: instruction.debtorAccount, amount: instruction.amount, creditor: creditor, message: instruction.message,
                codeLine: codeLine)
        case .topup:
            self.init(
                type: .topup, debtorAccount: instruction.debtorAccount, amount: instruction.amount,
                topup: instruction.topup.map { TopUpInput(operator: $0.operator, phone: $0.phone) })
        case .internal, .iban:
            self.init(
                type: instruction.type, debtorAccount: instruction.debtorAccount, amount: instruction.amount, creditor: creditor,
                reference: instruction.reference?.value, message: instruction.message)
        }
    }
}
