"""``Kernel.inspect/2`` as Elixir 1.18.4 prints terms (``spec/inspect.md``,
IN-; ``src/elixir/inspect.rs``). Error messages at the tool boundary embed
this text, so a port must reproduce it byte for byte::

    inspect(term)                          # inspect/1
    inspect(term, pretty=True, limit=None) # inspect(term, pretty: true, limit: :infinity)

Options, as ``Inspect.Opts``: `limit` items per container (50; None is
``:infinity``), `printable_limit` characters of a printable string or
charlist (4096; None is ``:infinity``), `pretty` (lay out at `width`, 80;
otherwise the width is infinite and nothing breaks). Nested containers get
the limit that remains where they stand, as ``container_doc/6`` passes it
down.

`release` (`ptc_sdk.releases`; left out, the served port's) is the
PtcRunner release whose protocol implementations are loaded: a display
struct's ``Inspect`` interpolates its field through that release's
``String.Chars``, so at v0.11.0 one display struct inside another prints
an ``Inspect.Error`` (REL-7); a struct prints the fields it holds, in the
order that release's ``defstruct`` gives them.

`inspect` answers a binary term: a ``str``, or ``bytes`` in the one case
Elixir's text is not UTF-8 (a display struct's invalid bytes, IN-15).
`inspect_text` gives the text with such bytes as ``surrogateescape`` code
points (``.encode("utf-8", "surrogateescape")`` is the binary).
"""

from __future__ import annotations

import re
import sys

from .. import releases
from ..errors import Raised
from ..order import equal
from ..terms import Atom, Fun, Map, Opaque, Struct, Temporal, Tuple, atom_name, binary, binary_text, not_a_term
from . import algebra as A
from . import identifier
from .num import inspect_float

LIMIT = 50
"""``opts.limit``: items per container."""
PRINTABLE_LIMIT = 4096
"""``opts.printable_limit``: characters of a printable string or charlist."""
PRETTY_WIDTH = 80
"""``opts.width``, used when ``pretty: true``."""
_INFINITY = sys.maxsize


class _Opts:
    """The options that stay put while a term is printed (the limit is
    passed along as it shrinks), and the release whose protocol
    implementations are loaded."""

    __slots__ = ("printable", "lists_as_lists", "width", "rel")

    def __init__(self, printable, lists_as_lists, width, rel):
        self.printable = printable
        self.lists_as_lists = lists_as_lists
        self.width = width
        self.rel = rel


def inspect(term, *, limit=LIMIT, printable_limit=PRINTABLE_LIMIT, pretty=False, width=PRETTY_WIDTH, release=None):
    """``inspect(term, opts)`` as a binary term (``str`` unless not UTF-8)."""
    text = inspect_text(
        term, limit=limit, printable_limit=printable_limit, pretty=pretty, width=width, release=release
    )
    if text.isascii():
        return text
    return binary(text.encode("utf-8", "surrogateescape"))


def inspect_text(
    term, *, limit=LIMIT, printable_limit=PRINTABLE_LIMIT, pretty=False, width=PRETTY_WIDTH, release=None
) -> str:
    """``inspect(term, opts)`` as text, invalid bytes as ``surrogateescape``
    code points."""
    o = _Opts(_INFINITY if printable_limit is None else printable_limit, False, width, releases.resolve(release))
    doc = A.group(to_doc(term, _INFINITY if limit is None else limit, o))
    return A.format(doc, width if pretty else None)


def inspect_lossy(term, **opts) -> str:
    """`inspect_text` with invalid bytes replaced by U+FFFD, as an
    exception message that embeds the text reads."""
    text = inspect_text(term, **opts)
    if text.isascii():
        return text
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def inspect_message(term, **opts) -> str:
    """``inspect(term, opts)`` as the text a message holds: always a
    ``str``, invalid bytes as U+FFFD, so that ``"prefix" + inspect_message(x)``
    is safe. Use it for every message (an exception's, an error payload's
    text); where the release keeps the raw bytes (``term.inspect``'s
    answer, ``validate_return``'s), use `inspect`, the binary term.

    >>> inspect_message(Atom("a")), inspect_message(b"\\xff")
    (':a', '<<255>>')
    """
    return inspect_lossy(term, **opts)


