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

Built on the Python porter SDK (``sdk/python/ptc_sdk``: term model, term
order, tagged term JSON, the adapter loop), so this file holds only what is
the port's own: ``:erlang.float_to_binary/2``'s compact text, Elixir's
``inspect`` for the terms it carries, chardata conversion, the four
functions, and the bug switch.

Standard library only, Python >= 3.11.
"""

from __future__ import annotations

import math
import os
import re
import sys
import unicodedata

# The SDK, from this repository's layout (harness/adapters/python -> sdk/python).
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(_HERE, os.pardir, os.pardir, os.pardir, "sdk", "python"))

from ptc_sdk import (  # noqa: E402
    Atom,
    Map,
    Raised,
    Tuple,
    Unsupported,
    atom_name,
    binary,
    kw_pair,
    serve,
    short_float,
    to_bytes,
)

NAME = "ptc_runner-python-port"
VERSION = "0.13.0"
# What this port decodes faithfully (spec/terms.md, "Features").
FEATURES = ("atoms", "binaries", "bigints", "floats", "term-keys", "tuples")

# ---------------------------------------------------------------------------
# The bug switch: PTC_PY_BUG plants deliberate bugs (one mode, or several
# separated by commas), for testing the harness's fuzzers and reports. One
# row per mode, its name and what goes wrong; the code that goes wrong
# checks `"<name>" in BUG`.
# ---------------------------------------------------------------------------

BUGS = {
    "neg-zero": "canonical_cache_key (and so cache_hint) keeps -0.0 as a float "
    "instead of collapsing it to 0",
    "big-float": "integral floats with magnitude >= 2**63 stay floats in canonical_cache_key "
    "(a port that converts through a 64-bit integer)",
    "hint-order": "cache_hint renders map keys in reverse order",
    # Each of these breaks a law of spec/laws.md (`ptc-conformance laws`).
    "tuple-shallow": "canonical_cache_key turns a tuple into a list without canonicalizing "
    "its elements (LAW-1)",
    "atom-keys": "canonical_cache_key keeps atom keys as atoms (LAW-2)",
    "atom-hyphens": "normalize_key keeps the hyphens of atom keys (LAW-3)",
    "tuples-kept": "canonical_cache_key keeps tuples as tuples (LAW-5)",
    "arrival-order": "maps are rebuilt in the order their pairs arrived, so the later-written "
    "of two colliding keys wins (LAW-6)",
    "hint-raw": "cache_hint renders the raw args, not the canonical ones (LAW-7)",
}
BUG = frozenset(b for b in os.environ.get("PTC_PY_BUG", "").split(",") if b)

# ---------------------------------------------------------------------------
# Float texts: Float.to_string/1 is the SDK's short_float; the Lisp
# formatter's compact form is this port's own.
# ---------------------------------------------------------------------------


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
# Exceptions, as the Elixir classes they stand for (Raised is the SDK's)
# ---------------------------------------------------------------------------


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
    if ty is Map:
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
    return all(kw_pair(x) and not kw_pair(x)[0].startswith("Elixir.") for x in items)


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


def _valid_prefix(data: bytes) -> str:
    """The longest prefix of ``data`` that is valid UTF-8, as text."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        return data[: e.start].decode("utf-8")


def _inspect_binary(b, limit):
    if type(b) is str and _printable(b):
        escaped, more = escape(b, '"', PRINTABLE_LIMIT)
        return f'"{escaped}"' + (" <> ..." if more else "")
    data = to_bytes(b)
    if not data:
        return "<<>>"
    # String.printable?/2 looks at the first PRINTABLE_LIMIT characters
    # only, so a binary whose invalid bytes come later still prints as a
    # string, cut with " <> ..." (PP-44).
    prefix = _valid_prefix(data)
    if len(prefix) >= PRINTABLE_LIMIT and _printable(prefix):
        escaped, _ = escape(prefix, '"', PRINTABLE_LIMIT)
        return f'"{escaped}" <> ...'
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
    if not key and name in ("nil", "true", "false"):
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
    if ty is Map:
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
        if "atom-hyphens" in BUG:
            return name
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
    # arrival-order: the pairs as decoded (a dict in wire order), not in key order.
    pairs = list(m._entries.values()) if "arrival-order" in BUG else m.items()
    out = Map.new([fun(k, v) for k, v in pairs])
    if len(out) < len(m) and len(m) > 32:
        raise Unsupported(
            "keys that collide after normalization in a map of more than 32 keys: "
            "which one wins follows Erlang's hash order"
        )
    return out


