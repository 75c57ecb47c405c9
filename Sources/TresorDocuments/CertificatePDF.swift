import TresorCore
import TresorDomain

/// A certificate as a one-page A4 PDF: letterhead, the customer and date, the statement the bank
/// makes with its figures, and the verification code with where to check it.
public enum CertificatePDF {
    public static func render(_ content: CertificateContent, branding: DocumentBranding, language: String, verifyURL: String) -> [UInt8] {
        let labels = DocumentLabels(language: language)
        let margin = PDFCanvas.margin
        let width = PDFCanvas.contentWidth
        let title = labels[content.request.type.rawValue]
        let canvas = PDFCanvas(title: title, author: branding.bankName)
        var y = canvas.letterhead(branding, title: title)
        y += 10
        canvas.text(content.ownerName, x: margin, y: y, width: width, style: .init(size: 10, bold: true))
        canvas.text(
            "\(labels["created"]) \(labels.date(content.issuedOn))", x: margin, y: y, width: width, style: .init(colour: .muted, alignment: .right))
        y += 30
        let name = content.ownerName
        switch content.request {
        case .balanceConfirmation(let date):
            y +=
                canvas.text(
                    labels.fill("balance_confirmation_text", ["name": name, "bank": content.bankName, "date": labels.date(date)]), x: margin, y: y,
                    width: width, style: .init(size: 10), wrap: true) + 14
            y = table(
                canvas, labels, y: y, headers: [labels["account"], "IBAN", labels["balance"]],
                rows: content.lines.map { [$0.accountName, $0.iban.formatted, "\($0.balance.currency.code) \(labels.amount($0.balance))"] })
        case .interestTaxStatement(let year):
            y +=
                canvas.text(
                    labels.fill("interest_tax_text", ["name": name, "year": String(year)]), x: margin, y: y, width: width, style: .init(size: 10),
                    wrap: true) + 14
            var rows = content.lines.map { line in
                [
                    "\(line.accountName)\n\(line.iban.formatted)",
                    labels.amount(line.grossInterest ?? Money(minorUnits: 0, currency: line.balance.currency)),
                    labels.amount(line.withholdingTax ?? Money(minorUnits: 0, currency: line.balance.currency)),
                    "\(line.balance.currency.code) \(labels.amount(line.balance))",
                ]
            }
            for currency in Set(content.lines.map(\.balance.currency.code)).sorted() {
                let lines = content.lines.filter { $0.balance.currency.code == currency }
                let sum = { (pick: (CertificateContent.Line) -> Money?) in
                    Money(minorUnits: lines.reduce(0) { $0 + (pick($1)?.minorUnits ?? 0) }, currency: lines[0].balance.currency)
                }
                rows.append([
                    "\(labels["total"]) \(currency)", labels.amount(sum(\.grossInterest)), labels.amount(sum(\.withholdingTax)),
                    "\(currency) \(labels.amount(sum { $0.balance }))",
                ])
            }
            y = table(
                canvas, labels, y: y, headers: [labels["account"], labels["gross_interest"], labels["withholding_tax"], labels["year_end_balance"]],
                rows: rows)
            y += 8
            y += canvas.text(labels["interest_tax_note"], x: margin, y: y, width: width, style: .init(size: 8, colour: .muted), wrap: true)
        case .accountOpening(let kind, let currency):
            y += canvas.text(
                labels.fill(
                    "account_opening_text",
                    ["name": name, "kind": labels["kind_\(kind.rawValue)"], "currency": currency.code, "id": content.code]),
                x: margin, y: y, width: width, style: .init(size: 10), wrap: true)
        }
        let boxTop = PDFCanvas.a4Height - 150
        canvas.fill(x: margin, y: boxTop, width: width, height: 70, colour: .shade)
        canvas.text(labels["verification"], x: margin + 10, y: boxTop + 8, width: width - 20, style: .init(size: 10, bold: true))
        canvas.text(
            labels.fill("verification_text", ["code": content.code, "url": "\(verifyURL)/\(content.code)"]), x: margin + 10, y: boxTop + 26,
            width: width - 20, style: .init(size: 8.5), wrap: true)
        canvas.footer("\(branding.bankName) · \(content.code)", page: labels.page(1, of: 1))
        return canvas.finish()
    }

    /// A simple table: the first column left, the others right-aligned; a row may have two lines.
    static func table(_ canvas: PDFCanvas, _ labels: DocumentLabels, y start: Double, headers: [String], rows: [[String]]) -> Double {
        let margin = PDFCanvas.margin
        let first = PDFCanvas.contentWidth * (headers.count > 3 ? 0.34 : 0.30)
        let other = (PDFCanvas.contentWidth - first) / Double(headers.count - 1)
        func x(_ column: Int) -> Double { column == 0 ? margin : margin + first + other * Double(column - 1) }
        func width(_ column: Int) -> Double { column == 0 ? first - 6 : other }
        var y = start
        for (column, header) in headers.enumerated() {
            canvas.text(
                header, x: x(column), y: y, width: width(column),
                style: .init(size: 8, bold: true, colour: .muted, alignment: column == 0 ? .left : .right))
        }
        canvas.rule(x: margin, y: y + 14, width: PDFCanvas.contentWidth)
        y += 20
        for row in rows {
            var height = 0.0
            for (column, cell) in row.enumerated() {
                let used = canvas.text(
                    cell, x: x(column), y: y, width: width(column), style: .init(alignment: column == 0 ? .left : .right), wrap: true)
                height = max(height, used)
            }
            y += height + 6
            canvas.rule(x: margin, y: y - 3, width: PDFCanvas.contentWidth)
        }
        return y + 4
    }
}
