import Foundation

/// A screen description that cannot be served, with the JSON path of the fault
/// (`sections[0].fields[3].validate[0]`).
public struct ScreenError: Error, Sendable, Equatable, CustomStringConvertible {
    public let path: String
    public let message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}

extension ScreenDescription {
    /// Decodes a description, naming the path of a structural fault, then checks it against its
    /// screen's contract; `expectedID` is the id its file name gives.
    public static func parse(_ data: Data, expectedID: String) throws -> ScreenDescription {
        let screen: ScreenDescription
        do { screen = try JSONDecoder().decode(ScreenDescription.self, from: data) } catch {
            let fault = JSONFileFault(error, in: data)
            throw ScreenError(path: fault.field, message: fault.message)
        }
        guard screen.id == expectedID else { throw ScreenError(path: "id", message: "must be \(expectedID), as the file is called") }
        try screen.validate()
        return screen
    }

    /// Checks the description against its contract.
    public func validate() throws {
        guard format == Self.currentFormat else { throw ScreenError(path: "format", message: "this server reads format \(Self.currentFormat)") }
        guard let contract = ScreenContract.all[id] else {
            throw ScreenError(path: "id", message: "not a screen of this server (\(ScreenContract.ids.joined(separator: ", ")))")
        }
        try Self.checkText(title, at: "title")
        guard !sections.isEmpty, sections.count <= 20 else { throw ScreenError(path: "sections", message: "1 to 20 sections") }
        var sectionIDs: Set<String> = []
        var names: [String: String] = [:]
        for (s, section) in sections.enumerated() {
            guard section.id.wholeMatch(of: /[a-z][a-z0-9_-]{0,39}/) != nil, sectionIDs.insert(section.id).inserted else {
                throw ScreenError(path: "sections[\(s)].id", message: "a unique lower-case id")
            }
            if let title = section.title { try Self.checkText(title, at: "sections[\(s)].title") }
            guard section.fields.count <= 40 else { throw ScreenError(path: "sections[\(s)].fields", message: "at most 40 fields") }
            for (f, field) in section.fields.enumerated() {
                let path = "sections[\(s)].fields[\(f)]"
                try field.validate(at: path, contract: contract)
                guard names.updateValue(path, forKey: field.name) == nil else {
                    throw ScreenError(path: "\(path).name", message: "\(field.name) is on this screen twice")
                }
            }
        }
        for name in contract.kept.sorted() where names[name] == nil {
            throw ScreenError(path: "sections", message: "\(name) cannot be left out: the screen's route needs it")
        }
        for (s, section) in sections.enumerated() {
            for (f, field) in section.fields.enumerated() {
                guard let condition = field.visibleWhen else { continue }
                let path = "sections[\(s)].fields[\(f)].visible_when"
                guard !contract.kept.contains(field.name) else {
                    throw ScreenError(path: path, message: "\(field.name) is needed by the route and cannot be shown only sometimes")
                }
                guard condition.field != field.name, names[condition.field] != nil else {
                    throw ScreenError(path: "\(path).field", message: "must name another field of this screen")
                }
            }
        }
        try validateActions(contract: contract)
    }

    func validateActions(contract: ScreenContract) throws {
        var ids: Set<String> = []
        guard actions.count <= 10 else { throw ScreenError(path: "actions", message: "at most 10 actions") }
        for (a, action) in actions.enumerated() {
            let path = "actions[\(a)]"
            guard action.id.wholeMatch(of: /[a-z][a-z0-9_-]{0,39}/) != nil, ids.insert(action.id).inserted else {
                throw ScreenError(path: "\(path).id", message: "a unique lower-case id")
            }
            try Self.checkText(action.label, at: "\(path).label")
            switch action.kind {
            case .submit:
                guard action.route == contract.route else {
                    throw ScreenError(path: "\(path).route", message: "this screen submits to \(contract.route ?? "nothing")")
                }
            case .navigate:
                guard let screen = action.screen, ScreenContract.all[screen] != nil else {
                    throw ScreenError(path: "\(path).screen", message: "must name a screen of this server")
                }
            case .scan:
                guard let scan = action.scan, ScreenContract.scanTargets.contains(scan) else {
                    throw ScreenError(path: "\(path).scan", message: "slip or receipt")
                }
            }
        }
        if contract.route != nil, !actions.contains(where: { $0.kind == .submit }) {
            throw ScreenError(path: "actions", message: "the screen needs its submit action")
        }
    }

    static func checkText(_ text: String, at path: String) throws {
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty, text.count <= 300 else {
            throw ScreenError(path: path, message: "1 to 300 characters")
        }
    }
}

extension ScreenDescription.Field {
    func validate(at path: String, contract: ScreenContract) throws {
        guard let types = contract.fields[name] else {
            throw ScreenError(
                path: "\(path).name", message: "\(name) is not a field of \(contract.id) (\(contract.fields.keys.sorted().joined(separator: ", ")))")
        }
        guard types.contains(type) else {
            throw ScreenError(path: "\(path).type", message: "\(name) is shown as \(types.map(\.rawValue).sorted().joined(separator: " or "))")
        }
        try ScreenDescription.checkText(label, at: "\(path).label")
        if let help { try ScreenDescription.checkText(help, at: "\(path).help") }
        for (v, validator) in (validate ?? []).enumerated() where !ScreenContract.validators.contains(validator) {
            throw ScreenError(path: "\(path).validate[\(v)]", message: "\(validator) is not a validator of this server")
        }
        if let maxLength, !(1...10_000).contains(maxLength) { throw ScreenError(path: "\(path).max_length", message: "1 to 10000") }
        if let source = choicesFrom, !ScreenContract.choiceSources.contains(source) {
            throw ScreenError(path: "\(path).choices_from", message: "one of \(ScreenContract.choiceSources.sorted().joined(separator: ", "))")
        }
        if type == .choice, choicesFrom == nil, (choices ?? []).isEmpty {
            throw ScreenError(path: "\(path).choices", message: "a choice needs choices or choices_from")
        }
        for (c, choice) in (choices ?? []).enumerated() { try ScreenDescription.checkText(choice.label, at: "\(path).choices[\(c)].label") }
        if readOnly == true {
            guard let value, !value.isEmpty, value.count <= (maxLength ?? 1_000) else {
                throw ScreenError(path: "\(path).value", message: "a read-only field needs the value it shows (up to max_length)")
            }
            guard ![.account, .password].contains(type) else {
                throw ScreenError(path: "\(path).read_only", message: "an account or a password cannot be fixed by the bank")
            }
        }
    }
}
