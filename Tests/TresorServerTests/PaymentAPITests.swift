import Foundation
import Testing
import TresorDomain

@Suite("Payments API: every type")
struct PaymentAPITests {
    @Test("own-account transfer executes now and moves both balances")
    func internalTransfer() async throws {
        try await APIHarness.make().run { client in
            let anna = try await PayingCustomer.annaMeier(client)
            let before = (try await anna.balances(anna.current), try await anna.balances(anna.savings))
            let reply = try await anna.pay(
                #"{"type": "internal", "debtor_account": "\#(anna.current)", "amount": \#(PayingCustomer.money("250.00")), "creditor": {"account": "\#(anna.savings)"}}"#
            )
            #expect(reply.status == .created)
            #expect(reply.paymentStatus == "executed")
            #expect(reply.payment["transaction_id"] as? String != nil)
            #expect(reply.payment["outgoing"] as? Bool == false)
            #expect(try await anna.balances(anna.current).booked == before.0.booked - 25_000)
            #expect(try await anna.balances(anna.savings).booked == before.1.booked + 25_000)
        }
    }

    @Test("an IBAN at another bank leaves through clearing; one at our bank is booked to that account")
    func ibanTransfers() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let anna = try await PayingCustomer.annaMeier(client, harness: harness)
            let before = try await anna.balances(anna.current)
            let external = try await anna.pay(anna.ibanPayment(iban: ForeignIBANs.swiss, amount: "80.10"))
            #expect(external.status == .created)
            #expect(external.paymentStatus == "executed")
            #expect(external.payment["outgoing"] as? Bool == true)
            #expect(try await anna.balances(anna.current).booked == before.booked - 8_010)

