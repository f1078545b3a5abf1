//! `String.Chars.to_string/1` as Elixir 1.18 implements it for the terms
//! the boundary meets: what `"#{x}"` interpolation and `to_string/1` give.
//!
//! The Lisp formatter interpolates keyword and symbol names with it, and
//! the native preview turns map keys into property names with it. It is not
//! Jason's key rule: `to_string(nil)` is `""`, while Jason writes a `nil`
//! key as `"nil"`.

use crate::elixir::messages as m;
use crate::errors::{protocol_undefined, raise, Protocol};
use crate::term::{Int, Struct, TemporalKind, Term};
use crate::{Raised, Release};

/// `String.Chars.to_string/1`: the bytes of the resulting binary.
///
/// Binaries are themselves (valid UTF-8 or not), atoms their name (`nil`
/// is `""`), integers and floats their `to_string/1` text, lists go
/// through `List.to_string/1`, calendar structs print with a space between
/// date and time, `PtcRunner.Lisp.Format`'s display structs their display
/// text from v0.12.0 on (REL-7: v0.11.0 has no `String.Chars` for them).
/// Anything else raises `Protocol.UndefinedError`.
pub fn to_string(rel: Release, t: &Term) -> Result<Vec<u8>, Raised> {
    chars_of(rel, t).map_err(|f| f.raised(rel))
}

/// Why `String.Chars.to_string/1` failed: an exception raised on the way;
/// the term without an implementation, whose `Protocol.UndefinedError` the
/// caller builds; or a list that is not chardata, whose `ArgumentError`
/// inspects it. The last two embed an `inspect` that may hold a display
/// struct's invalid bytes, so an `Inspect.Error` builds them as bytes
/// ([`display_struct_undefined_message`],
/// [`display_struct_not_chardata_message`]), an exception's message as text.
enum Failure<'a> {
    Raised(Raised),
    Undefined(&'a Term),
    NotChardata(&'a [Term]),
}

impl Failure<'_> {
    fn raised(self, rel: Release) -> Raised {
        match self {
            Failure::Raised(r) => r,
            Failure::Undefined(t) => protocol_undefined(Protocol::StringChars(rel), t),
            Failure::NotChardata(items) => Raised::new(
                "ArgumentError",
                String::from_utf8_lossy(&not_chardata_message(rel, items)).into_owned(),
            ),
        }
    }
}

/// `List.to_string/1`'s `ArgumentError` message for a list that is not
/// chardata, as a binary (the list inspected, display structs' bytes kept).
fn not_chardata_message(rel: Release, items: &[Term]) -> Vec<u8> {
    m::LIST_TO_STRING_NOT_CHARDATA.render_bytes(&[(
        "list",
        &crate::inspect::inspect_bytes_at(rel, &Term::List(items.to_vec())),
    )])
}

impl From<Raised> for Failure<'_> {
    fn from(r: Raised) -> Self {
        Failure::Raised(r)
    }
}

/// [`to_string`], telling a missing implementation apart.
fn chars_of(rel: Release, t: &Term) -> Result<Vec<u8>, Failure<'_>> {
    Ok(match t {
        Term::Str(s) => s.as_bytes().to_vec(),
        Term::Bytes(b) => b.clone(),
        Term::Nil => Vec::new(),
        Term::Bool(b) => b.to_string().into_bytes(),
        Term::Atom(a) => a.as_bytes().to_vec(),
        Term::Int(i) => i.to_string().into_bytes(),
        Term::Float(x) => crate::num::short_float(*x).into_bytes(),
        Term::List(items) => list_chars(items)?,
        Term::Struct(s) if s.module == "URI" => uri_to_string(s, t)?,
        // REL-7: the display structs' `String.Chars` came in v0.12.0.
        Term::Struct(s) if rel.since(Release::V0_12_0) => match display_convert(rel, s) {
            Some(text) => text?,
            None => return Err(Failure::Undefined(t)),
        },
        Term::Struct(_) => return Err(Failure::Undefined(t)),
        Term::Temporal(tm) => temporal_to_string(tm.kind, &tm.iso).into_bytes(),
        other => return Err(Failure::Undefined(other)),
    })
}

