#!/usr/bin/env python3
"""A from-scratch Python port of four PtcRunner 0.13.0 functions, served over
ptc-conformance adapter protocol v1.

    python3 harness/adapters/python/adapter.py < requests.jsonl

Ported (see README.md next to this file):

* ``key_normalizer.normalize_key``, ``key_normalizer.normalize_keys`` and
  ``key_normalizer.canonical_cache_key`` (PtcRunner.SubAgent.KeyNormalizer);
* ``native_preview.cache_hint`` (PtcRunner.SubAgent.Loop.NativePreview), with
  the bits of PtcRunner.Lisp.Formatter, ``String.Chars`` and ``inspect/2``
  it needs to render an argument fragment or to say why it cannot.

Standard library only, Python >= 3.11. The file is laid out as the port is
built: a small term model, Erlang's map key order, the float texts, tagged
term JSON (spec/terms.md), Elixir's ``inspect`` for the terms this port
carries, chardata conversion, the four functions, and the protocol loop.

``PTC_PY_BUG`` plants deliberate bugs, for testing the fuzzers: a
comma-separated list of ``neg-zero``, ``big-float``, ``hint-order`` (see README.md).
"""

from __future__ import annotations

import base64
import binascii
import functools
import json
import math
import os
import re
import sys
import traceback
import unicodedata

NAME = "ptc_runner-python-port"
VERSION = "0.13.0"
OPS = (
    "key_normalizer.canonical_cache_key",
    "key_normalizer.normalize_key",
    "key_normalizer.normalize_keys",
    "native_preview.cache_hint",
)
# What this port decodes faithfully (spec/terms.md, "Features").
FEATURES = ("atoms", "binaries", "bigints", "floats", "term-keys", "tuples")

BUG = frozenset(b for b in os.environ.get("PTC_PY_BUG", "").split(",") if b)
BUGS = ("neg-zero", "big-float", "hint-order")

# ---------------------------------------------------------------------------
# Term model
#
#   nil / true / false      None / True / False (they are atoms too)
#   integer                 int (any size)
#   float                   float (finite)
#   UTF-8 binary            str
#   other binary            bytes (never valid UTF-8: see `binary`)
#   atom                    Atom
#   list                    list
#   tuple                   Tuple
#   map                     TMap (immutable, any terms as keys)
# ---------------------------------------------------------------------------


class Atom:
    """An atom other than nil, true and false (those are None, True, False)."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __eq__(self, other):
        return type(other) is Atom and other.name == self.name

    def __hash__(self):
        return hash(("atom", self.name))

    def __repr__(self):
        return f"Atom({self.name!r})"


_SPECIAL_ATOMS = {"nil": None, "true": True, "false": False}


def atom(name: str):
    """The atom called `name`: None/True/False for nil/true/false."""
    if name in _SPECIAL_ATOMS:
        return _SPECIAL_ATOMS[name]
    return Atom(name)


def atom_name(t):
    """The text of an atom term, or None when `t` is not an atom."""
    if t is None:
        return "nil"
    if t is True:
        return "true"
    if t is False:
        return "false"
    if type(t) is Atom:
        return t.name
    return None


class Tuple:
    """An Erlang tuple."""

    __slots__ = ("items",)

    def __init__(self, items):
        self.items = tuple(items)

    def __repr__(self):
        return f"Tuple({list(self.items)!r})"


def binary(data: bytes):
    """A binary term: str when `data` is valid UTF-8, else bytes."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data


def to_bytes(b) -> bytes:
    """The bytes of a binary term."""
    return b.encode("utf-8") if type(b) is str else b


def ekey(t):
    """A hashable value equal for two terms exactly when they are the same
    map key in OTP 25: `=:=`, so 1 and 1.0 differ but 0.0 and -0.0 do not."""
    ty = type(t)
    if ty is str or ty is bytes:
        return t  # a bytes term is never valid UTF-8, so never equals a str
    if t is None or t is True or t is False:
        return ("a", atom_name(t))
    if ty is int:
        return ("i", t)
    if ty is float:
        return ("f", t + 0.0)  # -0.0 + 0.0 == 0.0
    if ty is Atom:
        return ("a", t.name)
    if ty is Tuple:
        return ("t",) + tuple(ekey(x) for x in t.items)
    if ty is list:
        return ("l",) + tuple(ekey(x) for x in t)
    if ty is TMap:
        return ("m", frozenset((ek, ekey(v)) for ek, (_, v) in t.entries.items()))
    raise TypeError(f"not a term: {t!r}")


def term_equal(a, b) -> bool:
    """Erlang's exact equality (`=:=`) on OTP 25."""
    return ekey(a) == ekey(b)


class DuplicateKey(Exception):
    """A map given the same key twice where that is an error."""


class TMap:
    """An immutable Erlang map. `entries` maps ekey(k) to (k, v)."""

    __slots__ = ("entries", "_sorted")

    def __init__(self, entries=None):
        self.entries = entries if entries is not None else {}
        self._sorted = None

    @classmethod
    def strict(cls, pairs):
        """The map of `pairs`; a repeated key raises DuplicateKey."""
        entries = {}
        for k, v in pairs:
            ek = ekey(k)
            if ek in entries:
                raise DuplicateKey(k)
            entries[ek] = (k, v)
        return cls(entries)

    @classmethod
    def from_list(cls, pairs):
        """`:maps.from_list/1`: a later pair wins over an earlier one with the
        same key. Returns (map, whether any key repeated)."""
        entries = {}
        repeated = False
        for k, v in pairs:
            ek = ekey(k)
            if ek in entries:
                repeated = True
            entries[ek] = (k, v)
        return cls(entries), repeated

    def __len__(self):
        return len(self.entries)

    def items(self):
        """The pairs in map key order (how Elixir iterates maps of up to 32
        keys; larger maps iterate in hash order, which this port does not
        reproduce -- callers check `len(m) > 32` where order shows)."""
        if self._sorted is None:
            pairs = list(self.entries.values())
            if all(type(k) is str for k, _ in pairs):
                pairs.sort(key=lambda kv: kv[0])
            else:
                pairs.sort(key=functools.cmp_to_key(lambda a, b: term_cmp(a[0], b[0])))
            self._sorted = pairs
        return self._sorted

    def __repr__(self):
        return f"TMap({self.items()!r})"


# ---------------------------------------------------------------------------
# Map key order: Erlang term order (number < atom < reference < fun < port <
# pid < tuple < map < list < binary), except that in maps every integer sorts
# before every float -- also inside tuples, lists and maps (spec TJ-4).
# ---------------------------------------------------------------------------


def _rank(t) -> int:
    ty = type(t)
    if ty is int or ty is float:
        return 0
    if t is None or ty is bool or ty is Atom:
        return 1
    if ty is Tuple:
        return 6
    if ty is TMap:
        return 7
    if ty is list:
        return 8
    if ty is str or ty is bytes:
        return 9
    raise TypeError(f"not a term: {t!r}")


