import TresorDomain

/// Cuts a pain.001 document, written payment by payment in debtor IBAN order, into numbered
/// parts of about `partBytes` each, so the exporter never holds more than one part and one
/// page. The counts and sums that open the document and each payment information block are
/// known only after their payments: the group header is part 0, written last; a block whose
/// payments spill over a part gets a part of its own reserved for its head, filled when the
/// block ends. Parts in number order are the document.
struct Pain001Parts {
    let document: Pain001Document
    let partBytes: Int
    private(set) var count = 0
    private(set) var sumMinor: Int64 = 0
    private var ready: [(part: Int64, xml: String)] = []
    private var next: Int64 = 1
    private var buffer = ""
    private var block: Block?
    private var blocks = 0

    private struct Block {
        let debtor: Pain001Document.Debtor
        let index: Int
        var count = 0
        var sumMinor: Int64 = 0
        var text = ""
        var head: Int64?
    }

    init(document: Pain001Document, partBytes: Int) {
        self.document = document
        self.partBytes = partBytes
    }

    /// Adds the next payment; payments of one debtor account come together.
    mutating func add(_ payment: Payment, debtor: Pain001Document.Debtor) {
        if block?.debtor.iban != debtor.iban {
            closeBlock()
            blocks += 1
            block = Block(debtor: debtor, index: blocks)
        }
        let amount = payment.instruction.amount.minorUnits
        count += 1
        sumMinor += amount
        block!.count += 1
        block!.sumMinor += amount
        block!.text += document.transaction(payment)
        if block!.text.utf8.count >= partBytes {
            if block!.head == nil {
                flush()
                block!.head = next
                next += 1
            }
            emit(block!.text)
            block!.text = ""
        }
    }

    /// Ends the document: its last parts and the group header as part 0.
    mutating func finish() {
        closeBlock()
        buffer += Pain001Document.end
        flush()
        ready.append((0, document.start(count: count, sumMinor: sumMinor)))
    }

    /// The parts made since the last call, to be stored.
    mutating func take() -> [(part: Int64, xml: String)] {
        defer { ready = [] }
        return ready
    }

    private mutating func closeBlock() {
        guard let block else { return }
        self.block = nil
        let head = document.paymentInformationStart(index: block.index, debtor: block.debtor, count: block.count, sumMinor: block.sumMinor)
        if let reserved = block.head {
            emit(block.text + Pain001Document.paymentInformationEnd)
            ready.append((reserved, head))
        } else {
            buffer += head + block.text + Pain001Document.paymentInformationEnd
            if buffer.utf8.count >= partBytes { flush() }
        }
    }

    private mutating func flush() {
        guard !buffer.isEmpty else { return }
        emit(buffer)
        buffer = ""
    }

    private mutating func emit(_ xml: String) {
        ready.append((next, xml))
        next += 1
    }
}