/// `List.to_string/1` (`:unicode.characters_to_binary/1` on OTP 25):
/// code points and binaries, nested at any depth.
///
/// Any element that is no integer, binary or list, unless a bignum comes
/// before it, makes the whole list raise `ArgumentError` first
/// ([`sizing_pass`]). Then the list is converted in order, the
/// way OTP 25's `characters_to_binary` BIF does: a binary cut short inside
/// a sequence carries its last bytes over, following short binaries join
/// them, a code point outside Unicode raises `invalid code point N`, bad
/// bytes raise `invalid encoding starting at <bytes>`, and a well-formed
/// prefix still carried at the end raises `incomplete encoding starting at
/// <bytes>` (`spec/lisp_formatter.md`, LF-13).
///
/// A list that is not chardata is told apart ([`Failure::NotChardata`]),
/// as its message embeds an `inspect`.
fn list_chars(items: &[Term]) -> Result<Vec<u8>, Failure<'_>> {
    if !is_chardata(items) {
        return Err(Failure::NotChardata(items));
    }
    let mut out = Vec::new();
    let mut carried = Vec::new();
    convert(items, &mut out, &mut carried)?;
    if carried.is_empty() {
        Ok(out)
    } else if truncated_sequence(&carried) {
        Err(conversion_error(&m::UNICODE_INCOMPLETE_ENCODING, &carried).into())
    } else {
        Err(conversion_error(&m::UNICODE_INVALID_ENCODING, &carried).into())
    }
}

/// OTP 25's first pass over the list, which sizes the output: it walks the
/// term in order and rejects anything that is no integer, binary or list,
/// but it takes any small integer (|n| < 2^59, whatever its value) and
/// stops at the first bignum, so what follows a bignum is never looked at
/// and the conversion pass reports the bignum instead.
fn is_chardata(items: &[Term]) -> bool {
    sizing_pass(items) != Sizing::Badarg
}

#[derive(PartialEq)]
enum Sizing {
    /// Every element seen so far is chardata.
    Fine,
    /// A bignum was met: the pass stops and accepts the term.
    StoppedAtBignum,
    /// An element is no chardata: `badarg`.
    Badarg,
}

/// The smallest integer that is a bignum on a 64-bit VM is 2^59 (and the
/// largest negative one -2^59 - 1).
fn is_small_on_vm(n: &Int) -> bool {
    const SMALL: i64 = 1 << 59;
    matches!(n, Int::Small(n) if (-SMALL..SMALL).contains(n))
}

fn sizing_pass(items: &[Term]) -> Sizing {
    for item in items {
        match item {
            Term::Int(n) if is_small_on_vm(n) => {}
            Term::Int(_) => return Sizing::StoppedAtBignum,
            Term::Str(_) | Term::Bytes(_) => {}
            Term::List(inner) => match sizing_pass(inner) {
                Sizing::Fine => {}
                stop => return stop,
            },
            _ => return Sizing::Badarg,
        }
    }
    Sizing::Fine
}

