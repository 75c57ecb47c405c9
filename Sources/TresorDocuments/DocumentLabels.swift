import TresorDomain

/// The words printed on the bank's documents, in the four languages of Switzerland. A language
/// the documents do not speak (Arabic) falls back to English; the bank's name and the
/// customer's texts are printed as they are.
public struct DocumentLabels: Sendable {
    public let language: String
    let words: [String: String]

    public static let languages = ["de", "fr", "it", "en"]

    public init(language: String) {
        let chosen = Self.languages.contains(language) ? language : "en"
        self.language = chosen
        words = Self.table.mapValues { $0[Self.languages.firstIndex(of: chosen)!] }
    }

    subscript(_ key: String) -> String { words[key] ?? key }

    /// `dd.mm.yyyy`, as Swiss banks print dates in every language.
    func date(_ date: LocalDate) -> String { date.swissFormat }

    /// Signed amount with thousands grouped: `1’234.50` (Swiss style), `1,234.50` in English.
    func amount(_ money: Money, sign: Bool = true) -> String {
        let text = Money(minorUnits: abs(money.minorUnits), currency: money.currency).decimalString
        let parts = text.split(separator: ".", maxSplits: 1)
        let separator: Character = language == "en" ? "," : "’"
        var integer = ""
        for (index, digit) in parts[0].reversed().enumerated() {
            if index > 0, index % 3 == 0 { integer.append(separator) }
            integer.append(digit)
        }
        let grouped = String(integer.reversed()) + (parts.count > 1 ? "." + parts[1] : "")
        return (sign && money.minorUnits < 0 ? "-" : "") + grouped
    }

    /// A text with `{name}`-style placeholders filled in.
    func fill(_ key: String, _ values: [String: String]) -> String {
        values.reduce(self[key]) { $0.replacingOccurrences(of: "{\($1.key)}", with: $1.value) }
    }

    func page(_ number: Int, of total: Int) -> String {
        self["page_of"].replacingOccurrences(of: "{n}", with: String(number)).replacingOccurrences(of: "{total}", with: String(total))
    }

    /// The statement CSV's column names for a person, in `StatementCSV.header`'s order. why not
    /// the table's words: a column's name in a spreadsheet stands without the PDF's layout
    /// around it, so it says more ("Buchungsdatum", not "Datum"; "Data valuta", not "Valuta").
    public var csvColumns: [String] { Self.csvColumnTable[Self.languages.firstIndex(of: language)!] }

    /// [de, fr, it, en], each in `StatementCSV.header`'s order.
    static let csvColumnTable: [[String]] = [
        ["Buchungsdatum", "Valuta", "Text", "Gegenpartei", "Referenz", "Betrag", "Währung", "Saldo"],
        ["Date comptable", "Date valeur", "Libellé", "Contrepartie", "Référence", "Montant", "Monnaie", "Solde"],
        ["Data contabile", "Data valuta", "Testo", "Controparte", "Riferimento", "Importo", "Divisa", "Saldo"],
        ["Booking date", "Value date", "Details", "Counterparty", "Reference", "Amount", "Currency", "Balance"],
    ]

