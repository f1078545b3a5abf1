//! `String.Chars.to_string/1` as Elixir 1.18 implements it for the terms
//! the boundary meets: what `"#{x}"` interpolation and `to_string/1` give.
//!
//! The Lisp formatter interpolates keyword and symbol names with it, and
//! the native preview turns map keys into property names with it. It is not
//! Jason's key rule: `to_string(nil)` is `""`, while Jason writes a `nil`
//! key as `"nil"`.

use crate::term::{Int, TemporalKind, Term};
use crate::Raised;

/// `String.Chars.to_string/1`: the bytes of the resulting binary.
///
/// Binaries are themselves (valid UTF-8 or not), atoms their name (`nil`
/// is `""`), integers and floats their `to_string/1` text, lists go
/// through `List.to_string/1`, calendar structs print with a space between
/// date and time. Anything else raises `Protocol.UndefinedError`.
pub fn to_string(t: &Term) -> Result<Vec<u8>, Raised> {
    Ok(match t {
        Term::Str(s) => s.as_bytes().to_vec(),
        Term::Bytes(b) => b.clone(),
        Term::Nil => Vec::new(),
        Term::Bool(b) => b.to_string().into_bytes(),
        Term::Atom(a) => a.as_bytes().to_vec(),
        Term::Int(i) => i.to_string().into_bytes(),
        Term::Float(x) => crate::num::short_float(*x).into_bytes(),
        Term::List(items) => {
            let mut out = String::new();
            list_to_string(items, &mut out)?;
            out.into_bytes()
        }
        Term::Temporal(tm) => temporal_to_string(tm.kind, &tm.iso).into_bytes(),
        other => return Err(undefined(other)),
    })
}

/// `List.to_string/1`: code points and UTF-8 binaries, nested at any depth.
fn list_to_string(items: &[Term], out: &mut String) -> Result<(), Raised> {
    for item in items {
        match item {
            Term::Int(Int::Small(n)) => match u32::try_from(*n).ok().and_then(char::from_u32) {
                Some(c) => out.push(c),
                None => return Err(invalid_code_point(&n.to_string())),
            },
            Term::Int(big) => return Err(invalid_code_point(&big.to_string())),
            Term::Str(s) => out.push_str(s),
            Term::Bytes(b) => {
                // Never valid UTF-8: the message shows the bytes from the first bad one on.
                let bad = std::str::from_utf8(b).err().map_or(0, |e| e.valid_up_to());
                let rest = crate::inspect::inspect(&Term::binary(b[bad..].to_vec()));
                return Err(Raised::new(
                    "UnicodeConversionError",
                    format!("invalid encoding starting at {rest}"),
                ));
            }
            Term::List(inner) => list_to_string(inner, out)?,
            _ => {
                return Err(Raised::argument(
                    "cannot convert the given list to a string",
                ))
            }
        }
    }
    Ok(())
}

fn invalid_code_point(n: &str) -> Raised {
    Raised::new("UnicodeConversionError", format!("invalid code point {n}"))
}

/// `to_string/1` of a calendar struct: ISO 8601 with a space instead of
/// `T`; a `DateTime` that is not UTC also names its zone abbreviation and
/// zone (for a fixed offset both are the offset text).
fn temporal_to_string(kind: TemporalKind, iso: &str) -> String {
    let spaced = iso.replacen('T', " ", 1);
    match kind {
        TemporalKind::Date | TemporalKind::Time | TemporalKind::NaiveDateTime => spaced,
        TemporalKind::DateTime if spaced.ends_with('Z') => spaced,
        TemporalKind::DateTime => {
            let offset = &spaced[spaced.len().saturating_sub(6)..];
            format!("{spaced} {offset} {offset}")
        }
    }
}

fn undefined(t: &Term) -> Raised {
    Raised::new(
        "Protocol.UndefinedError",
        format!(
            "protocol String.Chars not implemented for type {}",
            t.kind_name()
        ),
    )
}
