"""Erlang term order and equality (spec/terms.md TJ-4, TJ-11), on OTP 25.

* `compare`: term order, Elixir's ``<``: number < atom < reference < fun <
  port < pid < tuple < map < list < binary; numbers compare by value across
  integers and floats (``1`` and ``1.0`` compare equal).
* `key_compare`: *map key order*, the order maps iterate in (up to 32 keys):
  term order, except that every integer sorts before every float, also
  inside tuples, lists and maps.
* `equal`: exact equality ``=:=``: ``1`` and ``1.0`` differ, ``0.0`` and
  ``-0.0`` do not (they are one map key on OTP 25). `key` gives a hashable
  value that is equal exactly when the terms are.

A struct orders as the map it is, ``__struct__`` key included (TJ-11), so a
``Date`` sorts before a ``Time`` and two dates compare by day first.
Functions, references, pids and ports order by VM internals in Erlang; here
by their spec or label (implementation-defined, the spec says so).
"""

from __future__ import annotations

import functools

from .terms import Atom, Fun, Map, Opaque, Struct, Temporal, Tuple, atom, atom_name, binary, not_a_term, to_bytes

_OPAQUE_RANK = {"ref": 2, "port": 4, "pid": 5}


def _rank(t) -> int:
    ty = type(t)
    if ty is int or ty is float:
        return 0
    if t is None or ty is bool or ty is Atom:
        return 1
    if ty is Opaque:
        return _OPAQUE_RANK[t.kind]
    if ty is Fun:
        return 3
    if ty is Tuple:
        return 6
    if ty is Map or ty is Struct or ty is Temporal:
        return 7
    if ty is list:
        return 8
    if ty is str or ty is bytes:
        return 9
    raise not_a_term(t)


def _cmp(a, b) -> int:
    return (a > b) - (a < b)


def compare(a, b) -> int:
    """Term order (Elixir's ``<``, ``==``): -1, 0 or 1."""
    return _compare(a, b, False)


def key_compare(a, b) -> int:
    """Map key order: -1, 0 or 1; 0 exactly when `a` and `b` are one key."""
    return _compare(a, b, True)


def _compare(a, b, exact: bool) -> int:
    ra, rb = _rank(a), _rank(b)
    if ra != rb:
        return _cmp(ra, rb)
    ta, tb = type(a), type(b)
    if ra == 0:
        if exact and ta is not tb:
            return -1 if ta is int else 1
        return _cmp(a, b)  # Python compares int with float exactly
    if ra == 1:
        return _cmp(atom_name(a), atom_name(b))
    if ra == 9:
        if ta is str and tb is str:
            return _cmp(a, b)  # code point order is UTF-8 byte order
        return _cmp(to_bytes(a), to_bytes(b))
    if ra == 6:
        if len(a.items) != len(b.items):
            return _cmp(len(a.items), len(b.items))
        return _seq(a.items, b.items, exact)
    if ra == 8:
        return _seq(a, b, exact)
    if ra == 3:
        return _cmp(_fun_order(a), _fun_order(b))
    if ra in (2, 4, 5):
        return _cmp(a.label, b.label)
    # maps: size, then the keys in key order, then the values in that order
    pa, pb = map_view(a), map_view(b)
    if len(pa) != len(pb):
        return _cmp(len(pa), len(pb))
    c = _seq([k for k, _ in pa], [k for k, _ in pb], True)
    if c:
        return c
    return _seq([v for _, v in pa], [v for _, v in pb], exact)


def _seq(xs, ys, exact) -> int:
    for x, y in zip(xs, ys, strict=False):
        c = _compare(x, y, exact)
        if c:
            return c
    return _cmp(len(xs), len(ys))


def _fun_order(f: Fun):
    from .tagged import encode

    return (f.kind, encode(f))


def map_view(t):
    """The ``(key, value)`` pairs of a map-like term in map key order: a
    map's own, or a struct's fields as atom keys plus ``__struct__``."""
    if type(t) is Map:
        return t.items()
    if type(t) is Struct:
        fields = list(t.fields.items())
    elif type(t) is Temporal:
        fields = temporal_fields(t)
    else:
        raise TypeError(f"not a map: {t!r}")
    pairs = [(atom(k), v) for k, v in fields]
    pairs.append((Atom("__struct__"), Atom("Elixir." + t.module)))
    return key_sort(pairs, key=lambda kv: kv[0])


def temporal_fields(t: Temporal):
    """The fields of a calendar struct (``__struct__`` aside) as
    ``from_iso8601/1`` makes them from `t`'s text: ``calendar``, the date and
    time parts, ``microsecond: {value, digits}``, and for a ``DateTime`` its
    zone: ``Etc/UTC``/``UTC`` for ``Z``, else the offset text (TJ-6, TJ-11)."""
    p = t.parts
    fields = [("calendar", Atom("Elixir.Calendar.ISO"))]
    if t.kind != "time":
        fields += [("year", p.year), ("month", p.month), ("day", p.day)]
    if t.kind != "date":
        fields += [("hour", p.hour), ("minute", p.minute), ("second", p.second)]
        fields.append(("microsecond", Tuple((p.microsecond, p.precision))))
        if t.kind == "datetime":
            if p.offset is None:
                zone, abbr, offset = "Etc/UTC", "UTC", 0
            else:
                offset, zone = p.offset
                abbr = zone
            fields += [
                ("std_offset", 0),
                ("time_zone", zone),
                ("utc_offset", offset),
                ("zone_abbr", abbr),
            ]
    fields.sort(key=lambda kv: kv[0])
    return fields


def key(t):
    """A hashable value, equal for two terms exactly when they are equal
    (``=:=``) and so the same map key."""
    ty = type(t)
    if ty is str:
        return t
    if ty is bytes:
        return binary(t)  # bytes that are valid UTF-8 are the str's term
    if t is None or t is True or t is False:
        return ("a", atom_name(t))
    if ty is int:
        return ("i", t)
    if ty is float:
        return ("f", t + 0.0)  # -0.0 + 0.0 == 0.0
    if ty is Atom:
        return ("a", t.name)
    if ty is Tuple:
        return ("t",) + tuple(key(x) for x in t.items)
    if ty is list:
        return ("l",) + tuple(key(x) for x in t)
    if ty is Map:
        return ("m", frozenset((ek, key(v)) for ek, (_, v) in t._entries.items()))
    if ty is Struct:
        return ("s", t.module, tuple(sorted((k, key(v)) for k, v in t.fields.items())))
    if ty is Temporal:
        return ("d", t.kind, t.iso)
    if ty is Fun:
        return ("fn", t.arity, key(t.returns), t.raises, t.name)
    if ty is Opaque:
        return ("o", t.kind, t.label)
    raise not_a_term(t)


def equal(a, b) -> bool:
    """Exact equality ``=:=`` on OTP 25."""
    return key(a) == key(b)


_TERM_KEY = functools.cmp_to_key(compare)
_MAP_KEY = functools.cmp_to_key(key_compare)


def sort(items, key=None):
    """`items` sorted in term order (stable: ``Enum.sort/1``); `key` picks
    the term to compare from each item."""
    if key is None:
        return sorted(items, key=_TERM_KEY)
    return sorted(items, key=lambda x: _TERM_KEY(key(x)))


def key_sort(items, key=None):
    """`items` sorted in map key order (stable); `key` picks the term."""
    pick = key or (lambda x: x)
    if all(type(pick(x)) is str for x in items):
        return sorted(items, key=pick)
    return sorted(items, key=lambda x: _MAP_KEY(pick(x)))
