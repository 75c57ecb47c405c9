extension MessageText {
    /// The built-in budget categories, the whole budget and the months, as a budget alert names
    /// them: [de, fr, it, en, ar]. why: the alert said "groceries" and "2026-11" to a customer
    /// reading German; a category of the customer's own keeps the name they gave it.
    static let budgetTerms: [String: [String]] = {
        var terms: [String: [String]] = [
            "category_groceries": ["Lebensmittel", "alimentation", "alimentari", "groceries", "البقالة"],
            "category_fuel": ["Treibstoff", "carburant", "carburante", "fuel", "الوقود"],
            "category_restaurants": ["Restaurants", "restaurants", "ristoranti", "restaurants", "المطاعم"],
            "category_household": ["Haushalt", "ménage", "casa", "household", "المنزل"],
            "category_health": ["Gesundheit", "santé", "salute", "health", "الصحة"],
            "category_transport": ["Verkehr", "transports", "trasporti", "transport", "المواصلات"],
            "category_other": ["Anderes", "autres", "altro", "other", "أخرى"],
            "category_overall": ["Gesamtbudget", "budget total", "budget totale", "overall budget", "الميزانية الإجمالية"],
        ]
        let months = [
            ["Januar", "janvier", "gennaio", "January", "يناير"], ["Februar", "février", "febbraio", "February", "فبراير"],
            ["März", "mars", "marzo", "March", "مارس"], ["April", "avril", "aprile", "April", "أبريل"], ["Mai", "mai", "maggio", "May", "مايو"],
            ["Juni", "juin", "giugno", "June", "يونيو"], ["Juli", "juillet", "luglio", "July", "يوليو"],
            ["August", "août", "agosto", "August", "أغسطس"], ["September", "septembre", "settembre", "September", "سبتمبر"],
            ["Oktober", "octobre", "ottobre", "October", "أكتوبر"], ["November", "novembre", "novembre", "November", "نوفمبر"],
            ["Dezember", "décembre", "dicembre", "December", "ديسمبر"],
        ]
        for (index, names) in months.enumerated() { terms["month_\(index + 1)"] = names }
        return terms
    }()

    /// Why a payment due today was not executed, as its message says it: [de, fr, it, en, ar].
    /// why: the message showed the code ("insufficient_funds") inside a German sentence.
    static let rejectionTerms: [String: [String]] = [
        "rejected_insufficient_funds": ["Guthaben reicht nicht", "solde insuffisant", "saldo insufficiente", "insufficient funds", "الرصيد غير كافٍ"],
        "rejected_account_not_found": [
            "Konto nicht mehr vorhanden", "compte introuvable", "conto inesistente", "the account no longer exists", "الحساب غير موجود",
        ],
        "rejected_currency_mismatch": [
            "Währung passt nicht zum Konto", "devise différente de celle du compte", "valuta diversa da quella del conto",
            "the currency does not match the account", "العملة لا تطابق الحساب",
        ],
        "rejected_card_blocked": ["Konto gesperrt", "compte bloqué", "conto bloccato", "the account is blocked", "الحساب محظور"],
        "rejected_other": ["anderer Grund", "autre raison", "altro motivo", "another reason", "سبب آخر"],
    ]

    /// The term for a rejected payment's reason code; a code without words of its own is "another reason".
    static func rejectionTerm(_ code: String) -> String {
        rejectionTerms["rejected_\(code)"] == nil ? "rejected_other" : "rejected_\(code)"
    }
}
