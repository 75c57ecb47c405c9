extension IBAN {
    /// The IBAN exactly as a payment must carry it: electronic format. Input the server can
    /// repair is refused with the repaired value in `suggested`, for the user to confirm:
    /// spaces and lower case, and a CH/LI IBAN whose check pair has one mistyped digit.
    ///
    /// why not repair silently: the payer must see the account the money goes to.
    public init(strict text: String, field: String = "iban") throws {
        let iban: IBAN
        do {
            iban = try IBAN(text, field: field)
        } catch let error as DomainError {
            if let repaired = Self.checkPairRepair(text) {
                throw DomainError(error.code, field: field, "The check digits look mistyped. Did you mean \(repaired)?", suggested: repaired)
            }
            throw error
        }
        guard iban.electronic == text else {
            throw DomainError(.invalidIBAN, field: field, "Enter the IBAN without spaces, in capitals.", suggested: iban.electronic, rewritten: true)
        }
        self = iban
    }

    /// For a CH/LI IBAN of the right shape that fails mod 97: the one IBAN that differs in a
    /// single digit of the check pair and passes. `nil` when there is none (the mistake is
    /// elsewhere, and a guess would move money to a stranger).
    static func checkPairRepair(_ text: String) -> String? {
        let compact = Array(Self.compact(text))
        guard compact.count == 21, ["CH", "LI"].contains(String(compact.prefix(2))),
            compact.dropFirst(2).allSatisfy({ $0.isASCII && $0.isNumber })
        else { return nil }
        var found: [String] = []
        for position in [2, 3] {
            for digit in "0123456789" where digit != compact[position] {
                var candidate = compact
                candidate[position] = digit
                let string = String(candidate)
                if mod97(string) == 1 { found.append(string) }
            }
        }
        return found.count == 1 ? found[0] : nil
    }
}