            let luca = try await client.login("10000028")
            let lucaAccounts = try await client.accounts(luca)
            let lucaCurrent = try #require(lucaAccounts.first { $0["kind"] as? String == "current" && $0["currency"] as? String == "CHF" })
            let lucaBefore = try #require(lucaCurrent.money("booked"))
            let own = try await anna.payAndSign(anna.ibanPayment(iban: lucaCurrent["iban"] as! String, amount: "19.90"))
            #expect(own.status == .ok && own.paymentStatus == "executed")
            #expect(own.payment["outgoing"] as? Bool == false)
            let lucaAfter =
                (try await client.call(.get, "/v1/accounts/\(lucaCurrent["id"] as! String)", token: luca).json["account"] as? [String: Any])?.money(
                    "booked")
            let expected = try Money(parsing: lucaBefore, currency: .chf).minorUnits + 1_990
            #expect(lucaAfter == Money(minorUnits: expected, currency: .chf).decimalString)
            let lines = try await harness.services.ledger.invariantViolations()
            #expect(lines.isEmpty)
        }
    }

    @Test("a QR-bill pays its fixed amount; one without amount needs it; a bad element is named in the payload")
    func qrbill() async throws {
        try await APIHarness.make().run { client in
            let anna = try await PayingCustomer.annaMeier(client)
            let payload = try String(data: JSONEncoder().encode(QRBillSamples.withAmount(amount: "49.75")), encoding: .utf8)!
            let reply = try await anna.pay(#"{"type": "qrbill", "debtor_account": "\#(anna.current)", "qrbill_payload": \#(payload)}"#)
            #expect(reply.status == .created)
            #expect(reply.payment.money("amount") == "49.75")
            #expect((reply.payment["reference"] as? [String: Any])?["type"] as? String == "QRR")
            #expect((reply.payment["creditor"] as? [String: Any])?["name"] as? String == "Robert Schneider AG")

            let open = try String(data: JSONEncoder().encode(QRBillSamples.withAmount(amount: "")), encoding: .utf8)!
            let missing = try await anna.pay(#"{"type": "qrbill", "debtor_account": "\#(anna.current)", "qrbill_payload": \#(open)}"#)
            #expect(missing.status == .badRequest)
            #expect(missing.errorCode == "missing_field" && missing.errorField == "amount")
            let paid = try await anna.pay(
                #"{"type": "qrbill", "debtor_account": "\#(anna.current)", "qrbill_payload": \#(open), "amount": \#(PayingCustomer.money("12.00"))}"#)
            #expect(paid.status == .created && paid.payment.money("amount") == "12.00")
            let wrongCurrency = try await anna.pay(
                #"{"type": "qrbill", "debtor_account": "\#(anna.euro)", "qrbill_payload": \#(open), "amount": \#(PayingCustomer.money("12.00", "EUR"))}"#
            )
            #expect(wrongCurrency.status == .unprocessableContent && wrongCurrency.errorCode == "currency_mismatch")

            let broken = try String(
                data: JSONEncoder().encode(
                    QRBillSamples.withAmount(amount: "49.75").replacing("210000000003139471430009017", with: "210000000003139471430009018")),
                encoding: .utf8)!
            let bad = try await anna.pay(#"{"type": "qrbill", "debtor_account": "\#(anna.current)", "qrbill_payload": \#(broken)}"#)
            #expect(bad.status == .unprocessableContent)
            #expect(bad.errorCode == "invalid_qr_reference" && bad.errorField == "qrbill_payload.reference")
        }
    }

    @Test("an orange slip code line pays its amount and reference; a wrong check digit is 422")
    func slip() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let anna = try await PayingCustomer.annaMeier(client, harness: harness)
            let line = SlipCodeLine.make(
                documentType: "01", amount: Money(minorUnits: 3_950, currency: .chf), reference: "120000000000234478943216899",
                participant: "010001628")
            let reply = try await anna.payAndSign(#"{"type": "esr", "debtor_account": "\#(anna.current)", "code_line": "\#(line)"}"#)
            #expect(reply.status == .ok && reply.paymentStatus == "executed")
            #expect(reply.payment.money("amount") == "39.50")
            #expect((reply.payment["creditor"] as? [String: Any])?["participant"] as? String == "010001628")
            #expect(reply.payment["outgoing"] as? Bool == true)
            let wrong = try await anna.pay(
                #"{"type": "esr", "debtor_account": "\#(anna.current)", "code_line": "\#(line.replacing("010001628", with: "010001627"))"}"#)
            #expect(wrong.status == .unprocessableContent && wrong.errorCode == "slip_participant_check_digit" && wrong.errorField == "code_line")
        }
    }

    @Test("a phone top-up books to the operator from its list of amounts")
    func topUp() async throws {
        try await APIHarness.make().run { client in
            let anna = try await PayingCustomer.annaMeier(client)
            func topup(_ amount: String, phone: String = "+41791234567", op: String = "swisscom") -> String {
                #"{"type": "topup", "debtor_account": "\#(anna.current)", "amount": \#(PayingCustomer.money(amount)), "topup": {"operator": "\#(op)", "phone": "\#(phone)"}}"#
            }
            let reply = try await anna.pay(topup("20.00"))
            #expect(reply.status == .created && reply.paymentStatus == "executed")
            #expect((reply.payment["topup"] as? [String: Any])?["phone"] as? String == "+41791234567")
            #expect((reply.payment["creditor"] as? [String: Any])?["display"] as? String == "Swisscom +41791234567")
            let odd = try await anna.pay(topup("15.00"))
            #expect(odd.status == .unprocessableContent && odd.errorCode == "invalid_denomination")
            let typed = try await anna.pay(topup("20.00", phone: "079 123 45 67"))
            #expect(typed.errorCode == "invalid_phone_number" && typed.error["suggested"] as? String == "+41791234567")
            let unknown = try await anna.pay(topup("20.00", op: "nokia"))
            #expect(unknown.errorCode == "unknown_operator" && unknown.errorField == "topup.operator")
        }
    }

    @Test("rules that need the bank's data: savings pay out only to own accounts, another's account is 404, unknown type")
    func serverRules() async throws {
        try await APIHarness.make().run { client in
            let anna = try await PayingCustomer.annaMeier(client)
            let fromSavings = try await anna.pay(anna.ibanPayment(iban: ForeignIBANs.german, amount: "10.00", from: anna.savings))
            #expect(fromSavings.status == .unprocessableContent && fromSavings.errorCode == "savings_payout_restricted")
            let lucaToken = try await client.login("10000028")
            let lucaAccount = try #require(try await client.accounts(lucaToken).first?["id"] as? String)
            let notMine = try await anna.pay(anna.ibanPayment(iban: ForeignIBANs.german, amount: "10.00", from: lucaAccount))
            #expect(notMine.status == .notFound && notMine.errorField == "debtor_account")
            let badType = try await anna.pay(#"{"type": "cheque", "debtor_account": "\#(anna.current)"}"#)
            #expect(badType.errorCode == "invalid_payment_type" && badType.errorField == "type")
            let tooMuch = try await anna.pay(anna.ibanPayment(iban: ForeignIBANs.german, amount: "99999999.00"))
            #expect(tooMuch.status == .unprocessableContent && tooMuch.errorCode == "insufficient_funds")
            let list = try await client.call(.get, "/v1/payments", token: anna.token).json["payments"] as? [[String: Any]]
            #expect(list?.isEmpty == true, "refused payments leave nothing behind")
        }
    }

    @Test("repairable input is refused with a suggestion and executes only when the user sends it back")
    func suggestions() async throws {
        try await APIHarness.make().run { client in
            let anna = try await PayingCustomer.annaMeier(client)
            let spaced = try await anna.pay(anna.ibanPayment(iban: "ch56 0483 5012 3456 7800 9", amount: "10.00"))
            #expect(spaced.status == .unprocessableContent && spaced.errorField == "creditor.iban")
            let suggestion = try #require(spaced.error["suggested"] as? String)
            #expect(suggestion == ForeignIBANs.swiss)
            let checkTypo = try await anna.pay(anna.ibanPayment(iban: "CH5704835012345678009", amount: "10.00"))
            #expect(checkTypo.error["suggested"] as? String == ForeignIBANs.swiss)
            let confirmed = try await anna.pay(anna.ibanPayment(iban: suggestion, amount: "10.00"))
            #expect(confirmed.status == .created)
            let scor = try await anna.pay(
                anna.ibanPayment(iban: ForeignIBANs.swiss, amount: "10.00", extra: #", "reference": "rf18 5390 0754 7034""#))
            #expect(scor.errorCode == "invalid_creditor_reference" && scor.error["suggested"] as? String == "RF18539007547034")
            let decimals = try await anna.pay(anna.ibanPayment(iban: ForeignIBANs.swiss, amount: "10.005"))
            #expect(decimals.errorCode == "too_many_decimals" && decimals.error["suggested"] as? String == "10.01")
        }
    }

    @Test("the same key and body replays the payment; another body under the key is 409")
    func idempotency() async throws {
        let harness = try await APIHarness.make()
        try await harness.run { client in
            let anna = try await PayingCustomer.annaMeier(client)
            let before = try await anna.balances(anna.current)
            let body = anna.ibanPayment(iban: ForeignIBANs.swiss, amount: "33.30")
            let first = try await anna.pay(body, key: "pay-1")
            let again = try await anna.pay(body, key: "pay-1")
            #expect(first.status == .created && again.status == .created)
            #expect(again.headers[.init("Idempotent-Replayed")!] == "true")
            #expect(first.paymentID == again.paymentID)
            #expect(try await anna.balances(anna.current).booked == before.booked - 3_330)
            let other = try await anna.pay(anna.ibanPayment(iban: ForeignIBANs.swiss, amount: "33.31"), key: "pay-1")
            #expect(other.status == .conflict && other.errorCode == "idempotency_key_reused")
        }
    }
}
