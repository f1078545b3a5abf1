//! `PtcRunner.Lisp.Format.to_clojure/2`: PTC-Lisp values printed the way a
//! Clojure REPL would show them, for LLM feedback (`spec/ptc_tool_protocol_from_step.md`,
//! rules PP-120 and up). Results and memory previews of
//! `render_success_from_step` are built from it.
//!
//! Internal Lisp shapes (closures, builtins, var references, regexes) are
//! first replaced by display wrappers ([`sanitize`]); the printer then walks
//! the value. Collections longer than the `limit` option show their first
//! `limit` items and a `(shown/total)` count, and report truncation.

use crate::term::{term_cmp, Int, Map, OpaqueKind, Struct, Term};
use crate::Raised;

const FORMAT: &str = "PtcRunner.Lisp.Format";
const FN: &str = "PtcRunner.Lisp.Format.Fn";
const BUILTIN: &str = "PtcRunner.Lisp.Format.Builtin";
const VAR: &str = "PtcRunner.Lisp.Format.Var";
const SYMBOL_REF: &str = "PtcRunner.Lisp.Format.SymbolRef";
const REGEX: &str = "PtcRunner.Lisp.Format.RegexLiteral";
const KEYWORD: &str = "PtcRunner.Lisp.Keyword";
const DURATION: &str = "PtcRunner.Lisp.Runtime.Interop.Duration";
const ENV_BUILTIN: &str = "PtcRunner.Lisp.Env.Builtin";

/// `inspect/1`'s default `printable_limit` for strings.
const PRINTABLE_LIMIT: usize = 4096;
/// `inspect/1`'s default `limit` for the bytes of a non-printable binary.
const BYTES_LIMIT: usize = 50;

/// `to_clojure(value, limit: limit)`: the text and whether any collection
/// in it was cut. `None` is `limit: :infinity`. Raises where Elixir does:
/// on a float too large for the fixed-point buffer (PP-123) and on
/// references, pids and ports (PP-131).
pub fn to_clojure(value: &Term, limit: Option<usize>) -> Result<(String, bool), Raised> {
    format(&sanitize(value)?, limit)
}

/// Replaces internal Lisp shapes by their display wrappers, recursing
/// through lists, tuples and plain maps' values but not into structs
/// (PP-130).
pub fn sanitize(value: &Term) -> Result<Term, Raised> {
    if let Some(wrapped) = wrapper_for(value)? {
        return Ok(wrapped);
    }
    Ok(match value {
        Term::Map(m) => Term::Map(Map::from_sorted_unchecked(
            m.iter()
                .map(|(k, v)| Ok((k.clone(), sanitize(v)?)))
                .collect::<Result<_, Raised>>()?,
        )),
        Term::List(items) => Term::List(items.iter().map(sanitize).collect::<Result<_, _>>()?),
        Term::Tuple(items) => Term::Tuple(items.iter().map(sanitize).collect::<Result<_, _>>()?),
        other => other.clone(),
    })
}

/// The wrapper struct an internal shape displays as, if `value` is one.
fn wrapper_for(value: &Term) -> Result<Option<Term>, Raised> {
    let is_fun = |t: &Term| matches!(t, Term::Fun(_));
    if let Term::Struct(s) = value {
        if s.module == ENV_BUILTIN {
            let collect = matches!(s.field("binding"), Some(Term::Tuple(b))
                if b.len() == 2 && b[0].as_atom() == Some("collect") && is_fun(&b[1]));
            return Ok(Some(if collect {
                wrapper(FN, "params", Term::str("..."))
            } else {
                wrapper_unit(BUILTIN)
            }));
        }
        return Ok(None);
    }
    let Term::Tuple(t) = value else {
        return Ok(None);
    };
    let tag = t.first().and_then(Term::as_atom);
    Ok(match (tag, t.len()) {
        (Some("closure"), 6) => Some(wrapper(FN, "params", Term::Str(param_names(&t[1])?))),
        (Some("normal"), 2) if is_fun(&t[1]) => Some(wrapper_unit(BUILTIN)),
        (Some("variadic"), 3) if is_fun(&t[1]) => Some(wrapper_unit(BUILTIN)),
        (Some("variadic_nonempty"), 3) if t[1].is_atom() && is_fun(&t[2]) => {
            Some(wrapper_unit(BUILTIN))
        }
        (Some("multi_arity"), 3) if t[1].is_atom() && matches!(t[2], Term::Tuple(_)) => {
            Some(wrapper_unit(BUILTIN))
        }
        (Some("collect"), 2) if is_fun(&t[1]) => Some(wrapper(FN, "params", Term::str("..."))),
        (Some("var"), 2) if t[1].is_atom() || t[1].is_binary() => {
            Some(wrapper(VAR, "name", t[1].clone()))
        }
        (Some("symbol_ref"), 2) if t[1].is_binary() => {
            Some(wrapper(SYMBOL_REF, "name", t[1].clone()))
        }
        (Some("re_mp"), 4) => Some(wrapper(REGEX, "source", t[3].clone())),
        _ => None,
    })
}

