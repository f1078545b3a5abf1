"""``String.Chars.to_string/1`` as Elixir 1.18 implements it for the terms
the boundary meets (what ``"#{x}"`` and ``to_string/1`` give), chardata
(``List.to_string/1`` over OTP 25's ``unicode:characters_to_binary/1``),
iodata, ``URI``'s ``String.Chars``, and the display structs of
``PtcRunner.Lisp.Format`` (``src/elixir/chars.rs``).

``String.Chars`` is the release's (`ptc_sdk.releases`; left out, the
served port's): the display structs implement it from v0.12.0 on, so at
v0.11.0 ``to_string`` of one raises ``Protocol.UndefinedError`` listing
v0.11.0's implementations (REL-7), while their ``Inspect`` (every
release) still interpolates their field.

It is not Jason's key rule: ``to_string(nil)`` is ``""``, while Jason
writes a ``nil`` key as ``"nil"`` (`jason`).

Results are binary terms (``str``, or ``bytes`` when not UTF-8).
"""

from __future__ import annotations

from .. import releases
from ..errors import Raised
from ..terms import Struct, Temporal, atom_name, binary
from . import messages as M
from .num import short_float


class _Undefined(Exception):
    """No ``String.Chars`` for `term`: its ``Protocol.UndefinedError`` is
    built by whoever catches this (the message may keep invalid bytes)."""

    def __init__(self, term):
        super().__init__()
        self.term = term


class _NotChardata(Exception):
    """A list that is not chardata: its ``ArgumentError`` inspects it."""

    def __init__(self, items):
        super().__init__()
        self.items = items


def _as_raised(e, rel) -> Raised:
    if type(e) is _Undefined:
        from .errors import protocol_undefined

        return protocol_undefined("String.Chars", e.term, rel)
    if type(e) is _NotChardata:
        return Raised("ArgumentError", _lossy(not_chardata_message(e.items, rel)))
    return e


def _lossy(text: str) -> str:
    if text.isascii():
        return text
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _bin(text: str):
    """A text (invalid bytes as surrogates) as a binary term."""
    if text.isascii():
        return text
    return binary(text.encode("utf-8", "surrogateescape"))


def to_string(t, release=None):
    """``String.Chars.to_string/1`` on `release`'s build: a binary term.
    Binaries are themselves, atoms their name (``nil`` is ``""``), integers
    and floats their ``to_string/1`` text, lists go through
    ``List.to_string/1``, calendar structs print with a space between date
    and time, ``URI`` and (from v0.12.0) the display structs their own
    text; anything else raises ``Protocol.UndefinedError`` (as `Raised`)."""
    rel = releases.resolve(release)
    try:
        return _bin(_chars(t, rel))
    except (Raised, _Undefined, _NotChardata) as e:
        raise _as_raised(e, rel) from None


def chars_text(t, release=None) -> str:
    """`to_string` as text, invalid bytes as ``surrogateescape`` code points."""
    rel = releases.resolve(release)
    try:
        return _chars(t, rel)
    except (Raised, _Undefined, _NotChardata) as e:
        raise _as_raised(e, rel) from None


def _text(b) -> str:
    return b if type(b) is str else b.decode("utf-8", "surrogateescape")


def _chars(t, rel) -> str:
    ty = type(t)
    if ty is str:
        return t
    if ty is bytes:
        return t.decode("utf-8", "surrogateescape")
    if t is None:
        return ""
    if ty is int:
        return str(t)
    if ty is float:
        return short_float(t)
    name = atom_name(t)
    if name is not None:
        return name
    if ty is list:
        return _list_chars(t)
    if ty is Struct:
        if t.module == "URI":
            return _uri(t)
        shown = _display_convert(t, rel)
        # REL-7: a display struct's String.Chars is there where the release lists it.
        if shown is None or not _implements(t.module, rel):
            raise _Undefined(t)
        return shown()
    if ty is Temporal:
        return temporal_to_string(t)
    raise _Undefined(t)


