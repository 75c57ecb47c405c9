import TresorCore
import TresorDomain

/// A payment written with `JSONWriter`: the document `JSONEncoder` made of `PaymentDTO` (same
/// keys in the same sorted order, absent optionals left out), which `JSONWriterTests` holds
/// equal. why: `JSONEncoder` was 7 % of the server's CPU under `POST /v1/payments` (`perf` at 16
/// connections on SQLite), for one payment.
extension PaymentDTO: JSONWritable {
    var estimatedSize: Int { 1024 }

    func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("amount")
            json.money(amount)
            json.member("billing_information", billingInformation)
            json.member("created_at", createdAt)
            json.key("creditor")
            creditor.write(to: &json)
            json.key("debtor_account")
            json.integerString(debtorAccount.rawValue)
            json.member("executed_at", executedAt)
            json.key("execution_date")
            json.date(executionDate)
            json.key("execution_date_adjusted")
            json.bool(executionDateAdjusted)
            json.key("id")
            json.integerString(id.rawValue)
            json.member("message", message)
            json.key("outgoing")
            json.bool(outgoing)
            json.member("reason", reason)
            if let reference {
                json.key("reference")
                json.object { json in
                    json.member("type", reference.kind)
                    json.member("value", reference.value)
                }
            }
            if let requestedExecutionDate {
                json.key("requested_execution_date")
                json.date(requestedExecutionDate)
            }
            if let signature {
                json.key("signature")
                signature.write(to: &json)
            }
            if let signing {
                json.key("signing")
                json.object { json in
                    json.member("reason", signing.reason)
                    json.key("required")
                    json.bool(signing.required)
                }
            }
            json.member("status", status.rawValue)
            if let topup {
                json.key("topup")
                json.object { json in
                    json.member("operator", topup.operator)
                    json.member("phone", topup.phone)
                }
            }
            if let transactionID {
                json.key("transaction_id")
                json.integerString(transactionID.rawValue)
            }
            json.member("type", type.rawValue)
            json.member("updated_at", updatedAt)
        }
    }
}

extension PaymentDTO.CreditorDTO {
    func write(to json: inout JSONWriter) {
        json.object { json in
            if let account {
                json.key("account")
                json.integerString(account.rawValue)
            }
            if let address {
                json.key("address")
                json.object { json in
                    json.member("building_number", address.buildingNumber)
                    json.member("country", address.country)
                    json.member("name", address.name)
                    json.member("postal_code", address.postalCode)
                    json.member("street", address.street)
                    json.member("town", address.town)
                }
            }
            if let bic {
                json.member("bic", bic.code)
            }
            json.member("display", display)
            if let iban {
                json.member("iban", iban.electronic)
            }
            json.member("name", name)
            json.member("participant", participant)
        }
    }
}

extension PaymentDTO.ChallengeDTO {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("message", message)
            if let position {
                json.key("position")
                json.integer(Int64(position))
            }
            json.member("provider", provider)
            json.member("question", question)
            json.member("summary", summary)
        }
    }
}

/// `{"payment": …}`, the body of a created or shown payment.
extension PaymentRoutes.PaymentBody: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("payment")
            payment.write(to: &json)
        }
    }
}
