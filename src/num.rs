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

/// Shortest text that reads back as the same float, in Erlang's
/// `float_to_binary(x, [short])` form: always with a `.0` or an exponent
/// (`1.0`, `1.5`, `1.0e20`, `-0.0`, `1.0e-7`).
pub fn short_float(x: f64) -> String {
    let mut buf = ryu_like(x);
    if !buf.contains(['.', 'e', 'E']) {
        buf.push_str(".0");
    }
    buf
}

fn ryu_like(x: f64) -> String {
    // serde_json prints floats with ryu: shortest round-trip digits, using an
    // exponent for very large or very small magnitudes (`1e20`, `1e-7`).
    let s = serde_json::to_string(&x).unwrap_or_default();
    // Erlang writes the mantissa with a `.0` before the exponent.
    match s.split_once('e') {
        Some((mant, exp)) if !mant.contains('.') => format!("{mant}.0e{exp}"),
        _ => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trunc_is_exact_for_huge_floats() {
        assert_eq!(trunc(1.0e20).map(|i| i.to_string()), Some("100000000000000000000".into()));
        assert_eq!(trunc(-2.5).map(|i| i.to_string()), Some("-2".into()));
        assert_eq!(trunc(f64::NAN), None);
    }
}
