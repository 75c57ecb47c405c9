import Foundation
import OpenAPIRuntime

public typealias PersonalAdvisor = Components.Schemas.PersonalAdvisor
public typealias AdvisorMessage = Components.Schemas.AdvisorMessage

extension TresorClient {
    /// The customer's personal advisor (name, branch, phone), nil while the branch assigned none.
    public func advisor() async throws -> PersonalAdvisor? {
        try await call { try await $0.getV1Advisor().ok.body.json.advisor }
    }

    /// The secure thread with the advisor, oldest first.
    public func advisorMessages() async throws -> [AdvisorMessage] {
        try await call { try await $0.getV1AdvisorMessages().ok.body.json.messages }
    }

    /// Writes to the advisor; staff answer in the same thread (the customer gets an inbox
    /// message and a push). Refused with `not_found` while there is no advisor.
    public func writeToAdvisor(_ body: String) async throws -> AdvisorMessage {
        try await call { try await $0.postV1AdvisorMessages(body: .json(.init(body: body))).created.body.json.message }
    }
}
