"""``Map`` and ``MapSet`` access as Elixir 1.18.4 does it
(``src/elixir/keyword.rs``, ``src/ptc/json_handler.rs``): ``Map.get/3``,
``Map.has_key?/2``, ``Map.keys/1``, the ``term.field`` syntax, ``Map.new/1`` and
``MapSet.member?/2``, each raising as Elixir does. A struct is a map of its
fields (atom keys) here.

>>> from ptc_sdk.elixir import maps
>>> m = Map.of({Atom("a"): 1})
>>> maps.get(m, Atom("a")), maps.has_key(m, "a"), maps.dot(m, "a")
(1, False, 1)
>>> maps.dot(5, "a")
Traceback (most recent call last):
ptc_sdk.errors.Raised: KeyError: key :a not found in: 5
<BLANKLINE>
If you are using the dot syntax, such as map.field, make sure the left-hand side of the dot is a map
"""

from __future__ import annotations

from ..order import map_view
from ..terms import Atom, Map, Struct, Temporal, Tuple, atom
from . import messages as M
from .errors import bad_map, badarg, function_clause, key_error, module_not_available


def _pairs(t):
    """A map's or struct's ``(key, value)`` pairs, or None for a non-map."""
    if type(t) is Map or type(t) is Struct or type(t) is Temporal:
        return map_view(t)
    return None


def fetch(t, key):
    """``(found, value)`` of `key` (any term) in the map or struct `t`;
    a non-map raises ``BadMapError`` (``:maps`` refuses it).

    >>> fetch(Map.of({1: "x"}), 1), fetch(Map(), 1)
    ((True, 'x'), (False, None))
    """
    from ..order import equal

    pairs = _pairs(t)
    if pairs is None:
        raise bad_map(t)
    for k, v in pairs:
        if equal(k, key):
            return True, v
    return False, None


def get(t, key, default=None):
    """``Map.get(t, key, default)``.

    >>> get(Map.of({1: "x"}), 1.0, "none")
    'none'
    >>> get([1], 1)
    Traceback (most recent call last):
    ptc_sdk.errors.Raised: BadMapError: expected a map, got: [1]
    """
    found, value = fetch(t, key)
    return value if found else default


def keys(t):
    """``Map.keys(t)`` of a map or struct: its keys in map key order (the
    order Elixir gives up to 32 keys); a struct's are ``:__struct__`` and
    its fields as atoms, a calendar value's its parts. A non-map raises
    ``BadMapError``.

    >>> keys(Map.new([(2, "b"), (1.0, "f"), (1, "a")])), keys(Struct("MapSet", {"map": Map()}))
    ([1, 2, 1.0], [Atom('__struct__'), Atom('map')])
    >>> keys([1])
    Traceback (most recent call last):
    ptc_sdk.errors.Raised: BadMapError: expected a map, got: [1]
    """
    pairs = _pairs(t)
    if pairs is None:
        raise bad_map(t)
    return [k for k, _ in pairs]


def has_key(t, key) -> bool:
    """``Map.has_key?(t, key)``.

    >>> has_key(Map.of({None: 1}), None), has_key(Map(), 1)
    (True, False)
    """
    return fetch(t, key)[0]


def dot(t, field: str):
    """Elixir's ``t.field`` (`field` an atom name): the value under that
    atom key of a map or struct; a map without it raises ``KeyError``; an
    atom other than nil, true and false is taken for a module and calling
    ``field/0`` on it fails as for a module the VM cannot load; anything
    else raises ``KeyError`` with the dot-syntax hint.

    >>> dot(Atom("ok"), "a")
    Traceback (most recent call last):
    ptc_sdk.errors.Raised: UndefinedFunctionError: function :ok.a/0 is undefined (module :ok is not available)
    >>> dot(Map.of({"a": 1}), "a")
    Traceback (most recent call last):
    ptc_sdk.errors.Raised: KeyError: key :a not found in: %{"a" => 1}
    """
    pairs = _pairs(t)
    key = atom(field)
    if pairs is not None:
        found, value = fetch(t, key)
        if found:
            return value
        raise key_error(field, t)
    if type(t) is Atom:
        raise module_not_available(t.name, field, 0)
    from .inspect import inspect_lossy

    raise M.get("key_error_not_a_map").raised(
        key=inspect_lossy(key), term=inspect_lossy(t, pretty=True, limit=None)
    )


def new(t) -> Map:
    """``Map.new(t)``: a list of ``{key, value}`` pairs (the later of equal
    keys wins), a map as it is, a struct or anything else enumerated first
    (``Protocol.UndefinedError`` when it cannot be). An element that is no
    pair raises ``ArgumentError`` ``argument error``; an improper list
    ``not a proper list``.

    >>> new([Tuple((1, "a")), Tuple((1, "b"))])
    Map([(1, 'b')])
    >>> new([1])
    Traceback (most recent call last):
    ptc_sdk.errors.Raised: ArgumentError: argument error
    """
    from .enumerable import to_list
    from .lists import Improper, argument_error

    if type(t) is Map:
        return t
    if type(t) is Improper:
        raise badarg("1st", "not a proper list")
    items = t if type(t) is list else to_list(t)
    pairs = []
    for p in items:
        if type(p) is not Tuple or len(p.items) != 2:
            raise argument_error()
        pairs.append((p.items[0], p.items[1]))
    return Map.new(pairs)


def member(s, value) -> bool:
    """``MapSet.member?(s, value)``: whether `value` is a member of the
    ``MapSet`` `s` (exact equality); anything but a ``MapSet`` raises
    ``FunctionClauseError``.

    >>> ms = Struct("MapSet", {"map": Map.of({1: []})})
    >>> member(ms, 1), member(ms, 1.0)
    (True, False)
    >>> member(Map(), 1)
    Traceback (most recent call last):
    ptc_sdk.errors.Raised: FunctionClauseError: no function clause matching in MapSet.member?/2
    """
    if type(s) is not Struct or s.module != "MapSet" or type(s.fields.get("map")) is not Map:
        raise function_clause("MapSet.member?/2")
    return fetch(s.fields["map"], value)[0]

