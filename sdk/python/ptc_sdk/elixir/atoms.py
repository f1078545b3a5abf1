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

`held` is JH-6's walk: the names of the atoms the call's arguments hold,
which every VM holding those terms has, to pass as `held`:

>>> from ptc_sdk import Atom, Fun, Map
>>> value, ty = Map.of({"zq_key": 1}), Tuple((Atom("map"), [Tuple(("zq_key", Atom("zq_type")))]))
>>> sorted(held(value, ty))
['map', 'zq_type']
>>> to_existing_atom("zq_type", held(value, ty)), exists("zq_key", held(value, ty))
(Atom('zq_type'), False)
"""

from __future__ import annotations

from functools import lru_cache

from .. import releases
from ..errors import Raised
from ..terms import Atom, Fun, Map, Struct, Temporal, Tuple, atom, atom_name, binary


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
    if type(name) is not str:
        name = binary(name)
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
    if type(name) is not str:
        name = binary(name)
        if type(name) is bytes:
            raise _badarg("invalid UTF8 encoding")
    if not exists(name, held, release):
        raise _badarg("not an already existing atom")
    return atom(name)


def _badarg(reason) -> Raised:
    from .errors import badarg

    return badarg("1st", reason)


def held(*terms, release=None) -> frozenset:
    """The names of the atoms `terms` hold, at any depth (JH-6): atoms
    themselves (``nil``, ``true`` and ``false`` included), keyword keys, a
    struct's module (``Elixir.`` + module) and ``__struct__`` and the names
    of every field its module has at `release` (a struct term holds them
    all), a calendar value's module, fields and calendar
    (``Elixir.Calendar.ISO``), the atoms a function's returned term holds,
    and a named capture's module and function (``&Foo.f/1``:
    ``Elixir.Foo`` and ``f``; ``&:lists.foldl/3``: ``lists`` and
    ``foldl``). Map keys and values, list and tuple elements are entered;
    a binary holds no atom. What the reference's
    ``atom_table::atoms_of`` walks (``atomize_value/2`` passes its two
    arguments).

    >>> sorted(held([Tuple((Atom("a"), 1))], Map.of({None: Fun(arity=1, returns=Atom("b"))})))
    ['a', 'b', 'nil']
    >>> sorted(held(Fun(name="&Foo.Bar.f/2"), Fun(name="&:lists.foldl/3")))
    ['Elixir.Foo.Bar', 'f', 'foldl', 'lists']
    >>> from ptc_sdk import structs
    >>> "visibility" in held(structs.new("PtcRunner.Tool")), "visibility" in held(structs.new("PtcRunner.Tool", release="0.12.0"), release="0.12.0")
    (True, False)
    """
    from .. import structs
    from ..order import temporal_fields
    from .inspect import capture_parts

    rel = releases.resolve(release)
    out = set()
    stack = list(terms)
    while stack:
        t = stack.pop()
        name = atom_name(t)
        if name is not None:
            out.add(name)
            continue
        ty = type(t)
        if ty is list or ty is Tuple:
            stack.extend(t)
        elif ty is Map:
            for k, v in t.items():
                stack.append(k)
                stack.append(v)
        elif ty is Struct or ty is Temporal:
            out.add("Elixir." + t.module)
            out.add("__struct__")
            if ty is Struct:
                out.update(f for f, _ in structs.fields_of(t.module, release=rel) or ())
                fields = t.fields.items()
            else:
                fields = temporal_fields(t)
            for f, v in fields:
                out.add(f)
                stack.append(v)
        elif ty is Fun:
            if t.name is not None:
                parts = capture_parts(t.name)
                if parts is not None:
                    out.add(parts[0])
                    out.add(parts[1])
            elif t.raises is None:
                stack.append(t.returns)
    return frozenset(out)
