"""Warnings the SDK prints once, on stderr: a behaviour kept for ports
written against an earlier SDK version, or a name kept beside a new one
(CHANGELOG.md). stderr is the adapter's free log (protocol v1), so a
warning never changes an answer."""

from __future__ import annotations

import sys

_SEEN: set = set()


def warn_once(key, message: str) -> bool:
    """Prints ``ptc_sdk: warning: <message>`` on stderr the first time
    `key` is met in this process; True when it printed."""
    if key in _SEEN:
        return False
    _SEEN.add(key)
    print(f"ptc_sdk: warning: {message}", file=sys.stderr, flush=True)
    return True


def deprecated(old: str, new: str, why: str = "") -> None:
    """Says once that `old` is deprecated in favour of `new`."""
    tail = f" ({why})" if why else ""
    warn_once(("deprecated", old), f"{old} is deprecated: use {new}{tail}; it keeps its old behaviour")


def reset() -> None:
    """Forgets every warning printed (for tests)."""
    _SEEN.clear()