def to_doc(t, limit, o):
    """``Inspect.Algebra.to_doc/2``: the document of a term."""
    ty = type(t)
    if ty is str:
        return _binary(t, limit, o)
    if ty is int:
        return str(t)
    if t is None:
        return "nil"
    if t is True:
        return "true"
    if t is False:
        return "false"
    if ty is Atom:
        return atom_literal(t.name)
    if ty is float:
        return inspect_float(t)
    if ty is list:
        return _list(t, limit, o)
    if ty is Tuple:
        return A.container_doc("{", t.items, "}", limit, A.FLEX, lambda x, lim: to_doc(x, lim, o))
    if ty is Map:
        return _map(t.items(), "", limit, o)
    if ty is bytes:
        return _binary(t.decode("utf-8", "surrogateescape"), limit, o)
    if ty is Struct:
        return _struct(t, limit, o)
    if ty is Temporal:
        return temporal(t)
    if ty is Fun:
        return _capture(t.name) if t.name is not None else f"#Function<anonymous/{t.arity or 0}>"
    if ty is Opaque:
        # VM-dependent text, compared loosely (spec/README.md LOOSE-1).
        return f"#{_OPAQUE[t.kind]}<{t.label}>"
    raise not_a_term(t)


_OPAQUE = {"ref": "Reference", "pid": "PID", "port": "Port"}

# ---- atoms ---------------------------------------------------------------

_NOT_CALLABLE = {"%", "%{}", "{}", "<<>>", "...", "..", ".", "..//", "->"}
_QUOTED_OPERATORS = {"::", "^^^", "~~~", "<|>"}
_OPERATORS = {"&", "!", "^", "not", "+", "-", "@"} | {
    "<-", "\\\\", "when", "|", "=", "||", "|||", "or", "&&", "&&&", "and", "==", "!=", "=~",
    "===", "!==", "<", "<=", ">=", ">", "|>", "<<<", ">>>", "<~", "~>", "<<~", "~>>", "<~>",
    "in", "++", "--", "<>", "+++", "---", "*", "/", "**",
}
_ALIAS_RE = re.compile(r"Elixir(\.[A-Z][A-Za-z0-9_]*)*\Z")
ALIAS, IDENTIFIER, UNQUOTED, QUOTED = "alias", "identifier", "unquoted", "quoted"


def classify_atom(name: str) -> str:
    """How ``Macro.classify_atom/1`` sees an atom: alias, identifier,
    unquoted (operators, ``Foo``, ``foo@bar``) or quoted."""
    if type(name) is not str:
        name = binary_text(name)
    if name in _NOT_CALLABLE:
        return UNQUOTED
    if name in _QUOTED_OPERATORS:
        return QUOTED
    if name in _OPERATORS:
        return UNQUOTED
    if name.isascii() and _ALIAS_RE.match(name):
        return ALIAS
    tok = identifier.tokenize(name)
    if tok is None or not tok.whole:
        return QUOTED
    if tok.kind != identifier.IDENTIFIER or tok.at:
        return UNQUOTED
    return QUOTED if tok.nfkc else IDENTIFIER


_ATOM_CACHE = {}


def atom_literal(name: str) -> str:
    """``Macro.inspect_atom(:literal, atom)``: ``:foo``, ``Foo.Bar``,
    ``:"foo bar"``, ``nil``."""
    if type(name) is not str:
        name = binary_text(name)
    text = _ATOM_CACHE.get(name)
    if text is None:
        if name in ("nil", "true", "false"):
            text = name
        else:
            c = classify_atom(name)
            if c == ALIAS:
                rest = name[7:]
                if name.startswith("Elixir.") and name != "Elixir.Elixir" and not name.startswith("Elixir.Elixir."):
                    text = rest
                else:
                    text = name
            elif c == QUOTED:
                text = ':"' + escape(name, '"', None)[0] + '"'
            else:
                text = ":" + name
        if len(_ATOM_CACHE) < 65536:
            _ATOM_CACHE[name] = text
    return text


def capture_parts(name: str):
    """The parts of a capture's text ``&M.f/n`` as the adapters read them
    back (``spec/terms.md`` TJ-8): ``(module, function, arity)``, the module
    atom's name (``M`` after ``:`` taken literally, else ``Elixir.`` + ``M``),
    the function's name (the text between the last ``.`` and the last
    ``/``, literally) and the arity text; None for a text of another shape."""
    if not name.startswith("&") or "/" not in name:
        return None
    mf, _, arity = name[1:].rpartition("/")
    module, dot, function = mf.rpartition(".")
    if not dot or not module or not function:
        return None
    atom_ = module[1:] if module.startswith(":") else "Elixir." + module
    return atom_, function, arity


def _capture(name: str) -> str:
    """A named capture (IN-18): ``&`` + the module atom + ``.`` + its
    function as a remote call + ``/arity``; a text of another shape as it is."""
    parts = capture_parts(name)
    if parts is None:
        return name
    module, function, arity = parts
    return f"&{atom_literal(module)}.{remote_call(function)}/{arity}"


