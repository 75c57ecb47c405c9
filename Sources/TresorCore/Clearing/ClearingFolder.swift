import Foundation
import TresorDomain

/// A folder the payment provider's files are dropped into: each file that has stopped growing
/// is imported and moved to `done/` or `failed/`, with a report beside it (`<name>.report.txt`).
/// why "stopped growing": a file copied in by a transfer program is there, half-written, long
/// before it is whole; one that arrives by rename is whole at once and waits a scan all the
/// same. Names starting with `.` or ending `.part`/`.tmp` (what uploaders write to before
/// renaming) are left alone.
public final class ClearingFolder: @unchecked Sendable {
    public let folder: URL
    let clearing: ClearingService
    /// How long a file's size and time must stay the same before it is read.
    let settleSeconds: Double
    let limits: ClearingLimits
    /// What each file looked like at the previous scan. why a class: the watcher's state between
    /// scans; one watcher per folder, scans one after the other.
    private var seen: [String: (size: Int, modified: Date)] = [:]

    public init(folder: URL, clearing: ClearingService, settleSeconds: Double = 2, limits: ClearingLimits = ClearingLimits()) {
        self.folder = folder
        self.clearing = clearing
        self.settleSeconds = settleSeconds
        self.limits = limits
    }

    /// What one scan did with one file.
    public enum Outcome: Sendable, Equatable {
        case imported(name: String, report: String)
        case failed(name: String, report: String)
    }

    /// Imports every file that has stopped growing since the last scan; returns what it did.
    public func scan() async throws -> [Outcome] {
        let manager = FileManager.default
        for sub in ["done", "failed"] {
            try manager.createDirectory(at: folder.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        let names = try manager.contentsOfDirectory(atPath: folder.path).sorted()
        var outcomes: [Outcome] = []
        var present = Set<String>()
        for name in names where !name.hasPrefix(".") && !name.hasSuffix(".part") && !name.hasSuffix(".tmp") {
            let url = folder.appendingPathComponent(name)
            guard let attributes = try? manager.attributesOfItem(atPath: url.path), attributes[.type] as? FileAttributeType == .typeRegular,
                let size = attributes[.size] as? Int, let modified = attributes[.modificationDate] as? Date
            else { continue }
            present.insert(name)
            let before = seen[name]
            seen[name] = (size, modified)
            guard let before, before.size == size, before.modified == modified, Date().timeIntervalSince(modified) >= settleSeconds else {
                continue
            }
            seen[name] = nil
            outcomes.append(await importOne(url, name: name))
        }
        for name in seen.keys where !present.contains(name) { seen[name] = nil }
        return outcomes
    }

    private func importOne(_ url: URL, name: String) async -> Outcome {
        var outcome: Outcome
        var target: String
        do {
            let report = try await clearing.importFile(url, name: name, limits: limits)
            outcome = .imported(name: name, report: ClearingReportText.text(of: report))
            target = "done"
        } catch let refusal as ClearingRefusal {
            outcome = .failed(name: name, report: "Refused whole, nothing booked: \(refusal)\n")
            target = "failed"
        } catch {
            outcome = .failed(name: name, report: "Not imported, nothing booked: \(error)\n")
            target = "failed"
        }
        let destination = folder.appendingPathComponent(target).appendingPathComponent(name)
        try? FileManager.default.removeItem(at: destination)
        try? FileManager.default.moveItem(at: url, to: destination)
        let text: String =
            switch outcome {
            case .imported(_, let report), .failed(_, let report): report
            }
        try? Data(text.utf8).write(to: folder.appendingPathComponent(target).appendingPathComponent(name + ".report.txt"), options: .atomic)
        return outcome
    }
}

/// An import's report as an operator reads it (the command's output, the watcher's report file).
public enum ClearingReportText {
    public static func text(of report: ClearingService.ImportReport) -> String {
        var lines: [String] = []
        let message = report.message.map { "\($0.kind) \($0.messageID)" } ?? "?"
        if report.alreadyImported {
            return "\(report.file): \(message) was imported before; nothing changed.\n"
        }
        lines.append("\(report.file): \(message)")
        lines.append("  booked to customers: \(report.bookedCount)")
        for credit in report.booked.prefix(20) { lines.append("    credit \(credit.id): \(credit.amount) to \(credit.account)") }
        if report.bookedCount > 20 { lines.append("    … and \(report.bookedCount - 20) more") }
        lines.append("  to suspense: \(report.suspenseCount)")
        for credit in report.suspense.prefix(50) {
            lines.append(
                "    credit \(credit.id): \(credit.amount) to \(credit.account.isEmpty ? "(no account)" : credit.account) — \(credit.reason ?? "")")
        }
        if report.suspenseCount > 50 { lines.append("    … and \(report.suspenseCount - 50) more (tresor clearing suspense)") }
        lines.append("  already known (not booked again): \(report.known)")
        if let passed = report.message?.passedOver, passed > 0 {
            lines.append("  not credits (debits, reversals, not booked), left alone: \(passed)")
        }
        if report.flagged > 0 { lines.append("  references failing their check digits (booked, flagged): \(report.flagged)") }
        if report.invoicesPaid > 0 { lines.append("  invoices paid: \(report.invoicesPaid)") }
        if report.settled > 0 || !report.returned.isEmpty || !report.unknownStatuses.isEmpty {
            lines.append("  payments settled: \(report.settled)")
            lines.append(
                "  payments returned and refunded: \(report.returned.count)\(report.returned.isEmpty ? "" : " (\(report.returned.map(String.init).joined(separator: ", ")))")"
            )
            for unknown in report.unknownStatuses { lines.append("  not ours, nothing booked: \(unknown)") }
        }
        for (currency, minor) in report.totalMinor.sorted(by: { $0.key < $1.key }) {
            if let code = Currency(code: currency) { lines.append("  total \(Money(minorUnits: minor, currency: code))") }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
