"""``DateTime.from_iso8601/1`` of Elixir 1.18.4 (``Calendar.ISO``,
extended format), shifted to UTC: what ``atomize_value/2`` makes of a
string typed ``:datetime`` (JH-9; ``src/elixir/datetime.rs``).

>>> from ptc_sdk.elixir.datetime import from_iso8601_utc
>>> from_iso8601_utc("2015-01-23T23:50:07,123+02:30")
Temporal('datetime', '2015-01-23T21:20:07.123Z')
>>> from_iso8601_utc("2024-01-01T00:00:00-00:00") is None
True
"""

from __future__ import annotations

from ..terms import Temporal


def _two(s: bytes, i: int):
    a, b = s[i : i + 1], s[i + 1 : i + 2]
    if a.isdigit() and b.isdigit() and len(a) == 1 and len(b) == 1:
        return int(s[i : i + 2])
    return None


def _integer_parse(b: bytes):
    """``Integer.parse/1`` of two bytes read whole: two digits, or a sign
    and one digit."""
    if len(b) != 2:
        return None
    if b.isdigit():
        return int(b)
    if b[:1] in (b"+", b"-") and b[1:].isdigit():
        return int(b)
    return None


def _offset(s: bytes):
    """``(ok, seconds)``: seconds None for no offset at all."""
    if s == b"":
        return True, None
    if s == b"Z":
        return True, 0
    if s == b"-00:00" or s[:1] not in (b"+", b"-"):
        return False, None
    sign = 1 if s[:1] == b"+" else -1
    r = s[1:]
    if len(r) >= 5 and r[2:3] == b":":
        h, m, rest = r[0:2], r[3:5], r[5:]
    elif len(r) >= 4:
        h, m, rest = r[0:2], r[2:4], r[4:]
    elif len(r) >= 2:
        h, m, rest = r[0:2], b"00", r[2:]
    else:
        return False, None
    hour, minute = _integer_parse(h), _integer_parse(m)
    if hour is None or minute is None or rest or not (hour < 24 and minute < 60):
        return False, None
    return True, (hour * 60 + minute) * 60 * sign


def _leap(y):
    return y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)


def _days_in_month(y, m):
    return 29 if m == 2 and _leap(y) else 28 if m == 2 else 30 if m in (4, 6, 9, 11) else 31


def _days_from_civil(y, m, d):
    y = y - 1 if m <= 2 else y
    era = y // 400
    yoe = y - era * 400
    doy = (153 * ((m + 9) % 12) + 2) // 5 + d - 1
    return era * 146_097 + yoe * 365 + yoe // 4 - yoe // 100 + doy - 719_468


def _civil_from_days(z):
    z += 719_468
    era = z // 146_097
    doe = z - era * 146_097
    yoe = (doe - doe // 1460 + doe // 36_524 - doe // 146_096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    return yoe + era * 400 + (m <= 2), m, d


def from_iso8601_utc(text):
    """The UTC ``DateTime`` a binary parses to, as a `Temporal`, or None
    where ``DateTime.from_iso8601/1`` answers ``{:error, _}``.

    Accepted: an optional ``+``/``-`` (negating the year), ``YYYY-MM-DD``,
    ``T`` or a space, ``HH:MM:SS``, an optional fraction after ``.`` or
    ``,`` (precision its digit count, at most 6), then ``Z`` or an offset
    ``±HH:MM``, ``±HHMM`` or ``±HH`` (``-00:00`` refused; each two-byte part
    read by ``Integer.parse/1``, so ``+-1:00`` passes). The date must
    exist, the time be at most 23:59:59.

    >>> from_iso8601_utc("0000-01-01T00:00:00+01:00").iso
    '-0001-12-31T23:00:00Z'
    >>> from_iso8601_utc("2024-01-01T00:00:00+-1").iso, from_iso8601_utc("2024-01-01T00:00:00")
    ('2024-01-01T01:00:00Z', None)
    """
    s = text.encode("utf-8") if type(text) is str else bytes(text)
    sign = 1
    if s[:1] in (b"+", b"-"):
        sign = -1 if s[:1] == b"-" else 1
        s = s[1:]
    if len(s) < 19:
        return None
    parts = [_two(s, i) for i in (0, 2, 5, 8, 11, 14, 17)]
    if None in parts[:2]:
        return None
    year = sign * (parts[0] * 100 + parts[1])
    if not (s[4:5] == b"-" and s[7:8] == b"-" and s[10:11] in (b"T", b" ") and s[13:14] == b":" and s[16:17] == b":"):
        return None
    if None in parts:
        return None
    month, day, hour, minute, second = parts[2:]
    rest = s[19:]
    micro, precision = 0, 0
    if rest[:1] in (b".", b","):
        n = 0
        while n + 1 < len(rest) and rest[n + 1 : n + 2].isdigit():
            n += 1
        if n == 0:
            return None
        kept = rest[1 : 1 + min(n, 6)]
        micro, precision = int(kept) * 10 ** (6 - len(kept)), min(n, 6)
        rest = rest[1 + n :]
    ok, offset = _offset(rest)
    if not ok:
        return None
    if not 1 <= month <= 12 or not 1 <= day <= _days_in_month(year, month):
        return None
    if hour > 23 or minute > 59 or second > 59 or offset is None:
        return None
    seconds = _days_from_civil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offset
    days, secs = divmod(seconds, 86_400)
    y, m, d = _civil_from_days(days)
    year_text = f"-{-y:04d}" if y < 0 else f"{y:04d}"
    iso = f"{year_text}-{m:02d}-{d:02d}T{secs // 3600:02d}:{secs % 3600 // 60:02d}:{secs % 60:02d}"
    if precision:
        iso += "." + f"{micro:06d}"[:precision]
    return Temporal("datetime", iso + "Z")
