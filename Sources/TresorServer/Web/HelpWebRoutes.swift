import Foundation
import Hummingbird
import TresorCore
import TresorDomain

/// The Help screen: the bank's useful numbers, the card blocking hotline first, and its
/// questions and answers. All of it is strings of the language catalogue, so a bank writes its
/// own in its resource pack (`i18n/<lang>.json`: `help_number_<n>_label` and `_value`,
/// `help_faq_<n>_q` and `_a`); an empty label or question leaves that entry out.
extension WebApp {
    /// Entries looked for, each numbered from 1. why fixed: a pack holds strings, not lists.
    static let helpNumbersMax = 6
    static let helpQuestionsMax = 12

    func helpPage(_ request: Request, context: TresorRequestContext) async throws -> Response {
        guard let (_, token) = await session(request) else { return WebSupport.redirect("/login?expired=1") }
        var page = page(request, csrf: WebSupport.csrfToken(forSession: token))
        let strings = page.strings
        func filled(_ key: String) -> String? { strings[key].flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 } }
        page.values["numbers"] = (1...Self.helpNumbersMax).compactMap { index -> [String: Any]? in
            guard let label = filled("help_number_\(index)_label"), let value = filled("help_number_\(index)_value") else { return nil }
            // A number to dial: the tel: link keeps the digits and a leading +.
            let dial = value.filter { $0.isNumber || $0 == "+" }
            return ["label": label, "value": value, "tel": dial, "first": index == 1]
        }
        page.values["questions"] = (1...Self.helpQuestionsMax).compactMap { index -> [String: Any]? in
            guard let question = filled("help_faq_\(index)_q"), let answer = filled("help_faq_\(index)_a") else { return nil }
            return ["id": String(index), "question": question, "answer": answer]
        }
        return render("help", page)
    }
}
