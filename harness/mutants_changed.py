#!/usr/bin/env python3
"""The mutants of what changed: cargo-mutants over the lines of `src/`
changed since the last full mutation run, with the project's set-up
(`.cargo/mutants.toml`: the golden corpus is the test), as `.ci/run` runs it
(docs/contributor.md § Mutation testing).

Usage: python3 harness/mutants_changed.py [--jobs N] [--budget N]

(`--jobs`: 2 by default, 1 for 30 mutants or fewer, where a second job's
own first build would cost more than it saves.)

The last full run's commit is recorded in `mutants.baseline.json` (written
by `python3 harness/mutants_score.py --record` after a full run). The script

  1. installs the cargo-mutants version of that run
     (`cargo install --locked cargo-mutants@VERSION`) when `cargo mutants`
     is missing or of another version;
  2. writes `git diff BASE -- src` (the working tree against that commit)
     to `target/mutants-changed/src.diff`; when it is empty, it says so and
     checks nothing;
  3. lists the mutants on the changed lines (`--in-diff`) and refuses more
     than the budget (default 250, about five minutes at `-j 2` on the
     project's 2-core machine), so that CI stays bounded: past it, the
     changes are a full run's worth, and the full run is recorded anew;
  4. runs them (`cargo mutants -p ptc-conformance -j 2 --in-diff ...`,
     output in `target/mutants-changed/mutants.out`) and prints how many
     it ran and how long it took;
  5. scores them with `harness/mutants_score.py`: a missed mutant that
     `mutants.equivalent.txt` does not explain fails the step, printed with
     the command that reproduces it and the change it makes.

Exit status 0 when every mutant is caught, timed out, unviable or listed
(or there is nothing to check), 1 otherwise.
"""

import json
import os
import shlex
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ in the checkout
import mutants_score  # noqa: E402  (the score and the record live there)

OUT_DIR = os.path.join("target", "mutants-changed")
PACKAGE = ["-p", "ptc-conformance"]


def run(argv, **kw):
    return subprocess.run(argv, text=True, **kw)


def ensure_cargo_mutants(version):
    """Installs cargo-mutants `version` unless `cargo mutants` is it."""
    have = run(["cargo", "mutants", "--version"], capture_output=True)
    if have.returncode == 0 and have.stdout.strip() == f"cargo-mutants {version}":
        print(f"cargo-mutants {version} (the version of the last full run) is installed")
        return
    shown = have.stdout.strip() if have.returncode == 0 else "not installed"
    print(f"cargo-mutants: {shown}; installing {version}, the version of the last full run")
    start = time.monotonic()
    run(["cargo", "install", "--locked", f"cargo-mutants@{version}"], check=True)
    print(f"installed cargo-mutants {version} in {duration(time.monotonic() - start)}")


def duration(seconds):
    m, s = divmod(round(seconds), 60)
    return f"{m} min {s} s" if m else f"{s} s"