fn convert(items: &[Term], out: &mut Vec<u8>, carried: &mut Vec<u8>) -> Result<(), Raised> {
    for item in items {
        match item {
            Term::Int(n) => {
                if !carried.is_empty() {
                    return Err(conversion_error(&m::UNICODE_INVALID_ENCODING, carried));
                }
                let c = match n {
                    Int::Small(n) => u32::try_from(*n).ok().and_then(char::from_u32),
                    Int::Big(_) => None,
                };
                match c {
                    Some(c) => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
                    None => {
                        return Err(raise(
                            &m::UNICODE_INVALID_CODE_POINT,
                            &[("n", &n.to_string())],
                        ))
                    }
                }
            }
            Term::Str(_) | Term::Bytes(_) => {
                let mut b = item.as_binary().unwrap_or_default();
                if !carried.is_empty() {
                    // OTP 25 fills a split sequence from the binaries that
                    // follow: one shorter than what is missing joins it
                    // whatever its bytes; a longer one must complete one
                    // valid character, else the error names the carried
                    // bytes alone.
                    let missing = sequence_len(carried[0]) - carried.len();
                    if b.len() < missing {
                        carried.extend_from_slice(b);
                        continue;
                    }
                    let mut seq = std::mem::take(carried);
                    seq.extend_from_slice(&b[..missing]);
                    if std::str::from_utf8(&seq).is_err() {
                        return Err(conversion_error(
                            &m::UNICODE_INVALID_ENCODING,
                            &seq[..seq.len() - missing],
                        ));
                    }
                    out.extend_from_slice(&seq);
                    b = &b[missing..];
                }
                let valid = match std::str::from_utf8(b) {
                    Ok(_) => b.len(),
                    Err(e) => e.valid_up_to(),
                };
                out.extend_from_slice(&b[..valid]);
                let rest = &b[valid..];
                if rest.is_empty() {
                    continue;
                }
                // A binary that ends before the sequence it starts is
                // complete is carried over, whatever its last bytes.
                if rest.len() < sequence_len(rest[0]) {
                    *carried = rest.to_vec();
                } else {
                    return Err(conversion_error(&m::UNICODE_INVALID_ENCODING, rest));
                }
            }
            Term::List(inner) => convert(inner, out, carried)?,
            // Only past a bignum, where conversion has already stopped.
            _ => unreachable!("checked by is_chardata"),
        }
    }
    Ok(())
}

/// The length a UTF-8 lead byte announces (1 for any other byte).
fn sequence_len(lead: u8) -> usize {
    match lead {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => 1,
    }
}

/// A lead byte followed by fewer continuation bytes than it announces.
fn truncated_sequence(rest: &[u8]) -> bool {
    rest.len() < sequence_len(rest[0]) && rest[1..].iter().all(|b| (0x80..=0xBF).contains(b))
}

fn conversion_error(template: &m::Template, bytes: &[u8]) -> Raised {
    raise(
        template,
        &[("bytes", &crate::inspect::inspect_binary(bytes))],
    )
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

/// The `Inspect` text of `PtcRunner.Lisp.Format`'s display structs (every
/// release; from v0.12.0 also their `String.Chars` and `Jason.Encoder`
/// text): their field interpolated into a fixed frame, the field through
/// `String.Chars` of release `rel`.
pub fn display_struct(rel: Release, s: &Struct) -> Option<Result<Vec<u8>, Raised>> {
    display_convert(rel, s).map(|r| r.map_err(|f| f.raised(rel)))
}

/// The message, as the binary Elixir builds, of the `Protocol.UndefinedError`
/// display struct `s`'s conversion raises (`inspect(value, pretty: true)`
/// of the term without `String.Chars`, built by `Inspect.Error` under its
/// trap); `None` when it converts or raises otherwise.
pub fn display_struct_undefined_message(rel: Release, s: &Struct) -> Option<Vec<u8>> {
    match display_convert(rel, s)? {
        Err(Failure::Undefined(t)) => Some(crate::errors::protocol_undefined_bytes(
            Protocol::StringChars(rel),
            t,
        )),
        _ => None,
    }
}

/// The message, as the binary Elixir builds, of the `ArgumentError` display
/// struct `s`'s conversion raises for a list that is not chardata (the list
/// inspected when it raised, before any trap); `None` otherwise.
pub fn display_struct_not_chardata_message(rel: Release, s: &Struct) -> Option<Vec<u8>> {
    match display_convert(rel, s)? {
        Err(Failure::NotChardata(items)) => Some(not_chardata_message(rel, items)),
        _ => None,
    }
}

/// [`display_struct`], telling a missing implementation apart.
fn display_convert(rel: Release, s: &Struct) -> Option<Result<Vec<u8>, Failure<'_>>> {
    let (open, field, close): (&str, &str, &str) = match s.module.as_str() {
        "PtcRunner.Lisp.Format.Fn" => ("#fn[", "params", "]"),
        "PtcRunner.Lisp.Format.Builtin" => return Some(Ok(b"#<builtin>".to_vec())),
        "PtcRunner.Lisp.Format.Var" => ("#'", "name", ""),
        "PtcRunner.Lisp.Format.SymbolRef" => ("'", "name", ""),
        "PtcRunner.Lisp.Format.RegexLiteral" => ("#\"", "source", "\""),
        _ => return None,
    };
    Some(
        chars_of(rel, s.field(field).unwrap_or(&Term::Nil)).map(|inner| {
            let mut out = open.as_bytes().to_vec();
            out.extend(inner);
            out.extend_from_slice(close.as_bytes());
            out
        }),
    )
}