fn wrapper(module: &str, field: &str, value: Term) -> Term {
    Term::Struct(Box::new(Struct {
        module: module.to_owned(),
        fields: vec![(field.to_owned(), value)],
    }))
}

fn wrapper_unit(module: &str) -> Term {
    Term::Struct(Box::new(Struct {
        module: module.to_owned(),
        fields: vec![],
    }))
}

/// A closure's parameter names joined by spaces: `{:var, name}` shows
/// its name, any other pattern `_`.
fn param_names(params: &Term) -> Result<String, Raised> {
    let items: Vec<Term> = match params {
        Term::List(items) => items.clone(),
        Term::Map(m) => m
            .iter()
            .map(|(k, v)| Term::Tuple(vec![k.clone(), v.clone()]))
            .collect(),
        other => return Err(undefined("Enumerable", other)),
    };
    let names = items
        .iter()
        .map(|p| match p {
            Term::Tuple(t) if t.len() == 2 && t[0].as_atom() == Some("var") => string_chars(&t[1]),
            _ => Ok("_".to_owned()),
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(names.join(" "))
}

fn format(value: &Term, limit: Option<usize>) -> Result<(String, bool), Raised> {
    let plain = |s: String| Ok((s, false));
    match value {
        Term::Nil => plain("nil".into()),
        Term::Bool(b) => plain(b.to_string()),
        Term::Int(i) => plain(i.to_string()),
        Term::Atom(a) => plain(match a.as_str() {
            "infinity" => "##Inf".into(),
            "negative_infinity" => "##-Inf".into(),
            "nan" => "##NaN".into(),
            _ => format!(":{a}"),
        }),
        Term::Float(x) => plain(fixed_10(*x)?),
        Term::Str(_) | Term::Bytes(_) => {
            plain(inspect_binary(value.as_binary().unwrap_or_default()))
        }
        Term::Fun(_) => plain("#<fn>".into()),
        Term::Temporal(t) => plain(format!("\"{}\"", t.iso)),
        Term::Struct(s) => format_struct(s, limit),
        Term::List(items) | Term::Tuple(items) => {
            let (shown, cut) = apply_limit(items, limit);
            let (text, child_cut) = format_items(shown, limit)?;
            Ok(collection(
                "[",
                &text,
                "]",
                cut,
                shown.len(),
                items.len(),
                child_cut,
            ))
        }
        Term::Map(m) => format_map(m, limit),
        Term::Opaque(..) => Err(Raised::function_clause(FORMAT, "format_clojure", 2)),
    }
}

fn format_struct(s: &Struct, limit: Option<usize>) -> Result<(String, bool), Raised> {
    let field = |name: &str| string_chars(s.field(name).unwrap_or(&Term::Nil));
    let text = match s.module.as_str() {
        KEYWORD => format!(":{}", field("name")?),
        FN => format!("#fn[{}]", field("params")?),
        BUILTIN => "#<builtin>".into(),
        VAR => format!("#'{}", field("name")?),
        SYMBOL_REF => format!("'{}", field("name")?),
        REGEX => format!("#\"{}\"", field("source")?),
        DURATION => format!("#duration[{}ms]", field("milliseconds")?),
        "MapSet" => {
            let items: Vec<Term> = match s.field("map") {
                Some(Term::Map(m)) => m.iter().map(|(k, _)| k.clone()).collect(),
                _ => vec![],
            };
            let (shown, cut) = apply_limit(&items, limit);
            let (text, child_cut) = format_items(shown, limit)?;
            return Ok(collection(
                "#{",
                &text,
                "}",
                cut,
                shown.len(),
                items.len(),
                child_cut,
            ));
        }
        _ => inspect_struct(s),
    };
    Ok((text, false))
}

/// Map entries sorted by key in term order, keys printed by [`format_key`].
fn format_map(m: &Map, limit: Option<usize>) -> Result<(String, bool), Raised> {
    let mut entries: Vec<&(Term, Term)> = m.iter().collect();
    entries.sort_by(|a, b| term_cmp(&a.0, &b.0));
    let (shown, cut) = apply_limit(&entries, limit);
    let mut parts = Vec::with_capacity(shown.len());
    let mut child_cut = false;
    for (k, v) in shown.iter().copied() {
        let (text, c) = format(v, limit)?;
        child_cut |= c;
        parts.push(format!("{} {text}", format_key(k)?));
    }
    let text = parts.join(" ");
    Ok(collection(
        "{",
        &text,
        "}",
        cut,
        shown.len(),
        entries.len(),
        child_cut,
    ))
}

/// A map key: atoms (`nil` included, which shows as `:`) and Lisp keywords
/// as `:name`, binaries as `inspect/1` shows them, anything else printed
/// without a collection limit (PP-127).
fn format_key(k: &Term) -> Result<String, Raised> {
    if let Some(a) = k.as_atom() {
        return Ok(format!(":{}", if k == &Term::Nil { "" } else { a }));
    }
    match k {
        Term::Struct(s) if s.module == KEYWORD => Ok(format!(
            ":{}",
            string_chars(s.field("name").unwrap_or(&Term::Nil))?
        )),
        Term::Str(_) | Term::Bytes(_) => Ok(inspect_binary(k.as_binary().unwrap_or_default())),
        _ => format(k, None).map(|(s, _)| s),
    }
}

fn format_items(items: &[Term], limit: Option<usize>) -> Result<(String, bool), Raised> {
    let mut parts = Vec::with_capacity(items.len());
    let mut cut = false;
    for item in items {
        let (text, c) = format(item, limit)?;
        cut |= c;
        parts.push(text);
    }
    Ok((parts.join(" "), cut))
}

fn apply_limit<T>(items: &[T], limit: Option<usize>) -> (&[T], bool) {
    match limit {
        Some(n) if items.len() > n => (&items[..n], true),
        _ => (items, false),
    }
}

/// `open items close`, or with ` ...` and `(shown/total)` when cut.
fn collection(
    open: &str,
    text: &str,
    close: &str,
    cut: bool,
    shown: usize,
    total: usize,
    child_cut: bool,
) -> (String, bool) {
    if cut {
        (format!("{open}{text} ...{close} ({shown}/{total})"), true)
    } else {
        (format!("{open}{text}{close}"), child_cut)
    }
}

/// `:erlang.float_to_binary(x, [:compact, decimals: 10])` as OTP 25 computes
/// it (PP-123): the integer part, then the fraction times 10^10 rounded
/// half away from zero in double arithmetic, carried into the integer part
/// when it reaches 10^10; trailing zeros dropped down to one. A negative
/// sign bit prints `-` even when the digits are all zero. Beyond 2^53 the
/// exact decimal expansion is printed, and a text of 256 bytes or more
/// raises `ArgumentError`.
pub fn fixed_10(x: f64) -> Result<String, Raised> {
    let sign = if x.is_sign_negative() { "-" } else { "" };
    let ax = x.abs();
    let text = if ax > 9_007_199_254_740_992.0 {
        let text = format!("{x:.10}");
        if text.len() >= 256 {
            return Err(Raised::argument(
                "errors were found at the given arguments:\n\n  * 2nd argument: invalid option in list\n",
            ));
        }
        text
    } else {
        let int_f = ax.floor();
        let frac_f = ((ax - int_f) * 1e10).round();
        let (mut int_part, mut frac_part) = (int_f as u64, frac_f as u64);
        if frac_f >= 1e10 {
            int_part += 1;
            frac_part = 0;
        }
        format!("{sign}{int_part}.{frac_part:010}")
    };
    let trimmed = text.trim_end_matches('0');
    Ok(if trimmed.ends_with('.') {
        format!("{trimmed}0")
    } else {
        trimmed.to_owned()
    })
}

/// `inspect/1` of a binary with default options (PP-126): a printable
/// string in double quotes with escapes, at most 4096 characters of it
/// (then `" <> ..."`); any other binary as `<<b1, b2, ...>>`, at most 50
/// bytes (then `...`).
pub fn inspect_binary(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) if printable(s) => {
            let mut out = String::from("\"");
            let mut count = 0;
            let mut chars = s.char_indices().peekable();
            while let Some((i, c)) = chars.next() {
                if count == PRINTABLE_LIMIT {
                    out.push_str("\" <> ...");
                    return out;
                }
                count += 1;
                if c == '#' && s[i + 1..].starts_with('{') {
                    chars.next();
                    out.push_str("\\#{");
                    continue;
                }
                escape_char(c, &mut out);
            }
            out.push('"');
            out
        }
        _ => {
            let shown: Vec<String> = bytes.iter().take(BYTES_LIMIT).map(u8::to_string).collect();
            let more = if bytes.len() > BYTES_LIMIT {
                ", ..."
            } else {
                ""
            };
            format!("<<{}{more}>>", shown.join(", "))
        }
    }
}