    /// key: [de, fr, it, en]
    static let table: [String: [String]] = [
        "statement_title": ["Kontoauszug", "Relevé de compte", "Estratto conto", "Account statement"],
        "continued": ["Fortsetzung", "suite", "continuazione", "continued"],
        "customer": ["Kunde", "Client", "Cliente", "Customer"],
        "account": ["Konto", "Compte", "Conto", "Account"],
        // why Divisa: Italian statements say "Valuta" for the value date's column.
        "currency": ["Währung", "Monnaie", "Divisa", "Currency"],
        "period": ["Zeitraum", "Période", "Periodo", "Period"],
        "created": ["Erstellt am", "Établi le", "Allestito il", "Created on"],
        "opening_balance": ["Anfangssaldo", "Solde initial", "Saldo iniziale", "Opening balance"],
        "credits": ["Gutschriften", "Crédits", "Accrediti", "Credits"],
        "debits": ["Belastungen", "Débits", "Addebiti", "Debits"],
        "closing_balance": ["Schlusssaldo", "Solde final", "Saldo finale", "Closing balance"],
        "date": ["Datum", "Date", "Data", "Date"],
        "text": ["Text", "Libellé", "Testo", "Details"],
        "value_date": ["Valuta", "Valeur", "Valuta", "Value"],
        "debit": ["Belastung", "Débit", "Addebito", "Debit"],
        "credit": ["Gutschrift", "Crédit", "Accredito", "Credit"],
        "balance": ["Saldo", "Solde", "Saldo", "Balance"],
        "brought_forward": ["Übertrag", "Report", "Riporto", "Brought forward"],
        "carried_forward": ["Übertrag auf nächste Seite", "À reporter", "Da riportare", "Carried forward"],
        "no_bookings": [
            "Keine Buchungen in diesem Zeitraum.", "Aucune écriture pendant cette période.", "Nessuna registrazione nel periodo.",
            "No bookings in this period.",
        ],
        "page_of": ["Seite {n} von {total}", "Page {n} sur {total}", "Pagina {n} di {total}", "Page {n} of {total}"],
        "reference": ["Referenz", "Référence", "Riferimento", "Reference"],
        "balance_confirmation": ["Saldobestätigung", "Confirmation de solde", "Conferma del saldo", "Balance confirmation"],
        "balance_confirmation_text": [
            "Wir bestätigen, dass die Konten von {name} bei {bank} am {date} die folgenden Saldi aufwiesen.",
            "Nous confirmons que les comptes de {name} auprès de {bank} présentaient les soldes suivants le {date}.",
            "Confermiamo che i conti di {name} presso {bank} presentavano i seguenti saldi il {date}.",
            "We confirm that on {date} the accounts of {name} with {bank} showed the following balances.",
        ],
        "interest_tax_statement": [
            "Zins- und Steuerausweis", "Attestation d’intérêts et d’impôt", "Attestazione interessi e imposta", "Interest and tax statement",
        ],
        "interest_tax_text": [
            "Zinsen und Verrechnungssteuer {year} auf den Konten von {name}, für die Steuererklärung.",
            "Intérêts et impôt anticipé {year} sur les comptes de {name}, pour la déclaration d’impôt.",
            "Interessi e imposta preventiva {year} sui conti di {name}, per la dichiarazione d’imposta.",
            "Interest and Swiss withholding tax {year} on the accounts of {name}, for the tax return.",
        ],
        "interest_tax_note": [
            "Verrechnungssteuer 35 % auf dem Bruttozins; Zinsen bis CHF 200 pro Konto und Jahr sind befreit.",
            "Impôt anticipé de 35 % sur l’intérêt brut ; les intérêts jusqu’à CHF 200 par compte et par an en sont exonérés.",
            "Imposta preventiva del 35 % sull’interesse lordo; gli interessi fino a CHF 200 per conto e anno ne sono esenti.",
            "Withholding tax of 35 % on gross interest; interest up to CHF 200 per account and year is exempt.",
        ],
        "gross_interest": ["Bruttozins", "Intérêt brut", "Interesse lordo", "Gross interest"],
        "withholding_tax": ["Verrechnungssteuer", "Impôt anticipé", "Imposta preventiva", "Withholding tax"],
        "year_end_balance": ["Saldo 31.12.", "Solde 31.12.", "Saldo 31.12.", "Balance 31 Dec"],
        "total": ["Total", "Total", "Totale", "Total"],
        "account_opening": [
            "Antrag auf Kontoeröffnung", "Demande d’ouverture de compte", "Richiesta di apertura conto", "Request to open an account",
        ],
        "account_opening_text": [
            "{name} beantragt die Eröffnung eines {kind} in {currency} (Antrag {id}). Die Bank bestätigt die Eröffnung im Postfach.",
            "{name} demande l’ouverture d’un {kind} en {currency} (demande {id}). La banque confirme l’ouverture dans la messagerie.",
            "{name} chiede l’apertura di un {kind} in {currency} (richiesta {id}). La banca conferma l’apertura nella casella messaggi.",
            "{name} asks to open a {kind} in {currency} (request {id}). The bank confirms the opening in the inbox.",
        ],
        "kind_current": ["Privatkontos", "compte privé", "conto privato", "current account"],
        "kind_savings": ["Sparkontos", "compte d’épargne", "conto di risparmio", "savings account"],
        "verification": ["Echtheit prüfen", "Vérifier l’authenticité", "Verificare l’autenticità", "Check authenticity"],
        "verification_text": [
            "Prüfcode {code}. Unter {url} zeigt die Bank den SHA-256-Fingerabdruck dieses Dokuments; eine veränderte Datei hat einen anderen.",
            "Code de contrôle {code}. Sous {url}, la banque affiche l’empreinte SHA-256 de ce document ; un fichier modifié en a une autre.",
            "Codice di verifica {code}. Su {url} la banca mostra l’impronta SHA-256 di questo documento; un file modificato ne ha un’altra.",
            "Verification code {code}. At {url} the bank shows this document’s SHA-256 digest; an edited file has another.",
        ],
    ]
}
