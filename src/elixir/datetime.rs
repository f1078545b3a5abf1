//! `DateTime.from_iso8601/1` of Elixir 1.18.4 (`Calendar.ISO`, extended
//! format) followed by `DateTime.shift_zone!/2` to `"Etc/UTC"`: what
//! `atomize_value/2` makes of a string typed `:datetime`
//! (`spec/json_handler.md` JH-9).

use crate::temporal::days_in_month;
use crate::term::{Temporal, TemporalKind};

/// The UTC `DateTime` a string parses to, as its `to_iso8601/1` text, or
/// `None` where `DateTime.from_iso8601/1` answers `{:error, _}` (JH-9).
///
/// Accepted: an optional `+` or `-` (negating the year), `YYYY-MM-DD`, a
/// `T` or a space, `HH:MM:SS`, an optional fraction after `.` or `,` (at
/// least one digit; precision its digit count, at most 6, further digits
/// dropped), then `Z`, or an offset `±HH:MM`, `±HHMM` or `±HH` (`-00:00`
/// refused), each two-byte part read by `Integer.parse/1` (so `+1` and
/// `-1` are numbers too) and below 24 hours and 60 minutes, nothing after.
/// The date must exist (proleptic Gregorian), the time be at most
/// 23:59:59. The wall clock less the offset is the UTC value.
pub fn from_iso8601_utc(s: &[u8]) -> Option<Temporal> {
    let (sign, s) = match s.first() {
        Some(b'-') => (-1, &s[1..]),
        Some(b'+') => (1, &s[1..]),
        _ => (1, s),
    };
    if s.len() < 19 {
        return None;
    }
    let digit = |i: usize| s[i].is_ascii_digit().then(|| i64::from(s[i] - b'0'));
    let two = |i: usize| Some(digit(i)? * 10 + digit(i + 1)?);
    let year = sign * (two(0)? * 100 + two(2)?);
    let fixed = s[4] == b'-' && s[7] == b'-' && matches!(s[10], b'T' | b' ');
    if !(fixed && s[13] == b':' && s[16] == b':') {
        return None;
    }
    let (month, day) = (two(5)?, two(8)?);
    let (hour, minute, second) = (two(11)?, two(14)?, two(17)?);
    let (micro, precision, rest) = microsecond(&s[19..])?;
    let offset = offset(rest)?;
    if !(1..=12).contains(&month) || day < 1 || day > days_in_month(year, month) {
        return None;
    }
    if hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    let offset = offset?;
    let seconds =
        days_from_civil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offset;
    let (days, secs) = (seconds.div_euclid(86_400), seconds.rem_euclid(86_400));
    let (y, m, d) = civil_from_days(days);
    let year_text = if y < 0 {
        format!("-{:04}", -y)
    } else {
        format!("{y:04}")
    };
    let mut iso = format!(
        "{year_text}-{m:02}-{d:02}T{:02}:{:02}:{:02}",
        secs / 3600,
        secs % 3600 / 60,
        secs % 60
    );
    if precision > 0 {
        iso.push('.');
        iso.push_str(&format!("{micro:06}")[..precision]);
    }
    iso.push('Z');
    Some(Temporal {
        kind: TemporalKind::DateTime,
        iso,
    })
}

/// The fraction: `(value, precision, rest)`; `None` for a separator with
/// no digit after it (JH-9: `.` or `,`, at least one digit, at most six
/// kept).
fn microsecond(s: &[u8]) -> Option<(i64, usize, &[u8])> {
    if !matches!(s.first(), Some(b'.' | b',')) {
        return Some((0, 0, s));
    }
    let digits = s[1..].iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return None;
    }
    let kept = &s[1..1 + digits.min(6)];
    let value = kept.iter().fold(0, |acc, b| acc * 10 + i64::from(b - b'0'))
        * 10_i64.pow(6 - kept.len() as u32);
    Some((value, digits.min(6), &s[1 + digits..]))
}

/// The offset in seconds: `Some(None)` for no offset at all (an error the
/// caller reports only after the date and time checks), `None` when the
/// rest is not an offset (JH-9: `Z`, `±HH:MM`, `±HHMM` or `±HH`, exactly
/// `-00:00` refused, sign × (hours × 3600 + minutes × 60)).
fn offset(s: &[u8]) -> Option<Option<i64>> {
    let sign = match s {
        [] => return Some(None),
        b"Z" => return Some(Some(0)),
        b"-00:00" => return None,
        [b'+', ..] => 1,
        [b'-', ..] => -1,
        _ => return None,
    };
    let (hour, minute, rest) = match &s[1..] {
        [h1, h2, b':', m1, m2, rest @ ..] => ([*h1, *h2], [*m1, *m2], rest),
        [h1, h2, m1, m2, rest @ ..] => ([*h1, *h2], [*m1, *m2], rest),
        [h1, h2, rest @ ..] => ([*h1, *h2], *b"00", rest),
        _ => return None,
    };
    let (hour, minute) = (integer_parse(hour)?, integer_parse(minute)?);
    (rest.is_empty() && hour < 24 && minute < 60).then_some(Some((hour * 60 + minute) * 60 * sign))
}

/// `Integer.parse/1` of two bytes that must be read whole: two digits, or
/// a sign and one digit (JH-9: `+1` and `-1` count as numbers).
fn integer_parse(b: [u8; 2]) -> Option<i64> {
    match b {
        [d1, d2] if d1.is_ascii_digit() && d2.is_ascii_digit() => {
            Some(i64::from(d1 - b'0') * 10 + i64::from(d2 - b'0'))
        }
        [b'+', d] if d.is_ascii_digit() => Some(i64::from(d - b'0')),
        [b'-', d] if d.is_ascii_digit() => Some(-i64::from(d - b'0')),
        _ => None,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (any year): JH-9's
/// wall clock less the offset is counted on it.
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (JH-9: the
/// UTC value's date, before year 0 or past 9999 too, TJ-6).
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utc(s: &str) -> Option<String> {
        from_iso8601_utc(s.as_bytes()).map(|t| t.iso)
    }

    #[test]
    fn offsets_shift_to_utc_keeping_precision() {
        assert_eq!(
            utc("2015-01-23T23:50:07,123+02:30").as_deref(),
            Some("2015-01-23T21:20:07.123Z")
        );
        assert_eq!(
            utc("2024-03-01 00:30:00+01").as_deref(),
            Some("2024-02-29T23:30:00Z")
        );
        assert_eq!(
            utc("0000-01-01T00:00:00+01:00").as_deref(),
            Some("-0001-12-31T23:00:00Z")
        );
        assert_eq!(
            utc("2024-01-01T00:00:00.1234567Z").as_deref(),
            Some("2024-01-01T00:00:00.123456Z")
        );
    }

    #[test]
    fn what_elixir_refuses_is_refused() {
        for s in [
            "2024-01-01T00:00:00",
            "2024-02-30T00:00:00Z",
            "2024-01-01T24:00:00Z",
            "2024-01-01T00:00:00-00:00",
            "2024-01-01T00:00:00.Z",
            "2024-01-01t00:00:00Z",
        ] {
            assert_eq!(utc(s), None, "{s}");
        }
        assert_eq!(
            utc("2024-01-01T00:00:00+-1").as_deref(),
            Some("2024-01-01T01:00:00Z")
        );
    }
}
