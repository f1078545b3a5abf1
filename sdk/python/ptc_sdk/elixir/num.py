"""Float texts Erlang and Elixir print (``src/elixir/num.rs``).

* `short_float`: ``Float.to_string/1`` (``:erlang.float_to_binary(x,
  [:short])`` on OTP 25), also the canonical encoding's float text.
* `inspect_float`: ``inspect/1`` of a float (``Inspect.Float``).
* `float_to_binary_compact_10`: ``:erlang.float_to_binary(x, [:compact,
  decimals: 10])``, the Lisp formatter's float text.
"""

from __future__ import annotations

import math

from ..tagged import short_float

__all__ = ["short_float", "inspect_float", "float_to_binary_compact_10"]

_2_53 = 9007199254740992.0


def inspect_float(x: float) -> str:
    """``inspect/1`` of a float: an integral float with 1.0 <= |x| < 1.0e16
    prints as its integer and ``.0``; every other float as `short_float`."""
    a = abs(x)
    if 1.0 <= a < 1.0e16 and x == int(x):
        return f"{int(x)}.0"
    return short_float(x)


def _round_half_away(x: float) -> float:
    """C's ``round()`` for x >= 0: halfway cases away from zero, exactly."""
    r = math.floor(x)
    return r + 1.0 if x - r >= 0.5 else r


def float_to_binary_compact_10(x: float) -> str:
    """``:erlang.float_to_binary(x, [:compact, decimals: 10])`` on OTP 25.

    Up to 2^53 in magnitude: the integer part, then the fraction scaled by
    10^10 in double arithmetic and rounded half away from zero (a carry
    goes into the integer part), trailing zeros dropped but one kept; the
    sign follows the sign bit (``-0.0`` and ``-1.0e-11`` print ``-0.0``).
    Beyond 2^53 the float is an integer and prints exactly with ``.0``,
    unless C's ``"%.10f"`` text would not fit OTP's 256-byte buffer: then
    ``ArgumentError`` (``erlang_badarg``, 2nd argument)."""
    sign = "-" if math.copysign(1.0, x) < 0 else ""
    af = abs(x)
    if af > _2_53:
        digits = str(int(af))
        if len(sign) + len(digits) + 11 >= 256:
            from .errors import badarg

            raise badarg("2nd", "invalid option in list")
        return f"{sign}{digits}.0"
    int_f = math.floor(af)
    frac_f = _round_half_away((af - int_f) * 1e10)
    if frac_f >= 1e10:
        int_part, frac_part = int(int_f) + 1, 0
    else:
        int_part, frac_part = int(int_f), int(frac_f)
    kept = f"{frac_part:010d}".rstrip("0") or "0"
    return f"{sign}{int_part}.{kept}"

