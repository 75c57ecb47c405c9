extension StringProtocol {
    /// The text in blocks of `size` characters with a space between, as banks print IBANs and
    /// references (`CH93 0076 2011 …`); `fromEnd` counts the blocks from the end, so that the
    /// first is the short one (a QR reference: `21 00000 00003 …`).
    public func spacedBlocks(of size: Int, fromEnd: Bool = false, separator: String = " ") -> String {
        let head = fromEnd ? count % size : 0
        var blocks = head == 0 ? [] : [prefix(head)]
        var rest = dropFirst(head)
        while !rest.isEmpty {
            blocks.append(rest.prefix(size))
            rest = rest.dropFirst(size)
        }
        return blocks.joined(separator: separator)
    }
}