# ---- chardata ----------------------------------------------------------------

_SMALL = 1 << 59  # OTP's immediate integers: -2^59 .. 2^59 - 1


def list_to_string(items, release=None):
    """``List.to_string/1`` of a list: a binary term, or `Raised`
    (``ArgumentError`` for a list that is not chardata, which inspects it
    as `release` does, ``UnicodeConversionError`` for bad code points or
    bytes, LF-13)."""
    return to_string(list(items), release)


def _list_chars(items) -> str:
    if _sizing(items) == "badarg":
        raise _NotChardata(items)
    out = bytearray()
    carried = bytearray()
    _convert(items, out, carried)
    if carried:
        if _truncated(carried):
            raise _conversion_error("unicode_incomplete_encoding", carried)
        raise _conversion_error("unicode_invalid_encoding", carried)
    return out.decode("utf-8")


def _sizing(items):
    """OTP 25's first pass, which sizes the output: anything that is no
    integer, binary or list is ``badarg``, but the pass takes any small
    integer and stops at the first bignum (what follows is never seen)."""
    for x in items:
        ty = type(x)
        if ty is int:
            if not -_SMALL <= x < _SMALL:
                return "bignum"
        elif ty is str or ty is bytes:
            pass
        elif ty is list:
            r = _sizing(x)
            if r != "fine":
                return r
        else:
            return "badarg"
    return "fine"


def _seq_len(lead: int) -> int:
    if 0xC0 <= lead <= 0xDF:
        return 2
    if 0xE0 <= lead <= 0xEF:
        return 3
    if 0xF0 <= lead <= 0xF7:
        return 4
    return 1


def _valid_up_to(b) -> int:
    try:
        bytes(b).decode("utf-8")
        return len(b)
    except UnicodeDecodeError as e:
        return e.start


def _truncated(rest) -> bool:
    return len(rest) < _seq_len(rest[0]) and all(0x80 <= x <= 0xBF for x in rest[1:])


def _conversion_error(template, b) -> Raised:
    from .inspect import inspect_binary

    return M.get(template).raised(bytes=inspect_binary(bytes(b)))


def _convert(items, out, carried):
    for x in items:
        ty = type(x)
        if ty is int:
            if carried:
                raise _conversion_error("unicode_invalid_encoding", carried)
            if 0 <= x <= 0x10FFFF and not 0xD800 <= x <= 0xDFFF:
                out += chr(x).encode("utf-8")
            else:
                raise M.get("unicode_invalid_code_point").raised(n=str(x))
        elif ty is str or ty is bytes:
            b = x.encode("utf-8") if ty is str else x
            if carried:
                # A split sequence is filled from the binaries that follow:
                # one shorter than what is missing joins it whatever its
                # bytes; a longer one must complete one valid character,
                # else the error names the carried bytes alone.
                missing = _seq_len(carried[0]) - len(carried)
                if len(b) < missing:
                    carried += b
                    continue
                seq = bytes(carried) + b[:missing]
                if _valid_up_to(seq) != len(seq):
                    raise _conversion_error("unicode_invalid_encoding", seq[: len(seq) - missing])
                carried.clear()
                out += seq
                b = b[missing:]
            valid = len(b) if ty is str else _valid_up_to(b)
            out += b[:valid]
            rest = b[valid:]
            if not rest:
                continue
            if len(rest) < _seq_len(rest[0]):
                carried[:] = rest
            else:
                raise _conversion_error("unicode_invalid_encoding", rest)
        else:  # a list (anything else is past a bignum, already raised)
            _convert(x, out, carried)


def not_chardata_message(items, release=None) -> str:
    """``List.to_string/1``'s ``ArgumentError`` message for a list that is
    not chardata (the list inspected as `release` does; a display struct's
    bytes kept as surrogates)."""
    from .inspect import inspect_text

    rel = releases.resolve(release)
    return M.get("list_to_string_not_chardata", rel).render_text(list=inspect_text(list(items), release=rel))


