#!/usr/bin/env python3
"""The mutation run as a gap finder: behaviour the spec leaves unsaid where it happens.

Usage: python3 harness/mutants_gaps.py [--markdown] [--all] [OUT ...]

Reads the `outcomes.json` of one or more cargo-mutants output directories
(default `mutants.out`; a later directory's outcome for a mutant replaces
an earlier one's) and, for every caught mutant, the test log cargo-mutants
kept for it (`log/<mutant>.log`): the golden corpus test
(`tests/golden_corpus.rs`) names each failing case there as
`  <case id> at <release> (<file>)`. For each such mutant it compares

  - the rules its failing cases cite (each case file's `spec` list), with
  - the rules cited at the code it changed: every rule id (`KN-7`, ...)
    written in the enclosing function (cargo-mutants records its span) and
    in the comment block right above it.

A caught mutant is a *gap* when its function cites rules and none of its
failing cases cites any of them: the corpus does check the behaviour, but
only through cases about other rules, so the rule that states the
decision (if any) is not the one the cases hold it to, and a porter who
reads the function's rules does not learn it. A mutant in a function that
cites no rule at all is *uncited* (`harness/tests/traceability.rs` holds
every rule cited somewhere, not every function). Timeouts and mutants
whose log names no failing case (a panic, a build failure) are listed
apart: nothing says which cases caught them.

Prints the gaps grouped by function (each with its rules, the mutants and
the rules their cases cite instead), then the uncited functions, then the
figures; `--markdown` prints the same as Markdown for `docs/gap-report.md`;
`--all` also lists every caught mutant whose cases do cite one of its
function's rules. Exit status 1 when there is a gap.

Run it from the repository root after a mutation run, e.g.

    cargo mutants -p ptc-conformance -j 2 -f src/ptc/native_preview.rs
    python3 harness/mutants_gaps.py

`docs/gap-report.md` holds the last report and how each gap was closed.
"""

import json
import os
import re
import sys
from collections import defaultdict

RULE = re.compile(r"\b((?:KN|NP|PP|EX|IN|JH|LF|SG|TL|TV|TJ|LOOSE|AP|LAW)-[0-9]+)\b")
# `  <case id> (<file>)`, or `  <case id> at <release> (<file>)` since the
# corpus test runs each case at every release it holds for.
FAILING = re.compile(r"^\s{2}(\S+)(?: at [0-9.]+)? \((?:[^()]*/)?golden/[^()]*\.json\)\s*$")


def case_rules(case_id, cache):
    """The `spec` list of the case file `golden/<id>.json` (empty if unreadable)."""
    if case_id not in cache:
        path = os.path.join("golden", case_id + ".json")
        try:
            with open(path, encoding="utf-8") as f:
                cache[case_id] = list(json.load(f).get("spec", []))
        except (OSError, ValueError):
            cache[case_id] = []
    return cache[case_id]


def source_lines(path, cache):
    if path not in cache:
        try:
            with open(path, encoding="utf-8") as f:
                cache[path] = f.read().split("\n")
        except OSError:
            cache[path] = []
    return cache[path]


def block_end(lines, start):
    """The line (1-based) where the item opening at `start` closes its first
    brace: a plain brace count that skips string and char literals and `//`
    comments, enough for the reference's functions."""
    depth, opened = 0, False
    for n in range(start - 1, len(lines)):
        text = re.sub(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])\'|//.*', "", lines[n])
        for c in text:
            if c == "{":
                depth, opened = depth + 1, True
            elif c == "}":
                depth -= 1
                if opened and depth == 0:
                    return n + 1
    return len(lines)


def enclosing(mutant, lines):
    """(function name, first line, last line) of the code the mutant
    changed, 1-based, the comment block above the function included.

    The function is found by name in the source as it is now, at the `fn`
    line nearest the span cargo-mutants recorded (which is of the source it
    mutated: citations added after the run count), and runs to its closing
    brace; the recorded span is used when the name is not found."""
    fn = mutant.get("function") or {}
    span = fn.get("span") or {}
    line = mutant.get("span", {}).get("start", {}).get("line", 1)
    start = span.get("start", {}).get("line", line)
    end = span.get("end", {}).get("line", line)
    name = fn.get("function_name", "?")
    short = name.split("::")[-1].split("<")[0]
    header = re.compile(r"\bfn\s+" + re.escape(short) + r"\b")
    found = [n for n, text in enumerate(lines, 1) if header.search(text)]
    if found:
        start = min(found, key=lambda n: abs(n - start))
        end = block_end(lines, start)
    # The doc comments, comments and attributes right above the function.
    first = start
    while first > 1:
        above = lines[first - 2].strip() if first - 2 < len(lines) else ""
        if above.startswith(("//", "#[", "#!")):
            first -= 1
        else:
            break
    return name, first, end