def _cmp(a, b) -> int:
    return (a > b) - (a < b)


def term_cmp(a, b) -> int:
    """Compare two terms in map key order: -1, 0 or 1."""
    ra, rb = _rank(a), _rank(b)
    if ra != rb:
        return _cmp(ra, rb)
    ta, tb = type(a), type(b)
    if ra == 0:
        if ta is not tb:
            return -1 if ta is int else 1
        return _cmp(a, b)
    if ra == 1:
        return _cmp(atom_name(a), atom_name(b))
    if ra == 9:
        if ta is str and tb is str:
            return _cmp(a, b)  # code point order is UTF-8 byte order
        return _cmp(to_bytes(a), to_bytes(b))
    if ra == 6:
        if len(a.items) != len(b.items):
            return _cmp(len(a.items), len(b.items))
        return _seq_cmp(a.items, b.items)
    if ra == 8:
        return _seq_cmp(a, b)
    # maps: size, then the keys in key order, then the values in that order
    if len(a) != len(b):
        return _cmp(len(a), len(b))
    ia, ib = a.items(), b.items()
    c = _seq_cmp([k for k, _ in ia], [k for k, _ in ib])
    if c:
        return c
    return _seq_cmp([v for _, v in ia], [v for _, v in ib])


def _seq_cmp(xs, ys) -> int:
    for x, y in zip(xs, ys, strict=False):
        c = term_cmp(x, y)
        if c:
            return c
    return _cmp(len(xs), len(ys))


# ---------------------------------------------------------------------------
# Float texts
# ---------------------------------------------------------------------------


def _shortest_digits(x: float):
    """(digits, place) with abs(x) == 0.<digits> * 10**place, digits the
    shortest that read back to x (no leading or trailing zeros). x != 0."""
    r = repr(abs(x))
    mant, _, exp = r.partition("e")
    exp = int(exp) if exp else 0
    whole, _, frac = mant.partition(".")
    digits = whole + frac
    place = len(whole) + exp
    stripped = digits.lstrip("0")
    place -= len(digits) - len(stripped)
    return stripped.rstrip("0"), place


def short_float(x: float) -> str:
    """`:erlang.float_to_binary(x, [:short])`, which is `Float.to_string/1`
    (OTP 25): the shortest digits that read back to x, written plain or with
    an exponent, whichever is shorter (plain on a tie) -- but always with an
    exponent from 2**53 up: 1.0, 100.0, 1.0e3, 1234.0, 1.234e5, 0.0001,
    1.2e-4, 1.0e-5, -0.0, 9007199254740991.0, 9.007199254740992e15."""
    if x == 0.0:
        return "-0.0" if math.copysign(1.0, x) < 0 else "0.0"
    digits, place = _shortest_digits(x)
    sign = "-" if x < 0 else ""
    sci = f"{digits[0]}.{digits[1:] or '0'}e{place - 1}"
    if abs(x) >= 9007199254740992.0:
        return sign + sci
    if place <= 0:
        plain = f"0.{'0' * -place}{digits}"
    elif place >= len(digits):
        plain = f"{digits}{'0' * (place - len(digits))}.0"
    else:
        plain = f"{digits[:place]}.{digits[place:]}"
    return sign + (plain if len(plain) <= len(sci) else sci)


def _c_round(x: float) -> float:
    """C's round(): halfway cases away from zero (x >= 0 here)."""
    r = math.floor(x)
    return r + 1.0 if x - r >= 0.5 else r


def compact_float(f: float, decimals: int = 10) -> str:
    """`:erlang.float_to_binary(f, [:compact, decimals: 10])` as OTP 25 does
    it: the fraction is scaled by 10**decimals in double arithmetic and
    rounded half away from zero, then trailing zeros go (one stays)."""
    neg = math.copysign(1.0, f) < 0  # the sign bit: -0.0 and -1.0e-11 give "-0.0"
    af = -f if neg else f
    if af > float(1 << 53):
        text = f"{f:.{decimals}f}"
        if len(text) >= 256:  # OTP's buffer: the BIF fails with badarg
            raise Raised(
                "ArgumentError",
                "errors were found at the given arguments:\n\n"
                "  * 2nd argument: invalid option in list\n",
            )
    else:
        int_f = math.floor(af)
        scale = 10.0**decimals
        frac_f = _c_round((af - int_f) * scale)
        int_part, frac_part = int(int_f), int(frac_f)
        if frac_f >= scale:
            int_part, frac_part = int_part + 1, 0
        text = f"{'-' if neg else ''}{int_part}.{frac_part:0{decimals}d}"
    stripped = text.rstrip("0")
    return stripped + "0" if stripped.endswith(".") else stripped


# ---------------------------------------------------------------------------
# Tagged term JSON (spec/terms.md)
# ---------------------------------------------------------------------------

MAX_SAFE_INT = (1 << 53) - 1
MAX_DEPTH = 128
_INT_RE = re.compile(r"-?[0-9]+\Z")
_SURROGATE_RE = re.compile("[\ud800-\udfff]")
_UNSUPPORTED_TAGS = {
    "$date": "temporal",
    "$time": "temporal",
    "$datetime": "temporal",
    "$naive_datetime": "temporal",
    "$struct": "structs",
    "$fn": "functions",
    "$ref": "opaque",
    "$pid": "opaque",
    "$port": "opaque",
}


_KNOWN_TAGS = {"$int", "$float", "$bytes", "$atom", "$tuple", "$kw", "$map"} | set(
    _UNSUPPORTED_TAGS
)


class JObj:
    """A JSON object as parsed: its (key, value) pairs in order."""

    __slots__ = ("pairs",)

    def __init__(self, pairs):
        self.pairs = pairs


class RawFloat:
    """A JSON number with a fraction or exponent, as written."""

    __slots__ = ("text",)

    def __init__(self, text):
        self.text = text


def _no_constant(name):
    raise ValueError(f"{name} is not JSON")


def parse_json(text):
    """JSON text to plain data, with objects as JObj and non-integers as
    RawFloat so that tags, duplicates and bare floats stay visible."""
    return json.loads(
        text, object_pairs_hook=JObj, parse_float=RawFloat, parse_constant=_no_constant
    )


class DecodeError(Exception):
    """A value that is not tagged term JSON; the text names the path."""


class NotCarried(Exception):
    """A well-formed term this port does not carry (structs, functions...)."""


def _pointer(path, key):
    return f"{path}/{str(key).replace('~', '~0').replace('/', '~1')}"


def _check_str(s, path):
    if _SURROGATE_RE.search(s):
        raise DecodeError(f"{path}: string holds a lone surrogate")
    return s


