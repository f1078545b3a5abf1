#!/usr/bin/env python3
"""Writes a unified diff that marks the reference's release switches as
changed lines, for `cargo mutants --in-diff` (docs/contributor.md § Mutation
testing): every line outside tests that asks which release it answers as
(`rel.since(...)`, `Release::V0_1x_0` compared, a flag computed from one),
and the lines that read such a flag. cargo-mutants then mutates only the
expressions on those lines and the functions that hold them.

Usage: python3 harness/mutants_switches.py > target/switches.diff
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SWITCH = re.compile(
    r"\.since\(|Release::V0_1[123]_0\s*(=>|\))|\brel\s*[=!]=\s*Release::|_V0_11\b"
    r"|\b(has_visibility|checks_visibility|reads_options)\b"
)


def switch_lines(path):
    lines = path.read_text().split("\n")
    out = []
    for n, line in enumerate(lines, 1):
        if line.strip().startswith("#[cfg(test)]"):
            break
        code = line.split("//", 1)[0]
        if SWITCH.search(code) and "since: Release::" not in code:
            out.append((n, line))
    return out


def main():
    files = sorted((ROOT / "src").rglob("*.rs"))
    total = 0
    for f in files:
        rel = f.relative_to(ROOT).as_posix()
        if rel == "src/model/release.rs":
            continue  # the type itself: its `since` is tested by every switch
        found = switch_lines(f)
        if not found:
            continue
        sys.stdout.write(f"--- a/{rel}\n+++ b/{rel}\n")
        for n, line in found:
            sys.stdout.write(f"@@ -{n},0 +{n},1 @@\n+{line}\n")
            total += 1
    print(f"{total} switch lines", file=sys.stderr)


if __name__ == "__main__":
    main()
