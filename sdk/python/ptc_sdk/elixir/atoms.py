"""``String.to_existing_atom/1`` over the atoms every VM running
PtcRunner's ``atomize_value/2`` has (``spec/data/atoms.json``, JH-5), and
the atoms a call's own arguments hold (JH-6); ``src/elixir/atom_table``.
A name neither lists raises as on a VM without it (LOOSE-6). Each release
has its own table (REL-2): v0.13.0's, less the atoms ``atoms.json``'s
``releases`` says an older one lacks, plus those it has besides; every
function takes the release (`ptc_sdk.releases`), else the served port's.

>>> from ptc_sdk.elixir.atoms import exists, to_existing_atom
>>> to_existing_atom("ok"), to_existing_atom("nil"), exists("zq_none")
(Atom('ok'), None, False)
>>> to_existing_atom("zq_none", held={"zq_none"})
Atom('zq_none')
>>> exists("prelude_trace"), exists("prelude_trace", release="0.12.0")
(True, False)
"""

from __future__ import annotations

from functools import lru_cache

from .. import releases
from ..errors import Raised
from ..terms import atom


def table(release=None) -> frozenset:
    """The names of `release`'s table: ``spec/data/atoms.json``'s
    ``atoms`` (v0.13.0's), less its ``releases[release].absent``, plus its
    ``extra``.

    >>> "ok" in table(), len(table()) > 8000
    (True, True)
    >>> "schema_used" in table(release="0.11.0"), "schema_used" in table()
    (True, False)
    """
    return _table(releases.resolve(release))


@lru_cache(maxsize=len(releases.RELEASES))
def _table(rel) -> frozenset:
    from .. import data

    doc = data.load("atoms.json")
    diff = doc.get("releases", {}).get(rel, {})
    return frozenset(doc["atoms"]).difference(diff.get("absent", ())).union(diff.get("extra", ()))


def exists(name, held=(), release=None) -> bool:
    """Whether the binary `name` names an atom: one of `release`'s
    `table`, or one of the names `held` (the atoms of the call's
    arguments). A name that is no valid UTF-8 never does.

    >>> exists("error"), exists(b"\\xff")
    (True, False)
    """
    if type(name) is bytes:
        return False
    return name in table(release) or name in held


def to_existing_atom(name, held=(), release=None):
    """``String.to_existing_atom(name)`` on `release`'s VM: the atom, or
    ``ArgumentError`` as Erlang's ``binary_to_existing_atom/2`` says it.

    >>> to_existing_atom(b"\\xff")
    Traceback (most recent call last):
    ptc_sdk.errors.Raised: ArgumentError: errors were found at the given arguments:
    <BLANKLINE>
      * 1st argument: invalid UTF8 encoding
    <BLANKLINE>
    """
    if type(name) is bytes:
        raise _badarg("invalid UTF8 encoding")
    if not exists(name, held, release):
        raise _badarg("not an already existing atom")
    return atom(name)


def _badarg(reason) -> Raised:
    from .errors import badarg

    return badarg("1st", reason)
