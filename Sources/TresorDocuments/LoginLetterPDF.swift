import Foundation
import TresorCore
import TresorDomain

/// The one-time letter that lets a customer in, as a one-page A4 PDF for a window envelope: the
/// contract number, the code, until when it works, a QR code the phone's camera opens the first
/// login with, the steps, and (for a new customer) the accounts opened.
public enum LoginLetterPDF {
    /// `webURL`: the bank's web app (`https://ebanking.example.ch`); the QR code opens
    /// `<webURL>/activate` with the contract number and the code filled in.
    public static func render(_ letter: LoginLetter, branding: DocumentBranding, webURL: String) -> [UInt8] {
        let labels = DocumentLabels(language: letter.language)
        let words = Words(language: labels.language)
        let margin = PDFCanvas.margin
        let width = PDFCanvas.contentWidth
        let title = words[letter.purpose == .activation ? "title_activation" : "title_reset"]
        let canvas = PDFCanvas(title: title, author: branding.bankName)
        var y = canvas.letterhead(branding, title: title)
        // The address sits where a C5 window envelope shows it.
        y = 140
        canvas.text(letter.customerName, x: margin, y: y, width: 260, style: .init(size: 10, bold: true))
        if let address = letter.address {
            canvas.text(address.replacingOccurrences(of: ", ", with: "\n"), x: margin, y: y + 14, width: 260, style: .init(size: 10), wrap: true)
        }
        canvas.text(labels.date(letter.issuedOn), x: margin, y: y, width: width, style: .init(colour: .muted, alignment: .right))
        y = 250
        let intro = words.fill(
            letter.purpose == .activation ? "intro_activation" : "intro_reset", ["name": letter.customerName, "bank": branding.bankName])
        y += canvas.text(intro, x: margin, y: y, width: width, style: .init(size: 10), wrap: true) + 16

        let boxHeight = 150.0
        canvas.fill(x: margin, y: y, width: width, height: boxHeight, colour: .shade)
        let link = activationLink(webURL: webURL, contract: letter.contract, code: letter.code)
        let qrSide = 120.0
        if let qr = QRMatrix(link) {
            _ = canvas.svg(qr.svg(title: link), x: margin + width - qrSide - 15, y: y + 15, width: qrSide, height: qrSide)
        }
        let fieldWidth = width - qrSide - 50
        canvas.text(words["contract"], x: margin + 15, y: y + 14, width: fieldWidth, style: .init(size: 8.5, colour: .muted))
        canvas.text(letter.contract, x: margin + 15, y: y + 26, width: fieldWidth, style: .init(size: 18, bold: true))
        canvas.text(words["code"], x: margin + 15, y: y + 60, width: fieldWidth, style: .init(size: 8.5, colour: .muted))
        canvas.text(letter.code, x: margin + 15, y: y + 72, width: fieldWidth, style: .init(size: 18, bold: true))
        let until = LocalDate(unixSeconds: letter.expiresAtMillis / 1000)
        canvas.text(
            words.fill("valid_until", ["date": labels.date(until)]), x: margin + 15, y: y + 110, width: fieldWidth,
            style: .init(size: 8.5, colour: .muted), wrap: true)
        y += boxHeight + 18

        canvas.text(words["steps_title"], x: margin, y: y, width: width, style: .init(size: 10, bold: true))
        y += 18
        for (index, key) in ["step_open", "step_type", "step_password"].enumerated() {
            let text = words.fill(key, ["url": "\(webURL)/activate"])
            y += canvas.text("\(index + 1).  \(text)", x: margin, y: y, width: width, style: .init(size: 9.5), wrap: true) + 6
        }
        if letter.purpose == .activation, !letter.accounts.isEmpty {
            y += 12
            canvas.text(words["accounts_title"], x: margin, y: y, width: width, style: .init(size: 10, bold: true))
            y += 18
            y = CertificatePDF.table(
                canvas, labels, y: y, headers: [labels["account"], "IBAN", labels["currency"]],
                rows: letter.accounts.map { [$0.name, $0.iban.formatted, $0.currency.code] })
        }
        canvas.text(
            words["keep_safe"], x: margin, y: PDFCanvas.a4Height - 90, width: width, style: .init(size: 8.5, colour: .muted), wrap: true)
        canvas.footer("\(branding.bankName) · \(letter.contract)", page: labels.page(1, of: 1))
        return canvas.finish()
    }

    /// What the QR code holds: the first-login page with both fields filled in.
    public static func activationLink(webURL: String, contract: String, code: String) -> String {
        "\(webURL)/activate?contract=\(contract)&code=\(code)"
    }

