import ArgumentParser
import Foundation

/// The copies `tresor backup --into DIR` keeps: `<database name>-<UTC yyyyMMdd'T'HHmmss.SSS>Z.sqlite`,
/// so the names sort by time and one folder can hold the series of several banks.
enum BackupSeries {
    /// The file a backup writes: `to` as given, or a new timestamped name in `into`.
    static func target(to: String?, into: String?, keep: Int, database: String, now: Date = Date()) throws -> String {
        switch (to, into) {
        case (let file?, nil): return file
        case (nil, let folder?):
            guard keep >= 1 else { throw ValidationError("--keep \(keep): keep at least one copy.") }
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyyMMdd'T'HHmmss.SSS"
            return URL(fileURLWithPath: folder).appendingPathComponent("\(prefix(of: database))\(formatter.string(from: now))Z.sqlite").path
        default: throw ValidationError("Give either --to FILE or --into FOLDER.")
        }
    }

    /// Removes this database's copies in `folder` beyond the newest `keep`; returns their names.
    static func prune(_ folder: String, database: String, keep: Int) throws -> [String] {
        let prefix = prefix(of: database)
        let copies = try FileManager.default.contentsOfDirectory(atPath: folder)
            // why the whole stamp: `bank-2.sqlite`'s copies start with `bank-` too.
            .filter { $0.hasPrefix(prefix) && $0.dropFirst(prefix.count).wholeMatch(of: /\d{8}T\d{6}\.\d{3}Z\.sqlite/) != nil }
            .sorted()
        let old = copies.dropLast(keep)
        for name in old { try FileManager.default.removeItem(atPath: URL(fileURLWithPath: folder).appendingPathComponent(name).path) }
        return Array(old)
    }

    /// `bank.sqlite` → `bank-`.
    private static func prefix(of database: String) -> String {
        URL(fileURLWithPath: database).deletingPathExtension().lastPathComponent + "-"
    }
}
