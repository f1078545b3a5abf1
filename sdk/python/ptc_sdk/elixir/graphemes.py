"""Grapheme clusters as OTP 25's ``unicode_util:gc/1`` splits them (Unicode
14.0), which Elixir's ``String.length/1``, ``String.slice/3`` and
``String.graphemes/1`` use (``src/elixir/string/mod.rs``; PP-105). It
mostly follows UAX #29's extended grapheme clusters but not quite: after an
extended pictographic character, spacing marks extend the cluster like
combining marks, and a ZWJ not followed by another pictograph ends it. The
character classes are read from ``spec/data/unicode/grapheme.json``.

Texts are ``str``; a binary that is not UTF-8 is read with
``surrogateescape`` (`binary_text`): each invalid byte is a grapheme of its
own, and clusters never span one.
"""

from __future__ import annotations

from bisect import bisect_left

from .. import data
from ..terms import binary, binary_text  # noqa: F401  (binary_text: its home was here)
from ..terms import text_binary as _text_binary

FILE = "unicode/grapheme.json"
ZWJ = 0x200D


class _Tables:
    def __init__(self):
        t = data.load(FILE)
        self.latin1_control = frozenset(t["latin1_control"])
        self.latin1_pict = frozenset(t["latin1_extended_pictographic"])
        first = t["first"]
        self.first_hi = [hi for _, hi, _ in first]
        self.first = first
        self.extend = _ranges(t["extend"])
        self.ext_pict = _ranges(t["extended_pictographic"])
        self.control = _ranges(t["control"])
        self.hangul_l = _ranges(t["hangul_l"])
        self.hangul_v = _ranges(t["hangul_v"])
        self.hangul_t = _ranges(t["hangul_t"])


def _ranges(pairs):
    """[lo, hi] ranges as (his, los) for `_in`."""
    return [hi for _, hi in pairs], [lo for lo, _ in pairs]


def _in(cp, ranges) -> bool:
    his, los = ranges
    i = bisect_left(his, cp)
    return i < len(his) and los[i] <= cp


_T = None


def _tables():
    global _T
    if _T is None:
        _T = _Tables()
    return _T


def _first_class(cp):
    t = _T
    i = bisect_left(t.first_hi, cp)
    if i < len(t.first) and t.first[i][0] <= cp:
        return t.first[i][2]
    return None


def _is_extend(cp):
    return cp == ZWJ or _in(cp, _T.extend)


def _syllable(cp):
    """A precomposed Hangul syllable: True for LV, False for LVT, else None."""
    if 0xAC00 <= cp <= 0xD7A3:
        return (cp - 0xAC00) % 28 == 0
    return None


def cluster_end(s, i: int) -> int:
    """The index just past the cluster that starts at `i` of `s` (a
    sequence of code points, as ints)."""
    t = _T or _tables()
    n = len(s)
    cp = s[i]
    nxt = s[i + 1] if i + 1 < n else None
    if cp == 13:
        return i + 2 if nxt == 10 else i + 1
    if cp < 0x100:
        if cp in t.latin1_control:
            return i + 1
        if cp in t.latin1_pict:
            return _ext_pict(s, i + 1)
        if nxt is not None and nxt < 0x100:
            return i + 1
        return _extend(s, i + 1)
    if 0xDC80 <= cp <= 0xDCFF:  # an invalid byte (surrogateescape)
        return i + 1
    c = _first_class(cp)
    if c is None:
        if 44000 < cp < 56000:
            syl = _syllable(cp)
            if syl is True:
                return _hangul_v(s, i + 1)
            if syl is False:
                return _hangul_t(s, i + 1)
        return _extend(s, i + 1)
    if c == "control":
        return i + 1
    if c == "prepend":
        if nxt is None or _in(nxt, t.control) or 0xDC80 <= nxt <= 0xDCFF:
            return i + 1
        return cluster_end(s, i + 1)
    if c == "hangul_l":
        return _hangul_l(s, i + 1)
    if c == "hangul_v":
        return _hangul_v(s, i + 1)
    if c == "hangul_t":
        return _hangul_t(s, i + 1)
    if c == "regional_indicator":
        if nxt is not None and 0x1F1E6 <= nxt <= 0x1F1FF:
            return _extend(s, i + 2)
        return _extend(s, i + 1)
    return _ext_pict(s, i + 1)  # extended_pictographic


def _extend(s, i):
    n = len(s)
    while i < n and _is_extend(s[i]):
        i += 1
    return i


def _ext_pict(s, i):
    n = len(s)
    while i < n:
        c = s[i]
        if c == ZWJ:
            if i + 1 < n and _in(s[i + 1], _T.ext_pict):
                i += 2
            else:
                return i + 1
        elif _is_extend(c):
            i += 1
        else:
            return i
    return i


def _hangul_l(s, i):
    n = len(s)
    while i < n and _in(s[i], _T.hangul_l):
        i += 1
    if i >= n:
        return i
    c = s[i]
    if _in(c, _T.hangul_v):
        return _hangul_v(s, i + 1)
    syl = _syllable(c)
    if syl is True:
        return _hangul_v(s, i + 1)
    if syl is False:
        return _hangul_t(s, i + 1)
    return _extend(s, i)


def _hangul_v(s, i):
    n = len(s)
    while i < n and _in(s[i], _T.hangul_v):
        i += 1
    if i < n and _in(s[i], _T.hangul_t):
        return _hangul_t(s, i + 1)
    return _extend(s, i)


def _hangul_t(s, i):
    n = len(s)
    while i < n and _in(s[i], _T.hangul_t):
        i += 1
    return _extend(s, i)


def graphemes(b):
    """``String.graphemes/1``: the clusters of a binary term, each a binary
    term (``str``, or ``bytes`` for an invalid byte)."""
    s = binary_text(b)
    cps = [ord(c) for c in s]
    out, i = [], 0
    while i < len(cps):
        j = cluster_end(cps, i)
        out.append(_text_binary(s[i:j]))
        i = j
    return out


def length(b) -> int:
    """``String.length/1``: the number of grapheme clusters."""
    s = binary_text(b)
    if s.isascii() and "\r" not in s:
        return len(s)
    cps = [ord(c) for c in s]
    i = n = 0
    while i < len(cps):
        i = cluster_end(cps, i)
        n += 1
    return n


def take(b, n: int):
    """``String.slice(b, 0, n)``: the first `n` clusters (all of `b` when it
    has fewer), a binary term."""
    s = binary_text(b)
    cps = [ord(c) for c in s]
    i = 0
    for _ in range(n):
        if i >= len(cps):
            break
        i = cluster_end(cps, i)
    return binary(b) if i >= len(cps) else _text_binary(s[:i])
