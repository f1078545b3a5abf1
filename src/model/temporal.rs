//! The ISO 8601 texts of the four calendar structs as tagged JSON carries
//! them (`spec/terms.md` TJ-6): exactly the text `Calendar.ISO`'s
//! `to_iso8601/1` writes, for every value it writes one for, and nothing
//! else, so that text equality is term equality and every codec reads the
//! same set. [`parse`] checks a text and gives its parts; the term order
//! (TJ-11), `inspect/1` and the rest read them here.

use crate::term::TemporalKind;

/// The largest year magnitude carried: nine digits (TJ-6), so every day
/// and second count of a value fits an `i64`.
pub const MAX_YEAR: i64 = 999_999_999;

/// The parts of a calendar struct's text; those its kind lacks are zero.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Parts {
    /// The year (proleptic Gregorian, year 0 = 1 BC).
    pub year: i64,
    /// 1..=12.
    pub month: i64,
    /// 1..=the month's length.
    pub day: i64,
    /// 0..=23.
    pub hour: i64,
    /// 0..=59.
    pub minute: i64,
    /// 0..=59.
    pub second: i64,
    /// The fraction in microseconds, 0..=999_999.
    pub microsecond: i64,
    /// How many fraction digits the text shows, 0..=6 (Elixir's precision).
    pub precision: i64,
    /// A `DateTime`'s offset from UTC in seconds, and its text (`None`
    /// for `Z`, time zone `Etc/UTC`).
    pub offset: Option<(i64, [u8; 6])>,
}

impl Parts {
    /// The offset text (`+02:00`) of a fixed-offset `DateTime`: its
    /// `time_zone` and `zone_abbr` (TJ-11).
    pub fn offset_text(&self) -> Option<&str> {
        self.offset
            .as_ref()
            .and_then(|(_, t)| std::str::from_utf8(t).ok())
    }
}

