#!/usr/bin/env python3
"""The mutation score of a `cargo mutants` run, and the survivors to explain.

Usage: python3 harness/mutants_score.py [--equivalents FILE] [OUT ...]
       python3 harness/mutants_score.py [--equivalents FILE] --write-config
       python3 harness/mutants_score.py [--equivalents FILE] --update-lines [OUT ...]
       python3 harness/mutants_score.py [--equivalents FILE] --record [--commit C] OUT ...
       python3 harness/mutants_score.py --recorded

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

`--update-lines` moves each entry whose mutant's line or column changed to
where it now is, matched by file and mutation text among the mutants
`cargo mutants --list` gives; when that text is found more than once in the
file, the run directories given (OUT) decide: the one of them that a run
missed. It then regenerates the config.

`--record OUT ...` writes `mutants.baseline.json`, the record of the last
full run: its commit (HEAD, or `--commit C`), date, cargo-mutants version,
time and counts per file. It refuses a run that is not full (the mutants it
tested are not every mutant `cargo mutants --list` gives for this tree),
that left a survivor unexplained, or whose equivalents file names a mutant
the tree no longer has. `.ci/run` mutates the lines of `src/`
changed since that commit (`harness/mutants_changed.py`); `--recorded`
prints the record, as `docs/measurements.md` quotes it.
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


def cargo_list(config):
    """Every mutant name `cargo mutants --list` gives for this tree, with
    the project's config (`config=True`) or without it."""
    # `-p`: the repository root's package is the harness, which `--no-config`
    # (no exclude_globs) would list instead.
    argv = ["cargo", "mutants", "-p", "ptc-conformance", "--list"]
    if not config:
        argv.append("--no-config")
    listed = subprocess.run(argv, check=True, capture_output=True, text=True).stdout
    return {n.strip() for n in listed.split("\n") if n.strip()}


def update_lines(path, outs):
    """Moves entries of the equivalents file to the line and column where
    their mutant now is; returns the entries it could not place. Where the
    mutation text is found more than once in the file, the mutants that
    the runs in `outs` missed decide."""
    names = cargo_list(config=False)
    missed = set()
    if outs:
        outcome = {}
        for out in outs:
            read_run(out, outcome)
        missed = {n for n, (_, kind) in outcome.items() if kind == "missed"}
    by_what = defaultdict(list)
    for n in names:
        m = NAME.match(n)
        if m:
            by_what[(m.group("file"), m.group("what"))].append(n)
    with open(path, encoding="utf-8") as f:
        raws = f.readlines()
    # Names already taken by an entry that has not moved.
    taken = {raw.partition(" — ")[0] for raw in raws} & names
    lines, unplaced = [], []
    for n, raw in enumerate(raws, 1):
        name, sep, _ = raw.partition(" — ")
        m = NAME.match(name)
        if sep and m and name not in names:
            cands = [c for c in by_what.get((m.group("file"), m.group("what")), []) if c not in taken]
            why = f"{len(cands)} candidates"
            if len(cands) > 1 and missed:
                cands = [c for c in cands if c in missed]
                why += f", {len(cands)} of them missed in the runs given"
            if len(cands) == 1:
                print(f"{path}:{n}: {name} is now {cands[0]}")
                raw = raw.replace(name, cands[0], 1)
                taken.add(cands[0])
            else:
                unplaced.append(f"{path}:{n}: {name} ({why})")
        lines.append(raw)
    with open(path, "w", encoding="utf-8") as f:
        f.write("".join(lines))
    return unplaced


def score(outs, equivalents):
    """Reads the runs in `outs` and explains their survivors by
    `equivalents`: a dict with each mutant's outcome, the counts per file,
    the unexplained, moved and wrongly listed survivors, and the listed
    survivors the runs did not generate."""
    outcome = {}
    for out in outs:
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
    return {
        "outcome": outcome,
        "per_file": per_file,
        "unexplained": unexplained,
        "moved": moved,
        "caught_listed": caught_listed,
        "excluded": excluded,
    }


COUNTS = ("caught", "timeout", "missed", "unviable", "listed", "listed_missed", "not_equivalent")


def print_table(per_file):
    """The score table: a row per file and the total."""
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
        for k in COUNTS:
            total[k] += c.get(k, 0)
        row(file, defaultdict(int, c))
    row("total", total)


BASELINE = "mutants.baseline.json"


def git(*args):
    return subprocess.run(["git", *args], check=True, capture_output=True, text=True).stdout.strip()


def seconds_of(outs):
    """The wall-clock time of the runs, from each one's start and end time."""
    from datetime import datetime

    total = 0.0
    for out in outs:
        with open(os.path.join(out, "outcomes.json"), encoding="utf-8") as f:
            d = json.load(f)
        if not d.get("end_time"):
            sys.exit(f"{out}: the run has not ended (no end_time in outcomes.json)")
        start, end = (datetime.fromisoformat(d[k][:26].rstrip("Z")) for k in ("start_time", "end_time"))
        total += (end - start).total_seconds()
    return round(total)


