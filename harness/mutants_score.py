#!/usr/bin/env python3
"""The mutation score of a `cargo mutants` run, and the survivors to explain.

Usage: python3 harness/mutants_score.py [--equivalents FILE] [OUT ...]

Reads the `outcomes.json` of one or more cargo-mutants output directories
(default `mutants.out`; a later directory's outcome for a mutant replaces an
earlier one's, so `mutants.out.old mutants.out` combines a full run with a
`--iterate` rerun) and the equivalents file (default
`mutants.equivalent.txt`; one survivor per line, `file:line:column:
mutation — why`; `#` starts a comment). It prints, per source file and in
total, caught / missed / unviable / timeout and the score caught / (caught +
missed), where a timeout counts as caught (the mutant changed behaviour
enough to hang) and an unviable mutant (one that does not compile) as
neither. A mutant listed in an `--iterate` run's `previously_caught.txt`
and in no earlier directory counts as caught (cargo-mutants lists earlier
unviable mutants there too: give the earlier directory first to keep them
apart). Then it lists every missed mutant that the equivalents file does
not explain; exit status 1 when there is one.

A listed equivalent matches a missed mutant by its exact name, or, when
lines have moved since it was written, by file and mutation text alone (the
script then says so: update the line and column). Listed equivalents that
the run did not report as missed are shown too, so the file cannot rot.
"""

import json
import os
import re
import sys
from collections import defaultdict

NAME = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<what>.*)$")


def load_equivalents(path):
    entries = []
    if not os.path.exists(path):
        return entries
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            name, sep, why = line.partition(" — ")
            m = NAME.match(name)
            if not sep or not m or not why.strip():
                sys.exit(f"{path}:{n}: expected `file:line:column: mutation — why`")
            entries.append((name, m.group("file"), m.group("what"), n))
    return entries


KINDS = {
    "CaughtMutant": "caught",
    "MissedMutant": "missed",
    "Unviable": "unviable",
    "Timeout": "timeout",
}


def read_run(out, outcome):
    """Records each mutant's outcome in `outcome` (name -> (file, kind)),
    replacing what earlier runs said of it."""
    with open(os.path.join(out, "outcomes.json"), encoding="utf-8") as f:
        outcomes = json.load(f)["outcomes"]
    previous = os.path.join(out, "previously_caught.txt")
    if os.path.exists(previous):
        with open(previous, encoding="utf-8") as f:
            for line in f:
                m = NAME.match(line.strip())
                if m and line.strip() not in outcome:
                    outcome[line.strip()] = (m.group("file"), "caught")
    for o in outcomes:
        scenario = o["scenario"]
        if not isinstance(scenario, dict) or "Mutant" not in scenario:
            continue  # the baseline
        mutant = scenario["Mutant"]
        outcome[mutant["name"]] = (mutant["file"], KINDS.get(o["summary"], o["summary"]))


def main():
    args = sys.argv[1:]
    eq_path = "mutants.equivalent.txt"
    if "--equivalents" in args:
        i = args.index("--equivalents")
        eq_path = args[i + 1]
        del args[i : i + 2]
    outcome = {}
    for out in args or ["mutants.out"]:
        read_run(out, outcome)
    per_file = defaultdict(lambda: defaultdict(int))
    missed = []
    in_run = set(outcome)
    for name, (file, kind) in sorted(outcome.items()):
        per_file[file][kind] += 1
        if kind == "missed":
            missed.append(name)

    def score(c):
        caught = c["caught"] + c["timeout"]
        return 100.0 * caught / (caught + c["missed"]) if caught + c["missed"] else 100.0

    total = defaultdict(int)
    print(f"{'file':40} {'caught':>6} {'missed':>6} {'unviable':>8} {'timeout':>7} {'score':>7}")
    for file in sorted(per_file):
        c = per_file[file]
        for k, v in c.items():
            total[k] += v
        print(f"{file:40} {c['caught']:6} {c['missed']:6} {c['unviable']:8} {c['timeout']:7} {score(c):6.1f}%")
    print(f"{'total':40} {total['caught']:6} {total['missed']:6} {total['unviable']:8} {total['timeout']:7} {score(total):6.1f}%")

    equivalents = load_equivalents(eq_path)
    by_name = {e[0]: e for e in equivalents}
    by_what = defaultdict(list)
    for e in equivalents:
        by_what[(e[1], e[2])].append(e)
    used = set()
    unexplained, moved = [], []
    for name in missed:
        if name in by_name:
            used.add(by_name[name][3])
            continue
        m = NAME.match(name)
        # Only an entry whose own line and column no longer name a mutant
        # of this run can have moved.
        cands = [
            e
            for e in by_what.get((m.group("file"), m.group("what")), [])
            if e[3] not in used and e[0] not in in_run
        ]
        if cands:
            used.add(cands[0][3])
            moved.append((name, cands[0]))
        else:
            unexplained.append(name)
    explained = len(missed) - len(unexplained)
    print(f"\nmissed: {len(missed)}, listed as equivalent in {eq_path}: {explained}, unexplained: {len(unexplained)}")
    for name, e in moved:
        print(f"  moved: {eq_path}:{e[3]} is now {name}")
    stale = [e for e in equivalents if e[3] not in used and any(e[1] == f for f in per_file)]
    for e in stale:
        print(f"  listed but not missed in this run: {eq_path}:{e[3]}: {e[0]}")
    for name in unexplained:
        print(f"  UNEXPLAINED: {name}")
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
