/// A statement file made while its lines are read, a page at a time: `start`, then `write` for
/// each page in order, then `finish`, each returning the bytes it made. why: the monthly run
/// writes a business account's month (40,000 lines) holding a page of lines, not the month.
/// The API's files come from the same writers fed a whole statement (`Statement.parts`), so a
/// file is the same however it was read.
public protocol StatementFileWriter: AnyObject {
    /// Whether the writer must see every line (`measure`, in order) before `start`: the PDF
    /// numbers its pages "n of total".
    var measures: Bool { get }
    func measure(_ lines: ArraySlice<StatementLine>)
    func start() -> [UInt8]
    func write(_ lines: ArraySlice<StatementLine>) -> [UInt8]
    func finish() -> [UInt8]
}

extension StatementFileWriter {
    public var measures: Bool { false }
    public func measure(_ lines: ArraySlice<StatementLine>) {}
}

extension Statement {
    /// The file `make`'s writer makes of this statement, in parts of `chunk` lines, each made
    /// when the one before has been taken (a response sends them as they come).
    public func parts(chunk: Int = 64, _ make: @escaping @Sendable () -> any StatementFileWriter) -> AnySequence<[UInt8]> {
        let lines = lines
        return AnySequence { () -> AnyIterator<[UInt8]> in
            let writer = make()
            if writer.measures { writer.measure(lines[...]) }
            var next: Int? = nil
            var finished = false
            return AnyIterator {
                guard !finished else { return nil }
                guard let start = next else {
                    next = 0
                    return writer.start()
                }
                guard start < lines.count else {
                    finished = true
                    return writer.finish()
                }
                next = start + chunk
                return writer.write(lines[start..<min(start + chunk, lines.count)])
            }
        }
    }
}