def main():
    args = sys.argv[1:]
    jobs, budget = "2", 250
    if "--jobs" in args:
        jobs = args[args.index("--jobs") + 1]
    if "--budget" in args:
        budget = int(args[args.index("--budget") + 1])
    os.chdir(ROOT)
    rec = mutants_score.load_recorded()
    base, short = rec["commit"], rec["commit"][:12]
    since = f"since {short} (the last full run, {rec['date']}, {mutants_score.BASELINE})"
    ensure_cargo_mutants(rec["cargo_mutants"])

    if run(["git", "cat-file", "-e", base + "^{commit}"], capture_output=True).returncode != 0:
        print(
            f"error: the last full run's commit {base} is not in this clone's history"
            " (a shallow clone? `git fetch --unshallow`), so what changed since cannot be told"
        )
        return 1
    os.makedirs(OUT_DIR, exist_ok=True)
    diff_path = os.path.join(OUT_DIR, "src.diff")
    diff = run(["git", "diff", base, "--", "src"], capture_output=True, check=True).stdout
    with open(diff_path, "w", encoding="utf-8") as f:
        f.write(diff)
    if not diff.strip():
        print(f"checked 0 mutants: no line of src/ changed {since}")
        return 0
    stat = run(["git", "diff", "--shortstat", base, "--", "src"], capture_output=True, check=True).stdout.strip()
    print(f"src/ changed {since}: {stat}")

    in_diff = [*PACKAGE, "--in-diff", diff_path]
    listed = run(["cargo", "mutants", *in_diff, "--list"], capture_output=True)
    if listed.returncode != 0:
        print(listed.stdout + listed.stderr)
        print("error: cargo mutants --list failed")
        return 1
    names = [n for n in listed.stdout.split("\n") if n.strip()]
    if not names:
        print(f"checked 0 mutants: no mutant of the set-up falls on a line of src/ changed {since}")
        return 0
    if len(names) > budget:
        print(
            f"error: {len(names)} mutants fall on the lines changed {since}, more than CI's budget of"
            f" {budget}: that is a full run's worth. Run the full run and record it"
            " (docs/contributor.md § Mutation testing: `cargo mutants -p ptc-conformance -j 2`, then"
            " `python3 harness/mutants_score.py --record mutants.out`), and commit mutants.baseline.json"
        )
        return 1

    if len(names) <= 30 and "--jobs" not in args:
        # A second job builds the tree from scratch first (a minute or two):
        # for a few mutants one job is done sooner.
        jobs = "1"
    print(f"mutating {len(names)} mutants on the changed lines: cargo mutants {' '.join(in_diff)} -j {jobs}")
    sys.stdout.flush()
    start = time.monotonic()
    proc = run(["cargo", "mutants", *in_diff, "-j", jobs, "-o", OUT_DIR])
    took = time.monotonic() - start
    # 0: all caught; 2: some missed; 3: some timed out (caught, for the score).
    if proc.returncode not in (0, 2, 3):
        print(f"error: cargo mutants exited {proc.returncode} (4: the corpus fails on the unmutated tree)")
        return 1

    out = os.path.join(OUT_DIR, "mutants.out")
    eq_path = "mutants.equivalent.txt"
    s = mutants_score.score([out], mutants_score.load_equivalents(eq_path))
    print()
    # Only the files this run mutated: the listed survivors of every other
    # file (excluded by the config, so not generated) are not this run's.
    run_files = {file for file, _ in s["outcome"].values()}
    mutants_score.print_table({f: c for f, c in s["per_file"].items() if f in run_files})
    kinds = {}
    for _, kind in s["outcome"].values():
        kinds[kind] = kinds.get(kind, 0) + 1
    print(
        f"\nchecked {len(s['outcome'])} mutants on the lines of src/ changed {since} in {duration(took)}:"
        f" {kinds.get('caught', 0)} caught, {kinds.get('timeout', 0)} timeouts,"
        f" {kinds.get('unviable', 0)} unviable, {kinds.get('missed', 0)} missed"
        f" ({kinds.get('missed', 0) - len(s['unexplained'])} of them listed in {eq_path})"
    )
    for name, e in s["moved"]:
        print(
            f"  moved: {eq_path}:{e[3]} is now {name} (`python3 harness/mutants_score.py"
            f" --update-lines {out}` moves it)"
        )
    for e in s["caught_listed"]:
        print(f"  listed but {s['outcome'][e[0]][1]}: {eq_path}:{e[3]}: {e[0]}: take the entry out")
    if not s["unexplained"] and not s["caught_listed"]:
        return 0
    with open(os.path.join(out, "outcomes.json"), encoding="utf-8") as f:
        diffs = {
            o["scenario"]["Mutant"]["name"]: o.get("diff_path")
            for o in json.load(f)["outcomes"]
            if isinstance(o["scenario"], dict)
        }
    print(
        f"\n{len(s['unexplained'])} missed mutant(s) no golden case catches and {eq_path} does not"
        " explain: add a case blessed from the real release that catches each, or list it with the"
        " reason none can (docs/contributor.md § Mutation testing)"
    )
    for name in s["unexplained"]:
        file = name.split(":", 1)[0]
        cmd = ["cargo", "mutants", *PACKAGE, "-f", file, "--re", mutants_score.regex_for(name)]
        print(f"\n  MISSED: {name}\n  reproduce: {shlex.join(cmd)}")
        if diffs.get(name):
            with open(os.path.join(out, diffs[name]), encoding="utf-8") as f:
                print("".join("    " + line for line in f.readlines()[:40]).rstrip())
    return 1


if __name__ == "__main__":
    sys.exit(main())
