#!/usr/bin/env python3
"""A from-scratch Python port of five PtcRunner 0.13.0 functions, served
over ptc-conformance adapter protocol v1.

    python3 harness/adapters/python/adapter.py < requests.jsonl

Ported (see README.md next to this file):

* ``key_normalizer.normalize_key``, ``key_normalizer.normalize_keys`` and
  ``key_normalizer.canonical_cache_key`` (PtcRunner.SubAgent.KeyNormalizer);
* ``native_preview.cache_hint`` (PtcRunner.SubAgent.Loop.NativePreview), with
  the bits of PtcRunner.Lisp.Formatter it needs to render an argument
  fragment;
* ``lisp_formatter.format`` (PtcRunner.Lisp.Formatter.format/1).

Built on the Python porter SDK (``sdk/python/ptc_sdk``: term model, term
order, tagged term JSON, the adapter loop, and the Elixir layer: float
texts, ``to_string/1`` and chardata, ``inspect``, exception messages), so
this file holds only what is PtcRunner's: the five functions, and the bug
switch.

Standard library only, Python >= 3.11.
"""

from __future__ import annotations

import math
import os
import sys

# The SDK, from this repository's layout (harness/adapters/python -> sdk/python).
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(_HERE, os.pardir, os.pardir, os.pardir, "sdk", "python"))

from ptc_sdk import Atom, Map, Raised, Tuple, Unsupported, atom_name, binary, serve, to_bytes  # noqa: E402
from ptc_sdk.elixir import float_to_binary_compact_10, to_string  # noqa: E402
from ptc_sdk.elixir.enumerable import map_join  # noqa: E402
from ptc_sdk.elixir.errors import function_clause  # noqa: E402

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
        raise function_clause(f"{KEY_NORMALIZER}.canonical_cache_key/2")
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
        raise function_clause(f"{NATIVE_PREVIEW}.cache_hint/2")
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
        out.append(float_to_binary_compact_10(t))
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
# PtcRunner.Lisp.Formatter.format/1 (spec/lisp_formatter.md)
# ---------------------------------------------------------------------------

FORMATTER = "PtcRunner.Lisp.Formatter"
_SPECIAL_ATOMS = {"infinity": "##Inf", "negative_infinity": "##-Inf", "nan": "##NaN"}
_FRAMES = {
    "string": ('"', '"'), "regex_literal": ('#"', '"'), "keyword": (":", ""), "symbol": ("", ""),
    "quoted_symbol": ("'", ""), "var": ("#'", ""), "turn_history": ("*", ""), "vector": ("[", "]"),
    "map": ("{", "}"), "set": ("#{", "}"), "list": ("(", ")"), "short_fn": ("#(", ")"),
}


def lisp_format(ast):
    """The source text of a PTC-Lisp AST node, a binary: literals, the
    special float atoms, and the tagged tuples; anything else matches no
    clause. Names go through to_string/1, element lists through Enum (an
    arity-2 function is a reducer, LF-14), floats through the compact text."""
    return binary(_node(ast))


def _node(ast) -> bytes:
    ty = type(ast)
    if ast is None or ty is bool:
        return atom_name(ast).encode()
    if ty is int:
        return str(ast).encode()
    if ty is float:
        return float_to_binary_compact_10(ast).encode()
    if ty is Atom and ast.name in _SPECIAL_ATOMS:
        return _SPECIAL_ATOMS[ast.name].encode()
    if ty is not Tuple or not ast.items or type(ast.items[0]) is not Atom:
        raise function_clause(f"{FORMATTER}.format/1")
    tag, args = ast.items[0].name, ast.items[1:]
    if tag == "ns_symbol" and len(args) == 2:
        return to_bytes(to_string(args[0])) + b"/" + to_bytes(to_string(args[1]))
    if len(args) != 1 or tag not in _FRAMES:
        raise function_clause(f"{FORMATTER}.format/1")
    arg = args[0]
    if tag in ("string", "regex_literal"):
        body = _escape_string(arg)
    elif tag in ("keyword", "symbol", "quoted_symbol", "var", "turn_history"):
        body = to_bytes(to_string(arg))
    elif tag == "map":
        body = to_bytes(map_join(arg, " ", _pair))
    else:
        body = to_bytes(map_join(arg, " ", _node))
    open_, close = _FRAMES[tag]
    return open_.encode() + body + close.encode()


def _pair(p) -> bytes:
    if type(p) is not Tuple or len(p.items) != 2:
        raise function_clause(f"anonymous fn/1 in {FORMATTER}.format_pairs/1")
    return _node(p.items[0]) + b" " + _node(p.items[1])


def _escape_string(s) -> bytes:
    if type(s) not in (str, bytes):
        raise function_clause("String.replace/4")
    b = to_bytes(s)
    for old, new in ((b"\\", b"\\\\"), (b'"', b'\\"'), (b"\n", b"\\n"), (b"\t", b"\\t"), (b"\r", b"\\r")):
        b = b.replace(old, new)
    return b


# ---------------------------------------------------------------------------
# Served over adapter protocol v1 by the SDK
# ---------------------------------------------------------------------------

OPS = {
    "key_normalizer.canonical_cache_key": canonical_cache_key,
    "key_normalizer.normalize_key": normalize_key,
    "key_normalizer.normalize_keys": normalize_keys,
    "lisp_formatter.format": lisp_format,
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
    return serve(name=NAME, version=VERSION, ops=OPS, features=FEATURES, reach=True, compile=in_place)


def in_place(root, paths):
    """The ``compile`` extension (AP-19): a variant of this file, run beside
    this one as a module of its own, answers with its ops."""
    others = [p for p in paths if p != "adapter.py"]
    if others:
        raise Unsupported(f"{', '.join(others)}: only adapter.py is compiled in place")
    import runpy

    try:
        return runpy.run_path(os.path.join(root, "adapter.py"), run_name="ptc_variant")["OPS"]
    except Exception as e:  # what `python3 -c 'import adapter'` would fail on
        raise Raised("CompileError", f"{type(e).__name__}: {e}") from e


if __name__ == "__main__":
    sys.exit(main())
