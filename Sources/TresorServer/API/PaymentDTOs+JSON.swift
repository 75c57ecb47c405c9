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
            if let billingInformation {
                json.key("billing_information")
                json.string(billingInformation)
            }
            json.key("created_at")
            json.string(createdAt)
            json.key("creditor")
            creditor.write(to: &json)
            json.key("debtor_account")
            json.integerString(debtorAccount.rawValue)
            if let executedAt {
                json.key("executed_at")
                json.string(executedAt)
            }
            json.key("execution_date")
            json.date(executionDate)
            json.key("execution_date_adjusted")
            json.bool(executionDateAdjusted)
            json.key("id")
            json.integerString(id.rawValue)
            if let message {
                json.key("message")
                json.string(message)
            }
            json.key("outgoing")
            json.bool(outgoing)
            if let reason {
                json.key("reason")
                json.string(reason)
            }
            if let reference {
                json.key("reference")
                json.object { json in
                    json.key("type")
                    json.string(reference.kind)
                    json.key("value")
                    json.string(reference.value)
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
                    json.key("reason")
                    json.string(signing.reason)
                    json.key("required")
                    json.bool(signing.required)
                }
            }
            json.key("status")
            json.string(status.rawValue)
            if let topup {
                json.key("topup")
                json.object { json in
                    json.key("operator")
                    json.string(topup.operator)
                    json.key("phone")
                    json.string(topup.phone)
                }
            }
            if let transactionID {
                json.key("transaction_id")
                json.integerString(transactionID.rawValue)
            }
            json.key("type")
            json.string(type.rawValue)
            json.key("updated_at")
            json.string(updatedAt)
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
                    if let buildingNumber = address.buildingNumber {
                        json.key("building_number")
                        json.string(buildingNumber)
                    }
                    json.key("country")
                    json.string(address.country)
                    json.key("name")
                    json.string(address.name)
                    json.key("postal_code")
                    json.string(address.postalCode)
                    if let street = address.street {
                        json.key("street")
                        json.string(street)
                    }
                    json.key("town")
                    json.string(address.town)
                }
            }
            if let bic {
                json.key("bic")
                json.string(bic.code)
            }
            json.key("display")
            json.string(display)
            if let iban {
                json.key("iban")
                json.string(iban.electronic)
            }
            if let name {
                json.key("name")
                json.string(name)
            }
            if let participant {
                json.key("participant")
                json.string(participant)
            }
        }
    }
}

extension PaymentDTO.ChallengeDTO {
    func write(to json: inout JSONWriter) {
        json.object { json in
            if let message {
                json.key("message")
                json.string(message)
            }
            if let position {
                json.key("position")
                json.integer(Int64(position))
            }
            json.key("provider")
            json.string(provider)
            if let question {
                json.key("question")
                json.string(question)
            }
            json.key("summary")
            json.string(summary)
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
