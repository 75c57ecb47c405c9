import TresorCore
import TresorDomain

/// An account statement as an A4 PDF: letterhead, customer and account, period, a summary of
/// balances, then every booking with date, text, value date, amount and the running balance.
/// A page that does not hold the rest ends with the balance carried forward and the next page
/// starts with it brought forward, so each page adds up on its own; every page is numbered
/// "n of total".
public enum StatementPDF {
    public static func render(_ statement: Statement, branding: DocumentBranding, language: String) -> [UInt8] {
        Array(statement.parts { Writer(statement.head, branding: branding, language: language) }.joined())
    }

    /// The PDF made page by page as the lines come; it measures every line first, for the page
    /// count in each footer. A page's bytes come out once cairo has finished it.
    public final class Writer: StatementFileWriter {
        let statement: StatementHead
        let branding: DocumentBranding
        let labels: DocumentLabels
        let canvas: PDFCanvas
        /// Lines on each page, from `measure`.
        var pages = Pagination()
        /// The page being drawn, its lines so far and where the next goes.
        var page = 0
        var onPage = 0
        var y = 0.0
        /// The balance after the last line drawn.
        var balance: Money

        public init(_ statement: StatementHead, branding: DocumentBranding, language: String) {
            self.statement = statement
            self.branding = branding
            labels = DocumentLabels(language: language)
            canvas = PDFCanvas(
                title: "\(labels["statement_title"]) \(statement.account.iban.formatted)", author: branding.bankName, created: statement.createdAt)
            balance = statement.opening
        }

        public var measures: Bool { true }

        public func measure(_ lines: ArraySlice<StatementLine>) {
            for line in lines { pages.add(height(of: line)) }
        }

        public func start() -> [UInt8] {
            startPage()
            return canvas.take()
        }

        public func write(_ lines: ArraySlice<StatementLine>) -> [UInt8] {
            for line in lines {
                // why the second test: a line beyond those measured stays on the last page
                // (the run then finds the lines were not the head's, and writes no file).
                if onPage == pages.counts[page], page + 1 < pages.counts.count {
                    balanceRow(canvas, label: labels["carried_forward"], date: nil, balance: balance, labels, y: y)
                    endPage()
                    canvas.newPage()
                    page += 1
                    startPage()
                }
                y = row(canvas, line, labels, y: y)
                balance = line.balance
                onPage += 1
            }
            return canvas.take()
        }

        public func finish() -> [UInt8] {
            if pages.lines == 0 {
                canvas.text(labels["no_bookings"], x: Column.text.x, y: y + 4, width: Column.text.width, style: .init(colour: .muted))
                y += rowHeight
            }
            balanceRow(canvas, label: labels["closing_balance"], date: statement.to, balance: statement.closing, labels, y: y, bold: true)
            endPage()
            return canvas.finish()
        }

        private func startPage() {
            onPage = 0
            y = canvas.letterhead(branding, title: labels["statement_title"] + (page > 0 ? " (\(labels["continued"]))" : ""))
            y = page == 0 ? firstPageHeader(canvas, statement, labels, y: y) : nextPageHeader(canvas, statement, labels, y: y)
            y = tableHeader(canvas, labels, y: y)
            y = balanceRow(
                canvas, label: page == 0 ? labels["opening_balance"] : labels["brought_forward"], date: page == 0 ? statement.from : nil,
                balance: balance, labels, y: y)
        }

        private func endPage() {
            canvas.footer(
                "\(branding.bankName) · \(statement.account.iban.formatted) · \(labels["created"]) \(labels.date(statement.createdDate))",
                page: labels.page(page + 1, of: pages.counts.count))
        }
    }

    static let rowHeight = 15.0
    static let detailHeight = 11.0
    static let firstTableTop = 300.0
    static let nextTableTop = 156.0
    static let bottom = PDFCanvas.a4Height - 60

    /// How many lines each page holds, so the page count is known before the first footer.
    /// A page keeps room for its brought-forward row and its carried-forward or closing row.
    struct Pagination {
        /// Lines on each page; one page (of none) before the first line.
        private(set) var counts = [0]
        private(set) var lines = 0
        private var y = firstTableTop + rowHeight * 2

        mutating func add(_ height: Double) {
            if y + height + rowHeight * 2 > bottom, counts[counts.count - 1] > 0 {
                counts.append(0)
                y = nextTableTop + rowHeight * 2
            }
            y += height
            counts[counts.count - 1] += 1
            lines += 1
        }
    }

    static func height(of line: StatementLine) -> Double {
        detail(of: line) == nil ? rowHeight : rowHeight + detailHeight
    }

    /// The booking's first line shows who (or what); the second, in small print, the message
    /// and the reference when there is more to say.
    static func headline(of line: StatementLine) -> String {
        line.counterparty.flatMap { $0.isEmpty ? nil : $0 } ?? line.text ?? ""
    }

