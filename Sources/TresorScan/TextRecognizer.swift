import CScanLibraries

/// Tesseract 5 through its C API. One recogniser per worker process and job: the worker is a
/// fresh process, so nothing is shared between customers' images.
final class TextRecognizer {
    private let api: OpaquePointer

    /// `languages` as Tesseract names them, e.g. `deu+fra+ita+eng`; `characters` limits the
    /// alphabet (the code line of a slip is digits, `>` and `+`).
    init(languages: String, characters: String? = nil) throws {
        guard let api = TessBaseAPICreate() else { throw ScanError(.unreadable, "The text recogniser cannot start.") }
        self.api = api
        guard TessBaseAPIInit3(api, nil, languages) == 0 else {
            TessBaseAPIDelete(api)
            throw ScanError(.unreadable, "The OCR languages \(languages) are not installed (scripts/install-deps.sh).")
        }
        if let characters { _ = TessBaseAPISetVariable(api, "tessedit_char_whitelist", characters) }
        _ = TessBaseAPISetVariable(api, "debug_file", "/dev/null")
        TessBaseAPISetPageSegMode(api, PSM_AUTO)
    }

    deinit {
        TessBaseAPIEnd(api)
        TessBaseAPIDelete(api)
    }

    /// A receipt is one block of lines whose amounts sit far right; the automatic layout
    /// would split names and amounts into two blocks and lose which amount is the total.
    func setSingleBlock() { TessBaseAPISetPageSegMode(api, PSM_SINGLE_BLOCK) }

    /// The text of the image, lines separated by newlines, and Tesseract's mean confidence 0–100.
    func read(_ image: ScanImage) -> (text: String, confidence: Int) {
        TessBaseAPISetImage2(api, image.pix)
        TessBaseAPISetSourceResolution(api, 300)
        guard let pointer = TessBaseAPIGetUTF8Text(api) else { return ("", 0) }
        defer { TessDeleteText(pointer) }
        return (String(cString: pointer), Int(TessBaseAPIMeanTextConf(api)))
    }
}
