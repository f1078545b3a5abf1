"""Canonical composition (NFC) as OTP 25's
``:unicode.characters_to_nfc_list/1`` does it: one grapheme cluster at a
time (`graphemes`), with OTP 25's normalization data (Unicode 14.0) read
from ``spec/data/unicode/normalization.json``, never from Python's
``unicodedata`` (whose Unicode version follows the Python release: 14.0 in
Python 3.11, 15.0 in 3.12, 15.1 in 3.13). Elixir's tokenizer uses it to
tell whether an atom is in NFC (``spec/inspect.md`` IN-4;
``src/elixir/identifier/mod.rs`` in the reference).
"""

from __future__ import annotations

from .. import data
from .graphemes import cluster_end

FILE = "unicode/normalization.json"

_CCC = None
_DECOMP = None
_PAIRS = None


def _load():
    global _CCC, _DECOMP, _PAIRS
    t = data.load(FILE)
    _DECOMP = {cp: [tuple(x) for x in d] for cp, d in t["decompositions"]}
    _PAIRS = {(a, b): c for a, b, c in t["compositions"]}
    _CCC = dict(t["combining_classes"])


def combining_class(cp: int) -> int:
    """The canonical combining class of a code point (0 for most)."""
    if _CCC is None:
        _load()
    return _CCC.get(cp, 0)


def nfc_codepoints(cps):
    """NFC of a list of code points, cluster by cluster."""
    if _CCC is None:
        _load()
    out = []
    i, n = 0, len(cps)
    while i < n:
        end = cluster_end(cps, i)
        if end == i + 1 and cps[i] < 256:
            out.append(cps[i])
        else:
            out.extend(_compose(_decompose(cps[i:end])))
        i = end
    return out


def nfc(s):
    """``:unicode.characters_to_nfc_binary/1`` of a binary term, as OTP 25:
    a canonical binary term (``str``). Given a text holding
    ``surrogateescape`` code points, a text.

    >>> nfc("e\\u0301") == nfc(b"e\\xcc\\x81") == "\\u00e9"
    True
    """
    if type(s) is not str:
        from ..terms import binary_text, text_binary

        return text_binary(nfc(binary_text(s)))
    if s.isascii():
        return s
    return "".join(map(chr, nfc_codepoints([ord(c) for c in s])))


def _decompose(cluster):
    """``unicode_util:decompose/1``: full canonical decomposition, then the
    canonical order of each run of non-starters (stable by class)."""
    tagged = []
    for c in cluster:
        if 0xAC00 <= c <= 0xD7A3:
            s = c - 0xAC00
            tagged.append((0, 0x1100 + s // 588))
            tagged.append((0, 0x1161 + (s % 588) // 28))
            if s % 28:
                tagged.append((0, s % 28 + 0x11A7))
        else:
            d = _DECOMP.get(c)
            if d is not None:
                tagged.extend(d)
            else:
                tagged.append((_CCC.get(c, 0), c))
    out = []
    j, n = 0, len(tagged)
    while j < n:
        if tagged[j][0] == 0:
            out.append(tagged[j][1])
            j += 1
        else:
            end = j
            while end < n and tagged[end][0] != 0:
                end += 1
            run = sorted(tagged[j:end], key=lambda kc: kc[0])
            out.extend(c for _, c in run)
            j = end
    return out


def _compose(cps):
    """``unicode_util:compose/1`` of one decomposed cluster."""
    n = len(cps)
    if n == 0:
        return []
    if n == 1:
        return [cps[0]]
    lead = cps[0]
    if 0x1100 <= lead <= 0x1112:
        vowel = cps[1]
        if 0x1161 <= vowel <= 0x1175:
            syllable = 0xAC00 + (lead - 0x1100) * 588 + (vowel - 0x1161) * 28
            trail = cps[2:]
            if trail and 0x11A7 <= trail[0] <= 0x11C2:
                return [syllable + trail[0] - 0x11A7] + trail[1:]
            return [syllable] + trail
        return [lead] + _compose(cps[1:])
    if n == 2:
        c = _PAIRS.get((lead, cps[1]))
        return [c] if c is not None else [lead, cps[1]]
    base = lead
    accents = []
    prev = _CCC.get(base, 0)
    for c in cps[1:]:
        k = _CCC.get(c, 0)
        combined = _PAIRS.get((base, c))
        if combined is not None and (prev == 0 or prev < k):
            base = combined
        else:
            accents.append(c)
            prev = k
    return [base] + accents
