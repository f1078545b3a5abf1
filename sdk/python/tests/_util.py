"""Shared by the SDK's tests: the package on sys.path and the repository."""

import os
import sys
from pathlib import Path

SDK = Path(__file__).resolve().parents[1]
REPO = SDK.parents[1]
sys.path.insert(0, str(SDK))

import ptc_sdk  # noqa: E402,F401


def rust_binary():
    """The ptc-conformance binary to compare with: $PTC_CONFORMANCE_BIN, else
    a build in the repository's target/ (release first), else None."""
    env = os.environ.get("PTC_CONFORMANCE_BIN")
    if env:
        return env
    for profile in ("release", "debug"):
        path = REPO / "target" / profile / "ptc-conformance"
        if path.is_file():
            return str(path)
    return None