def decode(v, path="", depth=0):
    """Tagged term JSON (parsed by parse_json) to a term."""
    if v is None or v is True or v is False:
        return v
    ty = type(v)
    if ty is int:
        return v
    if ty is str:
        return _check_str(v, path)
    if ty is RawFloat:
        raise DecodeError(
            f'{path}: bare number {v.text} is not a term: floats are written {{"$float": {v.text}}}'
        )
    if depth >= MAX_DEPTH:
        raise DecodeError(f"{path}: nested deeper than {MAX_DEPTH} arrays and objects")
    if ty is list:
        return [decode(x, _pointer(path, i), depth + 1) for i, x in enumerate(v)]
    pairs = v.pairs
    if pairs and pairs[0][0].startswith("$"):
        if len(pairs) != 1:
            raise DecodeError(f"{path}: a tag object has exactly one key, got {len(pairs)}")
        tag, value = pairs[0]
        if tag not in _KNOWN_TAGS:
            raise DecodeError(f"{path}: unknown tag {json.dumps(tag, ensure_ascii=False)}")
        return _decode_tag(tag, value, _pointer(path, tag), depth + 1)
    out = []
    seen = set()
    for key, value in pairs:
        _check_str(key, path)
        if key.startswith("$"):
            raise DecodeError(f"{path}: key {key!r} starts with $ in a plain object (use $map)")
        if key in seen:
            raise DecodeError(f"{path}: duplicate key {key!r}")
        seen.add(key)
        out.append((key, decode(value, _pointer(path, key), depth + 1)))
    return TMap({k: (k, val) for k, val in out})


def _decode_tag(tag, value, path, depth):
    ty = type(value)
    if tag == "$int":
        if ty is str and _INT_RE.match(value):
            return int(value)
        raise DecodeError(f"{path}: $int holds -?[0-9]+ as a string")
    if tag == "$float":
        if ty is RawFloat:
            x = float(value.text)
        elif ty is int:
            try:
                x = float(value)
            except OverflowError:
                x = math.inf
        else:
            raise DecodeError(f"{path}: $float holds a JSON number")
        if not math.isfinite(x):
            raise DecodeError(f"{path}: $float is out of the finite range")
        return x
    if tag == "$bytes":
        if ty is str:
            try:
                return binary(base64.b64decode(value, validate=True))
            except (binascii.Error, ValueError):
                pass
        raise DecodeError(f"{path}: $bytes holds padded standard base64")
    if tag == "$atom":
        if ty is not str:
            raise DecodeError(f"{path}: $atom holds a string")
        _check_str(value, path)
        if len(value) > 255:
            # String.to_atom/1 raises SystemLimitError: no such term exists.
            raise DecodeError(f"{path}: an atom has at most 255 characters")
        return atom(value)
    if tag == "$tuple":
        if ty is not list:
            raise DecodeError(f"{path}: $tuple holds an array")
        return Tuple(decode(x, _pointer(path, i), depth + 1) for i, x in enumerate(value))
    if tag == "$kw":
        if ty is not list:
            raise DecodeError(f"{path}: $kw holds an array of [key, value] pairs")
        out = []
        for i, entry in enumerate(value):
            p = _pointer(path, i)
            if type(entry) is not list or len(entry) != 2 or type(entry[0]) is not str:
                raise DecodeError(f'{p}: a $kw entry is ["key", value]')
            name = _check_str(entry[0], p)
            if len(name) > 255:
                raise DecodeError(f"{p}: an atom has at most 255 characters")
            out.append(Tuple((atom(name), decode(entry[1], _pointer(p, 1), depth + 2))))
        return out
    if tag == "$map":
        if ty is not list:
            raise DecodeError(f"{path}: $map holds an array of [key, value] pairs")
        pairs = []
        for i, entry in enumerate(value):
            p = _pointer(path, i)
            if type(entry) is not list or len(entry) != 2:
                raise DecodeError(f"{p}: a $map entry is [key, value]")
            pairs.append(
                (
                    decode(entry[0], _pointer(p, 0), depth + 2),
                    decode(entry[1], _pointer(p, 1), depth + 2),
                )
            )
        try:
            return TMap.strict(pairs)
        except DuplicateKey as e:
            raise DecodeError(f"{path}: duplicate key {encode(e.args[0])}") from None
    raise NotCarried(
        f"{path}: {tag} needs feature {_UNSUPPORTED_TAGS[tag]!r}, which this port does not carry"
    )


_JSON_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\b": "\\b",
    "\f": "\\f",
}
_JSON_ESCAPE_RE = re.compile(r'["\\\x00-\x1f]')


def _json_escape(m):
    c = m.group(0)
    return _JSON_ESCAPES.get(c) or f"\\u{ord(c):04x}"


def json_str(s: str) -> str:
    """A JSON string literal: only `"`, `\\` and control characters escaped."""
    return '"' + _JSON_ESCAPE_RE.sub(_json_escape, s) + '"'


def _kw_pair(t):
    return type(t) is Tuple and len(t.items) == 2 and atom_name(t.items[0]) is not None


def encode(t) -> str:
    """A term as canonical tagged term JSON (spec TJ-5)."""
    out = []
    _encode(t, out)
    return "".join(out)


def _encode(t, out):
    ty = type(t)
    if ty is str:
        out.append(json_str(t))
    elif t is None:
        out.append("null")
    elif t is True:
        out.append("true")
    elif t is False:
        out.append("false")
    elif ty is int:
        out.append(str(t) if -MAX_SAFE_INT <= t <= MAX_SAFE_INT else f'{{"$int":"{t}"}}')
    elif ty is float:
        out.append(f'{{"$float":{short_float(t)}}}')
    elif ty is bytes:
        out.append(f'{{"$bytes":"{base64.b64encode(t).decode("ascii")}"}}')
    elif ty is Atom:
        out.append(f'{{"$atom":{json_str(t.name)}}}')
    elif ty is list:
        if t and all(_kw_pair(x) for x in t):
            out.append('{"$kw":[')
            for i, x in enumerate(t):
                out.append(",[" if i else "[")
                out.append(json_str(atom_name(x.items[0])))
                out.append(",")
                _encode(x.items[1], out)
                out.append("]")
            out.append("]}")
        else:
            _encode_seq(t, out)
    elif ty is Tuple:
        out.append('{"$tuple":')
        _encode_seq(t.items, out)
        out.append("}")
    elif ty is TMap:
        pairs = t.items()
        if all(type(k) is str and not k.startswith("$") for k, _ in pairs):
            out.append("{")
            for i, (k, v) in enumerate(pairs):
                if i:
                    out.append(",")
                out.append(json_str(k))
                out.append(":")
                _encode(v, out)
            out.append("}")
        else:
            out.append('{"$map":[')
            for i, (k, v) in enumerate(pairs):
                out.append(",[" if i else "[")
                _encode(k, out)
                out.append(",")
                _encode(v, out)
                out.append("]")
            out.append("]}")
    else:
        raise TypeError(f"not a term: {t!r}")


def _encode_seq(items, out):
    out.append("[")
    for i, x in enumerate(items):
        if i:
            out.append(",")
        _encode(x, out)
    out.append("]")


# ---------------------------------------------------------------------------
# Exceptions, as the Elixir classes they stand for
# ---------------------------------------------------------------------------