def rules_in(lines, first, last):
    found = set()
    for text in lines[max(first - 1, 0) : last]:
        found.update(RULE.findall(text))
    return found


def failing_cases(out, outcome):
    """The case ids the mutant's test log names as failing."""
    log = outcome.get("log_path")
    if not log:
        return []
    path = os.path.join(out, log)
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return []
    return sorted({m.group(1) for l in text.split("\n") for m in [FAILING.match(l)] if m})


def main():
    args = sys.argv[1:]
    markdown = "--markdown" in args
    show_all = "--all" in args
    outs = [a for a in args if not a.startswith("--")] or ["mutants.out"]
    mutants = {}
    for out in outs:
        path = os.path.join(out, "outcomes.json")
        try:
            with open(path, encoding="utf-8") as f:
                outcomes = json.load(f)["outcomes"]
        except (OSError, ValueError, KeyError) as e:
            sys.exit(f"{path}: cannot read cargo-mutants outcomes: {e}")
        for o in outcomes:
            scenario = o.get("scenario")
            if not isinstance(scenario, dict) or "Mutant" not in scenario:
                continue
            mutants[scenario["Mutant"]["name"]] = (out, scenario["Mutant"], o)
    if not mutants:
        sys.exit(f"no mutants in {', '.join(outs)}: nothing was checked")

    rules_cache, src_cache = {}, {}
    gaps = defaultdict(list)  # (file, fn, fn rules) -> [(mutant, cases, case rules)]
    uncited = defaultdict(list)
    covered = []
    unnamed = []
    counts = defaultdict(int)
    for name, (out, mutant, o) in sorted(mutants.items()):
        kind = o.get("summary")
        counts[kind] += 1
        if kind not in ("CaughtMutant", "Timeout"):
            continue
        cases = failing_cases(out, o)
        if not cases:
            unnamed.append((name, kind))
            continue
        lines = source_lines(mutant["file"], src_cache)
        fn, first, last = enclosing(mutant, lines)
        fn_rules = rules_in(lines, first, last)
        cited = set()
        for c in cases:
            cited.update(case_rules(c, rules_cache))
        key = (mutant["file"], fn, first, tuple(sorted(fn_rules)))
        if not fn_rules:
            uncited[key].append((name, cases, cited))
        elif not fn_rules & cited:
            gaps[key].append((name, cases, cited))
        else:
            covered.append((name, sorted(fn_rules & cited)))

    h = (lambda s: f"### {s}") if markdown else (lambda s: s)
    bullet = "- " if markdown else "  "
    code = (lambda s: f"`{s}`") if markdown else (lambda s: s)

    def show(groups, title):
        print(h(f"{title}: {sum(len(v) for v in groups.values())} mutant(s) in {len(groups)} function(s)"))
        print()
        for (file, fn, line, fn_rules), items in sorted(groups.items()):
            rules = ", ".join(fn_rules) or "none"
            print(f"{bullet}{code(f'{file}:{line}')} {code(fn)} cites {rules}")
            for mname, cases, cited in items:
                shown = ", ".join(code(c) for c in cases[:3])
                more = f" and {len(cases) - 3} more" if len(cases) > 3 else ""
                crules = ", ".join(sorted(cited)) or "none"
                print(f"    {bullet}{code(mname)}: caught by {shown}{more}, which cite {crules}")
        print()

    show(gaps, "Gaps (caught only by cases citing none of the function's rules)")
    show(uncited, "Uncited (the changed function cites no rule)")
    if show_all:
        print(h(f"Caught through the function's own rules: {len(covered)}"))
        print()
        for mname, rules in covered:
            print(f"{bullet}{code(mname)}: {', '.join(rules)}")
        print()
    print(h("Figures"))
    print()
    for kind in sorted(counts):
        print(f"{bullet}{kind}: {counts[kind]}")
    print(f"{bullet}caught through the function's own rules: {len(covered)}")
    print(f"{bullet}gaps: {sum(len(v) for v in gaps.values())}")
    print(f"{bullet}uncited: {sum(len(v) for v in uncited.values())}")
    print(f"{bullet}caught, no case named in the log: {len(unnamed)}")
    return 1 if gaps else 0


if __name__ == "__main__":
    sys.exit(main())
