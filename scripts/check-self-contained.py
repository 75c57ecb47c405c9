"""Fails when a test, script or build file reads outside the checkout (run by `make lint`).

Whoever clones Tresor alone has nothing beside it: no folder of shared reference material, no
sibling projects. A file a
test needs lives in the repository with its source named beside it (Tests/standards/README.md).
What this looks for, in every tracked Swift, Python and shell file and the Makefile:
- a path named outside the repository (the parent's shared folder or its standards, the
  machine's work folder: `NAMED_OUTSIDE`);
- a path built from the file's own location (`#filePath`, `__file__`, `$0`) that climbs more
  folders than the file is deep, so it leaves the checkout;
- `..` joined after such a climb.

    python3 scripts/check-self-contained.py        # exit 1 with each place at fault
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# why the character classes: so that this file, which names the paths to refuse, does not name them itself.
NAMED_OUTSIDE = re.compile(r"\.\./shar[e]d|shar[e]d/standards|/wor[k]/")
# why the comment prefixes: a comment may name where a copy came from.
COMMENT = re.compile(r"^\s*(//|#|///|\*)")
SWIFT_CLIMB = re.compile(r"#filePath\)((?:\s*\.deletingLastPathComponent\(\))*)((?:\s*\.appendingPathComponent\(\s*\"[^\"]*\"\s*\))*)")
PYTHON_DIRNAME = re.compile(r"((?:os\.path\.dirname\(\s*)+)(?:os\.path\.abspath\(\s*)?__file__")
PYTHON_UP = re.compile(r"os\.path\.dirname\(__file__\)\s*\)?\s*,((?:\s*\"\.\.\"\s*,?)+)")
SHELL_UP = re.compile(r"\$\(dirname \"\$0\"\)((?:/\.\.)+)")


def tracked_files():
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split("\n")
    wanted = (".swift", ".py", ".sh")
    # why not this file: it names those paths to look for them.
    mine = os.path.relpath(os.path.abspath(__file__), ROOT)
    return [
        f for f in listed if f and (f.endswith(wanted) or os.path.basename(f) == "Makefile") and "/Generated/" not in f and f != mine
    ]


def faults_in(path, text):
    depth = path.count("/")  # folders between the file and the repository's root
    faults = []
    for number, line in enumerate(text.split("\n"), 1):
        if NAMED_OUTSIDE.search(line) and not COMMENT.match(line):
            faults.append((number, "names a path outside the checkout"))
    def line_of(offset):
        return text.count("\n", 0, offset) + 1
    for match in SWIFT_CLIMB.finditer(text):
        climbs = match.group(1).count("deletingLastPathComponent")
        # #filePath is the file itself: the first climb reaches its folder.
        if climbs - 1 > depth:
            faults.append((line_of(match.start()), f"climbs {climbs - 1} folders from a file {depth} deep"))
        if '".."' in match.group(2) or "../" in match.group(2):
            faults.append((line_of(match.start()), "appends '..' to a path from #filePath"))
    for match in PYTHON_DIRNAME.finditer(text):
        dirnames = match.group(1).count("dirname")
        ups = 0
        after = PYTHON_UP.match(text, match.start()) if dirnames == 1 else None
        if after:
            ups = after.group(1).count('".."')
        if dirnames - 1 + ups > depth:
            faults.append((line_of(match.start()), f"climbs {dirnames - 1 + ups} folders from a file {depth} deep"))
    for match in SHELL_UP.finditer(text):
        ups = match.group(1).count("..")
        if ups > depth:
            faults.append((line_of(match.start()), f"climbs {ups} folders from a file {depth} deep"))
    return faults


def main():
    found = 0
    for path in tracked_files():
        with open(os.path.join(ROOT, path), encoding="utf-8", errors="replace") as handle:
            text = handle.read()
        for number, why in faults_in(path, text):
            print(f"{path}:{number}: {why}; copy what it needs into the repository (Tests/standards)")
            found += 1
    if found:
        print(f"{found} place(s) read outside the checkout", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
