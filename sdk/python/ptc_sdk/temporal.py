"""The ISO 8601 texts of the four calendar structs as tagged term JSON
carries them (spec/terms.md TJ-6): exactly what ``Calendar.ISO``'s
``to_iso8601/1`` writes, every year of up to nine digits included, and
nothing else. `parse` checks a text and gives its parts, with the same
reasons as the Rust harness's reader (``src/model/temporal.rs``), so a
refusal reads the same in every codec; term order (TJ-11) reads the parts
here.
"""

from __future__ import annotations

import json
from typing import NamedTuple, Optional, Tuple

MAX_YEAR = 999_999_999
"""The largest year magnitude carried: nine digits (TJ-6)."""


class Parts(NamedTuple):
    """A calendar struct's parts; those its kind lacks are 0."""

    year: int
    month: int
    day: int
    hour: int
    minute: int
    second: int
    microsecond: int
    precision: int
    offset: Optional[Tuple[int, str]]
    """A DateTime's offset in seconds and its text (``"+02:00"``); None for Z."""


def days_in_month(year: int, month: int) -> int:
    """The length of `month` in `year` (proleptic Gregorian)."""
    if month == 2:
        leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
        return 29 if leap else 28
    return 30 if month in (4, 6, 9, 11) else 31


def _digits2(s: str, at: int):
    d = s[at : at + 2]
    if len(d) == 2 and d.isascii() and d.isdigit():
        return int(d)
    return None


def _two(s: str, at: int, sep: str, lo: int, hi: int):
    if s[at : at + 1] != sep:
        return None
    v = _digits2(s, at + 1)
    return v if v is not None and lo <= v <= hi else None


def _ascii_digits(s: str, at: int) -> int:
    n = 0
    while at + n < len(s) and "0" <= s[at + n] <= "9":
        n += 1
    return n


def _rest_empty(s: str, at: int):
    if at < len(s):
        raise ValueError(f"{json.dumps(s[at:], ensure_ascii=False)} after the value")


def parse(kind: str, iso: str) -> Parts:
    """The parts of `iso` read as a `kind` (``date``, ``time``,
    ``naive_datetime``, ``datetime``), or ValueError saying why it is not
    the text ``to_iso8601/1`` writes for one (TJ-6)."""
    year = month = day = 0
    at = 0
    if kind != "time":
        year, at = _year(iso)
        month = _two(iso, at, "-", 1, 12)
        if month is None:
            raise ValueError("the month is not -01 to -12")
        last = days_in_month(year, month)
        day = _two(iso, at + 3, "-", 1, last)
        if day is None:
            raise ValueError(f"the day is not -01 to -{last:02} (that month's length)")
        at += 6
        if kind == "date":
            _rest_empty(iso, at)
            return Parts(year, month, day, 0, 0, 0, 0, 0, None)
        if iso[at : at + 1] != "T":
            raise ValueError("no T between the date and the time")
        at += 1
    hour = _digits2(iso, at)
    if hour is None or hour > 23:
        raise ValueError("the hour is not 00 to 23")
    minute = _two(iso, at + 2, ":", 0, 59)
    if minute is None:
        raise ValueError("the minute is not :00 to :59")
    second = _two(iso, at + 5, ":", 0, 59)
    if second is None:
        raise ValueError("the second is not :00 to :59")
    at += 8
    microsecond = precision = 0
    if iso[at : at + 1] == ".":
        n = _ascii_digits(iso, at + 1)
        if not 1 <= n <= 6:
            raise ValueError("the fraction is not . and one to six digits")
        digits = iso[at + 1 : at + 1 + n]
        precision = n
        microsecond = int(digits.ljust(6, "0"))
        at += 1 + n
    offset = None
    if kind == "datetime":
        rest = iso[at:]
        if rest == "Z":
            return Parts(year, month, day, hour, minute, second, microsecond, precision, None)
        if rest[:1] in ("+", "-"):
            h = _digits2(iso, at + 1)
            m = _two(iso, at + 3, ":", 0, 59)
            if h is None or h > 23 or m is None:
                raise ValueError("the offset is not Z or ±HH:MM of at most 23:59")
            if rest[0] == "-" and h == 0 and m == 0:
                raise ValueError("the offset -00:00 is written +00:00")
            sign = -1 if rest[0] == "-" else 1
            offset = (sign * (h * 3600 + m * 60), iso[at : at + 6])
            at += 6
        else:
            raise ValueError("no offset: a datetime ends in Z or ±HH:MM")
    _rest_empty(iso, at)
    return Parts(year, month, day, hour, minute, second, microsecond, precision, offset)


def _year(s: str):
    """The year and where the date's ``-MM`` starts."""
    negative = s[:1] == "-"
    start = 1 if negative else 0
    n = _ascii_digits(s, start)
    digits = s[start : start + n]
    if not (n == 4 or (n > 4 and digits[0] != "0")):
        raise ValueError("the year is not four digits, or five or more without a leading zero")
    if n > 9:
        raise ValueError(f"the year has {n} digits: years beyond ±{MAX_YEAR} are not carried")
    value = int(digits)
    if negative and value == 0:
        raise ValueError("the year -0000 is written 0000")
    return (-value if negative else value), start + n


def year_text(year: int) -> str:
    """A year as ``Calendar.ISO`` writes it: ``-`` for a negative year,
    then at least four digits (``0000``, ``-0001``, ``12345``)."""
    return ("-" if year < 0 else "") + f"{abs(year):04d}"
