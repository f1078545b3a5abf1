"""Erlang's lists where PtcRunner's code leans on them
(``src/ptc/signature_validator.rs``, JH-15): ``++``, improper lists and
``Enum.flat_map/2``. An arity-2 function in place of a map's fields can hand
back any term as a list of errors, and ``++`` then builds an improper
list, which no tagged term carries; `Improper` holds one in the SDK.

>>> from ptc_sdk.elixir.lists import Improper, append, flat_map
>>> append([1], [2]), append([1], 2), append([], 2)
([1, 2], Improper([1], 2), 2)
>>> append(Improper([1], 2), [3])
Traceback (most recent call last):
ptc_sdk.errors.Raised: ArgumentError: argument error
>>> flat_map([0, 1], lambda i: [[i], Map.of({"k": i})][i])
[0, Tuple(['k', 1])]
"""

from __future__ import annotations

from ..errors import Raised
from ..terms import Map  # noqa: F401  (the doctest's Map)
from .enumerable import to_list


class Improper:
    """A non-empty improper list ``[a, b | tail]``: `items` (a non-empty
    Python list) and a `tail` that is no list. ``is_list/1`` holds for it,
    but ``++`` and every ``Enum`` function refuse it.

    >>> Improper([1], 2) == Improper([1], 2), Improper([1], 2).tail
    (True, 2)
    """

    __slots__ = ("items", "tail")

    def __init__(self, items, tail):
        if not items or type(tail) is list or type(tail) is Improper:
            raise ValueError("an improper list has items and a tail that is no list")
        self.items = list(items)
        self.tail = tail

    def __eq__(self, other):
        from ..order import equal

        return type(other) is Improper and equal(self.items, other.items) and equal(self.tail, other.tail)

    __hash__ = None

    def __repr__(self):
        return f"Improper({self.items!r}, {self.tail!r})"


def is_list(t) -> bool:
    """``is_list/1``: a proper or improper list.

    >>> is_list([]), is_list(Improper([1], 2)), is_list("x")
    (True, True, False)
    """
    return type(t) is list or type(t) is Improper


def argument_error() -> Raised:
    """The ``ArgumentError`` ``argument error`` of ``++`` on a left operand
    that is not a proper list (and of ``:maps.from_list/1`` on a non-pair).

    >>> argument_error().message
    'argument error'
    """
    return Raised("ArgumentError", "argument error")


def append(left, right):
    """Erlang's ``left ++ right``: `left` must be a proper list (else
    ``ArgumentError``); `right` may be anything, and the result is an
    `Improper` list when it is no list (`right` itself when `left` is
    empty).

    >>> append([1, 2], Improper([3], 4))
    Improper([1, 2, 3], 4)
    >>> append("a", [1])
    Traceback (most recent call last):
    ptc_sdk.errors.Raised: ArgumentError: argument error
    """
    if type(left) is not list:
        raise argument_error()
    if type(right) is list:
        return left + right
    if type(right) is Improper:
        return Improper(left + right.items, right.tail)
    return Improper(left, right) if left else right


def flat_map(items: list, fun):
    """``Enum.flat_map(items, fun)`` over a list as Elixir 1.18.4 runs it:
    `fun` on every element first, a result that is no list made one with
    ``Enum.to_list/1`` as it comes (raising then); the ``++``\\ s after, so an
    improper result raises ``ArgumentError`` once every element ran.

    >>> flat_map([1, 2], lambda x: [x, x])
    [1, 1, 2, 2]
    >>> flat_map([1, 2], lambda x: Improper([x], 0) if x == 1 else 5)
    Traceback (most recent call last):
    ptc_sdk.errors.Raised: Protocol.UndefinedError: protocol Enumerable not implemented for type Integer. This protocol is implemented for the following type(s): Date.Range, File.Stream, Function, GenEvent.Stream, HashDict, HashSet, IO.Stream, Jason.OrderedObject, List, Map, MapSet, Range, Stream
    <BLANKLINE>
    Got value:
    <BLANKLINE>
        5
    <BLANKLINE>
    """
    if type(items) is not list:
        raise TypeError(f"flat_map walks a list, got {items!r}")
    out, improper = [], False
    for x in items:
        r = fun(x)
        if type(r) is list:
            out.extend(r)
        elif type(r) is Improper:
            improper = True
        else:
            out.extend(to_list(r))
    if improper:
        raise argument_error()
    return out