def remote_call(name: str) -> str:
    """``Macro.inspect_atom(:remote_call, atom)``: a function's name after
    ``Module.`` in a capture or an MFA text: bare for an identifier or an
    operator (``f``, ``+``, ``::``), else in double quotes, escaped unless it
    is not callable or an alias (``"f g"``, ``"%{}"``, ``"Elixir.Foo"``)."""
    if type(name) is not str:
        name = binary_text(name)
    if name in _QUOTED_OPERATORS or name in _OPERATORS:
        return name
    if name in _NOT_CALLABLE or (name.isascii() and _ALIAS_RE.match(name)):
        return f'"{name}"'
    tok = identifier.tokenize(name)
    if tok is not None and tok.whole and (tok.kind != identifier.IDENTIFIER or tok.at):
        return f'"{name}"'
    if tok is not None and tok.whole and not tok.nfkc:
        return name
    return '"' + escape(name, '"', None)[0] + '"'


def atom_key(name: str) -> str:
    """``Macro.inspect_atom(:key, atom)``: the ``key:`` of a keyword list."""
    if type(name) is not str:
        name = binary_text(name)
    c = classify_atom(name)
    if c == ALIAS:
        return f'"{name}":'
    if c == QUOTED:
        return '"' + escape(name, '"', None)[0] + '":'
    return name + ":"


# ---- binaries -------------------------------------------------------------

_NOT_PRINTABLE = re.compile(
    "[^\x20-\x7e\n\r\t\x0b\x08\x0c\x1b\x7f\x07\u00a0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
)


def printable(s: str, limit=PRINTABLE_LIMIT) -> bool:
    """``String.printable?(s, limit)``: only the first `limit` characters
    are looked at (invalid bytes, as surrogates, are not printable). `s`
    is a binary term or a text."""
    if type(s) is not str:
        s = binary_text(s)
    return _NOT_PRINTABLE.search(s, 0, limit) is None


_NAMED = {
    "\x07": "\\a", "\x08": "\\b", "\x7f": "\\d", "\x1b": "\\e", "\x0c": "\\f", "\n": "\\n",
    "\r": "\\r", "\t": "\\t", "\x0b": "\\v", "\\": "\\\\", "\x00": "\\0",
}
_INVISIBLE = re.compile(
    "[\ufeff\u2061-\u2064\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufff9-\ufffc"
    "\u200c\u200d\u034f\u00a0\u200b\u2060\u2028\u2029\u2000-\u200a\u205f]"
)
_PLAIN = re.compile("[\x20-\x7e\u00a0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_SPECIAL = {
    '"': re.compile('["#\\\\\x00-\x1f\x7f-\x9f\u00a0\u034f\u061c\u2000-\u200f\u2028-\u202e'
                    "\u205f-\u2064\u2066-\u2069\ud800-\udfff\ufeff\ufff9-\uffff]"),
}


_ESCAPED = {}


def escape_char(c: str) -> str:
    """One character as ``Code.Identifier.escape/3`` writes it (an invalid
    byte, as a surrogate, as ``\\xNN``)."""
    text = _ESCAPED.get(c)
    if text is not None:
        return text
    text = _NAMED.get(c)
    if text is None:
        code = ord(c)
        if 0xDC80 <= code <= 0xDCFF:
            text = f"\\x{code - 0xDC00:02X}"
        elif _INVISIBLE.match(c):
            text = f"\\u{code:04X}"
        elif _PLAIN.match(c):
            text = c
        elif code < 0x100:
            text = f"\\x{code:02X}"
        else:
            text = f"\\x{{{code:04X}}}"
    if len(_ESCAPED) < 4096:
        _ESCAPED[c] = text
    return text


def escape(s: str, quote: str, limit):
    """``Code.Identifier.escape/3``: escapes `quote`, ``#{``, control
    characters and invisible code points; stops after `limit` steps (a
    character, or ``#{``; None: no limit). Returns the text and whether
    something was left over. `s` is a binary term (invalid bytes come out
    as ``\\xNN``) or a text."""
    if type(s) is not str:
        s = binary_text(s)
    special = _SPECIAL.get(quote)
    if special is None:
        special = _SPECIAL[quote] = re.compile(re.escape(quote) + _SPECIAL['"'].pattern[2:])
    out = []
    count = limit
    i, n = 0, len(s)
    while i < n:
        m = special.search(s, i)
        j = m.start() if m is not None else n
        if j > i:  # a run of characters written as they are
            if count is not None:
                if j - i > count:
                    out.append(s[i : i + count])
                    return "".join(out), True
                count -= j - i
            out.append(s[i:j])
            i = j
            if i == n:
                break
        if count == 0:
            return "".join(out), True
        if count is not None:
            count -= 1
        c = s[i]
        if c == quote:
            out.append("\\" + quote)
        elif c == "#" and s.startswith("{", i + 1):
            out.append("\\#{")
            i += 1
        else:
            out.append(escape_char(c))
        i += 1
    return "".join(out), False