/// `URI.default_port/1` of Elixir 1.18.4: the schemes with a default port
/// (compared byte for byte, case included), which `String.Chars` leaves
/// out of a URI's text (`spec/data/uri.json`, LF-9).
pub const URI_DEFAULT_PORTS: [(&str, i64); 8] = [
    ("ftp", 21),
    ("sftp", 22),
    ("tftp", 69),
    ("http", 80),
    ("https", 443),
    ("ldap", 389),
    ("ws", 80),
    ("wss", 443),
];

/// `String.Chars` of a `URI` (Elixir 1.18.4): `scheme:`, `//` and the
/// authority (`userinfo@`, the host, in brackets when it holds a colon,
/// `:port` unless it is the scheme's default), the path, `?query`,
/// `#fragment`; with a host, a path that is neither empty nor absolute
/// raises. The boundary's URIs have binary-or-nil fields and an integer-or-nil
/// port (`spec/terms.md` TJ-7), so no other failure is reachable.
fn uri_to_string(s: &Struct, whole: &Term) -> Result<Vec<u8>, Raised> {
    let text = |name: &str| match s.field(name) {
        Some(Term::Str(v)) => Some(v.as_bytes().to_vec()),
        Some(Term::Bytes(v)) => Some(v.clone()),
        _ => None,
    };
    let (scheme, host, path) = (text("scheme"), text("host"), text("path"));
    if let (Some(_), Some(p)) = (&host, &path) {
        if !p.is_empty() && p[0] != b'/' {
            let uri = crate::inspect::inspect_bytes(whole);
            return Err(raise(
                &m::URI_PATH_NOT_ABSOLUTE,
                &[("uri", &String::from_utf8_lossy(&uri))],
            ));
        }
    }
    let default_port = scheme.as_deref().and_then(|sc| {
        URI_DEFAULT_PORTS
            .iter()
            .find(|(name, _)| name.as_bytes() == sc)
            .map(|&(_, port)| port)
    });
    let port = match s.field("port") {
        Some(Term::Int(Int::Small(n))) if Some(*n) != default_port => Some(n.to_string()),
        Some(Term::Int(i @ Int::Big(_))) => Some(i.to_string()),
        _ => None,
    };
    let mut out = Vec::new();
    if let Some(sc) = &scheme {
        out.extend_from_slice(sc);
        out.push(b':');
    }
    let authority = match &host {
        None => text("authority"),
        Some(h) => {
            let mut a = Vec::new();
            if let Some(u) = text("userinfo") {
                a.extend(u);
                a.push(b'@');
            }
            if h.contains(&b':') {
                a.push(b'[');
                a.extend_from_slice(h);
                a.push(b']');
            } else {
                a.extend_from_slice(h);
            }
            if let Some(p) = &port {
                a.push(b':');
                a.extend_from_slice(p.as_bytes());
            }
            Some(a)
        }
    };
    if let Some(a) = authority {
        out.extend_from_slice(b"//");
        out.extend(a);
    }
    for (prefix, name) in [("", "path"), ("?", "query"), ("#", "fragment")] {
        if let Some(v) = text(name) {
            out.extend_from_slice(prefix.as_bytes());
            out.extend(v);
        }
    }
    Ok(out)
}

