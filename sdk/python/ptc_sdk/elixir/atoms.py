"""``String.to_existing_atom/1`` over the atoms every VM running
PtcRunner's ``atomize_value/2`` has (``spec/data/atoms.json``, JH-5), and
the atoms a call's own arguments hold (JH-6); ``src/elixir/atom_table``.
A name neither lists raises as on a VM without it (LOOSE-6).

>>> from ptc_sdk.elixir.atoms import exists, to_existing_atom
>>> to_existing_atom("ok"), to_existing_atom("nil"), exists("zq_none")
(Atom('ok'), None, False)
>>> to_existing_atom("zq_none", held={"zq_none"})
Atom('zq_none')
"""

from __future__ import annotations

from functools import lru_cache

from ..errors import Raised
from ..terms import atom


@lru_cache(maxsize=1)
def table() -> frozenset:
    """The names of ``spec/data/atoms.json``.

    >>> "ok" in table(), len(table()) > 8000
    (True, True)
    """
    from .. import data

    return frozenset(data.load("atoms.json")["atoms"])


def exists(name, held=()) -> bool:
    """Whether the binary `name` names an atom: one of `table`, or one of
    the names `held` (the atoms of the call's arguments). A name that is no
    valid UTF-8 never does.

    >>> exists("error"), exists(b"\\xff")
    (True, False)
    """
    if type(name) is bytes:
        return False
    return name in table() or name in held


def to_existing_atom(name, held=()):
    """``String.to_existing_atom(name)``: the atom, or ``ArgumentError`` as
    Erlang's ``binary_to_existing_atom/2`` says it.

    >>> to_existing_atom(b"\\xff")
    Traceback (most recent call last):
    ptc_sdk.errors.Raised: ArgumentError: errors were found at the given arguments:
    <BLANKLINE>
      * 1st argument: invalid UTF8 encoding
    <BLANKLINE>
    """
    if type(name) is bytes:
        raise _badarg("invalid UTF8 encoding")
    if not exists(name, held):
        raise _badarg("not an already existing atom")
    return atom(name)


def _badarg(reason) -> Raised:
    from .errors import badarg

    return badarg("1st", reason)
