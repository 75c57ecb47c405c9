import TresorDomain

/// What the bank tells a customer in the inbox, written in the customer's language when the
/// message is posted (de, fr, it, en, ar; another language gets English). Values are filled
/// into `{name}` placeholders; amounts are formatted as the language writes them.
public struct MessageText: Sendable, Hashable {
    public let key: Key
    public let values: [String: String]
    /// Amounts, formatted per language into the placeholder of the same name.
    public let amounts: [String: Money]
    /// Words of the bank's own vocabulary (`Self.vocabulary`), translated into the placeholder.
    public let terms: [String: String]

    public init(_ key: Key, _ values: [String: String] = [:], amounts: [String: Money] = [:], terms: [String: String] = [:]) {
        self.key = key
        self.values = values
        self.amounts = amounts
        self.terms = terms
    }

    public enum Key: String, Sendable, CaseIterable {
        case paymentExecuted, moneyReceived, paymentRejected, paymentReturned, signatureNeeded, deviceActivated, accountOpened, accountDeclined
        case documentReady, budgetAlert, appointmentRequested, appointmentConfirmed, appointmentDeclined, cashReady
        case cashOrdered, cashCollected, cashCancelled, cardBlocked, cardUnblocked, standingOrderSkipped, authenticatorEnrolled
        case debitAdvice, newBrowserLogin, passkeyAdded, statementReady, paymentHeld, paymentReleased, paymentHeldRejected
        case advisorAnswered
    }

    public static let languages = ["de", "fr", "it", "en", "ar"]
    /// Until a customer chooses (the web app records its language at login), English.
    public static let defaultLanguage = "en"

    /// Subject and body in `language`.
    public func rendered(in language: String) -> (subject: String, body: String) {
        let index = Self.languages.firstIndex(of: language) ?? Self.languages.firstIndex(of: "en")!
        let chosen = Self.languages[index]
        var filled = values
        for (name, money) in amounts { filled[name] = money.localized(chosen) }
        for (name, term) in terms {
            filled[name] = Self.vocabulary[term]?[index] ?? term
        }
        func fill(_ text: String) -> String { Self.fill(text, with: filled) }
        let (subjects, bodies) = Self.table[key]!
        return (fill(subjects[index]), fill(bodies[index]))
    }