def record(outs, commit, equivalents, eq_path):
    """Writes BASELINE from the full run in `outs` (see the module's doc)."""
    commit = git("rev-parse", "--verify", (commit or "HEAD") + "^{commit}")
    if not commit:
        sys.exit("no commit")
    if git("diff", "--name-only", commit, "--", "src"):
        sys.exit(f"src/ differs from {commit[:12]} in the working tree: record the commit the run was on (--commit C)")
    s = score(outs, equivalents)
    generated = set(cargo_list(config=True))
    # A survivor listed after the run is no longer generated (the config
    # excludes it) but was tested: it still counts as part of the run.
    listed = {e[0] for e in equivalents}
    tested = set(s["outcome"])
    if generated != tested - listed:
        sys.exit(
            f"not a full run of this tree: {len(generated - tested)} mutant(s) that `cargo mutants"
            f" -p ptc-conformance --list` gives were not tested, {len(tested - listed - generated)} tested are not"
            f" listed (e.g. {sorted(generated ^ (tested - listed))[:1]}); run `cargo mutants -p ptc-conformance -j 2`"
        )
    every = cargo_list(config=False)
    stale = [e for e in equivalents if e[0] not in every]
    if stale:
        sys.exit(
            f"{len(stale)} entr(y/ies) of {eq_path} name no mutant of this tree (e.g. {eq_path}:{stale[0][3]}:"
            f" {stale[0][0]}): `python3 harness/mutants_score.py --update-lines {' '.join(outs)}`, or take"
            " out the entries whose code is gone, before recording the run"
        )
    if s["unexplained"] or s["caught_listed"]:
        sys.exit(
            f"the run left {len(s['unexplained'])} survivor(s) unexplained and {len(s['caught_listed'])}"
            f" listed one(s) caught (`python3 harness/mutants_score.py {' '.join(outs)}`): kill or list"
            " them, and `--iterate`, before recording the run"
        )
    with open(os.path.join(outs[0], "outcomes.json"), encoding="utf-8") as f:
        first = json.load(f)
    version, date = first.get("cargo_mutants_version", "?"), first["start_time"][:10]
    files = {f: {k: c.get(k, 0) for k in COUNTS} for f, c in sorted(s["per_file"].items())}
    rec = {
        "about": (
            "The last full mutation run of the reference: the commit it ran on, which `.ci/run`"
            " mutates the changes of src/ since (harness/mutants_changed.py), and its counts per"
            " file. Written by `python3 harness/mutants_score.py --record OUT`; printed by"
            " `--recorded`; do not edit by hand."
        ),
        "commit": commit,
        "date": date,
        "cargo_mutants": version,
        "command": "cargo mutants -p ptc-conformance -j 2",
        "seconds": seconds_of(outs),
        "mutants": len(tested),
        "listed": len(equivalents),
        "files": files,
    }
    with open(BASELINE, "w", encoding="utf-8") as f:
        json.dump(rec, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"{BASELINE}: the run on {commit[:12]} recorded ({len(tested)} mutants)")
    print_recorded(rec)


def load_recorded():
    try:
        with open(BASELINE, encoding="utf-8") as f:
            return json.load(f)
    except OSError as e:
        sys.exit(f"{BASELINE}: {e.strerror}: no full run recorded (`--record OUT` after a full run)")


def print_recorded(rec):
    """The record as docs/measurements.md quotes it."""
    t = defaultdict(int)
    for c in rec["files"].values():
        for k in COUNTS:
            t[k] += c.get(k, 0)
    minutes, secs = divmod(rec["seconds"], 60)
    print(
        f"last full run: {rec['date']}, commit {rec['commit'][:12]}, cargo-mutants {rec['cargo_mutants']},"
        f" `{rec['command']}`"
    )
    print(
        f"{rec['mutants']:,} mutants in {minutes} min {secs} s: {t['caught']:,} caught, {t['timeout']} timeouts,"
        f" {t['missed'] - t['listed_missed']} missed, {t['unviable']} unviable;"
        f" {t['listed']} listed survivors not counted ({t['not_equivalent']} of them not equivalent)"
    )
    print()
    print_table(rec["files"])


def main():
    args = sys.argv[1:]
    eq_path = "mutants.equivalent.txt"
    if "--equivalents" in args:
        i = args.index("--equivalents")
        eq_path = args[i + 1]
        del args[i : i + 2]
    if "--recorded" in args:
        print_recorded(load_recorded())
        return 0
    if "--update-lines" in args:
        args.remove("--update-lines")
        unplaced = update_lines(eq_path, args)
        for u in unplaced:
            print(f"cannot place: {u}")
        write_config(load_equivalents(eq_path))
        return 1 if unplaced else 0
    equivalents = load_equivalents(eq_path)
    if "--write-config" in args:
        write_config(equivalents)
        return 0
    if "--record" in args:
        args.remove("--record")
        commit = None
        if "--commit" in args:
            i = args.index("--commit")
            commit = args[i + 1]
            del args[i : i + 2]
        if not args:
            sys.exit("--record needs the full run's output directory (mutants.out)")
        record(args, commit, equivalents, eq_path)
        return 0
    s = score(args or ["mutants.out"], equivalents)
    print_table(s["per_file"])
    print(
        "\nscore: caught (timeouts included) / (caught + missed), the survivors listed in"
        f" {eq_path} left out; strict: only its equivalent ones (section 1) left out, the"
        " unobservable and beyond-the-reference ones counted as missed; raw: all of them counted as missed"
    )
    print(f"missed and unexplained: {len(s['unexplained'])}; listed: {len(equivalents)} ({len(s['excluded'])} not generated)")
    for name, e in s["moved"]:
        print(f"  moved: {eq_path}:{e[3]} is now {name}")
    for e in s["caught_listed"]:
        print(f"  listed but {s['outcome'][e[0]][1]} in this run: {eq_path}:{e[3]}: {e[0]}")
    for name in s["unexplained"]:
        print(f"  UNEXPLAINED: {name}")
    return 1 if s["unexplained"] or s["caught_listed"] else 0


if __name__ == "__main__":
    sys.exit(main())