class Raised(Exception):
    """An Elixir exception: its module name (without `Elixir.`) and message."""

    def __init__(self, cls: str, message: str):
        super().__init__(cls, message)
        self.cls = cls
        self.message = message


class Unsupported(Exception):
    """An input whose answer depends on something this port does not model
    (Erlang's hash order of maps with more than 32 keys)."""


def function_clause(module: str, fun: str, arity: int) -> Raised:
    return Raised(
        "FunctionClauseError",
        f"no function clause matching in {module}.{fun}/{arity}",
    )


# ---------------------------------------------------------------------------
# Elixir's inspect/2 (1.18, default options) for the terms this port
# carries, with the Inspect.Algebra pretty printer: only what the messages
# of ArgumentError, UnicodeConversionError and Protocol.UndefinedError need.
#
# Documents: a str (measured in UTF-8 bytes, as Elixir measures binaries),
# None (empty), ("c", a, b) concat, ("n", doc, indent) nest,
# ("b", text, flex?) break, ("g", doc) group.
# ---------------------------------------------------------------------------

INSPECT_LIMIT = 50
PRINTABLE_LIMIT = 4096
_FLAT, _BREAK = 0, 1
_FIT, _NO_FIT = 0, 1


def _concat(a, b):
    return ("c", a, b)


def _glue(a, text, b, flex=False):
    return ("c", a, ("c", ("b", text, flex), b))


def _group(d):
    return ("g", d)


def _nest(d, n):
    return ("n", d, n) if n else d


def _blen(s: str) -> int:
    return len(s) if s.isascii() else len(s.encode("utf-8"))


def _simple(d) -> bool:
    if d is None or type(d) is str:
        return True
    return d[0] == "c" and _simple(d[1]) and _simple(d[2])


def _container_doc(left, items, right, limit, fun, breaking="maybe"):
    """Inspect.Algebra.container_doc/6 with separator ","."""
    if not items:
        return _concat(left, right)
    simple = breaking == "maybe"
    docs = []
    for term in items:
        if limit == 0:
            docs.append("...")
            break
        limit -= 1
        doc = fun(term, limit)
        if doc is None:
            limit += 1
        docs.append(doc)
        simple = simple and _simple(doc)
    flex = simple or breaking == "flex"

    def join(a, b):
        if a is None:
            return b
        if b is None:
            return a
        return _glue(_concat(a, ","), " ", b, flex)

    doc = docs[-1]
    for d in reversed(docs[:-1]):
        doc = join(d, doc)
    if flex:
        return _group(_concat(_concat(left, _nest(doc, 1)), right))
    return _group(_glue(_nest(_glue(left, "", doc), 2), "", right))


def _fits(width, k, b, local, outer):
    """Inspect.Algebra's fits/4 over `local` (a stack) and then `outer` (the
    formatter's remaining stack, read without consuming it)."""
    oi = len(outer) - 1
    while True:
        if b and k > width:
            return _NO_FIT
        if local:
            entry = local.pop()
        elif oi >= 0:
            entry = outer[oi]
            oi -= 1
        else:
            return _FIT
        if entry[0] == "tail":
            b = entry[1]
            continue
        i, m, d = entry
        if d is None:
            continue
        if type(d) is str:
            k += _blen(d)
            continue
        tag = d[0]
        if tag == "b":
            if m == _BREAK:
                return _FIT
            k += _blen(d[1])
            b = True
        elif tag == "g":
            local.append(("tail", b))
            local.append((i, _FLAT, d[1]))
        elif tag == "c":
            local.append((i, m, d[2]))
            local.append((i, m, d[1]))
        else:  # nest
            local.append((i + d[2], m, d[1]))


def render_doc(doc, width=None) -> str:
    """Inspect.Algebra.format/2; width None is :infinity."""
    out = []
    k = 0
    stack = [(0, _FLAT, doc)]
    while stack:
        i, m, d = stack.pop()
        if d is None:
            continue
        if type(d) is str:
            out.append(d)
            k += _blen(d)
            continue
        tag = d[0]
        if tag == "c":
            stack.append((i, m, d[2]))
            stack.append((i, m, d[1]))
        elif tag == "n":
            stack.append((i + d[2], m, d[1]))
        elif tag == "g":
            if width is None or _fits(width, k, False, [(i, _FLAT, d[1])], []) == _FIT:
                stack.append((i, _FLAT, d[1]))
            else:
                stack.append((i, _BREAK, d[1]))
        elif d[2]:  # flex break
            k += _blen(d[1])
            if width is None or m == _FLAT or _fits(width, k, True, [], stack) != _NO_FIT:
                out.append(d[1])
            else:
                out.append("\n" + " " * i)
                k = i
        elif m == _BREAK:
            out.append("\n" + " " * i)
            k = i
        else:
            out.append(d[1])
            k += _blen(d[1])
    return "".join(out)


def inspect(t, pretty=False) -> str:
    """Kernel.inspect/2 with default options (limit 50, printable_limit
    4096), or pretty: true (width 80)."""
    return render_doc(_group(to_doc(t, INSPECT_LIMIT)), 80 if pretty else None)


def to_doc(t, limit):
    ty = type(t)
    if t is None or t is True or t is False:
        return atom_name(t)
    if ty is int:
        return str(t)
    if ty is float:
        a = abs(t)
        if 1.0 <= a < 1.0e16 and t.is_integer():
            return f"{int(t)}.0"
        return short_float(t)
    if ty is Atom:
        return inspect_atom(t.name)
    if ty is str or ty is bytes:
        return _inspect_binary(t, limit)
    if ty is list:
        return _inspect_list(t, limit)
    if ty is Tuple:
        return _container_doc("{", list(t.items), "}", limit, to_doc, "flex")
    if ty is TMap:
        if len(t) > 32:
            raise Unsupported("inspecting a map of more than 32 keys shows Erlang's hash order")
        pairs = [Tuple(kv) for kv in t.items()]
        fun = _kw_doc if _keyword(pairs) else _assoc_doc
        return _container_doc("%{", pairs, "}", limit, fun, "strict")
    raise TypeError(f"not a term: {t!r}")


def _assoc_doc(pair, limit):
    k, v = pair.items
    return _concat(_concat(to_doc(k, limit), " => "), to_doc(v, limit))


def _kw_doc(pair, limit):
    k, v = pair.items
    return _concat(inspect_atom(atom_name(k), key=True), _concat(" ", to_doc(v, limit)))


def _keyword(items) -> bool:
    """Inspect.List.keyword?/1."""
    return all(_kw_pair(x) and not atom_name(x.items[0]).startswith("Elixir.") for x in items)


def _printable(s: str, limit=PRINTABLE_LIMIT) -> bool:
    """String.printable?/2."""
    for i, c in enumerate(s):
        if i == limit:
            return True
        o = ord(c)
        if not (
            0x20 <= o <= 0x7E
            or c in "\n\r\t\v\b\f\x1b\x7f\x07"
            or 0xA0 <= o <= 0xD7FF
            or 0xE000 <= o <= 0xFFFD
            or 0x10000 <= o <= 0x10FFFF
        ):
            return False
    return True