    /// `text` with each `{name}` of `values` filled in, in one pass (a placeholder without a
    /// value is left as it is), and without leading or trailing spaces. why one pass: a clearing
    /// file of 100,000 credits writes as many messages, and Foundation's search and replace per
    /// placeholder was most of the time spent writing them.
    static func fill(_ text: String, with values: [String: String]) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count + 32)
        var rest = text[...]
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}"), let value = values[String(rest[rest.index(after: open)..<close])] else {
                out.append("{")
                rest = rest[rest.index(after: open)...]
                continue
            }
            out += value
            rest = rest[rest.index(after: close)...]
        }
        out += rest
        while out.first == " " { out.removeFirst() }
        while out.last == " " { out.removeLast() }
        return out
    }

    /// key: ([subject de, fr, it, en, ar], [body de, fr, it, en, ar])
    static let table: [Key: ([String], [String])] = [
        .paymentExecuted: (
            ["Zahlung ausgeführt", "Paiement exécuté", "Pagamento eseguito", "Payment executed", "تم تنفيذ الدفعة"],
            [
                "Ihre Zahlung von {amount} an {payee} wurde ausgeführt.", "Votre paiement de {amount} à {payee} a été exécuté.",
                "Il vostro pagamento di {amount} a {payee} è stato eseguito.", "Your payment of {amount} to {payee} was executed.",
                "تم تنفيذ دفعتك بمبلغ {amount} إلى {payee}.",
            ]
        ),
        .debitAdvice: (
            ["Belastungsanzeige", "Avis de débit", "Avviso di addebito", "Debit advice", "إشعار خصم"],
            [
                "Ihr Konto {account} wurde mit {amount} belastet: Zahlung an {payee}.",
                "Votre compte {account} a été débité de {amount} : paiement à {payee}.",
                "Il vostro conto {account} è stato addebitato di {amount}: pagamento a {payee}.",
                "Your account {account} was debited {amount}: payment to {payee}.", "خُصم {amount} من حسابك {account}: دفعة إلى {payee}.",
            ]
        ),
        .moneyReceived: (
            ["Geld eingegangen", "Argent reçu", "Denaro ricevuto", "Money received", "وصلت أموال"],
            [
                "{amount} von {payer} ist auf Ihrem Konto {account} eingegangen.", "{amount} de {payer} est arrivé sur votre compte {account}.",
                "{amount} da {payer} è arrivato sul vostro conto {account}.", "{amount} from {payer} reached your account {account}.",
                "وصل {amount} من {payer} إلى حسابك {account}.",
            ]
        ),
        .standingOrderSkipped: (
            ["Dauerauftrag ausgelassen", "Ordre permanent omis", "Ordine permanente saltato", "Standing order skipped", "تم تخطي الأمر الدائم"],
            [
                "Ihr Dauerauftrag von {amount} an {payee} für den {date} wurde ausgelassen ({reason}). Die nächsten Zahlungen folgen wie geplant.",
                "Votre ordre permanent de {amount} à {payee} pour le {date} a été omis ({reason}). Les prochains paiements suivront comme prévu.",
                "Il vostro ordine permanente di {amount} a {payee} per il {date} è stato saltato ({reason}). I prossimi pagamenti seguiranno come previsto.",
                "Your standing order of {amount} to {payee} for {date} was skipped ({reason}). The next payments follow as planned.",
                "تم تخطي أمرك الدائم بمبلغ {amount} إلى {payee} بتاريخ {date} ({reason}). ستتبع الدفعات التالية كما هو مخطط.",
            ]
        ),
        .paymentRejected: (
            ["Zahlung nicht ausgeführt", "Paiement non exécuté", "Pagamento non eseguito", "Payment not executed", "لم تُنفَّذ الدفعة"],
            [
                "Ihre Zahlung von {amount} an {payee}, fällig am {date}, wurde nicht ausgeführt ({reason}).",
                "Votre paiement de {amount} à {payee}, échu le {date}, n’a pas été exécuté ({reason}).",
                "Il vostro pagamento di {amount} a {payee}, in scadenza il {date}, non è stato eseguito ({reason}).",
                "Your payment of {amount} to {payee} due on {date} was not executed ({reason}).",
                "لم تُنفَّذ دفعتك بمبلغ {amount} إلى {payee} المستحقة في {date} ({reason}).",
            ]
        ),
        .paymentReturned: (
            ["Zahlung zurückgekommen", "Paiement retourné", "Pagamento restituito", "Payment returned", "أُعيدت الدفعة"],
            [
                "Ihre Zahlung von {amount} an {payee} vom {date} kam von der Bank des Empfängers zurück ({reason}). Der Betrag ist Ihrem Konto wieder gutgeschrieben.",
                "Votre paiement de {amount} à {payee} du {date} a été retourné par la banque du bénéficiaire ({reason}). Le montant a été recrédité sur votre compte.",
                "Il vostro pagamento di {amount} a {payee} del {date} è stato restituito dalla banca del beneficiario ({reason}). L’importo è stato riaccreditato sul vostro conto.",
                "Your payment of {amount} to {payee} of {date} was returned by the payee's bank ({reason}). The amount is back in your account.",
                "أعاد بنك المستفيد دفعتك بمبلغ {amount} إلى {payee} بتاريخ {date} ({reason}). أُعيد المبلغ إلى حسابك.",
            ]
        ),
        .paymentHeld: (
            ["Zahlung wird geprüft", "Paiement en cours de vérification", "Pagamento in verifica", "Payment being checked", "الدفعة قيد التحقق"],
            [
                "Ihre Zahlung von {amount} an {payee} wird zu Ihrem Schutz geprüft. Der Betrag ist reserviert; nichts ist abgeflossen. Waren Sie das nicht, rufen Sie uns sofort an.",
                "Votre paiement de {amount} à {payee} est vérifié pour votre sécurité. Le montant est réservé ; rien n’est parti. Si ce n’était pas vous, appelez-nous immédiatement.",
                "Il vostro pagamento di {amount} a {payee} viene verificato per la vostra sicurezza. L’importo è riservato; nulla è uscito. Se non siete stati voi, chiamateci subito.",
                "Your payment of {amount} to {payee} is being checked for your protection. The amount is reserved; nothing has left. If this was not you, call us now.",
                "يجري التحقق من دفعتك بمبلغ {amount} إلى {payee} لحمايتك. المبلغ محجوز ولم يُحوَّل شيء. إن لم تكن أنت، اتصل بنا فورًا.",
            ]
        ),
        .advisorAnswered: (
            [
                "Antwort Ihrer Beraterin / Ihres Beraters", "Réponse de votre conseiller", "Risposta del vostro consulente", "Your advisor answered",
                "رد مستشارك",
            ],
            [
                "{advisor} hat Ihnen geantwortet. Lesen Sie die Antwort unter Mehr → Mein Berater.",
                "{advisor} vous a répondu. Lisez la réponse sous Plus → Mon conseiller.",
                "{advisor} vi ha risposto. Leggete la risposta sotto Altro → Il mio consulente.",
                "{advisor} answered you. Read it under More → My advisor.", "ردّ عليك {advisor}. اقرأ الرد في المزيد ← مستشاري.",
            ]
        ),
        .paymentReleased: (
            ["Zahlung freigegeben", "Paiement libéré", "Pagamento sbloccato", "Payment released", "تم الإفراج عن الدفعة"],
            [
                "Wir haben Ihre Zahlung von {amount} an {payee} geprüft und freigegeben.",
                "Nous avons vérifié et libéré votre paiement de {amount} à {payee}.",
                "Abbiamo verificato e sbloccato il vostro pagamento di {amount} a {payee}.",
                "We checked your payment of {amount} to {payee} and released it.", "تحققنا من دفعتك بمبلغ {amount} إلى {payee} وأفرجنا عنها.",
            ]
        ),
        .paymentHeldRejected: (
            ["Zahlung gestoppt", "Paiement arrêté", "Pagamento fermato", "Payment stopped", "تم إيقاف الدفعة"],
            [
                "Ihre Zahlung von {amount} an {payee} wurde nach der Prüfung nicht ausgeführt; der Betrag ist wieder verfügbar. {message}",
                "Votre paiement de {amount} à {payee} n’a pas été exécuté après vérification ; le montant est de nouveau disponible. {message}",
                "Il vostro pagamento di {amount} a {payee} non è stato eseguito dopo la verifica; l’importo è di nuovo disponibile. {message}",
                "Your payment of {amount} to {payee} was not executed after our check; the amount is available again. {message}",
                "لم تُنفَّذ دفعتك بمبلغ {amount} إلى {payee} بعد التحقق؛ المبلغ متاح مجددًا. {message}",
            ]
        ),
        .signatureNeeded: (
            [
                "Zahlung wartet auf Ihre Unterschrift", "Paiement en attente de votre signature", "Pagamento in attesa della vostra firma",
                "Payment waiting for your signature", "دفعة بانتظار توقيعك",
            ],
            [
                "Ihre Zahlung von {amount} an {payee} wird ausgeführt, sobald Sie sie unterschreiben.",
                "Votre paiement de {amount} à {payee} sera exécuté dès que vous l’aurez signé.",
                "Il vostro pagamento di {amount} a {payee} sarà eseguito appena lo firmate.",
                "Your payment of {amount} to {payee} is executed once you sign it.", "تُنفَّذ دفعتك بمبلغ {amount} إلى {payee} بمجرد توقيعها.",
            ]
        ),
        .deviceActivated: (
            ["Neues Gerät aktiviert", "Nouvel appareil activé", "Nuovo apparecchio attivato", "New device activated", "تم تفعيل جهاز جديد"],
            [
                "{device} kann sich jetzt in Ihr Banking einloggen. Waren das nicht Sie, sperren Sie es unter Einstellungen oder rufen Sie Ihre Filiale an.",
                "{device} peut désormais se connecter à votre banque. Si ce n’était pas vous, bloquez-le sous Réglages ou appelez votre agence.",
                "{device} può ora accedere al vostro banking. Se non eravate voi, bloccatelo in Impostazioni o chiamate la vostra filiale.",
                "{device} can now log in to your banking. If this was not you, lock it under Settings or call your branch.",
                "يمكن لـ {device} الآن الدخول إلى حسابك. إن لم تكن أنت، فاقفله من الإعدادات أو اتصل بفرعك.",
            ]
        ),
        .authenticatorEnrolled: (
            [
                "Authenticator-App eingerichtet", "Application d’authentification configurée", "App di autenticazione configurata",
                "Authenticator app set up", "تم إعداد تطبيق المصادقة",
            ],
            [
                "Ihr Login verlangt ab jetzt den Code dieser App. Waren das nicht Sie, rufen Sie sofort Ihre Filiale an.",
                "Votre connexion demande désormais le code de cette application. Si ce n’était pas vous, appelez immédiatement votre agence.",
                "D’ora in poi l’accesso chiede il codice di questa app. Se non eravate voi, chiamate subito la vostra filiale.",
                "Your login now asks for this app’s code. If this was not you, call your branch at once.",
                "يطلب تسجيل دخولك من الآن رمز هذا التطبيق. إن لم تكن أنت، فاتصل بفرعك فورًا.",
            ]
        ),
        .accountOpened: (
            [
                "Ihr neues Konto ist eröffnet", "Votre nouveau compte est ouvert", "Il vostro nuovo conto è aperto", "Your new account is open",
                "تم فتح حسابك الجديد",
            ],
            [
                "{account} {iban} ist eröffnet und bereit.", "{account} {iban} est ouvert et prêt à l’emploi.",
                "{account} {iban} è aperto e pronto all’uso.",
                "{account} {iban} is open and ready to use.", "الحساب {account} {iban} مفتوح وجاهز للاستعمال.",
            ]
        ),
        .accountDeclined: (
            ["Ihr Kontoantrag", "Votre demande de compte", "La vostra richiesta di conto", "Your account request", "طلب فتح حسابك"],
            ["{message}", "{message}", "{message}", "{message}", "{message}"]
        ),
        .documentReady: (
            ["Ihr Dokument ist bereit", "Votre document est prêt", "Il vostro documento è pronto", "Your document is ready", "مستندك جاهز"],
            [
                "{document} (Prüfcode {code}) liegt unter Dokumente bereit.",
                "Votre document « {document} » (code de vérification {code}) se trouve sous Documents.",
                "Il documento «{document}» (codice di verifica {code}) è in Documenti.",
                "Your {document} (verification code {code}) is under Documents.",
                "{document} (رمز التحقق {code}) موجود في المستندات.",
            ]
        ),
        .budgetAlert: (
            [
                // why no space before "%" in English and Arabic: English writes "80%", and in
                // Arabic a "%" after a space is read first ("% 80"); the others keep it with a
                // space that does not break.
                "Budget {month} {year}: {name} bei {threshold}\u{00A0}%", "Budget {month} {year} : {name} à {threshold}\u{00A0}%",
                "Budget {month} {year}: {name} al {threshold}\u{00A0}%", "Budget {month} {year}: {name} at {threshold}%",
                "الميزانية {month} {year}: {name} عند {threshold}%",
            ],
            [
                "Sie haben {spent} von {limit} für {name} im {month} {year} ausgegeben.",
                "Vous avez dépensé {spent} sur {limit} pour {name} en {month} {year}.",
                "Avete speso {spent} di {limit} per {name} a {month} {year}.",
                "You have spent {spent} of your {limit} budget for {name} in {month} {year}.",
                "أنفقت {spent} من {limit} على {name} في {month} {year}.",
            ]
        ),
        .appointmentRequested: (
            [
                "Termin angefragt: {when}, {branch}", "Rendez-vous demandé : {when}, {branch}", "Appuntamento richiesto: {when}, {branch}",
                "Appointment requested: {when}, {branch}", "طلب موعد: {when}، {branch}",
            ],
            [
                "Ihr Termin ({topic}) bei {branch}, {address}, am {when} ist reserviert. Die Filiale bestätigt ihn in Kürze; Sie können ihn beim Termin in Ihren Kalender übernehmen.",
                "Votre rendez-vous ({topic}) à {branch}, {address}, le {when} est réservé. L’agence le confirme sous peu ; ajoutez-le à votre agenda depuis le rendez-vous.",
                "Il vostro appuntamento ({topic}) presso {branch}, {address}, il {when} è riservato. La filiale lo conferma a breve; aggiungetelo al calendario dall’appuntamento.",
                "Your appointment ({topic}) at {branch}, {address} on {when} is reserved. The branch confirms it shortly; add it to your calendar from the appointment.",
                "موعدك ({topic}) في {branch}، {address} بتاريخ {when} محجوز. سيؤكده الفرع قريباً؛ أضفه إلى تقويمك من صفحة الموعد.",
            ]
        ),
        .appointmentConfirmed: (
            [
                "Termin bestätigt: {when}, {branch}", "Rendez-vous confirmé : {when}, {branch}", "Appuntamento confermato: {when}, {branch}",
                "Appointment confirmed: {when}, {branch}", "تم تأكيد الموعد: {when}، {branch}",
            ],
            [
                "{advisor} erwartet Sie am {when} in {branch}. {message}", "{advisor} vous attend le {when} à {branch}. {message}",
                "{advisor} vi aspetta il {when} presso {branch}. {message}", "{advisor} expects you on {when} at {branch}. {message}",
                "{advisor} بانتظارك في {when} في {branch}. {message}",
            ]
        ),
        .appointmentDeclined: (
            [
                "Termin abgesagt: {when}, {branch}", "Rendez-vous refusé : {when}, {branch}", "Appuntamento rifiutato: {when}, {branch}",
                "Appointment declined: {when}, {branch}", "تم رفض الموعد: {when}، {branch}",
            ],
            [
                "Ihre Filiale kann Sie am {when} nicht empfangen. {message}", "Votre agence ne peut pas vous recevoir le {when}. {message}",
                "La vostra filiale non può ricevervi il {when}. {message}", "Your branch cannot see you on {when}. {message}",
                "لا يستطيع فرعك استقبالك في {when}. {message}",
            ]
        ),
        .cashOrdered: (
            [
                "Banknoten bestellt: {amount}", "Billets commandés : {amount}", "Banconote ordinate: {amount}", "Banknotes ordered: {amount}",
                "تم طلب أوراق نقدية: {amount}",
            ],
            [
                "Ihre {amount} sind am {date} in {branch} zur Abholung reserviert. {debit} sind auf {account} vorgemerkt (Referenzkurs vom {rate_date} plus {margin} %) und werden bei der Abholung belastet.",
                "Vos {amount} sont réservés le {date} à {branch}. {debit} sont réservés sur {account} (cours de référence du {rate_date} plus {margin} %) et débités au retrait.",
                "I vostri {amount} sono riservati il {date} presso {branch}. {debit} sono prenotati su {account} (cambio di riferimento del {rate_date} più {margin} %) e addebitati al ritiro.",
                "Your {amount} are reserved for pickup at {branch} on {date}. {debit} is held on {account} (reference rate of {rate_date} plus {margin} %) and debited when you collect them.",
                "مبلغك {amount} محجوز للاستلام في {branch} بتاريخ {date}. {debit} محجوز على {account} (السعر المرجعي ليوم {rate_date} زائد {margin} %) ويُخصم عند الاستلام.",
            ]
        ),
        .cashCollected: (
            [
                "Banknoten abgeholt: {amount}", "Billets retirés : {amount}", "Banconote ritirate: {amount}", "Banknotes collected: {amount}",
                "تم استلام الأوراق النقدية: {amount}",
            ],
            [
                "Sie haben {amount} in {branch} abgeholt; {debit} sind belastet.", "Vous avez retiré {amount} à {branch} ; {debit} sont débités.",
                "Avete ritirato {amount} presso {branch}; {debit} sono addebitati.", "You collected {amount} at {branch}; {debit} is debited.",
                "استلمت {amount} في {branch}؛ وخُصم {debit}.",
            ]
        ),
        .cashCancelled: (
            [
                "Banknotenbestellung storniert: {amount}", "Commande de billets annulée : {amount}", "Ordine di banconote annullato: {amount}",
                "Banknote order cancelled: {amount}", "أُلغي طلب الأوراق النقدية: {amount}",
            ],
            [
                "Ihre Bestellung von {amount} in {branch} ist storniert; die vorgemerkten {debit} sind wieder verfügbar.",
                "Votre commande de {amount} à {branch} est annulée ; les {debit} réservés sont à nouveau disponibles.",
                "Il vostro ordine di {amount} presso {branch} è annullato; i {debit} prenotati sono di nuovo disponibili.",
                "Your order of {amount} at {branch} is cancelled; the {debit} held is available again.",
                "أُلغي طلبك بمبلغ {amount} في {branch}؛ وعاد المبلغ المحجوز {debit} متاحاً.",
            ]
        ),
        .cardBlocked: (
            ["Karte gesperrt: {card}", "Carte bloquée : {card}", "Carta bloccata: {card}", "Card blocked: {card}", "تم إيقاف البطاقة: {card}"],
            [
                "Ihre Karte {card} ist gesperrt ({reason}) und lehnt ab jetzt jede Zahlung ab. Zum Entsperren oder für eine neue Karte wenden Sie sich an Ihre Filiale.",
                "Votre carte {card} est bloquée ({reason}) et refuse désormais tout paiement. Pour la débloquer ou commander une nouvelle carte, contactez votre agence.",
                "La vostra carta {card} è bloccata ({reason}) e rifiuta ogni pagamento. Per sbloccarla o ordinare una nuova carta, contattate la vostra filiale.",
                "Your card {card} is blocked ({reason}) and refuses every payment from now on. To unblock it or order a new card, contact your branch.",
                "بطاقتك {card} موقوفة ({reason}) وترفض كل دفعة من الآن. لإعادة تفعيلها أو طلب بطاقة جديدة اتصل بفرعك.",
            ]
        ),
        .cardUnblocked: (
            [
                "Karte entsperrt: {card}", "Carte débloquée : {card}", "Carta sbloccata: {card}", "Card unblocked: {card}",
                "أُعيد تفعيل البطاقة: {card}",
            ],
            [
                "Ihre Filiale hat Ihre Karte {card} entsperrt; sie funktioniert wieder.",
                "Votre agence a débloqué votre carte {card} ; elle fonctionne à nouveau.",
                "La vostra filiale ha sbloccato la carta {card}; funziona di nuovo.", "Your branch unblocked your card {card}; it works again.",
                "أعاد فرعك تفعيل بطاقتك {card}؛ وهي تعمل من جديد.",
            ]
        ),
        .statementReady: (
            [
                "Kontoauszug bereit: {account}", "Relevé disponible : {account}", "Estratto conto disponibile: {account}",
                "Statement ready: {account}", "كشف الحساب جاهز: {account}",
            ],
            [
                "Der Auszug Ihres Kontos {account} vom {from} bis {to} liegt unter Auszüge bereit.",
                "Le relevé de votre compte {account} du {from} au {to} vous attend sous Relevés.",
                "L’estratto del vostro conto {account} dal {from} al {to} è disponibile in Estratti.",
                "The statement of your account {account} from {from} to {to} is ready under Statements.",
                "كشف حسابك {account} من {from} إلى {to} جاهز في قسم الكشوف.",
            ]
        ),
        .passkeyAdded: (
            [
                "Neuer Passkey: {name}", "Nouvelle clé d’accès : {name}", "Nuova passkey: {name}", "New passkey: {name}", "مفتاح مرور جديد: {name}",
            ],
            [
                "Mit dem Passkey «{name}» kann man sich ab jetzt ohne Passwort anmelden. Haben Sie ihn nicht hinzugefügt, entfernen Sie ihn unter Einstellungen und rufen Sie uns an.",
                "La clé d’accès « {name} » permet désormais de se connecter sans mot de passe. Si vous ne l’avez pas ajoutée, retirez-la sous Réglages et appelez-nous.",
                "Con la passkey «{name}» ora si accede senza password. Se non l’avete aggiunta voi, rimuovetela in Impostazioni e chiamateci.",
                "The passkey “{name}” now logs in without a password. If you did not add it, remove it under Settings and call us.",
                "يتيح مفتاح المرور «{name}» الآن تسجيل الدخول دون كلمة مرور. إن لم تضفه أنت، فاحذفه من الإعدادات واتصل بنا.",
            ]
        ),
        .newBrowserLogin: (
            [
                "Neue Anmeldung: {browser}", "Nouvelle connexion : {browser}", "Nuovo accesso: {browser}", "New login: {browser}",
                "تسجيل دخول جديد: {browser}",
            ],
            [
                "Jemand hat sich mit Ihrem Vertrag in einem neuen Browser angemeldet ({browser}). Waren Sie das nicht, beenden Sie unter Einstellungen alle anderen Sitzungen, ändern Sie Ihr Passwort und rufen Sie uns an.",
                "Quelqu’un s’est connecté à votre contrat depuis un nouveau navigateur ({browser}). Si ce n’était pas vous, terminez toutes les autres sessions sous Réglages, changez votre mot de passe et appelez-nous.",
                "Qualcuno ha effettuato l’accesso al vostro contratto da un nuovo browser ({browser}). Se non eravate voi, terminate tutte le altre sessioni in Impostazioni, cambiate la password e chiamateci.",
                "Someone logged in to your contract from a new browser ({browser}). If this was not you, end every other session under Settings, change your password and call us.",
                "سجّل أحدهم الدخول إلى عقدك من متصفح جديد ({browser}). إن لم تكن أنت، فأنهِ كل الجلسات الأخرى من الإعدادات وغيّر كلمة المرور واتصل بنا.",
            ]
        ),
        .cashReady: (
            [
                "Banknoten bereit: {amount}", "Billets prêts : {amount}", "Banconote pronte: {amount}", "Banknotes ready: {amount}",
                "الأوراق النقدية جاهزة: {amount}",
            ],
            [
                "Ihre {amount} liegen ab {date} an der Kasse von {branch} bereit. Bringen Sie einen Ausweis mit.",
                "Vos {amount} vous attendent dès le {date} à la caisse de {branch}. Munissez-vous d’une pièce d’identité.",
                "I vostri {amount} sono pronti dal {date} alla cassa di {branch}. Portate un documento d’identità.",
                "Your {amount} are ready at the cash desk of {branch} from {date}. Bring an identity document.",
                "مبلغك {amount} جاهز في صندوق {branch} ابتداءً من {date}. أحضر وثيقة هوية.",
            ]
        ),
    ]
}
