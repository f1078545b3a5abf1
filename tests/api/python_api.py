#!/usr/bin/env python3
"""The Python SDK's API (sdk/python/ptc_sdk) held to its record,
tests/api/ptc_sdk.json, with griffe (https://mkdocstrings.github.io/griffe/):
the record is what `griffe dump` writes for ptc_sdk, and `check` loads it
and the package as it is now and fails on every breaking change
griffe finds between them (an object removed, a parameter removed, moved
or made required, a default changed, a return annotation changed, ...).
A record is read from the file, not from a git ref, so that a fresh
clone, shallow or not, checks with nothing but griffe from PyPI.

    python_api.py check    # in CI (.ci/run): exit 1 on a breaking change
    python_api.py record   # after a deliberate API change: rewrite the record

An addition is not breaking; `check` says when the record lacks what the
package now has, so that the record is rewritten with the change."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import griffe

ROOT = Path(__file__).resolve().parents[2]
SEARCH = ROOT / "sdk" / "python"
RECORD = Path(__file__).resolve().parent / "ptc_sdk.json"


def load_now():
    return griffe.load("ptc_sdk", search_paths=[str(SEARCH)], resolve_aliases=True, resolve_implicit=False)


def relative(text: str) -> str:
    # The record names files relative to sdk/python, not this machine's paths.
    return text.replace(str(SEARCH) + "/", "")


def record() -> int:
    data = json.loads(json.dumps(load_now(), cls=griffe.JSONEncoder, full=False))
    text = json.dumps(strip(data), indent=1, sort_keys=True, ensure_ascii=False)
    RECORD.write_text(relative(text) + "\n", encoding="utf-8")
    print(f"wrote {RECORD.relative_to(ROOT)}")
    return 0


def strip(v):
    """The record without what no caller depends on: docstrings (their
    edits are no API change)."""
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items() if k != "docstring"}
    if isinstance(v, list):
        return [strip(x) for x in v]
    return v


def public_paths(obj, out=None):
    out = set() if out is None else out
    for name, member in obj.members.items():
        if name.startswith("_") and not (name.startswith("__") and name.endswith("__")):
            continue
        if member.is_alias:
            continue
        out.add(member.path)
        if member.is_module or member.is_class:
            public_paths(member, out)
    return out


def load_record():
    """The recorded API as griffe objects. griffe's own reader
    (``Object.from_json``) takes every object holding a ``cls`` key for an
    expression, which a ``members`` mapping with a member named ``cls``
    (``Raised.cls``) is not; so the JSON is walked here, each object
    decoded by griffe's `json_decoder` from the leaves up, as ``json``'s
    object hook would, except the ``members`` mappings themselves."""

    def walk(v, mapping=False):
        if isinstance(v, dict):
            d = {k: walk(x, k == "members") for k, x in v.items()}
            return d if mapping else griffe.json_decoder(d)
        if isinstance(v, list):
            return [walk(x) for x in v]
        return v

    module = walk(json.loads(RECORD.read_text(encoding="utf-8")))
    collection = griffe.ModulesCollection()  # where the record's aliases resolve
    collection.members[module.name] = module
    module._modules_collection = collection
    return module


def check() -> int:
    old = load_record()
    now = load_now()
    breaks = list(griffe.find_breaking_changes(old, now))
    for b in breaks:
        print(re.sub(r"\x1b\[[0-9;]*m", "", relative(b.explain())))  # griffe colours every explanation
    if breaks:
        print(
            f"{len(breaks)} breaking change(s) of the Python SDK's API against {RECORD.relative_to(ROOT)}: "
            "what a port written against the recorded API calls would change. Keep the old name "
            "with a deprecation warning printed once, or make a new major version with a migration "
            "note in sdk/python/CHANGELOG.md, and rewrite the record (tests/api/python_api.py record)"
        )
        return 1
    added = sorted(public_paths(now) - public_paths(old))
    note = f"; not in the record yet (rewrite it: tests/api/python_api.py record): {', '.join(added)}" if added else ""
    print(f"python SDK API: no breaking change against {RECORD.relative_to(ROOT)}{note}")
    return 0


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else "check"
    sys.exit({"check": check, "record": record}.get(cmd, lambda: print(__doc__) or 2)())
