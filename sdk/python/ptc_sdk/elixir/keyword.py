"""``Keyword`` as Elixir 1.18.4 reads option lists
(``src/elixir/keyword.rs``): ``Keyword.get/3``, ``fetch/2``, ``fetch!/2``
and ``take/2``, each raising as Elixir does. Keys are atom names (``"a"``
for ``:a``, ``"nil"`` for ``nil``). A lookup is ``:lists.keyfind/3``: the
first tuple whose first element is the key decides, other elements are
skipped, and a found tuple that is not a pair raises ``CaseClauseError``
(PP-8).

>>> from ptc_sdk.elixir import keyword
>>> opts = kw([("limit", 5)]) + ["junk"]
>>> keyword.get(opts, "limit"), keyword.get(opts, "preview", 20)
(5, 20)
>>> keyword.get([Tuple((Atom("limit"),))], "limit")
Traceback (most recent call last):
ptc_sdk.errors.Raised: CaseClauseError: no case clause matching: {:limit}
"""

from __future__ import annotations

from ..terms import Atom, Tuple, atom, kw  # noqa: F401  (kw: the doctest's)
from ..order import equal
from .errors import case_clause, function_clause, key_error


def find(items, key: str, fun: str = "get/3"):
    """``(found, value)`` of the atom `key` in the list `items` as
    ``Keyword.<fun>`` finds it (`fun` like ``get/3``, for the
    ``FunctionClauseError`` when `items` is no list; ``get/3``, the one
    PtcRunner calls most, when not given).

    >>> find(kw([("a", 1)]), "a", "get/3"), find([], "a", "get/3")
    ((True, 1), (False, None))
    """
    if type(items) is not list:
        raise function_clause(f"Keyword.{fun}")
    k = atom(key)
    for item in items:
        if type(item) is Tuple and item.items and equal(item.items[0], k):
            if len(item.items) != 2:
                raise case_clause(item)
            return True, item.items[1]
    return False, None


def get(items, key: str, default=None):
    """``Keyword.get(items, key, default)``.

    >>> get(kw([("a", 1), ("a", 2)]), "a")
    1
    >>> get(7, "a", 0)
    Traceback (most recent call last):
    ptc_sdk.errors.Raised: FunctionClauseError: no function clause matching in Keyword.get/3
    """
    found, value = find(items, key, "get/3")
    return value if found else default


def fetch(items, key: str):
    """``Keyword.fetch(items, key)``: ``{:ok, value}`` or ``:error``.

    >>> fetch(kw([("a", 1)]), "a"), fetch([], "a")
    (Tuple([Atom('ok'), 1]), Atom('error'))
    """
    found, value = find(items, key, "fetch/2")
    return Tuple((Atom("ok"), value)) if found else Atom("error")


def fetch_bang(items, key: str):
    """``Keyword.fetch!(items, key)``: a missing key raises ``KeyError``.

    >>> fetch_bang(kw([("b", 1)]), "a")
    Traceback (most recent call last):
    ptc_sdk.errors.Raised: KeyError: key :a not found in: [b: 1]
    """
    found, value = find(items, key, "fetch!/2")
    if not found:
        raise key_error(key, items)
    return value


def take(items, keys):
    """``Keyword.take(items, keys)``: every ``{key, value}`` pair whose key
    is one of `keys` (atom names), in order; an element that is no pair
    raises ``FunctionClauseError`` in its filter.

    >>> take(kw([("a", 1), ("b", 2), ("a", 3)]), ["a"])
    [Tuple([Atom('a'), 1]), Tuple([Atom('a'), 3])]
    >>> take([1], ["a"])
    Traceback (most recent call last):
    ptc_sdk.errors.Raised: FunctionClauseError: no function clause matching in anonymous fn/1 in Keyword.take/2
    """
    if type(items) is not list or type(keys) is not list:
        raise function_clause("Keyword.take/2")
    wanted = [atom(k) for k in keys]
    out = []
    for item in items:
        if type(item) is not Tuple or len(item.items) != 2:
            raise function_clause("anonymous fn/1 in Keyword.take/2")
        if any(equal(item.items[0], w) for w in wanted):
            out.append(item)
    return out
