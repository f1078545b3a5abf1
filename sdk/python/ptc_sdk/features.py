"""Features (spec/terms.md, "Features"): the term kinds beyond plain JSON a
port must represent to run a case. The adapter loop answers
``unsupported`` to a request whose arguments use a feature the port did not
declare, so port functions only ever see terms they carry.
"""

from __future__ import annotations

from .tagged import MAX_SAFE_INT, pointer
from .terms import Atom, Fun, Map, Opaque, Struct, Temporal, Tuple, binary, kw_pair

ALL = (
    "atoms",
    "tuples",
    "floats",
    "bigints",
    "binaries",
    "term-keys",
    "structs",
    "temporal",
    "functions",
    "opaque",
)
"""Every feature name, in the order the spec lists them."""


def uses(t, path=""):
    """``(path, feature)`` for every use of a feature in `t`, depth first;
    `path` is the JSON pointer of the use in `t`'s canonical encoding."""
    ty = type(t)
    if ty is int:
        if not -MAX_SAFE_INT <= t <= MAX_SAFE_INT:
            yield path, "bigints"
    elif ty is float:
        yield path, "floats"
    elif ty is bytes:
        if type(binary(t)) is bytes:  # bytes that are UTF-8 are a string
            yield path, "binaries"
    elif ty is Atom:
        yield path, "atoms"
    elif ty is list:
        pairs = [kw_pair(x) for x in t]
        if t and all(p is not None for p in pairs):
            yield path, "atoms"
            for i, (_, v) in enumerate(pairs):
                yield from uses(v, pointer(pointer(path, "$kw"), i) + "/1")
        else:
            for i, x in enumerate(t):
                yield from uses(x, pointer(path, i))
    elif ty is Tuple:
        yield path, "tuples"
        for i, x in enumerate(t.items):
            yield from uses(x, pointer(pointer(path, "$tuple"), i))
    elif ty is Map:
        pairs = t.items()
        if all(type(k) is str and not k.startswith("$") for k, _ in pairs):
            for k, v in pairs:
                yield from uses(v, pointer(path, k))
        else:
            for i, (k, v) in enumerate(pairs):
                entry = pointer(pointer(path, "$map"), i)
                if type(k) is not str:
                    yield entry + "/0", "term-keys"
                yield from uses(k, entry + "/0")
                yield from uses(v, entry + "/1")
    elif ty is Struct:
        yield path, "structs"
        yield path, "atoms"
        for k, v in t.fields.items():
            yield from uses(v, pointer(pointer(path, "$struct") + "/fields", k))
    elif ty is Temporal:
        yield path, "temporal"
    elif ty is Fun:
        yield path, "functions"
        if t.kind == "returns":
            yield from uses(t.returns, pointer(path, "$fn") + "/returns")
    elif ty is Opaque:
        yield path, "opaque"


def used_by(t) -> set:
    """The set of features `t` uses."""
    return {f for _, f in uses(t)}


def first_missing(t, declared, path=""):
    """``(path, feature)`` of the first use in `t` of a feature not in
    `declared`, or None."""
    for p, f in uses(t, path):
        if f not in declared:
            return p, f
    return None