    static func detail(of line: StatementLine) -> String? {
        var parts: [String] = []
        if line.counterparty?.isEmpty == false, let text = line.text, !text.isEmpty { parts.append(text) }
        if let reference = line.reference { parts.append(reference.value) }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    enum Column {
        case date, text, valueDate, debit, credit, balance

        var x: Double {
            switch self {
            case .date: PDFCanvas.margin
            case .text: PDFCanvas.margin + 56
            case .valueDate: PDFCanvas.margin + 56 + 181
            case .debit: PDFCanvas.margin + 56 + 181 + 56
            case .credit: PDFCanvas.margin + 56 + 181 + 56 + 66
            case .balance: PDFCanvas.margin + 56 + 181 + 56 + 66 + 66
            }
        }

        var width: Double {
            switch self {
            case .date: 54
            case .text: 177
            case .valueDate: 54
            case .debit, .credit: 62
            case .balance: PDFCanvas.contentWidth - (Column.balance.x - PDFCanvas.margin)
            }
        }
    }

    static func firstPageHeader(_ canvas: PDFCanvas, _ statement: StatementHead, _ labels: DocumentLabels, y start: Double) -> Double {
        var y = start + 6
        let pairs: [(String, String)] = [
            (labels["customer"], statement.ownerName),
            (labels["account"], "\(statement.account.name) · \(statement.account.iban.formatted)"),
            (labels["currency"], statement.account.currency.code),
            (labels["period"], "\(labels.date(statement.from)) – \(labels.date(statement.to))"),
            (labels["created"], labels.date(statement.createdDate)),
        ]
        for (label, value) in pairs {
            canvas.text(label, x: PDFCanvas.margin, y: y, width: 110, style: .init(colour: .muted))
            canvas.text(value, x: PDFCanvas.margin + 110, y: y, width: PDFCanvas.contentWidth - 110)
            y += 14
        }
        y += 10
        let currency = statement.account.currency.code
        let summary: [(String, String)] = [
            ("\(labels["opening_balance"]) \(labels.date(statement.from))", labels.amount(statement.opening)),
            (labels["credits"], labels.amount(statement.credits)),
            (labels["debits"], labels.amount(statement.debits)),
            ("\(labels["closing_balance"]) \(labels.date(statement.to))", labels.amount(statement.closing)),
        ]
        canvas.fill(x: PDFCanvas.margin, y: y - 4, width: PDFCanvas.contentWidth, height: Double(summary.count) * 15 + 6, colour: .shade)
        for (index, (label, value)) in summary.enumerated() {
            let bold = index == summary.count - 1
            canvas.text(label, x: PDFCanvas.margin + 8, y: y, width: 260, style: .init(bold: bold))
            canvas.text(
                "\(currency) \(value)", x: PDFCanvas.a4Width - PDFCanvas.margin - 208, y: y, width: 200, style: .init(bold: bold, alignment: .right))
            y += 15
        }
        return max(y + 16, firstTableTop - 22)
    }

    static func nextPageHeader(_ canvas: PDFCanvas, _ statement: StatementHead, _ labels: DocumentLabels, y start: Double) -> Double {
        canvas.text(
            "\(statement.ownerName) · \(statement.account.name) · \(statement.account.iban.formatted) · \(labels.date(statement.from)) – \(labels.date(statement.to))",
            x: PDFCanvas.margin, y: start + 4, width: PDFCanvas.contentWidth, style: .init(colour: .muted))
        return nextTableTop - 22
    }

    static func tableHeader(_ canvas: PDFCanvas, _ labels: DocumentLabels, y: Double) -> Double {
        let style = PDFCanvas.Style(size: 8, bold: true, colour: .muted)
        canvas.text(labels["date"], x: Column.date.x, y: y, width: Column.date.width, style: style)
        canvas.text(labels["text"], x: Column.text.x, y: y, width: Column.text.width, style: style)
        canvas.text(labels["value_date"], x: Column.valueDate.x, y: y, width: Column.valueDate.width, style: style)
        var right = style
        right.alignment = .right
        canvas.text(labels["debit"], x: Column.debit.x, y: y, width: Column.debit.width, style: right)
        canvas.text(labels["credit"], x: Column.credit.x, y: y, width: Column.credit.width, style: right)
        canvas.text(labels["balance"], x: Column.balance.x, y: y, width: Column.balance.width, style: right)
        canvas.rule(x: PDFCanvas.margin, y: y + 14, width: PDFCanvas.contentWidth)
        return y + 18
    }

    @discardableResult
    static func balanceRow(
        _ canvas: PDFCanvas, label: String, date: LocalDate?, balance: Money, _ labels: DocumentLabels, y: Double, bold: Bool = false
    ) -> Double {
        let style = PDFCanvas.Style(bold: bold)
        if let date { canvas.text(labels.date(date), x: Column.date.x, y: y + 2.5, width: Column.date.width, style: .init(size: 8, bold: bold)) }
        canvas.text(label, x: Column.text.x, y: y + 2, width: Column.text.width + Column.valueDate.width, style: style)
        canvas.text(labels.amount(balance), x: Column.balance.x, y: y + 2, width: Column.balance.width, style: .init(bold: bold, alignment: .right))
        canvas.rule(x: PDFCanvas.margin, y: y + rowHeight, width: PDFCanvas.contentWidth)
        return y + rowHeight + 2
    }

    static func row(_ canvas: PDFCanvas, _ line: StatementLine, _ labels: DocumentLabels, y: Double) -> Double {
        canvas.text(labels.date(line.bookingDate), x: Column.date.x, y: y + 2.5, width: Column.date.width, style: .init(size: 8))
        canvas.text(headline(of: line), x: Column.text.x, y: y + 2, width: Column.text.width)
        canvas.text(
            labels.date(line.valueDate), x: Column.valueDate.x, y: y + 2.5, width: Column.valueDate.width, style: .init(size: 8, colour: .muted))
        let column: Column = line.amount.minorUnits < 0 ? .debit : .credit
        canvas.text(labels.amount(line.amount, sign: false), x: column.x, y: y + 2, width: column.width, style: .init(alignment: .right))
        canvas.text(labels.amount(line.balance), x: Column.balance.x, y: y + 2, width: Column.balance.width, style: .init(alignment: .right))
        var bottom = y + rowHeight
        if let detail = detail(of: line) {
            canvas.text(
                detail, x: Column.text.x, y: y + rowHeight - 1, width: Column.text.width + Column.valueDate.width,
                style: .init(size: 7.5, colour: .muted))
            bottom += detailHeight
        }
        return bottom
    }
}
