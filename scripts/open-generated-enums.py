#!/usr/bin/env python3
"""Opens the enums of swift-openapi-generator's output: each gets a case `unknown(String)` (or `(Int)`).

swift-openapi-generator writes an enum of the document (a payment's `status`, an account's `kind`,
the authentication `level` of a new session) as a `@frozen` Swift enum whose decoding throws on a
value it does not list (apple/swift-openapi-generator#608). A bank adds a value on its server (a
payment status, a kind of account) long before the last phone updates its app: with frozen enums
that app could not read a single page holding the new value (the whole list of payments, the
overview of accounts; with a new level, the answer to its login).

Rewritten here, a value the app does not know decodes as `.unknown("on_hold")`, encodes back as
it came, and the rest of the answer reads; `switch` statements name `.unknown` (what an app shows
for "other"), `allCases` lists the values the document names.

The rewrite keeps each enum's name, cases, raw values and conformances (`RawRepresentable` with a
`String` or `Int` raw value, so `Codable` and `rawValue` work as before); the other enums (content
types, operation outputs) are left as generated.

Usage: open-generated-enums.py DIR (the generator's output directory, rewritten in place).
"""

import pathlib
import re
import sys

FROZEN = re.compile(r"^(?P<indent> *)@frozen public enum (?P<name>\w+): (?P<raw>String|Int), Codable, Hashable, Sendable, CaseIterable \{$")
CASE = re.compile(r'^ *case (?P<case>`?\w+`?) = (?P<raw>"(?:[^"\\]|\\.)*"|-?[0-9]+)$')
UNKNOWN = "unknown"


def opened(indent, name, raw_type, cases):
    """The open enum for `name` with `raw_type` raw values and `cases` [(case, raw literal)], at `indent`."""
    if any(case.strip("`") == UNKNOWN for case, _ in cases):
        sys.exit(f"open-generated-enums: {name} has a case named {UNKNOWN}; choose another name here")
    raw = f"Swift.{raw_type}"
    inner = indent + "    "
    lines = [f"{indent}public enum {name}: RawRepresentable, Codable, Hashable, Sendable, CaseIterable {{"]
    lines += [f"{inner}case {case}" for case, _ in cases]
    lines += [
        f"{inner}/// A value this version of the client does not know (a newer server's), as it came.",
        f"{inner}case {UNKNOWN}({raw})",
        f"{inner}public init(rawValue: {raw}) {{",
        f"{inner}    switch rawValue {{",
    ]
    lines += [f"{inner}    case {literal}: self = .{case}" for case, literal in cases]
    lines += [
        f"{inner}    default: self = .{UNKNOWN}(rawValue)",
        f"{inner}    }}",
        f"{inner}}}",
        f"{inner}public var rawValue: {raw} {{",
        f"{inner}    switch self {{",
    ]
    lines += [f"{inner}    case .{case}: return {literal}" for case, literal in cases]
    lines += [
        f"{inner}    case .{UNKNOWN}(let value): return value",
        f"{inner}    }}",
        f"{inner}}}",
        f"{inner}/// The values the document names.",
        f"{inner}public static var allCases: [Self] {{ [{', '.join('.' + case for case, _ in cases)}] }}",
        f"{indent}}}",
    ]
    return lines


def rewrite(text):
    """`text` with every frozen enum of strings or integers opened, and how many there were."""
    lines = text.split("\n")
    out = []
    count = 0
    index = 0
    while index < len(lines):
        match = FROZEN.match(lines[index])
        if not match:
            out.append(lines[index])
            index += 1
            continue
        indent, name, raw_type = match.group("indent"), match.group("name"), match.group("raw")
        cases = []
        index += 1
        while lines[index] != indent + "}":
            case = CASE.match(lines[index])
            if not case or case.group("raw").startswith('"') != (raw_type == "String"):
                sys.exit(f"open-generated-enums: unexpected line in enum {name}: {lines[index]!r}")
            cases.append((case.group("case"), case.group("raw")))
            index += 1
        index += 1  # the closing brace
        out += opened(indent, name, raw_type, cases)
        count += 1
    return "\n".join(out), count


def main():
    directory = pathlib.Path(sys.argv[1])
    total = 0
    for path in sorted(directory.glob("*.swift")):
        text, count = rewrite(path.read_text())
        if count:
            path.write_text(text)
            total += count
    print(f"open-generated-enums: opened {total} enums", file=sys.stderr)


if __name__ == "__main__":
    main()
