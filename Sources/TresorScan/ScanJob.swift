import CScanLibraries
import Foundation
import TresorDomain

/// One image in, one answer out: what the `tresor scan-worker` process runs. The server never
/// calls the C decoders itself; a crash or a hang here ends a worker process, not the server.
public enum ScanJob {
    public enum Task: String, Sendable, Codable, CaseIterable {
        case slip
        case receipt
        /// One photo of a long receipt taken in parts: its text, not refused for lacking a total
        /// or a shop (a middle part has neither); `ReceiptReading(pages:)` reads the whole.
        case receiptPage
    }

    /// The worker's answer on stdout, one JSON object.
    public struct Output: Sendable, Codable {
        public var slip: SlipScan?
        public var receipt: ReceiptReading?
        public var error: Failure?
        public var milliseconds: Int = 0
        /// A receipt sent as HEIC, as the JPEG to keep: browsers other than Safari show no HEIC,
        /// and the photo is shown with the receipt and backed up.
        public var storedJPEG: Data?

        /// The worker's refusal, thrown as is: a QR-bill's own error (`qrbill_invalid_iban`)
        /// keeps its code and field.
        public struct Failure: Error, Sendable, Codable, Equatable {
            public let code: String
            public let field: String?
            public let message: String
        }
    }

    public static func run(_ task: Task, image bytes: [UInt8], limits: ScanLimits = ScanLimits()) -> Output {
        let started = ContinuousClock.now
        var output = Output()
        do {
            // why: Leptonica reports every unreadable image on stderr; the answer says it instead.
            setMsgSeverity(Int32(L_SEVERITY_NONE))
            if task == .slip, FileKind.isPDF(bytes) {
                output.slip = try scanSlipPDF(bytes, limits: limits)
            } else {
                let (image, jpeg) = try ScanImage.decode(bytes, limits: limits, keepingHEIC: task != .slip)
                output.storedJPEG = jpeg.map { Data($0) }
                switch task {
                case .slip: output.slip = try scanSlip(image)
                case .receipt: output.receipt = try readReceipt(image)
                case .receiptPage: output.receipt = try readReceiptPage(image)
                }
            }
        } catch let error as ScanError {
            output.error = .init(code: error.code.rawValue, field: "image", message: error.message)
        } catch let error as DomainError {
            output.error = .init(code: error.code.rawValue, field: error.field, message: error.message)
        } catch {
            output.error = .init(code: ScanErrorCode.unreadable.rawValue, field: "image", message: "The image could not be read.")
        }
        let elapsed = ContinuousClock.now - started
        output.milliseconds = Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
        return output
    }

    static func scanSlip(_ image: ScanImage) throws -> SlipScan {
        try SlipScan.from(qrCodes: try QRCodeReader.read(image)) { try codeLineText(image) }
    }

    /// The text of a slip's code line, read by OCR; upside down on a photo too.
    static func codeLineText(_ image: ScanImage) throws -> String {
        let recognizer = try TextRecognizer(languages: "eng", characters: "0123456789>+ ")
        var text = ""
        let upright = try image.gray().deskewed()
        for turn: Float in [0, 180] {
            text += "\n" + recognizer.read(turn == 0 ? upright : try upright.rotated(degrees: turn)).text
            if (try? CodeLineRepair.find(in: text)) != nil { break }
        }
        return text
    }

    /// A QR-bill sent as a PDF: the QR codes of its last three pages, the last first; without a
    /// QR-bill among them, the last page as a photo of a slip (its code line read by OCR).
    static func scanSlipPDF(_ bytes: [UInt8], limits: ScanLimits) throws -> SlipScan {
        let pages = try PDFPages.lastPages(of: bytes, count: 3, limits: limits)
        for page in pages {
            let codes = try QRCodeReader.read(page)
            if codes.contains(where: { $0.hasPrefix("SPC") }) { return try SlipScan.from(qrCodes: codes) { "" } }
        }
        // Its QR codes were read above: only the code line is left to try.
        return try SlipScan.from(qrCodes: []) { try codeLineText(pages[0]) }
    }

    static func readReceipt(_ image: ScanImage) throws -> ReceiptReading {
        let (text, confidence) = try receiptText(image)
        return try ReceiptReading.checked(ReceiptParser.parse(text, ocrConfidence: confidence))
    }

    /// A part of a long receipt: its text and Tesseract's confidence only; the whole is read
    /// once every part is in (`ReceiptReading(pages:)`).
    static func readReceiptPage(_ image: ScanImage) throws -> ReceiptReading {
        let (text, confidence) = try receiptText(image)
        return ReceiptReading(merchant: nil, date: nil, total: nil, vat: [], confidence: confidence, text: text)
    }

    static func receiptText(_ image: ScanImage) throws -> (text: String, confidence: Int) {
        let prepared = try image.gray().paperCropped().deskewed()
        let recognizer = try TextRecognizer(languages: "deu+fra+ita+eng")
        recognizer.setSingleBlock()
        return recognizer.read(prepared)
    }
}