def _binary(s: str, limit, o):
    """A binary (as text): a quoted string when printable, else
    ``<<b1, b2, ...>>`` (``Inspect.BitString``)."""
    if printable(s, o.printable):
        text, more = escape(s, '"', o.printable)
        return f'"{text}" <> ...' if more else f'"{text}"'
    b = s.encode("utf-8", "surrogateescape")
    n = len(b)
    shown = min(n, limit)
    inner = "..." if shown < n else None
    for i in range(shown - 1, -1, -1):
        if i + 1 == n:
            inner = str(b[i])
        else:
            inner = A.flex_glue(f"{b[i]},", " ", inner)
    return A.group(A.concat(A.concat("<<", A.nest(inner, 2)), ">>"))


def inspect_binary(b) -> str:
    """``inspect/1`` of a binary term."""
    s = b if type(b) is str else b.decode("utf-8", "surrogateescape")
    return A.format(_binary(s, LIMIT, _DEFAULT), None)  # no struct in a binary: any release


# ---- lists, maps, structs ---------------------------------------------------


# The first exception a charlist's conversion raised while a term was
# inspected (IN-11): Elixir's ``inspect`` raises it instead of answering.
_RAISED = []


def _ascii_printable(items, o):
    """``List.ascii_printable?(list, limit)`` (the first ``limit`` elements
    are integers in 7..13, 27 or 32..126), then the whole list converted as
    chardata: elements past the limit are not checked for printability but
    must still convert (IN-11). When they do not, the exception is recorded
    for `inspect_checked` and the list prints as a list; else None."""
    head = items[: o.printable]
    for c in head:
        if type(c) is not int or not (7 <= c <= 13 or c == 27 or 32 <= c <= 126):
            return None
    text = "".join(map(chr, head))
    if len(head) == len(items):
        return text
    from .chars import chars_text

    try:
        return text + chars_text(list(items[len(head):]), release=o.rel)
    except Raised as e:
        if not _RAISED:
            _RAISED.append(e)
        return None


def inspect_checked(term, **opts):
    """`inspect`, or the exception Elixir's ``inspect`` raises: a charlist
    whose elements past the printable limit do not convert as chardata
    (IN-11). The ``term.inspect`` op answers this; messages that embed
    ``inspect`` text print such a list as a list."""
    _RAISED.clear()
    try:
        out = inspect(term, **opts)
    finally:
        raised = _RAISED[:1]
        _RAISED.clear()
    if raised:
        raise raised[0]
    return out


def _kw_name(t):
    """The key of a ``{atom, value}`` whose atom does not start with ``Elixir.``."""
    if type(t) is Tuple and len(t.items) == 2:
        name = atom_name(t.items[0])
        if name is not None and not name.startswith("Elixir."):
            return name
    return None


def _keyword_item(key, value, limit, o):
    return A.concat(atom_key(key), A.concat(" ", to_doc(value, limit, o)))


def _list(items, limit, o):
    if not items:
        return "[]"
    if not o.lists_as_lists:
        text = _ascii_printable(items, o)
        if text is not None:
            escaped, more = escape(text, '"', o.printable)
            return f'~c"{escaped}" ++ ...' if more else f'~c"{escaped}"'
    if all(_kw_name(x) is not None for x in items):
        return A.container_doc(
            "[", items, "]", limit, A.STRICT,
            lambda x, lim: _keyword_item(_kw_name(x), x.items[1], lim, o),
        )
    return A.container_doc("[", items, "]", limit, A.MAYBE, lambda x, lim: to_doc(x, lim, o))


def _map(pairs, name, limit, o):
    """``%name{...}`` (``Inspect.Map``): keyword-style when every key is an
    atom not starting with ``Elixir.``, else ``k => v``; pairs in order."""
    keyword = True
    for k, _ in pairs:
        n = atom_name(k)
        if n is None or n.startswith("Elixir."):
            keyword = False
            break

    def each(kv, lim):
        k, v = kv
        if keyword:
            return _keyword_item(atom_name(k), v, lim, o)
        return A.concat(A.concat(to_doc(k, lim, o), " => "), to_doc(v, lim, o))

    return A.container_doc("%" + name + "{", pairs, "}", limit, A.STRICT, each)