_ESCAPE_MAP = {
    "\x07": "\\a",
    "\b": "\\b",
    "\x7f": "\\d",
    "\x1b": "\\e",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\v": "\\v",
    "\\": "\\\\",
}
_UNICODE_ESCAPED = (
    {
        0xFEFF,
        0x061C,
        0x200E,
        0x200F,
        0x200C,
        0x200D,
        0x034F,
        0x00A0,
        0x200B,
        0x2060,
        0x2028,
        0x2029,
        0x205F,
    }
    | set(range(0x2061, 0x2065))
    | set(range(0x202A, 0x202F))
    | set(range(0x2066, 0x206A))
    | set(range(0xFFF9, 0xFFFD))
    | set(range(0x2000, 0x200B))
)


def _escape_char(c: str) -> str:
    o = ord(c)
    if o == 0:
        return "\\0"
    if o in _UNICODE_ESCAPED:
        return f"\\u{o:04X}"
    if (
        0x20 <= o <= 0x7E
        or 0xA0 <= o <= 0xD7FF
        or 0xE000 <= o <= 0xFFFD
        or 0x10000 <= o <= 0x10FFFF
    ):
        return c
    if o < 0x100:
        return f"\\x{o:02X}"
    if o < 0x10000:
        return f"\\x{{{o:04X}}}"
    return f"\\x{{{o:06X}}}"


def escape(s: str, quote: str, limit=None):
    """Code.Identifier.escape/3 on valid UTF-8: (escaped, anything left?)."""
    out = []
    count = limit
    i, n = 0, len(s)
    while i < n:
        if count == 0:
            return "".join(out), True
        c = s[i]
        if c == quote:
            out.append("\\" + c)
            i += 1
        elif c == "#" and i + 1 < n and s[i + 1] == "{":
            out.append("\\#{")
            i += 2
        else:
            out.append(_ESCAPE_MAP.get(c) or _escape_char(c))
            i += 1
        if count is not None:
            count -= 1
    return "".join(out), False


def _inspect_binary(b, limit):
    if type(b) is str and _printable(b):
        escaped, more = escape(b, '"', PRINTABLE_LIMIT)
        return f'"{escaped}"' + (" <> ..." if more else "")
    data = to_bytes(b)
    if not data:
        return "<<>>"
    parts = []
    counter = limit
    i = 0
    while True:
        if counter == 0:
            tail = "..."
            break
        if i == len(data) - 1:
            tail = str(data[i])
            break
        parts.append(f"{data[i]},")
        i += 1
        counter -= 1
    doc = tail
    for p in reversed(parts):
        doc = _glue(p, " ", doc, True)
    return _group(_concat(_concat("<<", _nest(doc, 2)), ">>"))


def _inspect_list(lst, limit):
    if not lst:
        return "[]"
    if _ascii_printable(lst):
        if len(lst) > PRINTABLE_LIMIT:
            raise Unsupported("inspecting a charlist longer than 4096 elements")
        escaped, more = escape("".join(map(chr, lst)), '"', PRINTABLE_LIMIT)
        return f'~c"{escaped}"' + (" ++ ..." if more else "")
    if _keyword(lst):
        return _container_doc("[", lst, "]", limit, _kw_doc, "strict")
    return _container_doc("[", lst, "]", limit, to_doc)


def _ascii_printable(lst, limit=PRINTABLE_LIMIT) -> bool:
    """List.ascii_printable?/2."""
    for i, c in enumerate(lst):
        if i == limit:
            return True
        if type(c) is not int or not (7 <= c <= 13 or c == 27 or 32 <= c <= 126):
            return False
    return True


# Macro.inspect_atom/2 and the atom classification behind it.
_NOT_CALLABLE = {"%", "%{}", "{}", "<<>>", "...", "..", ".", "..//", "->"}
_QUOTED_OPERATORS = {"::", "^^^", "~~~", "<|>"}
_UNARY_OPERATORS = {"&", "...", "!", "^", "not", "+", "-", "~~~", "@"}
_BINARY_OPERATORS = {
    *("<-", "\\\\", "when", "::", "|", "=", "||", "|||", "or", "&&", "&&&", "and"),
    *("==", "!=", "=~", "===", "!==", "<", "<=", ">=", ">", "|>", "<<<", ">>>"),
    *("<~", "~>", "<<~", "~>>", "<~>", "<|>", "in", "^^^", "++", "--", "..", "<>"),
    *("+++", "---", "+", "-", "*", "/", "**", "."),
}
_ALIAS_RE = re.compile(r"Elixir(\.[A-Z][A-Za-z0-9_]*)*\Z")


def _ascii_letter(c):
    return "a" <= c <= "z" or "A" <= c <= "Z"


# Non-ASCII atom names: Elixir classifies them with Unicode tables
# (identifier types, scripts) this port does not carry. It classifies
# exactly only letters from a few blocks whose script and status it knows
# (all "Recommended" identifier characters); an atom with any other
# non-ASCII character is `unsupported` when it has to be inspected.
_RESTRICTED_LATIN = {0x132, 0x133, 0x13F, 0x140, 0x149, 0x17F}
_SCRIPT_RANGES = (
    (0x00C0, 0x00D6, "Latin"),
    (0x00D8, 0x00F6, "Latin"),
    (0x00F8, 0x017F, "Latin"),
    (0x0386, 0x0386, "Greek"),
    (0x0388, 0x038A, "Greek"),
    (0x038C, 0x038C, "Greek"),
    (0x038E, 0x03A1, "Greek"),
    (0x03A3, 0x03CE, "Greek"),
    (0x0401, 0x0401, "Cyrillic"),
    (0x0410, 0x044F, "Cyrillic"),
    (0x0451, 0x0451, "Cyrillic"),
    (0x3041, 0x3093, "Hiragana"),
    (0x30A1, 0x30F6, "Katakana"),
    (0x4E00, 0x9FFF, "Han"),
    (0xAC00, 0xD7A3, "Hangul"),
)
# Script sets as Elixir augments them: Han goes with Hiragana and Katakana
# (Japanese) and with Hangul (Korean).
_SCRIPT_SETS = {
    "Latin": {"Latin"},
    "Greek": {"Greek"},
    "Cyrillic": {"Cyrillic"},
    "Han": {"Han", "Japanese", "Korean", "Han with Bopomofo"},
    "Hiragana": {"Hiragana", "Japanese"},
    "Katakana": {"Katakana", "Japanese"},
    "Hangul": {"Hangul", "Korean"},
}


def _letter_script(c):
    """The script of a letter this port can classify, else None."""
    o = ord(c)
    if o in _RESTRICTED_LATIN:
        return None
    for lo, hi, script in _SCRIPT_RANGES:
        if lo <= o <= hi:
            return script
    return None


