#!/usr/bin/env python3
"""Frozen ports against today's SDK and binary (issue 50): each directory
here holds a port written against an earlier SDK (each SDK's example port
as an earlier session of the kit left it, and small ports written and
frozen since) and manifest.json: where it came from, the SDK version it
was written on, and every case it passed when frozen. A frozen port is
never edited.

    check.py BIN              run every frozen port with today's SDK (sdk/python,
                              sdk/js) through BIN (ptc-conformance); exit 1 when
                              a case a port passed when frozen does not pass now
    check.py BIN record DIR SDK
                              measure DIR's port with the SDK at directory SDK (its
                              origin's: git archive of sdk/ at the origin commit)
                              and write the cases it passed into its manifest

Each port runs from a scratch directory holding only the port, so that
Python finds ptc_sdk through PYTHONPATH and node finds ptc-conformance-sdk
through node_modules, both today's (or the SDK given to record). Cases that
a port did not pass when frozen (added since, or never its) may fail; they
are counted, not judged."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def run_port(binary: Path, port_dir: Path, manifest: dict, sdk_root: Path) -> dict:
    """The JSON report of `ptc-conformance run --level strict` of the port
    in `port_dir` with the SDKs of `sdk_root` (a directory holding
    python/ and js/)."""
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        port = manifest["port"]
        shutil.copy(port_dir / port, scratch / port)
        env = dict(os.environ)
        env.pop("PTC_CONFORMANCE_DATA", None)
        if manifest["language"] == "python":
            env["PYTHONPATH"] = str(sdk_root / "python")
            command = [sys.executable, port]
        else:
            (scratch / "node_modules").mkdir()
            (scratch / "node_modules" / "ptc-conformance-sdk").symlink_to(sdk_root / "js", target_is_directory=True)
            (scratch / "package.json").write_text('{"name": "frozen", "private": true, "type": "module"}\n')
            command = ["node", port]
        args = [str(binary), "run", "--level", "strict", "--format", "json"]
        args += manifest.get("run_args", [])
        args += ["--adapter", "--"] + command + manifest.get("port_args", [])
        done = subprocess.run(args, cwd=scratch, env=env, capture_output=True, text=True)
        try:
            return json.loads(done.stdout)
        except json.JSONDecodeError:
            raise SystemExit(
                f"{port_dir.name}: no report from {' '.join(args)} (exit {done.returncode}):\n{done.stderr[-2000:]}"
            )


def manifests():
    for d in sorted(HERE.iterdir()):
        if (d / "manifest.json").is_file():
            yield d, json.loads((d / "manifest.json").read_text(encoding="utf-8"))


def check(binary: Path) -> int:
    broken = 0
    found = 0
    for d, manifest in manifests():
        found += 1
        report = run_port(binary, d, manifest, ROOT / "sdk")
        outcome = {c["id"]: c["outcome"] for c in report["cases"]}
        frozen = manifest["passed"]
        lost = [(i, outcome.get(i, "absent")) for i in frozen if outcome.get(i) != "pass"]
        others = [i for i, o in outcome.items() if o not in ("pass", "skip") and i not in set(frozen)]
        status = "ok" if not lost else "FAILED"
        print(
            f"{d.name} ({manifest['language']}, frozen at {manifest['origin_commit']}, SDK {manifest['sdk_version']}): "
            f"{len(frozen) - len(lost)} of the {len(frozen)} cases it passed when frozen pass: {status}"
        )
        for i, o in lost[:25]:
            print(f"  lost: {i}: {o}")
        if len(lost) > 25:
            print(f"  ... and {len(lost) - 25} more")
        if others:
            print(f"  not passed, not passed when frozen either (added since, or never its; not judged): {len(others)}")
            for i in others[:10]:
                print(f"    {i}: {outcome[i]}")
        broken += bool(lost)
    if found == 0:
        print(f"no frozen port found: no */manifest.json under {HERE}")
        return 1
    if broken:
        print(
            f"{broken} frozen port(s) lost cases they passed when frozen: today's SDK or binary changed an "
            "answer a port written against an earlier SDK relied on (see each SDK's CHANGELOG.md)"
        )
        return 1
    print(f"{found} frozen ports: every case each passed when frozen passes with today's SDK and binary")
    return 0


def record(binary: Path, port_dir: Path, sdk_root: Path) -> int:
    path = port_dir / "manifest.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    report = run_port(binary, port_dir, manifest, sdk_root)
    manifest["passed"] = sorted(c["id"] for c in report["cases"] if c["outcome"] == "pass")
    manifest["totals_when_frozen"] = {k: report["totals"][k] for k in ("total", "passed", "failed", "skipped", "errors")}
    path.write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{port_dir.name}: {len(manifest['passed'])} cases passed, written to {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 2:
        sys.exit(check(Path(sys.argv[1]).resolve()))
    if len(sys.argv) == 5 and sys.argv[2] == "record":
        sys.exit(record(Path(sys.argv[1]).resolve(), Path(sys.argv[3]).resolve(), Path(sys.argv[4]).resolve()))
    print(__doc__)
    sys.exit(2)