def _struct(s, limit, o):
    """``MapSet.new([...])`` for a set, a display struct as its own
    ``Inspect`` text, else ``%Module{field: value, ...}`` in defstruct
    order, a derived ``Inspect``'s optional fields left out while they hold
    their default (``URI``'s ``authority``)."""
    from .. import structs
    from . import chars

    if s.module == "MapSet":
        m = s.fields.get("map")
        if type(m) is Map:
            inner = _list(m.keys(), limit, _Opts(o.printable, True, o.width, o.rel))
            return A.concat(A.concat("MapSet.new(", inner), ")")
    shown = chars.display_struct(s, o.rel)
    if shown is not None:
        text, raised = shown
        if raised is None:
            return text
        return _failed_struct(s, raised, limit, o)
    rows = structs.fields_of(s.module, o.rel)
    order = [f for f, _ in rows] if rows is not None else list(s.fields)
    optional = structs.inspect_optional(s.module)
    defaults = dict(rows or ())
    pairs = []
    for f in order:
        if f not in s.fields:
            continue
        v = s.fields[f]
        if f in optional and f in defaults and equal(defaults[f], v):
            continue
        pairs.append((Atom(f), v))
    return _map(pairs, atom_literal("Elixir." + s.module), limit, o)


_TRAP = [False]
"""Elixir's ``:inspect_trap`` process flag: set while the ``Inspect.Error``
of a struct whose ``Inspect`` raised is built, so that a struct failing
again meanwhile prints as a plain map."""


def _failed_struct(s, raised, limit, o):
    """The text of an ``Inspect.Error`` (IN-15) for a struct whose
    ``Inspect`` raised `raised`, or, while one is being built, the struct
    as a map."""
    from .. import structs
    from . import chars, errors

    pairs = [(Atom("__struct__"), Atom("Elixir." + s.module))]
    rows = structs.fields_of(s.module, o.rel)
    if rows is not None:
        pairs += [(Atom(f), s.fields.get(f, d)) for f, d in rows]
    else:
        pairs += [(Atom(f), v) for f, v in s.fields.items()]
    as_map = Map.new(pairs)
    if _TRAP[0]:
        return _map(as_map.items(), "", limit, o)
    # List.to_string/1 built its message when it raised, before the trap.
    raised_message = chars.display_struct_not_chardata_message(s, o.rel)
    _TRAP[0] = True
    try:
        # Laid out at opts.width, 80 even when the outer inspect is not pretty.
        inspected = A.format(A.group(_map(as_map.items(), "", limit, o)), o.width)
        message = raised_message
        if message is None:
            message = chars.display_struct_undefined_message(s, o.rel)
        if message is None:
            message = raised.message
    finally:
        _TRAP[0] = False
    frames = chars.display_struct_frames(s, raised.cls, o.rel)
    return errors.inspect_error(raised.cls, message, inspected, frames)


def temporal(t) -> str:
    """``~D[...]``, ``~T[...]``, ``~N[...]``, ``~U[...]``, or
    ``#DateTime<...>`` for a datetime at a fixed offset (zone name and
    abbreviation are the offset text). A year outside -9999..9999 has no
    sigil (Elixir 1.18.4's ``Inspect`` for ``Calendar.ISO``): a ``Date`` or
    ``NaiveDateTime`` prints as the ``new!/n`` call that builds it, a UTC
    ``DateTime`` as ``#DateTime<...Z>``."""
    p = t.parts
    wide = p is not None and not -9999 <= p.year <= 9999
    if t.kind == "date":
        return f"Date.new!({p.year}, {p.month}, {p.day})" if wide else f"~D[{t.iso}]"
    if t.kind == "time":
        return f"~T[{t.iso}]"
    spaced = t.iso.replace("T", " ", 1)
    if t.kind == "naive_datetime":
        if wide:
            return (
                f"NaiveDateTime.new!({p.year}, {p.month}, {p.day}, {p.hour}, {p.minute}, "
                f"{p.second}, {{{p.microsecond}, {p.precision}}})"
            )
        return f"~N[{spaced}]"
    if spaced.endswith("Z"):
        return f"#DateTime<{spaced}>" if wide else f"~U[{spaced}]"
    offset = spaced[-6:]
    return f"#DateTime<{spaced} {offset} {offset}>"


_DEFAULT = _Opts(PRINTABLE_LIMIT, False, PRETTY_WIDTH, releases.DEFAULT)