/// `IO.iodata_to_binary/1` (`:erlang.iolist_to_binary/1`): bytes (integers
/// 0..255) and binaries, nested in lists at any depth, concatenated; any
/// other element raises `ArgumentError` "not an iodata term".
pub fn iodata_to_binary(t: &Term) -> Result<Vec<u8>, Raised> {
    fn walk(t: &Term, out: &mut Vec<u8>) -> bool {
        match t {
            Term::Int(Int::Small(n)) => match u8::try_from(*n) {
                Ok(b) => {
                    out.push(b);
                    true
                }
                Err(_) => false,
            },
            Term::Str(_) | Term::Bytes(_) => {
                out.extend_from_slice(t.as_binary().unwrap_or_default());
                true
            }
            Term::List(items) => items.iter().all(|i| walk(i, out)),
            _ => false,
        }
    }
    let mut out = Vec::new();
    if walk(t, &mut out) {
        Ok(out)
    } else {
        Err(crate::elixir::enumerable::badarg(
            "1st",
            "not an iodata term",
        ))
    }
}

/// The stack trace Elixir shows for a display struct whose `Inspect`
/// raised an exception of `class`, as PtcRunner's adapter path prints it:
/// the conversion that raised, the struct's `Inspect` in
/// `lib/ptc_runner/lisp/format.ex`, then the caller. It depends on the caller
/// and the build, so it is compared loosely (`spec/README.md`, LOOSE-4).
///
/// The `Inspect` implementations sit on other lines of v0.11.0's
/// `format.ex`, which has no `String.Chars` implementations between them.
pub fn display_struct_frames(rel: Release, s: &Struct, class: &str) -> Vec<String> {
    let line = match (s.module.as_str(), rel.since(Release::V0_12_0)) {
        ("PtcRunner.Lisp.Format.Fn", true) => 31,
        ("PtcRunner.Lisp.Format.Var", true) => 65,
        ("PtcRunner.Lisp.Format.SymbolRef", true) => 82,
        (_, true) => 99,
        ("PtcRunner.Lisp.Format.Fn", false) => 30,
        ("PtcRunner.Lisp.Format.Var", false) => 49,
        ("PtcRunner.Lisp.Format.SymbolRef", false) => 58,
        (_, false) => 67,
    };
    let raising: &[&str] = match class {
        "Protocol.UndefinedError" => &[
            "(elixir 1.18.4) lib/string/chars.ex:3: String.Chars.impl_for!/1",
            "(elixir 1.18.4) lib/string/chars.ex:22: String.Chars.to_string/1",
        ],
        "UnicodeConversionError" => &["(elixir 1.18.4) lib/list.ex:1143: List.to_string/1"],
        _ => &["(elixir 1.18.4) lib/list.ex:1124: List.to_string/1"],
    };
    let mut frames: Vec<String> = raising.iter().map(|f| (*f).to_owned()).collect();
    frames.push(format!(
        "lib/ptc_runner/lisp/format.ex:{line}: Inspect.{}.inspect/2",
        s.module
    ));
    frames.extend(ADAPTER_FRAMES.iter().map(|f| (*f).to_owned()));
    frames.truncate(BACKTRACE_DEPTH);
    frames
}

/// The frames below a display struct's `Inspect` on the adapter's path.
const ADAPTER_FRAMES: &[&str] = &[
    "(elixir 1.18.4) lib/inspect/algebra.ex:348: Inspect.Algebra.to_doc/2",
    "(elixir 1.18.4) lib/kernel.ex:2376: Kernel.inspect/2",
    "harness/adapters/elixir/adapter.exs:502: PtcAdapter.call/3",
    "harness/adapters/elixir/adapter.exs:431: PtcAdapter.handle/1",
    "harness/adapters/elixir/adapter.exs:417: PtcAdapter.loop/0",
    "harness/adapters/elixir/adapter.exs:545: (file)",
];