def iodata_to_binary(t):
    """``IO.iodata_to_binary/1``: bytes (integers 0..255) and binaries,
    nested in lists, concatenated (a binary term); anything else raises
    ``ArgumentError`` "not an iodata term"."""
    out = bytearray()

    def walk(x):
        ty = type(x)
        if ty is int:
            if 0 <= x <= 255:
                out.append(x)
                return True
            return False
        if ty is str:
            out.extend(x.encode("utf-8"))
            return True
        if ty is bytes:
            out.extend(x)
            return True
        if ty is list:
            return all(walk(y) for y in x)
        return False

    if walk(t):
        return binary(bytes(out))
    from .errors import badarg

    raise badarg("1st", "not an iodata term")


# ---- calendar structs, URI ----------------------------------------------------


def temporal_to_string(t) -> str:
    """``to_string/1`` of a calendar struct: ISO 8601 with a space for the
    ``T``; a ``DateTime`` not in UTC also names its zone abbreviation and
    zone (for a fixed offset both are the offset text)."""
    spaced = t.iso.replace("T", " ", 1)
    if t.kind != "datetime" or spaced.endswith("Z"):
        return spaced
    offset = spaced[-6:]
    return f"{spaced} {offset} {offset}"


_DEFAULT_PORTS = {"ftp": 21, "sftp": 22, "tftp": 69, "http": 80, "ws": 80, "https": 443, "wss": 443, "ldap": 389}
_I64 = 1 << 63


def _uri(s) -> str:
    """``String.Chars`` of a ``URI`` (Elixir 1.18.4): ``scheme:``, ``//`` and
    the authority (``userinfo@``, the host, bracketed when it holds a
    colon, ``:port`` unless the scheme's default), the path, ``?query``,
    ``#fragment``; with a host, a path neither empty nor absolute raises."""
    f = s.fields

    def text(name):
        v = f.get(name)
        return _text(v) if type(v) in (str, bytes) else None

    scheme, host, path = text("scheme"), text("host"), text("path")
    if host is not None and path and not path.startswith("/"):
        from .inspect import inspect_lossy

        raise M.get("uri_path_not_absolute").raised(uri=inspect_lossy(s))
    port = f.get("port")
    shown_port = None
    if type(port) is int:
        if not -_I64 <= port < _I64 or port != _DEFAULT_PORTS.get(scheme):
            shown_port = str(port)
    out = []
    if scheme is not None:
        out.append(scheme + ":")
    if host is None:
        authority = text("authority")
    else:
        userinfo = text("userinfo")
        authority = (userinfo + "@" if userinfo is not None else "") + (
            f"[{host}]" if ":" in host else host
        )
        if shown_port is not None:
            authority += ":" + shown_port
    if authority is not None:
        out.append("//" + authority)
    for prefix, name in (("", "path"), ("?", "query"), ("#", "fragment")):
        v = text(name)
        if v is not None:
            out.append(prefix + v)
    return "".join(out)


# ---- PtcRunner.Lisp.Format's display structs ----------------------------------

_DISPLAY = {
    "PtcRunner.Lisp.Format.Fn": ("#fn[", "params", "]"),
    "PtcRunner.Lisp.Format.Var": ("#'", "name", ""),
    "PtcRunner.Lisp.Format.SymbolRef": ("'", "name", ""),
    "PtcRunner.Lisp.Format.RegexLiteral": ('#"', "source", '"'),
}


def _implements(module, rel) -> bool:
    from .errors import implements

    return implements("String.Chars", module, rel)


def _display_convert(s, rel):
    """A thunk converting display struct `s` as its ``Inspect`` does (its
    field through `rel`'s ``String.Chars``, raising as `_chars` does), or
    None when `s` is no display struct."""
    if s.module == "PtcRunner.Lisp.Format.Builtin":
        return lambda: "#<builtin>"
    frame = _DISPLAY.get(s.module)
    if frame is None:
        return None
    open_, field, close = frame
    return lambda: open_ + _chars(s.fields.get(field), rel) + close


