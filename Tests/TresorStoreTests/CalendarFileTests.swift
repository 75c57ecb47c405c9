import Foundation
import Testing

@testable import TresorCore

@Suite("Appointments as iCalendar files (RFC 5545): lines, escapes and folds whatever a note holds")
struct CalendarFileTests {
    static func event(description: String) -> String {
        CalendarFile.event(
            uid: "appointment-1@bank.example", start: Date(timeIntervalSince1970: 1_795_939_200), end: Date(timeIntervalSince1970: 1_795_941_000),
            stamp: Date(timeIntervalSince1970: 1_795_900_000), summary: "Uster: financing", location: "Uster, Bankstrasse 2",
            description: description, confirmed: false)
    }

    /// The DESCRIPTION's value as a reader gets it: lines unfolded (§3.1), then unescaped (§3.3.11).
    static func description(in file: String) -> String? {
        // why by octets: a fold before a combining mark makes " \u{301}" one character, which a
        // search for "\r\n " among characters does not find.
        let octets = Array(file.utf8)
        var unfolded: [UInt8] = []
        var index = 0
        while index < octets.count {
            if octets[index...].starts(with: [0x0D, 0x0A, 0x20]) {
                index += 3
            } else {
                unfolded.append(octets[index])
                index += 1
            }
        }
        let lines = unfolded.split(separator: 0x0A).map { String(decoding: $0.last == 0x0D ? $0.dropLast() : $0[...], as: UTF8.self) }
        guard let line = lines.first(where: { $0.hasPrefix("DESCRIPTION:") }) else { return nil }
        var value = ""
        var escaped = false
        for scalar in line.dropFirst("DESCRIPTION:".count).unicodeScalars {
            if escaped {
                value.unicodeScalars.append(scalar == "n" || scalar == "N" ? "\n" : scalar)
                escaped = false
            } else if scalar == "\\" {
                escaped = true
            } else {
                value.unicodeScalars.append(scalar)
            }
        }
        return value
    }

    @Test("every line is at most 75 octets and ends in CR LF; no CR or LF stands alone; the text reads back")
    func anyNote() throws {
        let notes = [
            "Kredit\rAuto; Anzahlung, 20'000",
            "Z" + String(repeating: "\u{301}", count: 200) + " ok",
            String(repeating: "नमस्ते ", count: 40),
            "a\r\nb\nc\r\rd \\ e\t f",
            String(repeating: "👨‍👩‍👧‍👦", count: 30) + "\u{7F}",
        ]
        for note in notes {
            let file = Self.event(description: note)
            #expect(file.hasSuffix("\r\n"))
            for line in file.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast() {
                #expect(line.last == UInt8(ascii: "\r"), "a line ends in CR LF: \(note.debugDescription)")
                #expect(line.count - 1 <= 75, "\(line.count - 1) octets: \(note.debugDescription)")
                #expect(!line.dropLast().contains(UInt8(ascii: "\r")), "no CR inside a line: \(note.debugDescription)")
                #expect(String(validating: line, as: UTF8.self) != nil, "no fold inside a UTF-8 sequence")
            }
            let expected = note.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
                .replacingOccurrences(of: "\u{7F}", with: "")
            #expect(Self.description(in: file) == expected, "\(note.debugDescription)")
        }
    }
}