/// `String.printable?(s, 4096)`.
fn printable(s: &str) -> bool {
    s.chars().take(PRINTABLE_LIMIT).all(|c| {
        matches!(c as u32,
            0x20..=0x7E | 0xA0..=0xD7FF | 0xE000..=0xFFFD | 0x10000..=0x10FFFF)
            || matches!(
                c,
                '\n' | '\r'
                    | '\t'
                    | '\u{0B}'
                    | '\u{08}'
                    | '\u{0C}'
                    | '\u{1B}'
                    | '\u{7F}'
                    | '\u{07}'
            )
    })
}

/// One character of a printable string as `inspect/1` writes it.
fn escape_char(c: char, out: &mut String) {
    let short = match c {
        '"' => "\\\"",
        '\\' => "\\\\",
        '\u{07}' => "\\a",
        '\u{08}' => "\\b",
        '\u{7F}' => "\\d",
        '\u{1B}' => "\\e",
        '\u{0C}' => "\\f",
        '\n' => "\\n",
        '\r' => "\\r",
        '\t' => "\\t",
        '\u{0B}' => "\\v",
        _ => "",
    };
    if !short.is_empty() {
        out.push_str(short);
        return;
    }
    let cp = c as u32;
    let confusing = matches!(cp,
        0xFEFF | 0x2061..=0x2064 | 0x061C | 0x200E | 0x200F | 0x202A..=0x202E | 0x2066..=0x2069
        | 0xFFF9..=0xFFFC | 0x200C | 0x200D | 0x034F | 0x00A0 | 0x200B | 0x2060 | 0x2028 | 0x2029
        | 0x2000..=0x200A | 0x205F);
    if confusing {
        out.push_str(&format!("\\u{cp:04X}"));
    } else {
        out.push(c);
    }
}

