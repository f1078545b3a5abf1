"""Elixir 1.18.4's identifier tokenizer (``String.Tokenizer.tokenize/1``),
as ``Macro.classify_atom/1`` uses it to decide whether ``inspect`` quotes an
atom (``spec/inspect.md`` IN-4; ``src/elixir/identifier/mod.rs``): Unicode
identifiers after UTS 31 with Elixir's restrictions (UTS 39 identifier
types, one script set per ``_``-separated chunk, ``µ`` read as ``μ``), and
the NFC check of OTP 25 (`normalize`). The classes and script sets are read
from ``spec/data/unicode/identifier.json``.
"""

from __future__ import annotations

from bisect import bisect_left

from .. import data
from .normalize import nfc_codepoints

FILE = "unicode/identifier.json"

BOTTOM = 0
TOP = -1  # every script: ANDing with it changes nothing
LATIN = None
MICRO, MU = 0xB5, 0x3BC

ALIAS, IDENTIFIER, ATOM = "alias", "identifier", "atom"
"""Token kinds: upper-case ASCII start (``Foo``); lower-case or ``_``
start (``foo``, ``ф``); non-ASCII upper-case or title-case start (``Ф``)."""

_T = None


class _Tables:
    def __init__(self):
        t = data.load(FILE)
        bits = {}
        masks = []
        for names in t["script_sets"]:
            m = 0
            for name in names:
                m |= 1 << bits.setdefault(name, len(bits))
            masks.append(m)
        self.latin = 1 << bits["Latin"]
        self.micro = masks[t["micro_script_set"]]
        self.classes = []
        for name in ("start", "upper", "continue"):
            ranges = t["classes"][name]["ranges"]
            self.classes.append(
                ([hi for _, hi, _ in ranges], [lo for lo, _, _ in ranges], [masks[m] for _, _, m in ranges])
            )
        self.start, self.upper, self.cont = self.classes


def _tables():
    global _T, LATIN
    if _T is None:
        _T = _Tables()
        LATIN = _T.latin
    return _T


def _lookup(table, cp) -> int:
    his, los, masks = table
    i = bisect_left(his, cp)
    if i < len(his) and los[i] <= cp:
        return masks[i]
    return BOTTOM


class Token:
    """What `tokenize` read: its `kind`, whether it took the `whole` name
    (nothing after a ``?``/``!``, no stop character), whether the name holds
    ``@`` (`at`), and `nfkc`: NFC changes the name, or it holds ``µ``."""

    __slots__ = ("kind", "whole", "at", "nfkc")

    def __init__(self, kind, whole, at, nfkc):
        self.kind, self.whole, self.at, self.nfkc = kind, whole, at, nfkc

    def __repr__(self):
        return f"Token({self.kind!r}, whole={self.whole}, at={self.at}, nfkc={self.nfkc})"


def tokenize(name: str):
    """``String.Tokenizer.tokenize/1`` of a name: a `Token`, or None where
    it answers an error (no valid start, a character no identifier may
    hold, or mixed scripts). `name` is a binary term (``str`` or
    ``bytes``) or a text."""
    if type(name) is not str:
        from ..terms import binary_text

        name = binary_text(name)
    if not name:
        return None
    t = _T or _tables()
    cps = [ord(c) for c in name]
    head = cps[0]
    acc = [head]
    nfkc = False
    if 0x41 <= head <= 0x5A:
        kind, ascii_, ss = ALIAS, True, LATIN
    elif 0x61 <= head <= 0x7A:
        kind, ascii_, ss = IDENTIFIER, True, LATIN
    elif head == 0x5F:
        kind, ascii_, ss = IDENTIFIER, True, TOP
    elif _lookup(t.upper, head):
        kind, ascii_, ss = ATOM, False, _lookup(t.upper, head)
    elif _lookup(t.start, head):
        kind, ascii_, ss = IDENTIFIER, False, _lookup(t.start, head)
    elif head == MICRO:
        acc[0] = MU
        nfkc = True
        kind, ascii_, ss = IDENTIFIER, False, t.micro
    else:
        return None
    at = False
    whole = True
    tail = cps[1:]
    n = len(tail)
    i = 0
    while i < n:
        c = tail[i]
        i += 1
        if c == 0x21 or c == 0x3F:
            acc.append(c)
            whole = i == n
            break
        if c == 0x40:
            at = True
            acc.append(c)
        elif 0x41 <= c <= 0x5A or 0x61 <= c <= 0x7A:
            ss &= LATIN
            acc.append(c)
        elif 0x30 <= c <= 0x39 or c == 0x5F:
            acc.append(c)
        elif c <= 0x7F:
            whole = False
            break
        else:
            found = _lookup(t.start, c) or _lookup(t.upper, c) or _lookup(t.cont, c)
            if found:
                ss &= found
                acc.append(c)
            elif c == MICRO:
                ss &= t.micro
                nfkc = True
                acc.append(MU)
            else:
                return None
            ascii_ = False
    if not ascii_:
        normal = nfc_codepoints(acc)
        if normal != acc:
            nfkc = True
        if ss == BOTTOM and not _chunks_single(normal):
            return None
    return Token(kind, whole, at, nfkc)


def _script_of(c) -> int:
    if 0x41 <= c <= 0x5A or 0x61 <= c <= 0x7A:
        return LATIN
    t = _T
    return _lookup(t.start, c) or _lookup(t.upper, c) or _lookup(t.cont, c) or TOP


def _chunks_single(cps) -> bool:
    """Every ``_``-separated chunk has a script in common."""
    chunk = TOP
    for c in cps + [0x5F]:
        if c == 0x5F:
            if chunk == BOTTOM:
                return False
            chunk = TOP
        else:
            chunk &= _script_of(c)
    return True