/// The VM keeps the eight innermost frames of a stack trace.
const BACKTRACE_DEPTH: usize = 8;

#[cfg(test)]
mod release_tests {
    use super::*;
    use crate::tagged::decode_str;

    fn term(json: &str) -> Term {
        decode_str(json, "").expect("test terms decode")
    }

    /// REL-7: `String.Chars` of a display struct from v0.12.0 on; before,
    /// `Protocol.UndefinedError`, also inside another's `Inspect`, whose
    /// frames sit on v0.11.0's lines of `format.ex` (LOOSE-4).
    #[test]
    fn display_structs_convert_from_0_12_0() {
        let builtin =
            term(r#"{"$struct": {"module": "PtcRunner.Lisp.Format.Builtin", "fields": {}}}"#);
        assert_eq!(
            to_string(Release::V0_12_0, &builtin),
            Ok(b"#<builtin>".to_vec())
        );
        let err = to_string(Release::V0_11_0, &builtin).expect_err("none in v0.11.0");
        assert_eq!(err.class, "Protocol.UndefinedError");
        let nested = term(
            r#"{"$struct": {"module": "PtcRunner.Lisp.Format.Fn", "fields": {"params": {"$struct": {"module": "PtcRunner.Lisp.Format.Var", "fields": {"name": "v"}}}}}}"#,
        );
        assert_eq!(
            crate::inspect::inspect_bytes_at(Release::V0_12_0, &nested),
            b"#fn[#'v]".to_vec()
        );
        let old = String::from_utf8(crate::inspect::inspect_bytes_at(Release::V0_11_0, &nested))
            .expect("UTF-8");
        assert!(old.starts_with("#Inspect.Error<\n  got Protocol.UndefinedError with message:\n\n      \"\"\"\n      protocol String.Chars not implemented for type PtcRunner.Lisp.Format.Var (a struct)."), "{old}");
        assert!(
            old.contains(
                "lib/ptc_runner/lisp/format.ex:30: Inspect.PtcRunner.Lisp.Format.Fn.inspect/2"
            ),
            "{old}"
        );
        assert!(
            old.contains(
                "Time, URI, Version, Version.Requirement\n\n      Got value:\n\n          #'v\n"
            ),
            "{old}"
        );
    }

    /// REL-7, found by fuzzing the reference at v0.11.0 against its build:
    /// a list that is not chardata raises `ArgumentError`, whose message
    /// inspects the list as the release does, so a display struct in it
    /// whose field is another prints v0.11.0's `Inspect.Error` there too.
    #[test]
    fn a_list_that_is_not_chardata_is_inspected_at_the_release() {
        let t = term(
            r#"{"$struct": {"module": "PtcRunner.Lisp.Format.Var", "fields": {"name": [{"$struct": {"module": "PtcRunner.Lisp.Format.Var", "fields": {"name": {"$struct": {"module": "PtcRunner.Lisp.Format.Var", "fields": {"name": "x"}}}}}}]}}}"#,
        );
        let old = String::from_utf8(crate::inspect::inspect_bytes_at(Release::V0_11_0, &t))
            .expect("UTF-8");
        assert!(old.starts_with("#Inspect.Error<\n  got ArgumentError with message:\n\n      \"\"\"\n      cannot convert the given list to a string."), "{old}");
        assert!(!old.contains("PtcRunner.Lisp.Format.Builtin"), "{old}");
        assert!(
            old.contains("NaiveDateTime, Time, URI, Version, Version.Requirement"),
            "{old}"
        );
        let new = String::from_utf8(crate::inspect::inspect_bytes_at(Release::V0_12_0, &t))
            .expect("UTF-8");
        assert!(new.contains("[#'#'x]"), "{new}");
    }
}
