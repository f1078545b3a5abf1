"""The PtcRunner releases a port can implement (``spec/releases.md``), and
the one the SDK answers at.

The boundary lived in three releases, 0.11.0, 0.12.0 and 0.13.0, which
differ in a few places the SDK covers, each read from the porter data
(``spec/data``) rather than written here:

* the structs' fields (REL-1): a field of ``structs.json`` with ``since``
  is missing before that release, so `structs` completes and `tagged`
  decodes a struct with the release's fields and refuses the others;
* the atom table (REL-2): ``atoms.json``'s ``releases`` lists what each
  older release's table lacks and has besides;
* the ops (REL-3): an op of ``ops.json`` with ``since`` is no op of an
  older release, so `serve` leaves it out of ``hello``;
* the protocol implementations (REL-7): ``messages.json`` holds each
  list as the newest release has it (``protocol_implementations_string_chars``)
  and, suffixed with an older release (``..._v0_11``), as that release
  has it where it differs. ``String.Chars`` and ``Jason.Encoder`` of a
  display struct exist where the release's list names its module, so
  ``to_string`` of one raises ``Protocol.UndefinedError`` at 0.11.0, and
  every such error prints the release's list.

Each function whose answer depends on the release takes it as an argument
``release`` (one of `RELEASES`). Left out, it is the release of the port
being served: ``serve(..., release="0.12.0")`` decodes the arguments and
calls every op at 0.12.0, and `using` does the same for code outside the
loop (a port's own tests). Outside both, 0.13.0, as before releases were
targets.

>>> from ptc_sdk import releases, structs
>>> releases.current(), releases.since("0.12.0", "0.13.0")
('0.13.0', False)
>>> with releases.using("0.12.0"):
...     releases.current(), len(structs.fields_of("PtcRunner.Tool"))
('0.12.0', 8)
"""

from __future__ import annotations

import contextlib
import contextvars
import difflib

RELEASES = ("0.11.0", "0.12.0", "0.13.0")
"""The releases, oldest first."""

DEFAULT = "0.13.0"
"""The release the SDK answers at when no port chose one."""

_CURRENT = contextvars.ContextVar("ptc_sdk_release", default=DEFAULT)


def check(release) -> str:
    """`release` when it is one of `RELEASES`, else ValueError naming the
    closest one."""
    if release in RELEASES:
        return release
    close = difflib.get_close_matches(str(release), RELEASES, 1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise ValueError(f"unknown release {release!r}{hint}; the boundary's releases are {', '.join(RELEASES)}")


def since(release: str, first: str) -> bool:
    """Whether `release` is `first` or a later one: whether it has what
    `first` brought."""
    return RELEASES.index(check(release)) >= RELEASES.index(check(first))


def current() -> str:
    """The release the SDK answers at when a function is not given one:
    the served port's (inside an op call or `using`), else `DEFAULT`."""
    return _CURRENT.get()


def resolve(release=None) -> str:
    """`release` checked, or `current` when None."""
    return current() if release is None else check(release)


@contextlib.contextmanager
def using(release):
    """Within the block, the SDK answers at `release` wherever a function
    is not given one (`serve` wraps each call with it)."""
    token = _CURRENT.set(check(release))
    try:
        yield release
    finally:
        _CURRENT.reset(token)


def suffix(release: str) -> str:
    """The suffix of a porter data id that holds `release`'s version of a
    text: ``_v0_11`` for 0.11.0."""
    major, minor, _ = check(release).split(".")
    return f"_v{major}_{minor}"
