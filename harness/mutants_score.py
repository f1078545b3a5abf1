#!/usr/bin/env python3
"""The mutation score of a `cargo mutants` run, and the survivors to explain.

Usage: python3 harness/mutants_score.py [--equivalents FILE] [OUT ...]
       python3 harness/mutants_score.py [--equivalents FILE] --write-config
       python3 harness/mutants_score.py [--equivalents FILE] --update-lines

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
import subprocess
import sys
from collections import defaultdict

NAME = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<what>.*)$")


def load_equivalents(path):
    entries = []
    if not os.path.exists(path):
        return entries
    section = 1
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            heading = re.match(r"# ---- (\d)\.", line)
            if heading:
                section = int(heading.group(1))
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            name, sep, why = line.partition(" — ")
            m = NAME.match(name)
            if not sep or not m or not why.strip():
                sys.exit(f"{path}:{n}: expected `file:line:column: mutation — why`")
            entries.append((name, m.group("file"), m.group("what"), n, section))
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


CONFIG = ".cargo/mutants.toml"
BEGIN = "# BEGIN equivalents"
END = "# END equivalents"
PUNCT = set("\\.+*?()|[]{}^$#&-~")


def regex_for(name):
    """An anchored regex matching exactly this mutant name."""
    return "^" + "".join("\\" + c if c in PUNCT else c for c in name) + "$"


def write_config(equivalents):
    """Rewrites the exclude_re block of .cargo/mutants.toml from the file."""
    with open(CONFIG, encoding="utf-8") as f:
        text = f.read()
    if BEGIN not in text or END not in text:
        sys.exit(f"{CONFIG}: no `{BEGIN}` ... `{END}` block to rewrite")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    lines = [
        BEGIN + ": generated from mutants.equivalent.txt by",
        "# `python3 harness/mutants_score.py --write-config`; do not edit by hand.",
        "# Listed survivors are not generated, so they are not counted again.",
        "exclude_re = [",
    ]
    lines += ["    " + json.dumps(regex_for(e[0]), ensure_ascii=False) + "," for e in equivalents]
    lines += ["]", END]
    with open(CONFIG, "w", encoding="utf-8") as f:
        f.write(head + "\n".join(lines) + tail)
    print(f"{CONFIG}: {len(equivalents)} exclusions written")


def update_lines(path):
    """Moves entries of the equivalents file to the line and column where
    their mutant now is; returns the entries it could not place."""
    listed = subprocess.run(
        # `-p`: the repository root's package is the harness, which
        # `--no-config` (no exclude_globs) would list instead.
        ["cargo", "mutants", "-p", "ptc-conformance", "--list", "--no-config"],
        check=True, capture_output=True, text=True,
    ).stdout.split("\n")
    names = {n.strip() for n in listed if n.strip()}
    by_what = defaultdict(list)
    for n in names:
        m = NAME.match(n)
        if m:
            by_what[(m.group("file"), m.group("what"))].append(n)
    lines, unplaced = [], []
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            name, sep, _ = raw.partition(" — ")
            m = NAME.match(name)
            if sep and m and name not in names:
                cands = by_what.get((m.group("file"), m.group("what")), [])
                if len(cands) == 1:
                    print(f"{path}:{n}: {name} is now {cands[0]}")
                    raw = raw.replace(name, cands[0], 1)
                else:
                    unplaced.append(f"{path}:{n}: {name} ({len(cands)} candidates)")
            lines.append(raw)
    with open(path, "w", encoding="utf-8") as f:
        f.write("".join(lines))
    return unplaced


def main():
    args = sys.argv[1:]
    eq_path = "mutants.equivalent.txt"
    if "--equivalents" in args:
        i = args.index("--equivalents")
        eq_path = args[i + 1]
        del args[i : i + 2]
    if "--update-lines" in args:
        unplaced = update_lines(eq_path)
        for u in unplaced:
            print(f"cannot place: {u}")
        write_config(load_equivalents(eq_path))
        return 1 if unplaced else 0
    equivalents = load_equivalents(eq_path)
    if "--write-config" in args:
        write_config(equivalents)
        return 0
    outcome = {}
    for out in args or ["mutants.out"]:
        read_run(out, outcome)
    in_run = set(outcome)

    by_name = {e[0]: e for e in equivalents}
    by_what = defaultdict(list)
    for e in equivalents:
        by_what[(e[1], e[2])].append(e)
    used = set()
    unexplained, moved, explained = [], [], []
    for name, (file, kind) in sorted(outcome.items()):
        if kind != "missed":
            continue
        if name in by_name:
            used.add(by_name[name][3])
            explained.append(name)
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
            explained.append(name)
        else:
            unexplained.append(name)
    # Listed survivors the run did not generate (excluded by the config).
    excluded = [e for e in equivalents if e[3] not in used and e[0] not in in_run]
    caught_listed = [e for e in equivalents if e[0] in in_run and outcome[e[0]][1] != "missed"]

    per_file = defaultdict(lambda: defaultdict(int))
    for name, (file, kind) in outcome.items():
        per_file[file][kind] += 1
    section_of = {name: by_name[name][4] for name in explained if name in by_name}
    section_of.update({name: e[4] for name, e in moved})
    for name, sec in section_of.items():
        per_file[outcome[name][0]]["listed"] += 1
        per_file[outcome[name][0]]["listed_missed"] += 1
        if sec != 1:
            per_file[outcome[name][0]]["not_equivalent"] += 1
    for e in excluded:
        per_file[e[1]]["listed"] += 1
        if e[4] != 1:
            per_file[e[1]]["not_equivalent"] += 1

    print(f"{'file':40} {'caught':>6} {'timeout':>7} {'missed':>6} {'listed':>6} {'unviable':>8} {'score':>7} {'strict':>7} {'raw':>7}")
    total = defaultdict(int)

    def row(label, c):
        caught = c["caught"] + c["timeout"]
        # missed: survivors the equivalents file does not explain;
        # listed: survivors it explains (missed in the run, or not generated).
        missed = c["missed"] - c["listed_missed"]

        def pct(m):
            return 100.0 * caught / (caught + m) if caught + m else 100.0

        print(
            f"{label:40} {c['caught']:6} {c['timeout']:7} {missed:6} {c['listed']:6} {c['unviable']:8}"
            f" {pct(missed):6.1f}% {pct(missed + c['not_equivalent']):6.1f}% {pct(missed + c['listed']):6.1f}%"
        )

    for file in sorted(per_file):
        c = per_file[file]
        for k, v in list(c.items()):
            total[k] += v
        row(file, c)
    row("total", total)
    print(
        "\nscore: caught (timeouts included) / (caught + missed), the survivors listed in"
        f" {eq_path} left out; strict: only its equivalent ones (section 1) left out, the"
        " unobservable and beyond-the-reference ones counted as missed; raw: all of them counted as missed"
    )
    print(f"missed and unexplained: {len(unexplained)}; listed: {len(equivalents)} ({len(excluded)} not generated)")
    for name, e in moved:
        print(f"  moved: {eq_path}:{e[3]} is now {name}")
    for e in caught_listed:
        print(f"  listed but {outcome[e[0]][1]} in this run: {eq_path}:{e[3]}: {e[0]}")
    for name in unexplained:
        print(f"  UNEXPLAINED: {name}")
    return 1 if unexplained or caught_listed else 0


if __name__ == "__main__":
    sys.exit(main())