def _tokenize(s):
    """String.Tokenizer.tokenize/1 on an atom's text: (kind, special) when
    the whole text is one identifier token, else None. `special` holds
    "at" for an @ inside."""
    if not s:
        return None
    for c in s:
        if ord(c) > 127 and _letter_script(c) is None:
            raise Unsupported(
                f"inspecting the atom {s!r}: its character {c!r} needs Unicode identifier "
                "tables this port does not carry"
            )
    c0 = s[0]
    if "A" <= c0 <= "Z":
        kind = "alias"
    elif "a" <= c0 <= "z" or c0 == "_":
        kind = "identifier"
    elif ord(c0) > 127:
        kind = "atom" if unicodedata.category(c0) in ("Lu", "Lt") else "identifier"
    else:
        return None
    at = False
    i, n = 1, len(s)
    while i < n:
        c = s[i]
        if c in "?!":
            i += 1
            break
        if c == "@":
            at = True
        elif not (_ascii_letter(c) or "0" <= c <= "9" or c == "_" or ord(c) > 127):
            return None
        i += 1
    if i < n:
        return None
    if not s.isascii():
        # One script (set) for the whole name, or for each "_"-separated chunk.
        def single(chunk):
            sets = [
                {"Latin"} if _ascii_letter(c) else _SCRIPT_SETS[_letter_script(c)]
                for c in chunk
                if _ascii_letter(c) or ord(c) > 127
            ]
            return not sets or bool(set.intersection(*sets))

        if not single(s) and not all(single(chunk) for chunk in s.split("_")):
            return None
    return kind, at


def classify_atom(name: str) -> str:
    """Macro.classify_atom/1 (plus "identifier"): alias, identifier,
    unquoted or quoted."""
    if name in _NOT_CALLABLE:
        return "unquoted"
    if name in _QUOTED_OPERATORS:
        return "quoted"
    if name in _UNARY_OPERATORS or (name in _BINARY_OPERATORS and name != "//"):
        return "unquoted"
    if _ALIAS_RE.match(name):
        return "alias"
    tok = _tokenize(name)
    if tok is None:
        return "quoted"
    kind, at = tok
    return "unquoted" if kind != "identifier" or at else "identifier"


def inspect_atom(name: str, key=False) -> str:
    """Macro.inspect_atom(:literal | :key, atom)."""
    if not key and name in _SPECIAL_ATOMS:
        return name
    kind = classify_atom(name)
    if kind == "alias":
        if key:
            return f'"{name}":'
        return (
            name
            if name in ("Elixir", "Elixir.Elixir") or name.startswith("Elixir.Elixir.")
            else name[7:]
        )
    if kind == "quoted":
        escaped, _ = escape(name, '"')
        return f'"{escaped}":' if key else f':"{escaped}"'
    return f"{name}:" if key else f":{name}"


# ---------------------------------------------------------------------------
# String.Chars.to_string/1 on map keys, and chardata conversion the way
# OTP 25's unicode:characters_to_binary/1 does it (List.to_string/1).
# ---------------------------------------------------------------------------

_STRING_CHARS_IMPLS = (
    "Atom, BitString, Date, DateTime, Float, Integer, List, NaiveDateTime, "
    "PtcRunner.Lisp.Format.Builtin, PtcRunner.Lisp.Format.Fn, "
    "PtcRunner.Lisp.Format.RegexLiteral, PtcRunner.Lisp.Format.SymbolRef, "
    "PtcRunner.Lisp.Format.Var, Time, URI, Version, Version.Requirement"
)

_LIST_TO_STRING_MESSAGE = """cannot convert the given list to a string.

To be converted to a string, a list must either be empty or only
contain the following elements:

  * strings
  * integers representing Unicode code points
  * a list containing one of these three elements

Please check the given list or call inspect/1 to get the list representation, got:

"""


def protocol_undefined(protocol: str, type_name: str, value) -> Raised:
    """Protocol.UndefinedError for a protocol consolidated as in the
    reference build (the list of implementations is that build's)."""
    inspected = re.sub(r"(?m)^(?=.)", "    ", inspect(value, pretty=True))
    return Raised(
        "Protocol.UndefinedError",
        f"protocol {protocol} not implemented for type {type_name}. This protocol is "
        f"implemented for the following type(s): {_STRING_CHARS_IMPLS}"
        f"\n\nGot value:\n\n{inspected}\n",
    )


def to_string(t):
    """String.Chars.to_string/1 for the terms this port carries."""
    ty = type(t)
    if ty is str or ty is bytes:
        return t
    if ty is int:
        return str(t)
    if ty is float:
        return short_float(t)
    name = atom_name(t)
    if name is not None:
        return name
    if ty is list:
        return list_to_string(t)
    if ty is Tuple:
        raise protocol_undefined("String.Chars", "Tuple", t)
    if ty is TMap:
        raise protocol_undefined("String.Chars", "Map", t)
    raise TypeError(f"not a term: {t!r}")


_SMALL_MIN, _SMALL_MAX = -(1 << 59), (1 << 59) - 1  # OTP's immediate integers


def _chardata_types_ok(t) -> bool:
    """The BIF's first pass: every element an integer, a binary or a list
    (else badarg). It stops, content, at the first integer too big to be an
    immediate: such an integer is reported later as an invalid code point,
    and whatever follows it is never looked at."""
    for x in _flatten(t):
        ty = type(x)
        if ty is int:
            if not _SMALL_MIN <= x <= _SMALL_MAX:
                return True
        elif ty is not str and ty is not bytes:
            return False
    return True


def _utf8_len(lead: int) -> int:
    if lead < 0x80:
        return 1
    if lead & 0xE0 == 0xC0:
        return 2
    if lead & 0xF0 == 0xE0:
        return 3
    if lead & 0xF8 == 0xF0:
        return 4
    return -1


def _cont(byte: int) -> bool:
    return byte & 0xC0 == 0x80


def _utf8_error_at(src: bytes, pos: int, partial_ok: bool):
    """Where the UTF-8 in src[pos:] first goes wrong, as the C BIF checks
    it: (offset of the bad sequence, None) or, when `partial_ok` and src
    ends inside a sequence, (offset where it starts, "partial")."""
    n = len(src)
    while pos < n:
        c = src[pos]
        need = _utf8_len(c)
        if need == 1:
            pos += 1
            continue
        if need < 0:
            return pos, None
        if n - pos < need:
            return pos, ("partial" if partial_ok else None)
        s1 = src[pos + 1]
        ok = all(_cont(src[pos + j]) for j in range(1, need))
        if need == 2:
            ok = ok and c >= 0xC2
        elif need == 3:
            ok = ok and not (c == 0xE0 and s1 < 0xA0) and not (c & 0xF == 0xD and s1 & 0x20)
        else:
            ok = ok and not (c == 0xF0 and s1 < 0x90)
            ok = ok and not (c & 7 > 4 or (c & 7 == 4 and s1 & 0x3F > 0xF))
        if not ok:
            return pos, None
        pos += need
    return None, None