    struct Words {
        let index: Int
        init(language: String) { index = DocumentLabels.languages.firstIndex(of: language) ?? 3 }
        subscript(_ key: String) -> String { LoginLetterPDF.table[key]?[index] ?? key }
        func fill(_ key: String, _ values: [String: String]) -> String {
            values.reduce(self[key]) { $0.replacingOccurrences(of: "{\($1.key)}", with: $1.value) }
        }
    }

    /// key: [de, fr, it, en]
    static let table: [String: [String]] = [
        "title_activation": ["Ihr Zugang zum E-Banking", "Votre accès à l’e-banking", "Il suo accesso all’e-banking", "Your online banking access"],
        "title_reset": ["Neues Passwort", "Nouveau mot de passe", "Nuova password", "New password"],
        "intro_activation": [
            "Willkommen bei {bank}. Mit diesem Brief melden Sie sich zum ersten Mal an und wählen dabei Ihr persönliches Passwort.",
            "Bienvenue chez {bank}. Avec cette lettre, vous vous connectez pour la première fois et choisissez votre mot de passe personnel.",
            "Benvenuto/a presso {bank}. Con questa lettera accede per la prima volta e sceglie la sua password personale.",
            "Welcome to {bank}. With this letter you log in for the first time and choose your own password.",
        ],
        "intro_reset": [
            "Sie haben in der Filiale ein neues Passwort verlangt. Ihr bisheriges Passwort und alle Anmeldungen sind beendet; mit diesem Brief wählen Sie ein neues Passwort.",
            "Vous avez demandé un nouveau mot de passe en agence. L’ancien mot de passe et toutes les sessions sont terminés ; avec cette lettre, vous en choisissez un nouveau.",
            "Ha chiesto una nuova password in filiale. La password precedente e tutte le sessioni sono terminate; con questa lettera ne sceglie una nuova.",
            "You asked the branch for a new password. Your old password and every session have been ended; with this letter you choose a new one.",
        ],
        "contract": ["Vertragsnummer", "Numéro de contrat", "Numero di contratto", "Contract number"],
        "code": ["Einmaliger Code", "Code à usage unique", "Codice monouso", "One-time code"],
        "valid_until": [
            "Gültig bis {date}, nur einmal. Scannen Sie den QR-Code mit der Kamera Ihres Telefons.",
            "Valable jusqu’au {date}, une seule fois. Scannez le code QR avec l’appareil photo de votre téléphone.",
            "Valido fino al {date}, una sola volta. Scansioni il codice QR con la fotocamera del telefono.",
            "Valid until {date}, once. Scan the QR code with your phone’s camera.",
        ],
        "steps_title": ["So geht es", "Comment faire", "Come procedere", "How it works"],
        "step_open": [
            "Öffnen Sie {url} oder scannen Sie den QR-Code.", "Ouvrez {url} ou scannez le code QR.", "Apra {url} o scansioni il codice QR.",
            "Open {url} or scan the QR code.",
        ],
        "step_type": [
            "Geben Sie die Vertragsnummer und den einmaligen Code ein.", "Saisissez le numéro de contrat et le code à usage unique.",
            "Inserisca il numero di contratto e il codice monouso.", "Type the contract number and the one-time code.",
        ],
        "step_password": [
            "Wählen Sie ein Passwort mit mindestens 10 Zeichen, das nicht zu den häufigsten gehört und weder Ihren Namen noch die Vertragsnummer enthält.",
            "Choisissez un mot de passe d’au moins 10 caractères, qui ne soit pas parmi les plus courants et ne contienne ni votre nom ni le numéro de contrat.",
            "Scelga una password di almeno 10 caratteri, che non sia tra le più comuni e non contenga né il suo nome né il numero di contratto.",
            "Choose a password of at least 10 characters that is not among the most common ones and holds neither your name nor the contract number.",
        ],
        "accounts_title": ["Ihre Konten", "Vos comptes", "I suoi conti", "Your accounts"],
        "keep_safe": [
            "Bewahren Sie diesen Brief sicher auf und geben Sie den Code niemandem weiter. Die Bank fragt nie per Telefon oder E-Mail nach diesem Code. Ihre Vertragsnummer steht auch auf Ihrer Karte.",
            "Conservez cette lettre en lieu sûr et ne communiquez le code à personne. La banque ne demande jamais ce code par téléphone ou par e-mail. Votre numéro de contrat figure aussi sur votre carte.",
            "Conservi questa lettera in un luogo sicuro e non comunichi il codice a nessuno. La banca non chiede mai questo codice per telefono o e-mail. Il numero di contratto è anche sulla sua carta.",
            "Keep this letter safe and give the code to no one. The bank never asks for this code by phone or e-mail. Your contract number is also on your card.",
        ],
    ]
}