def normalize_keys(t):
    """normalize_key/1 on the keys of every map, through maps and lists
    (not tuples); other terms are returned as they are."""
    ty = type(t)
    if ty is Map:
        return _map_new(t, lambda k, v: (normalize_key(k), normalize_keys(v)))
    if ty is list:
        return [normalize_keys(x) for x in t]
    return t


def canonical_cache_key(tool_name, args):
    """{tool_name, canonical args} for a map; {tool_name, {:non_map, args}}
    for anything else; a non-binary name matches no clause."""
    if type(tool_name) not in (str, bytes):
        raise function_clause(KEY_NORMALIZER, "canonical_cache_key", 2)
    if type(args) is Map:
        return Tuple((tool_name, _canonicalize(args)))
    return Tuple((tool_name, Tuple((Atom("non_map"), args))))


def _canonicalize(t):
    ty = type(t)
    if ty is Map:
        return _map_new(t, lambda k, v: (_stringify_key(k), _canonicalize(v)))
    if ty is list:
        return [_canonicalize(x) for x in t]
    if ty is Tuple:
        if "tuple-shallow" in BUG:
            return list(t.items)
        if "tuples-kept" in BUG:
            return Tuple(_canonicalize(x) for x in t.items)
        return [_canonicalize(x) for x in t.items]
    if ty is float and t.is_integer():  # trunc(t) == t
        if "neg-zero" in BUG and t == 0.0 and math.copysign(1.0, t) < 0:
            return t
        if "big-float" in BUG and abs(t) >= 2.0**63:
            return t
        return int(t)
    return t


def _stringify_key(k):
    if "atom-keys" in BUG and type(k) is Atom:
        return k
    if type(k) in (str, bytes) or atom_name(k) is not None:
        return normalize_key(k)
    return k


# ---------------------------------------------------------------------------
# PtcRunner.SubAgent.Loop.NativePreview.cache_hint/2 and the parts of
# PtcRunner.Lisp.Formatter it uses
# ---------------------------------------------------------------------------


def cache_hint(tool_name, args):
    """The hint naming the PTC-Lisp call that reads a cached result."""
    if type(tool_name) not in (str, bytes) or type(args) is not Map:
        raise function_clause(NATIVE_PREVIEW, "cache_hint", 2)
    _, canonical = canonical_cache_key(tool_name, args).items
    if "hint-raw" in BUG:
        canonical = args
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
    if ty is Map:
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
# Served over adapter protocol v1 by the SDK
# ---------------------------------------------------------------------------

OPS = {
    "key_normalizer.canonical_cache_key": canonical_cache_key,
    "key_normalizer.normalize_key": normalize_key,
    "key_normalizer.normalize_keys": normalize_keys,
    "native_preview.cache_hint": cache_hint,
}


def main() -> int:
    if BUG - BUGS.keys():
        known = ", ".join(BUGS)
        unknown = ", ".join(sorted(BUG - BUGS.keys()))
        print(f"adapter: unknown PTC_PY_BUG {unknown} (known: {known})", file=sys.stderr)
        return 2
    for bug in sorted(BUG):
        print(f"adapter: deliberate bug {bug!r} is on: {BUGS[bug]}", file=sys.stderr)
    sys.setrecursionlimit(20000)
    return serve(name=NAME, version=VERSION, ops=OPS, features=FEATURES)


if __name__ == "__main__":
    sys.exit(main())