def _check_leftovers(src: bytes) -> bool:
    """True when leftover bytes at the end read as an incomplete sequence."""
    c, n = src[0], len(src)
    if c & 0xE0 == 0xC0:
        return True
    if c & 0xF0 == 0xE0:
        return n < 2 or (n < 3 and _cont(src[1]))
    if c & 0xF8 == 0xF0:
        return n < 2 or (n < 3 and _cont(src[1])) or (n < 4 and _cont(src[1]) and _cont(src[2]))
    return False


def _flatten(t):
    stack = [iter(t)]
    while stack:
        for x in stack[-1]:
            if type(x) is list:
                stack.append(iter(x))
                break
            yield x
        else:
            stack.pop()


def _bad_encoding(kind: str, rest: bytes) -> Raised:
    return Raised("UnicodeConversionError", f"{kind} encoding starting at {inspect(rest)}")


def list_to_string(lst):
    """List.to_string/1: chardata to a binary, raising ArgumentError on
    elements that are not chardata and UnicodeConversionError on invalid
    or incomplete text, with the `rest` OTP 25 reports: a sequence split
    across binaries is joined from the bytes that follow it."""
    if not _chardata_types_ok(lst):
        raise Raised("ArgumentError", _LIST_TO_STRING_MESSAGE + inspect(lst) + "\n")
    out = bytearray()
    leftover = b""
    for x in _flatten(lst):
        if type(x) is int:
            if leftover:
                raise _bad_encoding("invalid", leftover)
            if x < 0 or x > 0x10FFFF or 0xD800 <= x <= 0xDFFF:
                raise Raised("UnicodeConversionError", f"invalid code point {x}")
            out += chr(x).encode("utf-8")
            continue
        src = to_bytes(x)
        pos = 0
        if leftover:
            need = _utf8_len(leftover[0])
            take = need - len(leftover)
            if len(src) < take:
                leftover += src
                continue
            seq = leftover + src[:take]
            if _utf8_error_at(seq, 0, False)[0] is not None:
                raise _bad_encoding("invalid", leftover)
            out += seq
            leftover = b""
            pos = take
        err, partial = _utf8_error_at(src, pos, True)
        if err is None:
            out += src[pos:]
        elif partial:
            out += src[pos:err]
            leftover = src[err:]
        else:
            raise _bad_encoding("invalid", src[err:])
    if leftover:
        raise _bad_encoding("incomplete" if _check_leftovers(leftover) else "invalid", leftover)
    return binary(bytes(out))


# ---------------------------------------------------------------------------
# PtcRunner.SubAgent.KeyNormalizer
# ---------------------------------------------------------------------------

KEY_NORMALIZER = "PtcRunner.SubAgent.KeyNormalizer"
NATIVE_PREVIEW = "PtcRunner.SubAgent.Loop.NativePreview"


def normalize_key(k):
    """Atoms become strings; hyphens become underscores in atoms and
    binaries; any other key is returned as it is."""
    name = atom_name(k)
    if name is not None:
        return name.replace("-", "_")
    ty = type(k)
    if ty is str:
        return k.replace("-", "_")
    if ty is bytes:
        return k.replace(b"-", b"_")
    return k


def _map_new(m, fun):
    """Map.new(m, fun): pairs mapped in m's iteration order, a later pair
    winning over an earlier one with the same key."""
    out, repeated = TMap.from_list(fun(k, v) for k, v in m.items())
    if repeated and len(m) > 32:
        raise Unsupported(
            "keys that collide after normalization in a map of more than 32 keys: "
            "which one wins follows Erlang's hash order"
        )
    return out


def normalize_keys(t):
    """normalize_key/1 on the keys of every map, through maps and lists
    (not tuples); other terms are returned as they are."""
    ty = type(t)
    if ty is TMap:
        return _map_new(t, lambda k, v: (normalize_key(k), normalize_keys(v)))
    if ty is list:
        return [normalize_keys(x) for x in t]
    return t


def canonical_cache_key(tool_name, args):
    """{tool_name, canonical args} for a map; {tool_name, {:non_map, args}}
    for anything else; a non-binary name matches no clause."""
    if type(tool_name) not in (str, bytes):
        raise function_clause(KEY_NORMALIZER, "canonical_cache_key", 2)
    if type(args) is TMap:
        return Tuple((tool_name, _canonicalize(args)))
    return Tuple((tool_name, Tuple((Atom("non_map"), args))))


def _canonicalize(t):
    ty = type(t)
    if ty is TMap:
        return _map_new(t, lambda k, v: (_stringify_key(k), _canonicalize(v)))
    if ty is list:
        return [_canonicalize(x) for x in t]
    if ty is Tuple:
        return [_canonicalize(x) for x in t.items]
    if ty is float and t.is_integer():  # trunc(t) == t
        if "neg-zero" in BUG and t == 0.0 and math.copysign(1.0, t) < 0:
            return t
        if "big-float" in BUG and abs(t) >= 2.0**63:
            return t
        return int(t)
    return t


def _stringify_key(k):
    if type(k) in (str, bytes) or atom_name(k) is not None:
        return normalize_key(k)
    return k


# ---------------------------------------------------------------------------
# PtcRunner.SubAgent.Loop.NativePreview.cache_hint/2 and the parts of
# PtcRunner.Lisp.Formatter it uses
# ---------------------------------------------------------------------------


def cache_hint(tool_name, args):
    """The hint naming the PTC-Lisp call that reads a cached result."""
    if type(tool_name) not in (str, bytes) or type(args) is not TMap:
        raise function_clause(NATIVE_PREVIEW, "cache_hint", 2)
    _, canonical = canonical_cache_key(tool_name, args).items
    parts = ["Call lisp_eval and then call (tool/", tool_name, " "]
    _format_ast(canonical, parts)
    parts.append(") to process the full cached result.")
    if any(type(p) is bytes for p in parts):
        return binary(b"".join(to_bytes(p) for p in parts))
    return "".join(parts)


def _format_ast(t, out):
    """Formatter.format(to_ast(t)) appended to `out` (str and bytes parts).
    Map keys render as keywords of their to_string/1 text, sorted by it;
    strings as escaped string literals; atoms as keywords; lists and tuples
    as vectors; floats with 10 decimals, compacted."""
    ty = type(t)
    if ty is TMap:
        keyed = _sorted_key_texts(t)
        out.append("{")
        for i, (text, v) in enumerate(keyed):
            if i:
                out.append(" ")
            out.append(":")
            out.append(text)
            out.append(" ")
            _format_ast(v, out)
        out.append("}")
    elif ty is list or ty is Tuple:
        out.append("[")
        for i, x in enumerate(t if ty is list else t.items):
            if i:
                out.append(" ")
            _format_ast(x, out)
        out.append("]")
    elif ty is str:
        out.append(
            '"'
            + t.replace("\\", "\\\\")
            .replace('"', '\\"')
            .replace("\n", "\\n")
            .replace("\t", "\\t")
            .replace("\r", "\\r")
            + '"'
        )
    elif ty is bytes:
        out.append(
            b'"'
            + t.replace(b"\\", b"\\\\")
            .replace(b'"', b'\\"')
            .replace(b"\n", b"\\n")
            .replace(b"\t", b"\\t")
            .replace(b"\r", b"\\r")
            + b'"'
        )
    elif ty is int:
        out.append(str(t))
    elif ty is float:
        out.append(compact_float(t))
    else:
        name = atom_name(t)
        if name is None:
            raise TypeError(f"not a term: {t!r}")
        out.append(name if t is None or ty is bool else ":" + name)


