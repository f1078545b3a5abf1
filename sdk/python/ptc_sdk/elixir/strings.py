"""``String.trim/1`` of Elixir 1.18.4 (Unicode 15.1): what
``validate_program/1`` strips before it calls a program empty (PP-52;
``src/ptc/protocol_validate.rs``).

>>> from ptc_sdk.elixir.strings import trim
>>> trim("\\u3000 x\\t\\n"), trim("\\u200b"), trim(b"\\xff ")
('x', '\\u200b', b'\\xff')
"""

from __future__ import annotations

WHITE_SPACE = frozenset(
    "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
# The code points of Unicode's White_Space property, which String.trim/1
# removes from both ends (25; not U+200B, U+180E, U+FEFF).

_WS_BYTES = sorted({c.encode("utf-8") for c in WHITE_SPACE}, key=len, reverse=True)


def trim(s):
    """``String.trim(s)`` of a binary term: white space removed from both
    ends, code point by code point; the bytes of a binary that is not UTF-8
    are left as they are except for whole white-space sequences at the ends.

    >>> trim(" a b "), trim("\\x00 ")
    ('a b', '\\x00')
    """
    from ..terms import binary

    b = s.encode("utf-8") if type(s) is str else bytes(s)
    start, end = 0, len(b)
    while start < end:
        hit = next((w for w in _WS_BYTES if b.startswith(w, start, end)), None)
        if hit is None:
            break
        start += len(hit)
    while end > start:
        hit = next((w for w in _WS_BYTES if b.endswith(w, start, end)), None)
        if hit is None:
            break
        end -= len(hit)
    return binary(b[start:end])