/// `String.Chars.to_string/1` as string interpolation uses it: binaries as
/// they are, `nil` as the empty string, other atoms by name, numbers as
/// `to_string/1` prints them, lists as chardata.
pub fn string_chars(t: &Term) -> Result<String, Raised> {
    match t {
        Term::Nil => Ok(String::new()),
        Term::Str(s) => Ok(s.clone()),
        Term::Bytes(b) => Ok(String::from_utf8_lossy(b).into_owned()),
        Term::Int(i) => Ok(i.to_string()),
        Term::Float(x) => Ok(crate::num::short_float(*x)),
        Term::List(_) => {
            chardata(t).ok_or_else(|| Raised::argument("cannot convert the given list to a string"))
        }
        _ => match t.as_atom() {
            Some(a) => Ok(a.to_owned()),
            None => Err(undefined("String.Chars", t)),
        },
    }
}

fn chardata(t: &Term) -> Option<String> {
    let mut out = String::new();
    let Term::List(items) = t else { return None };
    for item in items {
        match item {
            Term::Int(Int::Small(c)) => out.push(char::from_u32(u32::try_from(*c).ok()?)?),
            Term::Str(s) => out.push_str(s),
            Term::List(_) => out.push_str(&chardata(item)?),
            _ => return None,
        }
    }
    Some(out)
}

/// A best-effort `inspect/1` of a struct the printer has no display form
/// for: `%Module{field: value, ...}` with the fields in name order. The
/// corpus does not pin these (their text depends on field declaration
/// order and on `inspect/1` of every field value).
fn inspect_struct(s: &Struct) -> String {
    let fields: Vec<String> = s
        .fields
        .iter()
        .map(|(k, v)| {
            let text = match v {
                Term::Nil => "nil".to_owned(),
                Term::Str(_) | Term::Bytes(_) => inspect_binary(v.as_binary().unwrap_or_default()),
                Term::Atom(a) => format!(":{a}"),
                other => format(other, None).map(|(s, _)| s).unwrap_or_default(),
            };
            format!("{k}: {text}")
        })
        .collect();
    format!("%{}{{{}}}", s.module, fields.join(", "))
}

/// `Protocol.UndefinedError` for `protocol` on `t`.
fn undefined(protocol: &str, t: &Term) -> Raised {
    let kind = match t {
        Term::Tuple(_) => "Tuple",
        Term::Map(_) => "Map",
        Term::Fun(_) => "Function",
        Term::Opaque(OpaqueKind::Ref, _) => "Reference",
        Term::Opaque(OpaqueKind::Pid, _) => "PID",
        Term::Opaque(OpaqueKind::Port, _) => "Port",
        _ => "Any",
    };
    Raised::new(
        "Protocol.UndefinedError",
        format!("protocol {protocol} not implemented for type {kind}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_10_follows_otp_25() {
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
            assert_eq!(fixed_10(x).ok().as_deref(), Some(text), "{x:e}");
        }
        assert!(fixed_10(1.0e244).is_err());
        assert!(fixed_10(-1.0e243).is_err());
        assert!(fixed_10(9.9e243).is_ok());
    }
}
