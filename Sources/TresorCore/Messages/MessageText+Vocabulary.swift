extension MessageText {
    /// The words a message fills into its sentences, as a sentence uses them: term → [de, fr, it,
    /// en, ar]. why words and not codes: a message showed "groceries", "2026-11" and
    /// "insufficient_funds" inside German sentences; a customer's own names (a category they
    /// made, a card's name) are values, not terms, and stay as they are.
    static let vocabulary: [String: [String]] = {
        var words: [String: [String]] = [
            // Documents a customer asked for.
            "balance_confirmation": ["Saldobestätigung", "attestation de solde", "conferma del saldo", "balance confirmation", "تأكيد الرصيد"],
            "interest_tax_statement": [
                "Zins- und Steuerausweis", "attestation d’intérêts et d’impôt", "attestato interessi e imposta", "interest and tax statement",
                "كشف الفوائد والضريبة",
            ],
            "account_opening": [
                "Kontoeröffnungsantrag", "demande d’ouverture de compte", "richiesta di apertura conto", "account opening request", "طلب فتح الحساب",
            ],
            // Appointment topics.
            "topic_account": ["Konto und Karten", "compte et cartes", "conto e carte", "account and cards", "الحساب والبطاقات"],
            "topic_financing": ["Finanzierung", "financement", "finanziamento", "financing", "التمويل"],
            "topic_investment": ["Anlegen", "placements", "investimenti", "investing", "الاستثمار"],
            "topic_foreign_cash_pickup": [
                "Abholung Fremdwährung", "retrait de devises", "ritiro valuta", "foreign cash pickup", "استلام عملات أجنبية",
            ],
            "topic_other": ["Anderes", "autre", "altro", "other", "أخرى"],
            // Why a card was blocked.
            "reason_lost": ["verloren", "perdue", "smarrita", "lost", "مفقودة"],
            "reason_stolen": ["gestohlen", "volée", "rubata", "stolen", "مسروقة"],
            "reason_damaged": ["beschädigt", "endommagée", "danneggiata", "damaged", "تالفة"],
            "reason_other": ["anderer Grund", "autre raison", "altro motivo", "another reason", "سبب آخر"],
            // The built-in budget categories and the whole budget.
            "category_groceries": ["Lebensmittel", "alimentation", "alimentari", "groceries", "البقالة"],
            "category_fuel": ["Treibstoff", "carburant", "carburante", "fuel", "الوقود"],
            "category_restaurants": ["Restaurants", "restaurants", "ristoranti", "restaurants", "المطاعم"],
            "category_household": ["Haushalt", "ménage", "casa", "household", "المنزل"],
            "category_health": ["Gesundheit", "santé", "salute", "health", "الصحة"],
            "category_transport": ["Verkehr", "transports", "trasporti", "transport", "المواصلات"],
            "category_other": ["Anderes", "autres", "altro", "other", "أخرى"],
            "category_overall": ["Gesamtbudget", "budget total", "budget totale", "overall budget", "الميزانية الإجمالية"],
            // Why a payment due today was not executed.
            "rejected_insufficient_funds": [
                "Guthaben reicht nicht", "solde insuffisant", "saldo insufficiente", "insufficient funds", "الرصيد غير كافٍ",
            ],
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
        let months = [
            ["Januar", "janvier", "gennaio", "January", "يناير"], ["Februar", "février", "febbraio", "February", "فبراير"],
            ["März", "mars", "marzo", "March", "مارس"], ["April", "avril", "aprile", "April", "أبريل"], ["Mai", "mai", "maggio", "May", "مايو"],
            ["Juni", "juin", "giugno", "June", "يونيو"], ["Juli", "juillet", "luglio", "July", "يوليو"],
            ["August", "août", "agosto", "August", "أغسطس"], ["September", "septembre", "settembre", "September", "سبتمبر"],
            ["Oktober", "octobre", "ottobre", "October", "أكتوبر"], ["November", "novembre", "novembre", "November", "نوفمبر"],
            ["Dezember", "décembre", "dicembre", "December", "ديسمبر"],
        ]
        for (index, names) in months.enumerated() { words["month_\(index + 1)"] = names }
        return words
    }()

    /// The term for a rejected payment's reason code; a code without words of its own is "another reason".
    static func rejectionTerm(_ code: String) -> String {
        vocabulary["rejected_\(code)"] == nil ? "rejected_other" : "rejected_\(code)"
    }
}