/// The length of `month` in `year` (proleptic Gregorian): TJ-6's day that
/// exists in that month of that year, and JH-9's date that must exist (one
/// home for both: `atomize_value/2`'s parsing reads it too).
pub fn days_in_month(year: i64, month: i64) -> i64 {
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// The parts of `iso` read as a `kind`, or why it is not the text
/// `to_iso8601/1` writes for one (TJ-6): the year `-` for a negative one,
/// then four digits, or five to nine without a leading zero (`0000`,
/// `-0001`, `10000`, `-2024`; never `-0000`, `+2024` or `02024`);
/// `-MM-DD` of a date that exists; `THH:MM:SS` at most `23:59:59`; a
/// fraction `.` and one to six digits; a `DateTime` then `Z` or an offset
/// `±HH:MM` of at most `23:59` (`+00:00` is a fixed offset of zero, not
/// `Z`; `-00:00` is not written).
pub fn parse(kind: TemporalKind, iso: &str) -> Result<Parts, String> {
    let b = iso.as_bytes();
    let mut p = Parts::default();
    let mut at = 0;
    if kind != TemporalKind::Time {
        let (year, next) = year(b)?;
        p.year = year;
        at = next;
        p.month = two(b, at, b'-', 1, 12).ok_or("the month is not -01 to -12")?;
        let last = days_in_month(year, p.month);
        p.day = two(b, at + 3, b'-', 1, last)
            .ok_or_else(|| format!("the day is not -01 to -{last:02} (that month's length)"))?;
        at += 6;
        if kind == TemporalKind::Date {
            return rest_empty(b, at).map(|()| p);
        }
        if b.get(at) != Some(&b'T') {
            return Err("no T between the date and the time".into());
        }
        at += 1;
    }
    p.hour = digits2(b, at)
        .filter(|h| *h <= 23)
        .ok_or("the hour is not 00 to 23")?;
    p.minute = two(b, at + 2, b':', 0, 59).ok_or("the minute is not :00 to :59")?;
    p.second = two(b, at + 5, b':', 0, 59).ok_or("the second is not :00 to :59")?;
    at += 8;
    if b.get(at) == Some(&b'.') {
        let n = b[at + 1..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        if !(1..=6).contains(&n) {
            return Err("the fraction is not . and one to six digits".into());
        }
        let digits = &iso[at + 1..at + 1 + n];
        p.precision = n as i64;
        p.microsecond = format!("{digits:0<6}").parse().unwrap_or(0);
        at += 1 + n;
    }
    if kind == TemporalKind::DateTime {
        match &b[at.min(b.len())..] {
            b"Z" => return Ok(p),
            [s @ (b'+' | b'-'), ..] => {
                let hours = digits2(b, at + 1).filter(|h| *h <= 23);
                let minutes = two(b, at + 3, b':', 0, 59);
                let (Some(h), Some(m)) = (hours, minutes) else {
                    return Err("the offset is not Z or ±HH:MM of at most 23:59".into());
                };
                if *s == b'-' && h == 0 && m == 0 {
                    return Err("the offset -00:00 is written +00:00".into());
                }
                // TJ-11: the whole offset in seconds is the DateTime's utc_offset.
                let sign = if *s == b'-' { -1 } else { 1 };
                let mut text = [0u8; 6];
                text.copy_from_slice(&b[at..at + 6]);
                p.offset = Some((sign * (h * 3600 + m * 60), text));
                at += 6;
            }
            _ => return Err("no offset: a datetime ends in Z or ±HH:MM".into()),
        }
    }
    rest_empty(b, at).map(|()| p)
}

/// The year and where the date's `-MM` starts (TJ-6: four digits, or five
/// to nine without a leading zero; `-` for a negative year, never `-0000`).
fn year(b: &[u8]) -> Result<(i64, usize), String> {
    let negative = b.first() == Some(&b'-');
    let start = usize::from(negative);
    let n = b[start..].iter().take_while(|c| c.is_ascii_digit()).count();
    let digits = &b[start..start + n];
    let canonical = n == 4 || (n > 4 && digits[0] != b'0');
    if !canonical {
        return Err("the year is not four digits, or five or more without a leading zero".into());
    }
    if n > 9 {
        return Err(format!(
            "the year has {n} digits: years beyond ±{MAX_YEAR} are not carried"
        ));
    }
    let value = digits
        .iter()
        .fold(0i64, |acc, d| acc * 10 + i64::from(d - b'0'));
    if negative && value == 0 {
        return Err("the year -0000 is written 0000".into());
    }
    Ok((if negative { -value } else { value }, start + n))
}

/// Two digits at `at` (TJ-6: every part but the year is two digits).
fn digits2(b: &[u8], at: usize) -> Option<i64> {
    match b.get(at..at + 2)? {
        [x, y] if x.is_ascii_digit() && y.is_ascii_digit() => {
            Some(i64::from(x - b'0') * 10 + i64::from(y - b'0'))
        }
        _ => None,
    }
}

/// `sep` at `at` and two digits after it, in `lo..=hi` (TJ-6's ranges).
fn two(b: &[u8], at: usize, sep: u8, lo: i64, hi: i64) -> Option<i64> {
    (b.get(at) == Some(&sep))
        .then(|| digits2(b, at + 1))
        .flatten()
        .filter(|v| (lo..=hi).contains(v))
}

/// Nothing after the value (TJ-6: exactly the text, no more).
fn rest_empty(b: &[u8], at: usize) -> Result<(), String> {
    if at >= b.len() {
        Ok(())
    } else {
        Err(format!(
            "{} after the value",
            crate::tagged::quoted(&String::from_utf8_lossy(&b[at..]))
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use TemporalKind::{Date, DateTime, NaiveDateTime, Time};

    /// TJ-6: what Elixir 1.18.4's `to_iso8601/1` writes is read (checked
    /// against the v0.13.0 build: `Date.to_iso8601(Date.new!(-10000, 1, 1))`
    /// is `"-10000-01-01"`, a year 12345 datetime `"12345-01-01T01:00:00.000001Z"`).
    #[test]
    fn what_elixir_writes_is_read() {
        for (kind, iso) in [
            (Date, "0000-01-01"),
            (Date, "-0001-01-01"),
            (Date, "-2024-02-29"),
            (Date, "10000-01-01"),
            (Date, "-10000-12-31"),
            (Date, "123456789-01-01"),
            (Time, "00:00:00"),
            (Time, "23:59:59.999999"),
            (Time, "12:00:00.000"),
            (NaiveDateTime, "-2024-02-29T01:00:00.5"),
            (DateTime, "-2024-02-29T01:00:00.5Z"),
            (DateTime, "12345-01-01T01:00:00.000001Z"),
            (DateTime, "2024-01-01T00:00:00+00:00"),
            (DateTime, "2024-01-01T00:00:00-23:59"),
        ] {
            assert!(parse(kind, iso).is_ok(), "{iso}: {:?}", parse(kind, iso));
        }
        let p = parse(DateTime, "-2024-02-29T01:00:00.5-05:30").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            (p.year, p.month, p.day, p.microsecond, p.precision),
            (-2024, 2, 29, 500_000, 1)
        );
        assert_eq!(p.offset.map(|o| o.0), Some(-(5 * 3600 + 30 * 60)));
        assert_eq!(p.offset_text(), Some("-05:30"));
    }

    /// TJ-6: what it never writes is refused, with the reason.
    #[test]
    fn what_elixir_never_writes_is_refused() {
        for (kind, iso) in [
            (Date, "2024-13-01"),
            (Date, "2024-00-01"),
            (Date, "2023-02-29"),
            (Date, "2024-04-31"),
            (Date, "+2024-01-01"),
            (Date, "02024-01-01"),
            (Date, "-0000-01-01"),
            (Date, "1234567890-01-01"),
            (Date, "999-01-01"),
            (Date, "2024-1-01"),
            (Date, "2024-01-01T00:00:00"),
            (Time, "24:00:00"),
            (Time, "23:60:00"),
            (Time, "23:59:60"),
            (Time, "12:00:00."),
            (Time, "12:00:00.1234567"),
            (Time, "12:00:00,5"),
            (Time, "12:00"),
            (Time, "12:00:00Z"),
            (NaiveDateTime, "2024-01-01 00:00:00"),
            (NaiveDateTime, "2024-01-01T00:00:00Z"),
            (DateTime, "2024-01-01T00:00:00"),
            (DateTime, "2024-01-01T00:00:00+24:00"),
            (DateTime, "2024-01-01T00:00:00+01:60"),
            (DateTime, "2024-01-01T00:00:00-00:00"),
            (DateTime, "2024-01-01T00:00:00+0100"),
            (DateTime, "2024-01-01T00:00:00+01"),
            (DateTime, "2024-01-01T00:00:00z"),
        ] {
            assert!(parse(kind, iso).is_err(), "{iso} must be refused");
        }
    }
}
