"""Where the porter data files (``spec/data/``: ``structs.json``,
``messages.json``, ``unicode/*.json``) are read from, first found:

1. the directory named by the environment variable ``PTC_CONFORMANCE_DATA``;
2. ``spec/data`` of the checkout or export this package sits in
   (``<repo>/sdk/python/ptc_sdk`` or ``kit/sdk/python/ptc_sdk`` next to
   ``<repo>/spec/data`` or ``kit/spec/data``);
3. the copy inside the package (``ptc_sdk/data/``), which an installed
   package carries; ``sdk/python/tests/test_data.py`` holds it equal to
   ``spec/data``.

Each file is parsed once.
"""

from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path

ENV = "PTC_CONFORMANCE_DATA"
_PACKAGE = Path(__file__).resolve().parent
CHECKOUT = _PACKAGE.parents[2] / "spec" / "data"
"""``spec/data`` of the checkout or export around the package."""
PACKAGED = _PACKAGE / "data"
"""The copy of ``spec/data`` inside the package."""


class DataUnavailable(RuntimeError):
    """A porter data file could not be found or read."""


def path(name: str) -> Path:
    """Where the data file `name` (``structs.json``, ``unicode/grapheme.json``)
    is read from."""
    env = os.environ.get(ENV)
    if env:
        p = Path(env) / name
        if not p.is_file():
            raise DataUnavailable(f"{ENV}={env}: no {name} in that directory")
        return p
    looked = []
    for base in (CHECKOUT, PACKAGED):
        p = base / name
        if p.is_file():
            return p
        looked.append(str(p))
    raise DataUnavailable(
        f"cannot find {name}: set {ENV} to the directory that holds it "
        f"(spec/data in a ptc-conformance checkout); looked for {', '.join(looked)}"
    )


@lru_cache(maxsize=None)
def load(name: str):
    """The parsed JSON of the data file `name`."""
    p = path(name)
    try:
        return json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise DataUnavailable(f"reading {p}: {e}") from None


def profiles() -> dict:
    """The description string of each capability profile (``profiles.json``,
    PP-1), as ``{profile name: description}``: what a port of
    ``protocol.tool_description`` answers, read where `path` finds it.

    >>> sorted(profiles())
    ['in_process_text_mode', 'in_process_with_app_tools', 'mcp_no_tools']
    """
    return {p["profile"]: p["description"] for p in load("profiles.json")["profiles"]}
