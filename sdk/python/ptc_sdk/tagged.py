"""Tagged term JSON (spec/terms.md): a lossless reader and the canonical
writer.

Reading is two steps: `parse` turns JSON text into plain data that keeps
what ``json.loads`` would lose (objects as `JObj` with their pairs in order,
so duplicated keys and tags stay visible; numbers with a fraction or
exponent as `RawFloat`, so an untagged float is caught), and `decode` turns
that into terms (`terms`), naming the JSON-pointer path of any error
(TJ-10). `decode_text` does both.

`encode` writes the canonical form (TJ-5), byte for byte what the Rust
harness writes (``src/model/tagged.rs``, ``encode``): maps in map key order,
``$kw`` for keyword lists, floats in Erlang's shortest form (`short_float`),
no white space.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import re

from . import releases, temporal
from .errors import DecodeError, Unsupported
from .terms import (
    TEMPORAL_KINDS,
    Atom,
    DuplicateKey,
    Fun,
    Map,
    Opaque,
    Struct,
    Temporal,
    Tuple,
    atom,
    binary,
    kw_pair,
    not_a_term,
)

MAX_SAFE_INT = (1 << 53) - 1
"""Largest integer written as a plain JSON number (2^53 − 1)."""

MAX_DEPTH = 120
"""How many JSON arrays and objects a decoded value may nest, its own
outermost one counted (TJ-10): the ``args`` array of a request is the
first."""

MAX_ATOM_CHARS = 255
"""The longest atom name, in characters (TJ-1): ``String.to_atom/1`` raises
``SystemLimitError`` beyond it, so no such atom exists."""

_I64_MIN = -(1 << 63)
_U64_MAX = (1 << 64) - 1


# ---------------------------------------------------------------------------
# Parsing JSON text
# ---------------------------------------------------------------------------


class JObj:
    """A JSON object as parsed: its ``(key, value)`` pairs in order."""

    __slots__ = ("pairs",)

    def __init__(self, pairs):
        self.pairs = pairs

    def __repr__(self):
        return f"JObj({self.pairs!r})"


class RawFloat:
    """A JSON number with a fraction or exponent, as written."""

    __slots__ = ("text",)

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return f"RawFloat({self.text!r})"


def _no_constant(name):
    raise ValueError(f"{name} is not JSON")


def parse(text):
    """JSON text to plain data: objects as `JObj`, non-integers as
    `RawFloat`. Raises ValueError on text that is not JSON (NaN and
    Infinity included)."""
    return json.loads(
        text, object_pairs_hook=JObj, parse_float=RawFloat, parse_constant=_no_constant
    )


def decode_text(text: str, root: str = "", release=None):
    """One tagged term from JSON text; `root` is the path its errors start
    with (e.g. ``/args``); structs as `release` defines them (`decode`)."""
    try:
        value = parse(text)
    except RecursionError:
        raise DecodeError(too_deep(text, root, 0)) from None
    except ValueError as e:
        raise DecodeError(f"{_show(root)}: not JSON: {e}") from None
    return decode(value, root, release=release)


def too_deep(text: str, root: str = "", outer: int = 0) -> str:
    """The TJ-10 refusal of JSON text nested too deeply for Python's
    parser to read: the path of the first container, in the order written,
    that is the (MAX_DEPTH + 1)th counted from the value the count starts
    at, `outer` containers deep in `text` (1 for a request line, whose
    ``args`` is the first counted; `root` is then ""). Reads the text
    without recursion."""
    dec = json.JSONDecoder()
    stack = []  # [kind, index or key] per open container
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in "[{":
            if len(stack) - outer + 1 > MAX_DEPTH:
                path = root + "".join(
                    "/" + str(seg).replace("~", "~0").replace("/", "~1") for _, seg in stack
                )
                return f"{_show(path)}: {_too_deep_why()}"
            stack.append(["a" if c == "[" else "o", 0 if c == "[" else None])
            i += 1
        elif c in "]}":
            stack.pop()
            i += 1
        elif c == '"':
            s, i = json.decoder.scanstring(text, i + 1)
            top = stack[-1] if stack else None
            if top and top[0] == "o" and _next_is_colon(text, i):
                top[1] = s
        elif c == "," and stack and stack[-1][0] == "a":
            stack[-1][1] += 1
            i += 1
        else:
            i += 1
    return f"{_show(root)}: {_too_deep_why()}"


def _next_is_colon(text, i):
    while i < len(text) and text[i] in " \t\r\n":
        i += 1
    return text[i : i + 1] == ":"


def _too_deep_why():
    return f"nested deeper than {MAX_DEPTH} arrays and objects (TJ-10)"


def rust_float(x: float) -> str:
    """A double as Rust's ``{}`` writes it (the Rust harness names a bare
    number so): its shortest digits, never an exponent, no ``.0`` for a
    whole number (``1``, ``0.0001``, ``100000000000000000000``, ``-0``)."""
    if x == 0.0:
        return "-0" if math.copysign(1.0, x) < 0 else "0"
    if math.isinf(x):
        return "-inf" if x < 0 else "inf"
    digits, place = _shortest_digits(x)
    sign = "-" if x < 0 else ""
    if place <= 0:
        return f"{sign}0.{'0' * -place}{digits}"
    if place >= len(digits):
        return f"{sign}{digits}{'0' * (place - len(digits))}"
    return f"{sign}{digits[:place]}.{digits[place:]}"


# ---------------------------------------------------------------------------
# Decoding parsed JSON into terms
# ---------------------------------------------------------------------------

_INT_RE = re.compile(r"-?[0-9]+\Z")
_SURROGATE_RE = re.compile("[\ud800-\udfff]")
_OPAQUE_TAGS = {"$ref": "ref", "$pid": "pid", "$port": "port"}


def _show(path: str) -> str:
    return path or "/"


def _err(path: str, why: str) -> DecodeError:
    return DecodeError(f"{_show(path)}: {why}")


def pointer(path: str, key) -> str:
    """`path` extended by one JSON-pointer step (``~`` and ``/`` escaped)."""
    return f"{path}/{str(key).replace('~', '~0').replace('/', '~1')}"


def _kind(v) -> str:
    """What a parsed JSON value is, for errors."""
    if v is None:
        return "null"
    if v is True or v is False:
        return "a boolean"
    if type(v) in (int, RawFloat):
        return "a number"
    if type(v) is str:
        return "a string"
    if type(v) is list:
        return "an array"
    return "an object"


def _term_kind(t) -> str:
    """What a decoded term is, for errors (the Rust harness's names)."""
    if t is None or t is True or t is False or type(t) is Atom:
        return "atom"
    kinds = {int: "integer", float: "float", str: "binary", bytes: "binary", list: "list"}
    kinds.update({Tuple: "tuple", Map: "map", Struct: "struct", Temporal: "struct", Fun: "function"})
    if type(t) is Opaque:
        return {"ref": "reference", "pid": "pid", "port": "port"}[t.kind]
    return kinds.get(type(t), "term")


def _string(v, path, what):
    if type(v) is not str:
        raise _err(path, f"expected {what}, got {_kind(v)}")
    return _text(v, path)


def _text(s, path):
    if _SURROGATE_RE.search(s):
        raise _err(path, "string holds a lone surrogate (not UTF-8)")
    return s


def _container(path, depth):
    """A TJ-10 refusal when the container at `path`, inside `depth`
    others, is one too many."""
    if depth + 1 > MAX_DEPTH:
        raise _err(path, _too_deep_why())


def _atom_name(name, path):
    """`name` when it can name an atom (TJ-1)."""
    if len(name) > MAX_ATOM_CHARS:
        raise _err(
            path,
            f"an atom has at most {MAX_ATOM_CHARS} characters, this name has {len(name)} (TJ-1)",
        )
    return name


def decode(v, path: str = "", depth: int = 0, release=None):
    """Parsed tagged term JSON (from `parse`) to a term. `path` names `v` in
    errors; `depth` counts the JSON arrays and objects around it. A
    ``$struct`` is completed with the fields and defaults `release`
    defines (`ptc_sdk.releases`; left out, the served port's), and naming
    a field that release's struct lacks is an error (REL-1)."""
    return _decode(v, path, depth, releases.resolve(release))


def _decode(v, path, depth, rel):
    if v is None or v is True or v is False:
        return v
    ty = type(v)
    if ty is int:
        if -MAX_SAFE_INT <= v <= MAX_SAFE_INT:
            return v
        if _I64_MIN <= v <= _U64_MAX:
            raise _err(
                path,
                f'bare integer {v} is beyond 2^53-1: it is written {{"$int": "{v}"}} (TJ-3)',
            )
        # Past 64 bits the Rust reader has a double: name it as one.
        try:
            shown = rust_float(float(v))
        except OverflowError:
            shown = "inf" if v > 0 else "-inf"
        raise _bare_number(path, shown)
    if ty is str:
        return _text(v, path)
    if ty is RawFloat:
        try:
            x = float(v.text)
        except ValueError:
            x = math.nan
        raise _bare_number(path, rust_float(x))
    _container(path, depth)
    if ty is list:
        return [_decode(x, pointer(path, i), depth + 1, rel) for i, x in enumerate(v)]
    pairs = v.pairs
    if not pairs:
        return Map()
    first = pairs[0][0]
    if first.startswith("$"):
        term = _decode_tag(first, pairs[0][1], path, depth + 1, rel)
        if len(pairs) > 1:
            raise _err(
                path,
                f"tag object {json_str(first)} has a second key {json_str(pairs[1][0])}: "
                "a tag is a one-key object",
            )
        return term
    out = []
    for k, value in pairs:
        _text(k, path)
        if k.startswith("$"):
            raise _err(
                path,
                f"object key {json_str(k)} starts with '$': a map with such a key is written "
                '{"$map": [[k, v], ...]}',
            )
        out.append((k, _decode(value, pointer(path, k), depth + 1, rel)))
    return _build_map(out, path)


def _bare_number(path, shown):
    return _err(
        path,
        f'bare number {shown} is not a term: floats are written {{"$float": {shown}}} '
        'and integers beyond 2^53-1 {"$int": "..."} (TJ-3)',
    )


def _build_map(pairs, path):
    try:
        return Map.strict(pairs)
    except DuplicateKey as e:
        raise _err(path, f"duplicated map key {encode(e.key)}") from None


def _decode_tag(tag, value, parent, depth, rel):
    path = pointer(parent, tag)
    ty = type(value)
    if tag == "$int":
        s = _string(value, path, "a decimal integer string")
        if not _INT_RE.match(s):
            raise _err(path, f"{json_str(s)} is not a decimal integer")
        try:
            return int(s)
        except ValueError as e:  # past sys.get_int_max_str_digits()
            raise _err(path, str(e)) from None
    if tag == "$float":
        if ty is RawFloat:
            x = float(value.text)
        elif ty is int:
            try:
                x = float(value)
            except OverflowError:
                x = math.inf
        elif ty is str:
            raise _err(path, f"$float must be a JSON number, got the string {json_str(value)}")
        else:
            raise _err(path, f"$float must be a JSON number, got {_kind(value)}")
        if not math.isfinite(x):
            raise _err(path, "$float is out of the finite range")
        return x
    if tag == "$bytes":
        s = _string(value, path, "a base64 string")
        try:
            data = base64.b64decode(s, validate=True)
        except (binascii.Error, ValueError) as e:
            raise _err(path, f"bad base64: {e}") from None
        if base64.b64encode(data).decode("ascii") != s:
            raise _err(path, "bad base64: not the padded standard form of its bytes")
        return binary(data)
    if tag == "$atom":
        return atom(_atom_name(_string(value, path, "an atom name string"), path))
    if tag == "$tuple":
        items = _decode(value, path, depth, rel)
        if type(items) is not list:
            raise _err(path, f"expected an array, got {_term_kind(items)}")
        return Tuple(items)
    if tag == "$map":
        return _build_map(_pairs(value, path, depth, False, rel), path)
    if tag == "$kw":
        return [Tuple(kv) for kv in _pairs(value, path, depth, True, rel)]
    kind = tag[1:]
    if kind in TEMPORAL_KINDS:
        iso = _string(value, path, "an ISO 8601 string")
        try:
            parts = temporal.parse(kind, iso)
        except ValueError as e:
            what = kind.replace("_", " ")
            raise _err(
                path,
                f"{json_str(iso)}: not an ISO 8601 {what} as Elixir writes it: {e} (TJ-6)",
            ) from None
        return Temporal(kind, iso, parts)
    if tag == "$struct":
        return _decode_struct(value, path, depth, rel)
    if tag == "$fn":
        return _decode_fun(value, path, depth, rel)
    if tag in _OPAQUE_TAGS:
        return Opaque(_OPAQUE_TAGS[tag], _string(value, path, "a label string"))
    raise _err(parent, f"unknown tag {json_str(tag)}")


def _pairs(value, path, depth, kw, rel):
    """``[[k, v], ...]`` of a ``$map`` (k any term) or ``$kw`` (k a string,
    the atom's name)."""
    if type(value) is not list:
        raise _err(path, f"expected an array of [key, value] pairs, got {_kind(value)}")
    _container(path, depth)
    out = []
    for i, entry in enumerate(value):
        p = pointer(path, i)
        if type(entry) is not list:
            raise _err(p, "expected a [key, value] pair")
        _container(p, depth + 1)
        k = v = None
        if len(entry) >= 1:
            k = entry[0]
            if not kw:
                k = _decode(k, pointer(p, 0), depth + 2, rel)
            elif type(k) is str:
                k = atom(_atom_name(_text(k, pointer(p, 0)), pointer(p, 0)))
            else:
                raise _err(pointer(p, 0), "a $kw key must be a string (the atom's name)")
        if len(entry) >= 2:
            v = _decode(entry[1], pointer(p, 1), depth + 2, rel)
        if len(entry) != 2:
            raise _err(p, "expected a [key, value] pair")
        out.append((k, v))
    return out


def _object(value, path, what):
    if type(value) is not JObj:
        raise _err(path, f"expected {what}, got {_kind(value)}")
    seen = set()
    for k, _ in value.pairs:
        if k in seen:
            raise _err(pointer(path, k), "duplicated key")
        seen.add(k)
    return value.pairs


def _decode_struct(value, path, depth, rel):
    from . import structs

    _container(path, depth)
    module = None
    fields = {}
    for k, v in _object(value, path, 'an object with "module" and "fields"'):
        p = pointer(path, k)
        if k == "module":
            module = _string(v, p, "a module name")
        elif k == "fields":
            _container(p, depth + 1)
            for name, fv in _object(v, p, "an object of struct fields"):
                fields[_text(name, p)] = _decode(fv, pointer(p, name), depth + 2, rel)
        else:
            raise _err(p, 'unknown key: a $struct has only "module" and "fields"')
    if module is None:
        raise _err(path, '$struct needs "module"')
    try:
        return structs.complete(module, fields, rel)
    except structs.FieldError as e:
        raise _err(pointer(path, "fields"), str(e)) from None
    except ValueError as e:
        raise _err(path, str(e)) from None


_FUN_SHAPE = (
    'a $fn is {"arity": n, "returns": t}, {"arity": n, "raises": "msg"} '
    'or {"name": "&M.f/1"}'
)


_CAPTURE_SHAPE = "M not empty, f not empty and without . or /, n from 0 to 255 without a leading zero"
_ARITY_RE = re.compile(r"(0|[1-9][0-9]{0,2})\Z")


def is_capture(name: str) -> bool:
    """Whether `name` is a capture's text ``&M.f/n`` as TJ-8 reads it: `M`
    not empty, `f` (after the last ``.`` before the last ``/``) not empty
    and without ``.`` or ``/``, `n` from 0 to 255 without a leading zero
    (the text is the term: ``&M.f/01`` is not one)."""
    if not name.startswith("&") or "/" not in name:
        return False
    mf, _, arity = name[1:].rpartition("/")
    module, dot, function = mf.rpartition(".")
    if not dot or not module or not function or "/" in function:
        return False
    return _ARITY_RE.match(arity) is not None and int(arity) <= 255


def _decode_fun(value, path, depth, rel):
    _container(path, depth)
    spec = {}
    for k, v in _object(value, path, "a function spec object"):
        p = pointer(path, k)
        if k == "arity":
            if type(v) is not int or not 0 <= v <= 255:
                raise _err(p, "arity must be an integer from 0 to 255")
            spec[k] = v
        elif k == "returns":
            spec[k] = _decode(v, p, depth + 1, rel)
        elif k == "raises":
            spec[k] = _string(v, p, "a message string")
        elif k == "name":
            spec[k] = _string(v, p, "a function name")
            if not is_capture(spec[k]):
                raise _err(p, f"{json_str(spec[k])} is not a capture &M.f/n ({_CAPTURE_SHAPE}) (TJ-8)")
        else:
            raise _err(p, 'unknown key: a $fn has "arity" with "returns" or "raises", or "name"')
    if set(spec) not in ({"arity", "returns"}, {"arity", "raises"}, {"name"}):
        raise _err(path, _FUN_SHAPE)
    return Fun(**spec)


# ---------------------------------------------------------------------------
# Canonical encoding
# ---------------------------------------------------------------------------

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
    """A JSON string literal as serde_json (the Rust harness, and so the
    canonical tagged term JSON) writes it: ``"``, ``\\`` and control
    characters escaped, ``\\u001f`` with lower-case hex, everything else as
    it is. Jason writes ``\\u001F``: use `ptc_sdk.jason_str` for the text
    PtcRunner renders."""
    return '"' + _JSON_ESCAPE_RE.sub(_json_escape, s) + '"'


def _shortest_digits(x: float):
    """(digits, place) with abs(x) == 0.<digits> * 10**place, digits the
    shortest that read back to x (no leading or trailing zeros). x != 0."""
    mant, _, exp = repr(abs(x)).partition("e")
    whole, _, frac = mant.partition(".")
    digits = whole + frac
    place = len(whole) + (int(exp) if exp else 0)
    stripped = digits.lstrip("0")
    place -= len(digits) - len(stripped)
    return stripped.rstrip("0"), place


def short_float(x: float) -> str:
    """``:erlang.float_to_binary(x, [:short])``, which is
    ``Float.to_string/1`` on OTP 25 and the float text of the canonical
    encoding: the shortest digits that read back to x, written plain or with
    an exponent, whichever is shorter (plain on a tie), but always with an
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


class ImproperList(TypeError):
    """An improper list met while encoding: it has no tagged form (TJ-12).
    `serve` answers such a result ``unsupported`` with `improper_reason`."""

    def __init__(self, tail):
        super().__init__(f"not a term: an improper list has no tagged form (TJ-12): {improper_reason(tail)}")
        self.tail = tail


def improper_reason(tail) -> str:
    """The reason TJ-12 gives for a result holding an improper list with
    this tail: ``cannot encode result: improper list tail `` and
    ``inspect/1`` of the tail.

    >>> improper_reason(2)
    'cannot encode result: improper list tail 2'
    """
    from .elixir.inspect import inspect_message

    return f"cannot encode result: improper list tail {inspect_message(tail)}"


def unsupported_improper(tail):
    """The `Unsupported` TJ-12 asks for where a result would hold an
    improper list with this tail, to raise from an op (`serve` answers so
    by itself when an op returns one).

    >>> unsupported_improper(Atom("x")).args[0]
    'cannot encode result: improper list tail :x'
    """
    return Unsupported(improper_reason(tail))


def encode(t) -> str:
    """A term as canonical tagged term JSON (TJ-5). Raises TypeError for a
    value that is not a term."""
    out = []
    _encode(t, out)
    return "".join(out)


_SURROGATE = re.compile("[\ud800-\udfff]")


def _no_surrogates(s: str) -> str:
    """`s` when it is a binary term; a text holding ``surrogateescape`` code
    points (what `binary_text` and the ``*_text`` functions give for
    invalid bytes) is a TypeError that says how to turn it back."""
    if not s.isascii():
        m = _SURROGATE.search(s)
        if m:
            raise TypeError(
                f"not a term: a str holding the surrogate U+{ord(m.group()):04X} at {m.start()} is text with "
                "invalid bytes (surrogateescape), not a binary: text_binary(s) makes it the binary term, "
                "concat(...) builds one from texts and binaries"
            )
    return s


def _encode(t, out):
    ty = type(t)
    if ty is str:
        out.append(json_str(_no_surrogates(t)))
    elif t is None:
        out.append("null")
    elif t is True:
        out.append("true")
    elif t is False:
        out.append("false")
    elif ty is int:
        out.append(str(t) if -MAX_SAFE_INT <= t <= MAX_SAFE_INT else f'{{"$int":"{t}"}}')
    elif ty is float:
        if not math.isfinite(t):
            raise TypeError(f"not a term: {t!r} (NaN and infinities are not terms)")
        out.append(f'{{"$float":{short_float(t)}}}')
    elif ty is bytes:
        b = binary(t)  # canonical: bytes that are UTF-8 are a string (TJ-5)
        if type(b) is str:
            out.append(json_str(b))
        else:
            out.append(f'{{"$bytes":"{base64.b64encode(t).decode("ascii")}"}}')
    elif ty is Atom:
        out.append(f'{{"$atom":{json_str(t.name)}}}')
    elif ty is list:
        pairs = [kw_pair(x) for x in t]
        if t and all(p is not None for p in pairs):
            out.append('{"$kw":[')
            for i, (name, v) in enumerate(pairs):
                out.append(",[" if i else "[")
                out.append(json_str(name))
                out.append(",")
                _encode(v, out)
                out.append("]")
            out.append("]}")
        else:
            _encode_seq(t, out)
    elif ty is Tuple:
        out.append('{"$tuple":')
        _encode_seq(t.items, out)
        out.append("}")
    elif ty is Map:
        pairs = t.items()
        if all(type(k) is str and not k.startswith("$") for k, _ in pairs):
            out.append("{")
            for i, (k, v) in enumerate(pairs):
                out.append("," if i else "")
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
    elif ty is Struct:
        out.append('{"$struct":{"module":')
        out.append(json_str(t.module))
        out.append(',"fields":{')
        for i, k in enumerate(sorted(t.fields)):
            out.append("," if i else "")
            out.append(json_str(k))
            out.append(":")
            _encode(t.fields[k], out)
        out.append("}}}")
    elif ty is Temporal:
        out.append(f'{{"${t.kind}":{json_str(t.iso)}}}')
    elif ty is Fun:
        out.append('{"$fn":{')
        if t.name is not None:
            out.append(f'"name":{json_str(t.name)}')
        elif t.raises is not None:
            out.append(f'"arity":{t.arity},"raises":{json_str(t.raises)}')
        else:
            out.append(f'"arity":{t.arity},"returns":')
            _encode(t.returns, out)
        out.append("}}")
    elif ty is Opaque:
        out.append(f'{{"${t.kind}":{json_str(t.label)}}}')
    elif type(t).__name__ == "Improper" and hasattr(t, "tail"):  # elixir.lists.Improper (no import cycle)
        raise ImproperList(t.tail)
    else:
        raise not_a_term(t)


def _encode_seq(items, out):
    out.append("[")
    for i, x in enumerate(items):
        if i:
            out.append(",")
        _encode(x, out)
    out.append("]")
