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

/// Shortest text that reads back as the same float, as Erlang's
/// `float_to_binary(x, [:short])` and Elixir's `Float.to_string/1` print it:
/// the shortest round-trip digits, written in plain or exponent form,
/// whichever is shorter (`1.0`, `1.5`, `100.0`, `1.0e4`, `0.0001`, `1.0e-5`,
/// `-0.0`).
pub fn short_float(x: f64) -> String {
    if x == 0.0 {
        return if x.is_sign_negative() {
            "-0.0".into()
        } else {
            "0.0".into()
        };
    }
    // Rust's `{:e}` gives the shortest round-trip digits: "d.ddde[-]x".
    let sci = format!("{:e}", x.abs());
    let (mant, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let digits: String = mant.chars().filter(|c| *c != '.').collect();
    let exp: i64 = exp.parse().unwrap_or(0);
    let sign = if x < 0.0 { "-" } else { "" };
    let len = digits.len() as i64;
    // `place`: where the decimal point goes, counted from the first digit.
    let place = exp + 1;
    let exp_text = (place - 1).to_string();
    let exp_cost = exp_text.len() as i64 + 2;
    let with_exp = || {
        let (first, rest) = digits.split_at(1);
        if rest.is_empty() {
            format!("{sign}{first}.0e{exp_text}")
        } else {
            format!("{sign}{first}.{rest}e{exp_text}")
        }
    };
    if place <= 0 {
        if -place < exp_cost {
            format!("{sign}0.{}{digits}", "0".repeat((-place) as usize))
        } else {
            with_exp()
        }
    } else if place >= len {
        let zeros = place - len;
        if zeros <= exp_cost {
            format!("{sign}{digits}{}.0", "0".repeat(zeros as usize))
        } else {
            with_exp()
        }
    } else {
        let (int, frac) = digits.split_at(place as usize);
        format!("{sign}{int}.{frac}")
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
            (1000.0, "1000.0"),
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
