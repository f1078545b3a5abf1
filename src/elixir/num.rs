//! Number helpers shared by the reference modules: exact float truncation
//! (Erlang's `trunc/1`) and the float texts Erlang prints.

use crate::term::Int;
use num_bigint::BigInt;
use num_traits::FromPrimitive;

/// The integer part of a finite float, exactly (`trunc(1.0e20)` is
/// `100000000000000000000`). `None` for NaN and infinities.
pub fn float_to_bigint(x: f64) -> Option<BigInt> {
    BigInt::from_f64(x.trunc())
}

/// `trunc/1` on a finite float, as an [`Int`].
pub fn trunc(x: f64) -> Option<Int> {
    float_to_bigint(x).map(Int::from)
}

/// Whether `trunc(x) == x` holds in Elixir (an integral float).
pub fn is_integral(x: f64) -> bool {
    x.is_finite() && x.trunc() == x
}

/// `Float.to_string/1` (Erlang's `float_to_binary(x, [:short])`): the
/// shortest digits that read back as `x`, in plain or exponent form:
///
/// - an integral float below 2^53 in magnitude: plain (`100.0`) unless the
///   exponent form is strictly shorter (`1.0e3`);
/// - a float whose decimal point falls inside its digits: plain (`1.5`);
/// - a float below 1: plain (`0.001`) unless the exponent form is strictly
///   shorter (`1.2e-4`);
/// - anything else (integral, 2^53 or more): exponent form (`1.0e16`).
pub fn short_float(x: f64) -> String {
    if x == 0.0 {
        return if x.is_sign_negative() { "-0.0" } else { "0.0" }.to_owned();
    }
    let sci = shortest_digits(x.abs());
    let (mant, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let digits: String = mant.chars().filter(|c| *c != '.').collect();
    let exp: i64 = exp.parse().unwrap_or(0);
    let sign = if x < 0.0 { "-" } else { "" };
    let len = digits.len() as i64;
    // The decimal point sits after `point` digits (0.DIGITS × 10^point).
    let point = exp + 1;
    let exponent_form = {
        let (first, rest) = digits.split_at(1);
        let rest = if rest.is_empty() { "0" } else { rest };
        format!("{sign}{first}.{rest}e{exp}")
    };
    let plain = if point <= 0 {
        format!("{sign}0.{}{digits}", "0".repeat((-point) as usize))
    } else if point < len {
        let (int, frac) = digits.split_at(point as usize);
        return format!("{sign}{int}.{frac}");
    } else if x.abs() < 9_007_199_254_740_992.0 {
        format!("{sign}{digits}{}.0", "0".repeat((point - len) as usize))
    } else {
        return exponent_form;
    };
    if plain.len() <= exponent_form.len() {
        plain
    } else {
        exponent_form
    }
}

/// The shortest digits that read back as `x` (> 0), as `d.ddde[-]x`; of
/// two equally short candidates the one nearer `x`, ties to an even last
/// digit (as Ryu, which Erlang uses, picks; Rust's `{:e}` rounds ties up).
fn shortest_digits(x: f64) -> String {
    let shortest = format!("{x:e}");
    let significant = shortest
        .split_once('e')
        .map_or(shortest.len(), |(m, _)| m.replace('.', "").len());
    let nearest = format!("{:.*e}", significant.saturating_sub(1), x);
    if nearest.parse::<f64>().ok() == Some(x) {
        nearest
    } else {
        shortest
    }
}

/// `:erlang.float_to_binary(x, [:compact, decimals: 10])` on OTP 25.
///
/// Up to 2^53 in magnitude: the integer part, then the fraction scaled by
/// 10^10 in double arithmetic and rounded half away from zero (a carry goes
/// into the integer part), trailing zeros dropped but one kept; the sign
/// follows the sign bit, so `-0.0` and tiny negatives print `-0.0`. Beyond
/// 2^53 the float is an integer and prints exactly, with `.0`, unless the
/// C `"%.10f"` text would not fit OTP's 256-byte buffer: then `ArgumentError`.
/// (LF-2: the fraction rounding; LF-3: the sign bit; LF-4: the 256-byte buffer.)
pub fn float_to_binary_compact_10(x: f64) -> Result<String, crate::Raised> {
    const SCALE: f64 = 1e10;
    let sign = if x.is_sign_negative() { "-" } else { "" };
    let af = x.abs();
    if af > 9_007_199_254_740_992.0 {
        let digits = BigInt::from_f64(af)
            .map(|b| b.to_string())
            .unwrap_or_default();
        // "%.10f" writes the digits, a point and ten zeros.
        if sign.len() + digits.len() + 11 >= 256 {
            return Err(crate::elixir::enumerable::badarg(
                "2nd",
                "invalid option in list",
            ));
        }
        return Ok(format!("{sign}{digits}.0"));
    }
    let int_f = af.floor();
    let frac_f = ((af - int_f) * SCALE).round();
    let (int_part, frac_part) = if frac_f >= SCALE {
        (int_f as u64 + 1, 0)
    } else {
        (int_f as u64, frac_f as u64)
    };
    let frac = format!("{frac_part:010}");
    let kept = frac.trim_end_matches('0');
    let kept = if kept.is_empty() { "0" } else { kept };
    Ok(format!("{sign}{int_part}.{kept}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_float_matches_erlang() {
        for (x, text) in [
            (1.0, "1.0"),
            (-0.0, "-0.0"),
            (1.5, "1.5"),
            (100.0, "100.0"),
            (1000.0, "1.0e3"),
            (9007199254740994.0, "9.007199254740994e15"),
            (0.00012, "1.2e-4"),
            (2.0455837792400002, "2.0455837792400002"),
            (10000.0, "1.0e4"),
            (123456.0, "123456.0"),
            (1.0e20, "1.0e20"),
            (0.1, "0.1"),
            (0.0001, "0.0001"),
            (0.00001, "1.0e-5"),
            (1.2345e-7, "1.2345e-7"),
            (-2.5, "-2.5"),
            (1.0e100, "1.0e100"),
            (0.1 + 0.2, "0.30000000000000004"),
        ] {
            assert_eq!(short_float(x), text, "{x:e}");
        }
    }

    #[test]
    fn compact_10_follows_otp_25() {
        for (x, text) in [
            (0.1 + 0.2, "0.3"),
            (-0.0, "-0.0"),
            (-1.0e-11, "-0.0"),
            (0.000_488_281_25, "0.0004882813"),
            (9.999_999_999_99, "10.0"),
            (123_456_789.123_456_79, "123456789.123456791"),
            (1.0e20, "100000000000000000000.0"),
            (5.0e-11, "0.0000000001"),
        ] {
            assert_eq!(
                float_to_binary_compact_10(x).ok().as_deref(),
                Some(text),
                "{x:e}"
            );
        }
        assert!(float_to_binary_compact_10(1.0e244).is_err());
        assert!(float_to_binary_compact_10(-1.0e243).is_err());
        assert!(float_to_binary_compact_10(9.9e243).is_ok());
    }

    #[test]
    fn trunc_is_exact_for_huge_floats() {
        assert_eq!(
            trunc(1.0e20).map(|i| i.to_string()),
            Some("100000000000000000000".into())
        );
        assert_eq!(trunc(-2.5).map(|i| i.to_string()), Some("-2".into()));
        assert_eq!(trunc(f64::NAN), None);
    }
}
