"""``Enumerable`` as ``Enum`` meets it at the boundary
(``src/elixir/enumerable.rs``): lists, maps (their ``{key, value}`` pairs
in map order), ``MapSet``\\ s (their members) and functions of arity 2,
which Elixir treats as a reducer to be called (EX-8, LF-14).

A function of arity 2 is called as ``fun.({:cont, acc}, reducer)`` and
``Enum`` takes ``elem(result, 1)`` as the final accumulator; its spec
decides the result whatever its arguments, so the reducer never runs.
`reduce_fun` does that call; `walk` tells which case a term is.
"""

from __future__ import annotations

from ..errors import Raised
from ..terms import Atom, Fun, Map, Struct, Tuple
from .errors import badarg, function_clause, module_not_available, protocol_undefined
from .inspect import capture_parts

FIRST = Atom("first")


def reduce_fun(fun, acc=FIRST):
    """``elem(fun.({:cont, acc}, reducer), 1)`` for a `Fun` of arity 2: the
    accumulator it hands back. A function that raises passes its
    ``RuntimeError`` on; a result that is no tuple, or a short one, raises
    ``:erlang.element/2``'s ``ArgumentError``; a named capture calls a
    module the reference cannot load (LOOSE-5)."""
    if fun.name is not None:
        raise _call_capture(fun, 2)
    result = fun.apply(Tuple((Atom("cont"), acc)), None)
    if type(result) is not Tuple:
        raise badarg("2nd", "not a tuple")
    if len(result.items) < 2:
        raise badarg("1st", "out of range")
    return result.items[1]


def walk(t):
    """What one ``Enum`` traversal sees: ``("elements", [..])`` for a list,
    map or ``MapSet``, ``("accumulator", acc)`` for a function of arity 2
    (`reduce_fun`); anything else raises ``Protocol.UndefinedError``."""
    ty = type(t)
    if ty is list:
        return "elements", list(t)
    if ty is Map:
        return "elements", [Tuple((k, v)) for k, v in t.items()]
    if ty is Struct and t.module == "MapSet" and type(t.fields.get("map")) is Map:
        return "elements", t.fields["map"].keys()
    if ty is Fun and t.arity == 2:
        return "accumulator", reduce_fun(t)
    raise protocol_undefined("Enumerable", t)


def lists_reverse(t):
    """``:lists.reverse/1``, which has no clause for anything but a list."""
    if type(t) is not list:
        raise function_clause(":lists.reverse/1")
    return t[::-1]


def to_list(t):
    """``Enum.to_list/1``: an arity-2 function's accumulator is a list in
    reverse."""
    kind, v = walk(t)
    return v if kind == "elements" else lists_reverse(v)


def map_join(t, joiner, mapper):
    """``Enum.map_join(t, joiner, mapper)`` as a binary term; `mapper`
    returns a binary term. For an arity-2 function the accumulator
    ``:first`` is no element (``""``); anything else is reversed and made
    a binary with ``IO.iodata_to_binary/1``, the mapper never running."""
    from ..terms import binary
    from .chars import iodata_to_binary

    kind, v = walk(t)
    if kind == "elements":
        j = joiner.encode("utf-8") if type(joiner) is str else joiner
        parts = [(p.encode("utf-8") if type(p) is str else p) for p in map(mapper, v)]
        return binary(j.join(parts))
    if v == FIRST:
        return ""
    return iodata_to_binary(lists_reverse(v))


def _call_capture(fun, arity=2) -> Raised:
    """Calling the named capture ``&Mod.fun/n`` with `arity` arguments: the
    reference knows no module of that name, so the call fails as for a
    module the VM cannot load (``:mod`` an Erlang module, ``Mod`` an Elixir
    alias). `Fun.apply` raises it."""
    parts = capture_parts(fun.name)
    if parts is not None:
        return module_not_available(parts[0], parts[1], arity)
    return protocol_undefined("Enumerable", fun)


def sort_by(t, mapper):
    """``Enum.sort_by(t, mapper)``: the elements of `t` (as `to_list`
    enumerates them: a list, a map's ``{key, value}`` tuples, a ``MapSet``'s
    members) in the term order of ``mapper(element)``, stable: elements
    whose keys compare equal (``1`` and ``1.0``) keep their order. `mapper`
    runs once per element, in order.

    >>> sort_by([Tuple(("b", 1.0)), Tuple(("a", 2)), Tuple(("c", 1))], lambda p: p.items[1])
    [Tuple(['b', 1.0]), Tuple(['c', 1]), Tuple(['a', 2])]
    >>> sort_by(Map.of({"b": 1, "a": 2}), lambda p: p.items[1])
    [Tuple(['b', 1]), Tuple(['a', 2])]
    """
    import functools

    from ..order import compare

    keyed = [(mapper(x), x) for x in to_list(t)]
    order = functools.cmp_to_key(compare)
    return [x for _, x in sorted(keyed, key=lambda p: order(p[0]))]


def take(t, n):
    """``Enum.take(t, n)``: the first `n` elements, or for a negative `n`
    the last ``-n``; a count that is no integer raises
    ``FunctionClauseError`` (``src/ptc/native_preview.rs``, NP-7).

    >>> take([1, 2, 3], 2), take([1, 2, 3], -2), take([1], 10)
    ([1, 2], [2, 3], [1])
    >>> take([1], 1.0)
    Traceback (most recent call last):
    ptc_sdk.errors.Raised: FunctionClauseError: no function clause matching in Enum.take/2
    """
    if type(n) is not int:
        raise function_clause("Enum.take/2")
    items = to_list(t)
    if n >= 0:
        return items[:n]
    return items[max(len(items) + n, 0) :]
