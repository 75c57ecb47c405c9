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
            // Why the payee's bank sent a payment back: the ISO 20022 status reason codes.
            "returned_AC01": [
                "Kontonummer des Empfängers falsch", "numéro de compte du bénéficiaire incorrect", "numero di conto del beneficiario errato",
                "the payee's account number is wrong", "رقم حساب المستفيد غير صحيح",
            ],
            "returned_AC04": [
                "Konto des Empfängers aufgelöst", "compte du bénéficiaire clôturé", "conto del beneficiario chiuso", "the payee's account is closed",
                "حساب المستفيد مغلق",
            ],
            "returned_AC06": [
                "Konto des Empfängers gesperrt", "compte du bénéficiaire bloqué", "conto del beneficiario bloccato", "the payee's account is blocked",
                "حساب المستفيد محظور",
            ],
            "returned_AG01": [
                "für dieses Konto nicht erlaubt", "opération non autorisée sur ce compte", "operazione non consentita su questo conto",
                "not allowed on this account", "غير مسموح به على هذا الحساب",
            ],
            "returned_AM04": [
                "Deckung fehlt", "provision insuffisante", "copertura insufficiente", "insufficient funds", "الرصيد غير كافٍ",
            ],
            "returned_AM05": ["doppelte Zahlung", "paiement en double", "pagamento doppio", "duplicate payment", "دفعة مكررة"],
            "returned_BE01": [
                "Name passt nicht zum Konto", "nom ne correspondant pas au compte", "nome non corrispondente al conto",
                "the name does not match the account", "الاسم لا يطابق الحساب",
            ],
            "returned_BE04": [
                "Adresse des Empfängers fehlt", "adresse du bénéficiaire manquante", "indirizzo del beneficiario mancante",
                "the payee's address is missing", "عنوان المستفيد مفقود",
            ],
            "returned_CURR": [
                "Währung nicht möglich", "devise non acceptée", "valuta non accettata", "the currency is not accepted", "العملة غير مقبولة",
            ],
            "returned_DUPL": ["doppelte Zahlung", "paiement en double", "pagamento doppio", "duplicate payment", "دفعة مكررة"],
            "returned_MD07": [
                "Empfänger verstorben", "bénéficiaire décédé", "beneficiario deceduto", "the payee has died", "المستفيد متوفى",
            ],
            "returned_MS02": [
                "vom Empfänger abgelehnt", "refusé par le bénéficiaire", "rifiutato dal beneficiario", "refused by the payee", "رفضه المستفيد",
            ],
            "returned_MS03": [
                "von der Bank des Empfängers abgelehnt", "refusé par la banque du bénéficiaire", "rifiutato dalla banca del beneficiario",
                "refused by the payee's bank", "رفضه بنك المستفيد",
            ],
            "returned_RC01": [
                "Bankangaben falsch", "identifiant de banque incorrect", "identificativo della banca errato", "the bank details are wrong",
                "بيانات البنك غير صحيحة",
            ],
            "returned_RR04": [
                "aus regulatorischen Gründen", "pour des raisons réglementaires", "per motivi regolamentari", "for regulatory reasons",
                "لأسباب تنظيمية",
            ],
            "returned_other": [
                "von der Bank des Empfängers abgelehnt", "refusé par la banque du bénéficiaire", "rifiutato dalla banca del beneficiario",
                "refused by the payee's bank", "رفضه بنك المستفيد",
            ],
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

    /// The term for the ISO reason a payment came back with; a code without words of its own is
    /// "refused by the payee's bank".
    public static func returnTerm(_ code: String) -> String {
        vocabulary["returned_\(code)"] == nil ? "returned_other" : "returned_\(code)"
    }

    /// The words of an ISO return reason in `language` (for a payment's page).
    public static func returnReason(_ code: String, language: String) -> String {
        let index = languages.firstIndex(of: language) ?? languages.firstIndex(of: "en")!
        return vocabulary[returnTerm(code)]![index]
    }

    /// The term for a rejected payment's reason code; a code without words of its own is "another reason".
    static func rejectionTerm(_ code: String) -> String {
        vocabulary["rejected_\(code)"] == nil ? "rejected_other" : "rejected_\(code)"
    }
}