def _sorted_key_texts(m):
    """The (to_string(key), value) pairs of a map sorted by that text,
    stably (Enum.sort_by/2): every key's text is taken first, in iteration
    order, so the first key that has none raises."""
    pairs = m.items()
    if len(m) > 32:
        texts, failures = [], []
        for k, v in pairs:
            try:
                texts.append((to_string(k), v))
            except Raised as e:
                failures.append(e)
        if len(failures) > 1:
            raise Unsupported(
                "several map keys without a String.Chars text in a map of more than 32 keys: "
                "which one raises follows Erlang's hash order"
            )
        if failures:
            raise failures[0]
        keys = [to_bytes(text) for text, _ in texts]
        if len(set(keys)) != len(keys):
            raise Unsupported(
                "map keys with the same text in a map of more than 32 keys: "
                "their order follows Erlang's hash order"
            )
    else:
        texts = [(to_string(k), v) for k, v in pairs]
    if all(type(text) is str for text, _ in texts):
        texts.sort(key=lambda tv: tv[0])
    else:
        texts.sort(key=lambda tv: to_bytes(tv[0]))
    if "hint-order" in BUG:
        texts.reverse()
    return texts


# ---------------------------------------------------------------------------
# Adapter protocol v1
# ---------------------------------------------------------------------------

# op -> (function, arity)
_OP_TABLE = {
    "key_normalizer.normalize_key": (normalize_key, 1),
    "key_normalizer.normalize_keys": (normalize_keys, 1),
    "key_normalizer.canonical_cache_key": (canonical_cache_key, 2),
    "native_preview.cache_hint": (cache_hint, 2),
}
_ID_RE = re.compile(rb'"id"\s*:\s*(-?[0-9]+)')


def _answer(id_json: str, key: str, body: str) -> str:
    return f'{{"id":{id_json},"{key}":{body}}}'


def hello_answer(id_json):
    body = json.dumps(
        {
            "name": NAME,
            "version": VERSION,
            "language": "python",
            "protocol": 1,
            "ops": sorted(OPS),
            "features": sorted(FEATURES),
        },
        sort_keys=True,
        separators=(",", ":"),
    )
    return _answer(id_json, "ok", body)


def call(op, raw_args):
    """(key, body JSON) answering `op` on tagged-JSON `raw_args`."""
    entry = _OP_TABLE.get(op)
    if entry is None:
        return "unsupported", json_str(f"unknown op {json.dumps(op, ensure_ascii=False)}")
    fun, arity = entry
    if type(raw_args) is not list:
        return "unsupported", json_str("args is not an array")
    if len(raw_args) != arity:
        return "unsupported", json_str(f"{op} takes {arity} argument(s), got {len(raw_args)}")
    try:
        args = [decode(a, f"/args/{i}", 1) for i, a in enumerate(raw_args)]
    except (DecodeError, NotCarried) as e:
        return "unsupported", json_str(f"cannot decode args: {e}")
    try:
        result = fun(*args)
    except Raised as e:
        return "raised", f'{{"class":{json_str(e.cls)},"message":{json_str(e.message)}}}'
    except Unsupported as e:
        return "unsupported", json_str(str(e))
    return "ok", encode(result)


def handle(line: bytes):
    """One request line -> (answer line, whether it was `bye`)."""
    try:
        request = parse_json(line.decode("utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError) as e:
        m = _ID_RE.search(line)
        id_json = m.group(1).decode() if m else "null"
        return _answer(id_json, "unsupported", json_str(f"cannot decode request: {e}")), False
    if type(request) is not JObj:
        return _answer("null", "unsupported", json_str("request line is not a JSON object")), False
    fields = dict(request.pairs)
    id_json = _plain_json(fields.get("id"))
    op = fields.get("op")
    if op == "hello":
        return hello_answer(id_json), False
    if op == "bye":
        return _answer(id_json, "ok", "null"), True
    try:
        key, body = call(op, fields.get("args", []))
    except RecursionError:
        key, body = "unsupported", json_str("nested too deeply for this port")
    except Exception as e:  # a bug in the port: make it a visible failure
        traceback.print_exc(file=sys.stderr)
        key = "raised"
        body = f'{{"class":{json_str("python:" + type(e).__name__)},"message":{json_str(str(e))}}}'
    return _answer(id_json, key, body), False


def _plain_json(v) -> str:
    """Parsed JSON (JObj/RawFloat inside) back to JSON text, for the id."""
    if type(v) is JObj:
        return "{" + ",".join(f"{json_str(k)}:{_plain_json(x)}" for k, x in v.pairs) + "}"
    if type(v) is list:
        return "[" + ",".join(_plain_json(x) for x in v) + "]"
    if type(v) is RawFloat:
        return v.text
    return json.dumps(v, ensure_ascii=False)


def serve(fd_in: int = 0, out=None) -> int:
    """Answer request lines from `fd_in` until `bye` or end of input. Every
    line read in one go is answered before a single flush, so a pipelining
    client gets batched writes and a lock-step client an answer at once."""
    out = out or sys.stdout.buffer
    pending = b""
    while True:
        chunk = os.read(fd_in, 1 << 16)
        if not chunk:
            if pending.strip():
                answer, _ = handle(pending)
                out.write(answer.encode("utf-8") + b"\n")
            out.flush()
            return 0
        pending += chunk
        *lines, pending = pending.split(b"\n")
        answers = []
        for line in lines:
            if not line.strip():
                continue
            answer, bye = handle(line)
            answers.append(answer)
            if bye:
                out.write("\n".join(answers).encode("utf-8") + b"\n")
                out.flush()
                return 0
        if answers:
            out.write("\n".join(answers).encode("utf-8") + b"\n")
            out.flush()


def main() -> int:
    if BUG - set(BUGS):
        print(f"adapter: unknown PTC_PY_BUG {', '.join(sorted(BUG - set(BUGS)))} (known: {', '.join(BUGS)})", file=sys.stderr)
        return 2
    if BUG:
        print(f"adapter: deliberate bug(s) {', '.join(sorted(BUG))} on", file=sys.stderr)
    if hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(0)
    sys.setrecursionlimit(20000)
    return serve()


if __name__ == "__main__":
    sys.exit(main())
