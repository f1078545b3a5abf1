"""The ops of the kit as data (``spec/data/ops.json``): for each op the
PtcRunner function and arities it stands for, its arguments in order with
their names, what each may be and the default of an optional one, its rule
file and prefix, and the first release that has it when that is not
v0.11.0 (``since``: ``tool.private?`` came in v0.13.0, REL-3). `serve`
reads it to refuse an op name the kit does not have, to leave out of
``hello`` an op its release lacks, to name the arguments in its answers,
and to fill in a parameter whose default is `MISSING`.

>>> from ptc_sdk import ops
>>> ops.get("protocol.render_error")["function"], ops.arity("protocol.render_error")
('PtcRunner.PtcToolProtocol.render_error', (2, 3))
>>> ops.arg_names("native_preview.build"), ops.default("protocol.render_error", 2)
(['tool', 'full_result', 'args'], [])
>>> len(ops.names()), ops.get("nope") is None
(21, True)
>>> ops.since("tool.private?"), ops.exists_at("tool.private?", "0.12.0"), len(ops.names("0.12.0"))
('0.13.0', False, 20)
"""

from __future__ import annotations

from functools import lru_cache


class _Missing:
    """The type of `MISSING`."""

    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self):
        return "MISSING"

    def __bool__(self):
        return False


MISSING = _Missing()
""""Not there", where None cannot say it (None is the term nil): the
default of an optional parameter that the caller left out, and what
``Map.get`` gives for a key the map lacks. `serve` replaces it with the
default ``spec/data/ops.json`` gives for that argument, so
``def render_error(reason, message, opts=MISSING)`` receives ``[]`` when
the request has two arguments and None when it sends nil (a parameter
defaulting to None there is refused at start). It is no term: a map,
``encode`` or ``inspect`` given it raises ``TypeError`` saying so.

>>> MISSING, bool(MISSING), MISSING is type(MISSING)()
(MISSING, False, True)
"""


@lru_cache(maxsize=1)
def _table():
    from . import data
    from .tagged import decode, parse
    import json

    rows = {}
    for row in data.load("ops.json")["ops"]:
        row = dict(row)
        row["args"] = [
            dict(a, default=decode(parse(json.dumps(a["default"])))) if "default" in a else dict(a)
            for a in row["args"]
        ]
        rows[row["op"]] = row
    return rows


def names(release=None) -> list:
    """Every op name of `release` (`ptc_sdk.releases`; left out, the
    served port's), sorted.

    >>> names()[0]
    'exposure.effective_expose'
    """
    return sorted(op for op in _table() if exists_at(op, release))


def since(op: str) -> str:
    """The first release that has `op` (``ops.json``'s ``since``, else
    the first release)."""
    from . import releases

    return _table()[op].get("since", releases.RELEASES[0])


def exists_at(op: str, release=None) -> bool:
    """Whether `release` has the op `op` (REL-3)."""
    from . import releases

    return releases.since(releases.resolve(release), since(op))


def get(op: str):
    """The row of `op` (``op``, ``function``, ``arity``, ``args``,
    ``rules``, ``prefix``, ``output``), defaults decoded to terms; None for
    an op the kit does not have.

    >>> get("term.inspect")["rules"]
    'inspect.md'
    """
    return _table().get(op)


def arity(op: str):
    """``(least, most)`` arguments `op` takes.

    >>> arity("tool.new")
    (2, 2)
    """
    a = _table()[op]["arity"]
    return min(a), max(a)


def arg_names(op: str) -> list:
    """The names of `op`'s arguments, in order.

    >>> arg_names("protocol.render_success")
    ['lisp_step', 'opts']
    """
    return [a["name"] for a in _table()[op]["args"]]


def default(op: str, i: int):
    """The default of `op`'s argument `i` (a term), or `MISSING` for a
    required one.

    >>> default("protocol.render_success", 1), default("protocol.render_success", 0)
    ([], MISSING)
    """
    a = _table()[op]["args"][i]
    return a.get("default", MISSING)
