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
    if x.is_finite() && x.abs() < 9.2e18 {
        Some(Int::Small(x.trunc() as i64))
    } else {
        float_to_bigint(x).map(Int::from)
    }
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
    fn trunc_is_exact_for_huge_floats() {
        assert_eq!(
            trunc(1.0e20).map(|i| i.to_string()),
            Some("100000000000000000000".into())
        );
        assert_eq!(trunc(-2.5).map(|i| i.to_string()), Some("-2".into()));
        assert_eq!(trunc(f64::NAN), None);
    }
}