def is_display_struct(s) -> bool:
    """Whether `s` is one of ``PtcRunner.Lisp.Format``'s display structs
    (every release has them and their ``Inspect``)."""
    return type(s) is Struct and (s.module == "PtcRunner.Lisp.Format.Builtin" or s.module in _DISPLAY)


def display_struct(s, release=None):
    """The ``Inspect`` text of a display struct on `release`'s build (also
    its ``String.Chars`` text from v0.12.0 on): None for any other struct,
    else ``(text, None)`` or ``(None, Raised)``; the text keeps invalid
    bytes as surrogates."""
    rel = releases.resolve(release)
    convert = _display_convert(s, rel)
    if convert is None:
        return None
    try:
        return convert(), None
    except (Raised, _Undefined, _NotChardata) as e:
        return None, _as_raised(e, rel)


def display_struct_undefined_message(s, release=None):
    """The message (invalid bytes kept) of the ``Protocol.UndefinedError``
    display struct `s`'s conversion raises, or None."""
    rel = releases.resolve(release)
    convert = _display_convert(s, rel)
    try:
        convert()
    except _Undefined as e:
        from .errors import protocol_undefined_text

        return protocol_undefined_text("String.Chars", e.term, rel)
    except (Raised, _NotChardata):
        pass
    return None


def display_struct_not_chardata_message(s, release=None):
    """The message (invalid bytes kept) of the ``ArgumentError`` display
    struct `s`'s conversion raises for a list that is not chardata, or None."""
    rel = releases.resolve(release)
    convert = _display_convert(s, rel)
    try:
        convert()
    except _NotChardata as e:
        return not_chardata_message(e.items, rel)
    except (Raised, _Undefined):
        pass
    return None


_ADAPTER_FRAMES = (
    "(elixir 1.18.4) lib/inspect/algebra.ex:348: Inspect.Algebra.to_doc/2",
    "(elixir 1.18.4) lib/kernel.ex:2376: Kernel.inspect/2",
    "harness/adapters/elixir/adapter.exs:502: PtcAdapter.call/3",
    "harness/adapters/elixir/adapter.exs:431: PtcAdapter.handle/1",
    "harness/adapters/elixir/adapter.exs:417: PtcAdapter.loop/0",
    "harness/adapters/elixir/adapter.exs:545: (file)",
)
# The line of each display struct's Inspect in lib/ptc_runner/lisp/format.ex,
# (v0.11.0's, v0.12.0's on): v0.12.0 added the String.Chars implementations
# between them (REL-7). The other display structs' sit on _OTHER_LINE.
_FRAME_LINES = {
    "PtcRunner.Lisp.Format.Fn": (30, 31),
    "PtcRunner.Lisp.Format.Var": (49, 65),
    "PtcRunner.Lisp.Format.SymbolRef": (58, 82),
}
_OTHER_LINE = (67, 99)


def display_struct_frames(s, cls, release=None):
    """The stack trace the reference shows for a display struct whose
    ``Inspect`` raised `cls` on `release`'s build (compared loosely,
    ``spec/README.md`` LOOSE-4)."""
    if cls == "Protocol.UndefinedError":
        raising = [
            "(elixir 1.18.4) lib/string/chars.ex:3: String.Chars.impl_for!/1",
            "(elixir 1.18.4) lib/string/chars.ex:22: String.Chars.to_string/1",
        ]
    elif cls == "UnicodeConversionError":
        raising = ["(elixir 1.18.4) lib/list.ex:1143: List.to_string/1"]
    else:
        raising = ["(elixir 1.18.4) lib/list.ex:1124: List.to_string/1"]
    newer = releases.since(releases.resolve(release), "0.12.0")
    line = _FRAME_LINES.get(s.module, _OTHER_LINE)[newer]
    frames = raising + [f"lib/ptc_runner/lisp/format.ex:{line}: Inspect.{s.module}.inspect/2"]
    return (frames + list(_ADAPTER_FRAMES))[:8]

