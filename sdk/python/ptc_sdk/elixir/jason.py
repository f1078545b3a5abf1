"""``Jason.encode/1`` with default options (Jason 1.4, which PtcRunner
v0.13.0 renders payloads with; ``src/elixir/jason.rs``): the text it writes
and the exceptions it raises.

Maps are written in map iteration order; keys that stringify alike are
*both* written (``maps: :naive``); atom keys and values become strings,
other keys their ``to_string/1`` text; the four calendar structs their ISO
8601 text; ``PtcRunner.Lisp.Format``'s display structs the JSON string of
their ``String.Chars`` text, from v0.12.0 on (REL-7: the release is
`ptc_sdk.releases`'s, left out the served port's). Only ``"``, ``\\`` and control characters are
escaped: ``\\b \\t \\n \\f \\r``, the rest ``\\u00XX`` with upper-case hex
(``\\u001F``; serde_json, and so the tagged term writer `ptc_sdk.json_str`,
writes ``\\u001f``). Anything else (tuples, functions, other structs)
raises ``Protocol.UndefinedError`` for ``Jason.Encoder``; a binary that is
not UTF-8 raises ``Jason.EncodeError``.
"""

from __future__ import annotations

import re

from .. import releases
from ..terms import Map, Struct, Temporal, atom_name
from . import messages as M
from .num import short_float

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}
_ESCAPE_RE = re.compile(r'["\\\x00-\x1f]')


def _escape(m):
    c = m.group(0)
    return _ESCAPES.get(c) or f"\\u{ord(c):04X}"


def escape_string(s) -> str:
    """A JSON string literal as Jason writes it: `s` a UTF-8 binary term
    (``str``, or ``bytes`` that are valid UTF-8; Jason refuses others,
    `encode` raises as it does)."""
    if type(s) is not str:
        s = bytes(s).decode("utf-8")
    return '"' + _ESCAPE_RE.sub(_escape, s) + '"'


def encode(term, release=None) -> str:
    """The JSON text Jason writes for `term` on `release`'s build, or
    `Raised` as Jason raises."""
    out = []
    _value(term, out, releases.resolve(release))
    return "".join(out)


def _string(b, out):
    if type(b) is bytes:
        try:
            s = b.decode("utf-8")
        except UnicodeDecodeError as e:
            from .inspect import inspect_binary

            raise M.get("jason_invalid_byte").raised(
                byte=f"{b[e.start]:X}", binary=inspect_binary(b)
            ) from None
    else:
        s = b
    out.append(escape_string(s))


def _value(t, out, rel):
    ty = type(t)
    if ty is str or ty is bytes:
        _string(t, out)
    elif ty is int:
        out.append(str(t))
    elif ty is float:
        out.append(short_float(t))
    elif t is None:
        out.append("null")
    elif t is True:
        out.append("true")
    elif t is False:
        out.append("false")
    elif ty is list:
        out.append("[")
        for i, x in enumerate(t):
            if i:
                out.append(",")
            _value(x, out, rel)
        out.append("]")
    elif ty is Map:
        out.append("{")
        for i, (k, v) in enumerate(t.items()):
            if i:
                out.append(",")
            _key(k, out, rel)
            out.append(":")
            _value(v, out, rel)
        out.append("}")
    elif ty is Temporal:
        out.append('"' + t.iso + '"')
    else:
        name = atom_name(t)
        if name is not None:
            _string(name, out)
            return
        from . import chars
        from .errors import implements, protocol_undefined

        if ty is Struct and chars.is_display_struct(t) and implements("Jason.Encoder", t.module, rel):
            _string(chars.to_string(t, rel), out)
            return
        raise protocol_undefined("Jason.Encoder", t, rel)


def _key(k, out, rel):
    ty = type(k)
    if ty is str or ty is bytes:
        _string(k, out)
        return
    name = atom_name(k)
    if name is not None:
        _string(name, out)
        return
    from .chars import to_string

    _string(to_string(k, rel), out)


def try_encode(term, release=None):
    """``Jason.encode(term)``: ``("ok", text)``, or ``("error", Raised)``
    for the refusals Jason rescues itself (``Jason.EncodeError``, and
    ``Protocol.UndefinedError`` for ``Jason.Encoder``). Anything else
    raises through, as in Elixir: a map key that ``String.Chars`` refuses
    escapes ``Jason.encode/1`` (NP-23).

    >>> from ptc_sdk import Tuple
    >>> try_encode(Map.of({"a": 1}))
    ('ok', '{"a":1}')
    >>> try_encode(b"\\xff")[1].cls
    'Jason.EncodeError'
    >>> try_encode(Map.of({Tuple((1,)): 1}))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ptc_sdk.errors.Raised: Protocol.UndefinedError: protocol String.Chars not implemented for type Tuple...
    """
    from ..errors import Raised

    try:
        return "ok", encode(term, release)
    except Raised as e:
        if e.cls == "Jason.EncodeError" or (
            e.cls == "Protocol.UndefinedError" and e.message.startswith("protocol Jason.Encoder ")
        ):
            return "error", e
        raise
