import Hummingbird
import TresorCore

/// A response of the XML channel written element by element, in the order its XSD gives:
/// `State`, then `Code`, `Wrongfield`, `Message` and `CorrectedValue` when there is something to say, then
/// the service's own elements.
struct XMLResponse: Sendable {
    private(set) var text: String
    let root: String

    init(_ root: String, state: Int, code: String? = nil, wrongfield: String? = nil, message: String? = nil, correctedValue: String? = nil) {
        self.root = root
        text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<\(root)>"
        element("State", String(state))
        element("Code", code)
        element("Wrongfield", wrongfield)
        element("Message", message)
        element("CorrectedValue", correctedValue)
    }

    /// `<name>value</name>`, nothing for nil.
    mutating func element(_ name: String, _ value: String?) {
        guard let value else { return }
        text += "<\(name)>\(XMLText.escaped(value))</\(name)>"
    }

    /// A group of elements inside `<name>`.
    mutating func group(_ name: String, _ body: (inout XMLResponse) -> Void) {
        text += "<\(name)>"
        body(&self)
        text += "</\(name)>"
    }

    func response(status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/xml; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text + "</\(root)>\n")))
    }
}
