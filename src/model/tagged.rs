//! Tagged term JSON (`spec/terms.md`): the lossless JSON form of Elixir terms
//! used by case files and the adapter protocol.
//!
//! Decoding reads JSON straight into [`Term`]s, without an intermediate
//! `serde_json::Value`, so duplicated keys are caught and every error names
//! the JSON-pointer path where it happened. Nesting deeper than
//! [`MAX_DEPTH`] arrays and objects is an error (TJ-10), never a stack
//! overflow. Encoding is canonical: the same term gives the same bytes.
//!
//! A `$struct` decodes as written (TJ-7): the fields it names, no more. Its
//! module must be a struct of the boundary and its values pass
//! [`structs::check_values`], but a field name v0.13.0's struct lacks is
//! kept, so that an answer of another build (a field added later) decodes
//! and a comparison can show it. Whoever computes on a term completes it
//! with v0.13.0's defaults first ([`structs::complete_term`]), and that
//! refuses such a field.

use crate::structs;
use crate::term::{FunSpec, Int, Map, OpaqueKind, Struct, Temporal, TemporalKind, Term};
use base64::Engine as _;
use num_bigint::BigInt;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt::{self, Write as _};

/// Largest integer written as a plain JSON number (2^53 − 1); a bare JSON
/// integer beyond it is refused (TJ-3).
pub const MAX_SAFE_INT: i64 = (1 << 53) - 1;

/// How many JSON arrays and objects a decoded value may nest, its own
/// outermost one counted (TJ-10).
pub const MAX_DEPTH: usize = 120;

/// The longest atom name, in characters (TJ-1): `String.to_atom/1` raises
/// `SystemLimitError` beyond it, so no such atom exists.
pub const MAX_ATOM_CHARS: usize = 255;

/// A decoding error: the JSON-pointer path and what is wrong there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError(pub String);

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DecodeError {}

/// Decodes one tagged term from JSON text. `root` is the path printed for
/// the top-level value (e.g. `/args`); pass `""` for none.
pub fn decode_str(json: &str, root: &str) -> Result<Term, DecodeError> {
    let mut de = serde_json::Deserializer::from_str(json);
    let term = TermSeed {
        path: &Path::Root(root),
    }
    .deserialize(&mut de)
    .map_err(|e| DecodeError(clean(e)))?;
    de.end().map_err(|e| DecodeError(clean(e)))?;
    Ok(term)
}

/// A serde seed that decodes one tagged term in place, inside a larger
/// JSON document (an adapter message), naming `root` in its errors.
#[derive(Clone, Copy, Debug)]
pub struct Seed<'a>(pub &'a str);

impl<'de> DeserializeSeed<'de> for Seed<'_> {
    type Value = Term;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Term, D::Error> {
        TermSeed {
            path: &Path::Root(self.0),
        }
        .deserialize(d)
    }
}

/// Decodes a JSON array of tagged terms (a case's or request's `args`).
pub fn decode_args(json: &str, root: &str) -> Result<Vec<Term>, DecodeError> {
    match decode_str(json, root)? {
        Term::List(items) => Ok(items),
        other => Err(DecodeError(format!(
            "{}: expected an array of arguments, got {}",
            display_root(root),
            kind_name(&other)
        ))),
    }
}

fn display_root(root: &str) -> &str {
    if root.is_empty() {
        "/"
    } else {
        root
    }
}

/// Removes serde_json's position suffix where the message already names a
/// path, keeping it for syntax errors that carry no path.
pub fn clean(e: serde_json::Error) -> String {
    let msg = e.to_string();
    if e.is_syntax() || e.is_eof() || !msg.starts_with('/') {
        return msg;
    }
    match msg.rfind(" at line ") {
        Some(i) => msg[..i].to_owned(),
        None => msg,
    }
}

/// A JSON-pointer path built on the stack; formatted only on error.
enum Path<'a> {
    Root(&'a str),
    Index(&'a Path<'a>, usize),
    Key(&'a Path<'a>, &'a str),
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Path::Root(r) => f.write_str(r),
            Path::Index(p, i) => write!(f, "{p}/{i}"),
            Path::Key(p, k) => {
                write!(f, "{p}/")?;
                // JSON pointer escaping: ~ → ~0, / → ~1.
                f.write_str(&k.replace('~', "~0").replace('/', "~1"))
            }
        }
    }
}

impl Path<'_> {
    /// How many arrays and objects enclose the value at this path (one
    /// segment per container entered).
    fn depth(&self) -> usize {
        match self {
            Path::Root(_) => 0,
            Path::Index(p, _) | Path::Key(p, _) => 1 + p.depth(),
        }
    }

    /// An error when the container at this path nests deeper than
    /// [`MAX_DEPTH`] (TJ-10).
    fn enter<E: de::Error>(&self) -> Result<(), E> {
        if self.depth() < MAX_DEPTH {
            Ok(())
        } else {
            Err(self.err(format_args!(
                "nested deeper than {MAX_DEPTH} arrays and objects (TJ-10)"
            )))
        }
    }

    fn err<E: de::Error>(&self, msg: impl fmt::Display) -> E {
        let p = self.to_string();
        E::custom(format!("{}: {msg}", if p.is_empty() { "/" } else { &p }))
    }
}

struct TermSeed<'a> {
    path: &'a Path<'a>,
}

impl<'de> DeserializeSeed<'de> for TermSeed<'_> {
    type Value = Term;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Term, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for TermSeed<'_> {
    type Value = Term;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a tagged term")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Term, E> {
        Ok(Term::Nil)
    }
    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Term, E> {
        Ok(Term::Bool(b))
    }
    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Term, E> {
        if n.unsigned_abs() > MAX_SAFE_INT as u64 {
            return Err(self.path.err(format_args!(
                "bare integer {n} is beyond 2^53-1: it is written {{\"$int\": \"{n}\"}} (TJ-3)"
            )));
        }
        Ok(Term::Int(Int::Small(n)))
    }
    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Term, E> {
        match i64::try_from(n) {
            Ok(small) => self.visit_i64(small),
            Err(_) => Err(self.path.err(format_args!(
                "bare integer {n} is beyond 2^53-1: it is written {{\"$int\": \"{n}\"}} (TJ-3)"
            ))),
        }
    }
    fn visit_f64<E: de::Error>(self, x: f64) -> Result<Term, E> {
        Err(self.path.err(format_args!(
            "bare number {x} is not a term: floats are written {{\"$float\": {x}}} and integers beyond 2^53-1 {{\"$int\": \"...\"}} (TJ-3)"
        )))
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Term, E> {
        Ok(Term::Str(s.to_owned()))
    }
    fn visit_string<E: de::Error>(self, s: String) -> Result<Term, E> {
        Ok(Term::Str(s))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Term, A::Error> {
        self.path.enter()?;
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        loop {
            let path = Path::Index(self.path, items.len());
            match seq.next_element_seed(TermSeed { path: &path })? {
                Some(t) => items.push(t),
                None => break,
            }
        }
        Ok(Term::List(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Term, A::Error> {
        self.path.enter()?;
        let first: Option<String> = map.next_key()?;
        let Some(first) = first else {
            return Ok(Term::Map(Map::new()));
        };
        if first.starts_with('$') {
            let path = Path::Key(self.path, &first);
            let term = decode_tag(&first, &path, &mut map)?;
            if let Some(extra) = map.next_key::<String>()? {
                return Err(self.path.err(format_args!(
                    "tag object {} has a second key {}: a tag is a one-key object",
                    quoted(&first),
                    quoted(&extra)
                )));
            }
            return Ok(term);
        }
        let mut pairs: Vec<(Term, Term)> = Vec::new();
        let mut key = first;
        loop {
            let path = Path::Key(self.path, &key);
            let value = map.next_value_seed(TermSeed { path: &path })?;
            pairs.push((Term::Str(key), value));
            match map.next_key::<String>()? {
                None => break,
                Some(k) if k.starts_with('$') => {
                    return Err(self.path.err(format_args!(
                        "object key {} starts with '$': a map with such a key is written {{\"$map\": [[k, v], ...]}}",
                        quoted(&k)
                    )))
                }
                Some(k) => key = k,
            }
        }
        build_map(pairs, self.path)
    }
}

fn build_map<E: de::Error>(mut pairs: Vec<(Term, Term)>, path: &Path<'_>) -> Result<Term, E> {
    let n = pairs.len();
    let already_sorted = pairs
        .windows(2)
        .all(|w| crate::term::map_key_cmp(&w[0].0, &w[1].0) == std::cmp::Ordering::Less);
    if !already_sorted {
        pairs.sort_by(|a, b| crate::term::map_key_cmp(&a.0, &b.0));
    }
    if let Some(w) = pairs
        .windows(2)
        .find(|w| crate::term::map_key_cmp(&w[0].0, &w[1].0) == std::cmp::Ordering::Equal)
    {
        return Err(path.err(format_args!("duplicated map key {}", encode(&w[0].0))));
    }
    debug_assert_eq!(pairs.len(), n);
    Ok(Term::Map(Map::from_sorted_unchecked(pairs)))
}

fn decode_tag<'de, A: MapAccess<'de>>(
    tag: &str,
    path: &Path<'_>,
    map: &mut A,
) -> Result<Term, A::Error> {
    let string = |map: &mut A, what: &str| -> Result<String, A::Error> {
        map.next_value_seed(StrSeed { path, what })
    };
    Ok(match tag {
        "$int" => {
            let s = string(map, "a decimal integer string")?;
            Term::Int(
                parse_int(&s).ok_or_else(|| {
                    path.err(format_args!("{} is not a decimal integer", quoted(&s)))
                })?,
            )
        }
        "$float" => Term::Float(map.next_value_seed(FloatSeed { path })?),
        "$bytes" => {
            let s = string(map, "a base64 string")?;
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(s.as_bytes())
                .map_err(|e| path.err(format_args!("bad base64: {e}")))?;
            Term::binary(bytes)
        }
        "$atom" => Term::atom(&atom_name(path, string(map, "an atom name string")?)?),
        "$tuple" => match map.next_value_seed(TermSeed { path })? {
            Term::List(items) => Term::Tuple(items),
            other => {
                return Err(path.err(format_args!("expected an array, got {}", kind_name(&other))))
            }
        },
        "$map" => {
            let pairs = map.next_value_seed(PairsSeed { path, kw: false })?;
            build_map(pairs, path)?
        }
        "$kw" => Term::List(
            map.next_value_seed(PairsSeed { path, kw: true })?
                .into_iter()
                .map(|(k, v)| Term::Tuple(vec![k, v]))
                .collect(),
        ),
        "$date" | "$time" | "$datetime" | "$naive_datetime" => {
            let kind = match tag {
                "$date" => TemporalKind::Date,
                "$time" => TemporalKind::Time,
                "$datetime" => TemporalKind::DateTime,
                _ => TemporalKind::NaiveDateTime,
            };
            let iso = string(map, "an ISO 8601 string")?;
            crate::temporal::parse(kind, &iso).map_err(|why| {
                let what = match kind {
                    TemporalKind::Date => "date",
                    TemporalKind::Time => "time",
                    TemporalKind::NaiveDateTime => "naive datetime",
                    TemporalKind::DateTime => "datetime",
                };
                path.err(format_args!(
                    "{}: not an ISO 8601 {what} as Elixir writes it: {why} (TJ-6)",
                    quoted(&iso)
                ))
            })?;
            Term::Temporal(Temporal { kind, iso })
        }
        "$struct" => Term::Struct(Box::new(map.next_value_seed(StructSeed { path })?)),
        "$fn" => Term::Fun(Box::new(map.next_value_seed(FunSeed { path })?)),
        "$ref" | "$pid" | "$port" => {
            let kind = match tag {
                "$ref" => OpaqueKind::Ref,
                "$pid" => OpaqueKind::Pid,
                _ => OpaqueKind::Port,
            };
            Term::Opaque(kind, string(map, "a label string")?)
        }
        _ => return Err(path_parent_err(path, tag)),
    })
}

/// `name` when it can name an atom: at most [`MAX_ATOM_CHARS`] characters (TJ-1).
fn atom_name<E: de::Error>(path: &Path<'_>, name: String) -> Result<String, E> {
    if name.chars().count() <= MAX_ATOM_CHARS {
        Ok(name)
    } else {
        Err(path.err(format_args!(
            "an atom has at most {MAX_ATOM_CHARS} characters, this name has {} (TJ-1)",
            name.chars().count()
        )))
    }
}

fn path_parent_err<E: de::Error>(path: &Path<'_>, tag: &str) -> E {
    match path {
        Path::Key(parent, _) => parent.err(format_args!("unknown tag {}", quoted(tag))),
        _ => path.err(format_args!("unknown tag {}", quoted(tag))),
    }
}

/// Parses `-?[0-9]+` into an [`Int`].
pub fn parse_int(s: &str) -> Option<Int> {
    let digits = s.strip_prefix('-').unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    match s.parse::<i64>() {
        Ok(n) => Some(Int::Small(n)),
        Err(_) => s.parse::<BigInt>().ok().map(Int::from),
    }
}

struct StrSeed<'a> {
    path: &'a Path<'a>,
    what: &'a str,
}

impl<'de> DeserializeSeed<'de> for StrSeed<'_> {
    type Value = String;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<String, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for StrSeed<'_> {
    type Value = String;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.what)
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<String, E> {
        Ok(s.to_owned())
    }
    fn visit_string<E: de::Error>(self, s: String) -> Result<String, E> {
        Ok(s)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<String, E> {
        Err(self
            .path
            .err(format_args!("expected {}, got a number", self.what)))
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<String, E> {
        Err(self
            .path
            .err(format_args!("expected {}, got a number", self.what)))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<String, E> {
        Err(self
            .path
            .err(format_args!("expected {}, got a number", self.what)))
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<String, E> {
        Err(self
            .path
            .err(format_args!("expected {}, got a boolean", self.what)))
    }
    fn visit_unit<E: de::Error>(self) -> Result<String, E> {
        Err(self
            .path
            .err(format_args!("expected {}, got null", self.what)))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<String, A::Error> {
        Err(self
            .path
            .err(format_args!("expected {}, got an array", self.what)))
    }
    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<String, A::Error> {
        Err(self
            .path
            .err(format_args!("expected {}, got an object", self.what)))
    }
}

struct FloatSeed<'a> {
    path: &'a Path<'a>,
}

impl<'de> DeserializeSeed<'de> for FloatSeed<'_> {
    type Value = f64;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<f64, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for FloatSeed<'_> {
    type Value = f64;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON number")
    }
    fn visit_f64<E: de::Error>(self, x: f64) -> Result<f64, E> {
        if x.is_finite() {
            Ok(x)
        } else {
            Err(self.path.err("$float is out of the finite range"))
        }
    }
    fn visit_i64<E: de::Error>(self, n: i64) -> Result<f64, E> {
        Ok(n as f64)
    }
    fn visit_u64<E: de::Error>(self, n: u64) -> Result<f64, E> {
        Ok(n as f64)
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<f64, E> {
        Err(self.path.err(format_args!(
            "$float must be a JSON number, got the string {}",
            quoted(s)
        )))
    }
    fn visit_unit<E: de::Error>(self) -> Result<f64, E> {
        Err(self.path.err("$float must be a JSON number, got null"))
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<f64, E> {
        Err(self.path.err("$float must be a JSON number, got a boolean"))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<f64, A::Error> {
        Err(self.path.err("$float must be a JSON number, got an array"))
    }
    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<f64, A::Error> {
        Err(self.path.err("$float must be a JSON number, got an object"))
    }
}

/// `[[k, v], ...]` for `$map` (k any term) and `$kw` (k a string → atom).
struct PairsSeed<'a> {
    path: &'a Path<'a>,
    kw: bool,
}

impl<'de> DeserializeSeed<'de> for PairsSeed<'_> {
    type Value = Vec<(Term, Term)>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for PairsSeed<'_> {
    type Value = Vec<(Term, Term)>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of [key, value] pairs")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        self.path.enter()?;
        let mut out = Vec::new();
        loop {
            let path = Path::Index(self.path, out.len());
            match seq.next_element_seed(PairSeed {
                path: &path,
                kw: self.kw,
            })? {
                None => break,
                Some(pair) => out.push(pair),
            }
        }
        Ok(out)
    }
    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
        Err(self
            .path
            .err("expected an array of [key, value] pairs, got an object"))
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
        Err(self
            .path
            .err("expected an array of [key, value] pairs, got a string"))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Err(self
            .path
            .err("expected an array of [key, value] pairs, got a number"))
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Err(self
            .path
            .err("expected an array of [key, value] pairs, got a number"))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Err(self
            .path
            .err("expected an array of [key, value] pairs, got null"))
    }
}

/// One `[key, value]` of a `$map` or `$kw`: a JSON array of two, read as
/// written (not a term that decodes to a list of two, such as a `$kw` of
/// two pairs); a `$kw` key is a JSON string, the atom's name (TJ-1).
struct PairSeed<'a> {
    path: &'a Path<'a>,
    kw: bool,
}

impl PairSeed<'_> {
    fn not_a_pair<E: de::Error>(&self) -> E {
        self.path.err("expected a [key, value] pair")
    }
}

impl<'de> DeserializeSeed<'de> for PairSeed<'_> {
    type Value = (Term, Term);
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for PairSeed<'_> {
    type Value = (Term, Term);
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a [key, value] pair")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        self.path.enter()?;
        let key_path = Path::Index(self.path, 0);
        let key = if self.kw {
            seq.next_element_seed(KwKeySeed { path: &key_path })?
        } else {
            seq.next_element_seed(TermSeed { path: &key_path })?
        };
        let value_path = Path::Index(self.path, 1);
        let value = match key {
            Some(_) => seq.next_element_seed(TermSeed { path: &value_path })?,
            None => None,
        };
        match (key, value) {
            (Some(k), Some(v)) if seq.next_element::<de::IgnoredAny>()?.is_none() => Ok((k, v)),
            _ => Err(self.not_a_pair()),
        }
    }
    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
        Err(self.not_a_pair())
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
        Err(self.not_a_pair())
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Err(self.not_a_pair())
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Err(self.not_a_pair())
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Err(self.not_a_pair())
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Err(self.not_a_pair())
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Err(self.not_a_pair())
    }
}

/// A `$kw` key: a JSON string naming an atom (TJ-1).
struct KwKeySeed<'a> {
    path: &'a Path<'a>,
}

impl KwKeySeed<'_> {
    fn not_a_name<E: de::Error>(&self) -> E {
        self.path
            .err("a $kw key must be a string (the atom's name)")
    }
}

impl<'de> DeserializeSeed<'de> for KwKeySeed<'_> {
    type Value = Term;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Term, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for KwKeySeed<'_> {
    type Value = Term;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an atom name string")
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Term, E> {
        Ok(Term::atom(&atom_name(self.path, s.to_owned())?))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<Term, A::Error> {
        Err(self.not_a_name())
    }
    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<Term, A::Error> {
        Err(self.not_a_name())
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Term, E> {
        Err(self.not_a_name())
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Term, E> {
        Err(self.not_a_name())
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Term, E> {
        Err(self.not_a_name())
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Term, E> {
        Err(self.not_a_name())
    }
    fn visit_unit<E: de::Error>(self) -> Result<Term, E> {
        Err(self.not_a_name())
    }
}

/// `{"module": "...", "fields": {...}}`.
struct StructSeed<'a> {
    path: &'a Path<'a>,
}

impl<'de> DeserializeSeed<'de> for StructSeed<'_> {
    type Value = Struct;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Struct, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for StructSeed<'_> {
    type Value = Struct;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object with \"module\" and \"fields\"")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Struct, A::Error> {
        self.path.enter()?;
        let mut module: Option<String> = None;
        let mut fields: Option<Vec<(String, Term)>> = None;
        while let Some(k) = map.next_key::<String>()? {
            let path = Path::Key(self.path, &k);
            match k.as_str() {
                "module" if module.is_none() => {
                    module = Some(map.next_value_seed(StrSeed {
                        path: &path,
                        what: "a module name",
                    })?)
                }
                "fields" if fields.is_none() => {
                    fields = Some(map.next_value_seed(FieldsSeed { path: &path })?)
                }
                "module" | "fields" => return Err(path.err("duplicated key")),
                _ => {
                    return Err(
                        path.err("unknown key: a $struct has only \"module\" and \"fields\"")
                    )
                }
            }
        }
        let module = module.ok_or_else(|| self.path.err("$struct needs \"module\""))?;
        let mut fields = fields.unwrap_or_default();
        if !structs::is_boundary(&module) {
            return Err(self.path.err(format_args!(
                "$struct module {module} is not a struct of the boundary"
            )));
        }
        let fields_path = Path::Key(self.path, "fields");
        structs::check_values(&module, &fields).map_err(|why| fields_path.err(why))?;
        fields.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(Struct { module, fields })
    }
}

struct FieldsSeed<'a> {
    path: &'a Path<'a>,
}

impl<'de> DeserializeSeed<'de> for FieldsSeed<'_> {
    type Value = Vec<(String, Term)>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for FieldsSeed<'_> {
    type Value = Vec<(String, Term)>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object of struct fields")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        self.path.enter()?;
        let mut out: Vec<(String, Term)> = Vec::new();
        while let Some(k) = map.next_key::<String>()? {
            let path = Path::Key(self.path, &k);
            let v = map.next_value_seed(TermSeed { path: &path })?;
            if out.iter().any(|(name, _)| *name == k) {
                return Err(path.err("duplicated struct field"));
            }
            out.push((k, v));
        }
        Ok(out)
    }
}

/// `{"arity": n, "returns": t}`, `{"arity": n, "raises": "msg"}` or `{"name": "&M.f/1"}`.
struct FunSeed<'a> {
    path: &'a Path<'a>,
}

impl<'de> DeserializeSeed<'de> for FunSeed<'_> {
    type Value = FunSpec;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<FunSpec, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for FunSeed<'_> {
    type Value = FunSpec;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a function spec object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<FunSpec, A::Error> {
        self.path.enter()?;
        let (mut arity, mut returns, mut raises, mut name) = (None, None, None, None);
        while let Some(k) = map.next_key::<String>()? {
            let path = Path::Key(self.path, &k);
            match k.as_str() {
                "arity" if arity.is_none() => {
                    match map.next_value_seed(TermSeed { path: &path })? {
                        Term::Int(Int::Small(n)) if (0..=255).contains(&n) => {
                            arity = Some(n as u32)
                        }
                        _ => return Err(path.err("arity must be an integer from 0 to 255")),
                    }
                }
                "returns" if returns.is_none() => {
                    returns = Some(map.next_value_seed(TermSeed { path: &path })?)
                }
                "raises" if raises.is_none() => {
                    raises = Some(map.next_value_seed(StrSeed {
                        path: &path,
                        what: "a message string",
                    })?)
                }
                "name" if name.is_none() => {
                    let text = map.next_value_seed(StrSeed {
                        path: &path,
                        what: "a function name",
                    })?;
                    if !is_capture(&text) {
                        return Err(path.err(format_args!(
                            "{} is not a capture &M.f/n ({CAPTURE_SHAPE}) (TJ-8)",
                            quoted(&text)
                        )));
                    }
                    name = Some(text)
                }
                "arity" | "returns" | "raises" | "name" => return Err(path.err("duplicated key")),
                _ => return Err(path.err(
                    "unknown key: a $fn has \"arity\" with \"returns\" or \"raises\", or \"name\"",
                )),
            }
        }
        match (arity, returns, raises, name) {
            (Some(arity), Some(returns), None, None) => Ok(FunSpec::Returns { arity, returns }),
            (Some(arity), None, Some(message), None) => Ok(FunSpec::Raises { arity, message }),
            (None, None, None, Some(name)) => Ok(FunSpec::Named(name)),
            _ => Err(self.path.err(
                "a $fn is {\"arity\": n, \"returns\": t}, {\"arity\": n, \"raises\": \"msg\"} or {\"name\": \"&M.f/1\"}",
            )),
        }
    }
}

/// What a `$fn` name must be, as its refusal says it (TJ-8).
const CAPTURE_SHAPE: &str =
    "M not empty, f not empty and without . or /, n from 0 to 255 without a leading zero";

/// Whether `name` is a capture's text `&M.f/n` as TJ-8 reads it: `M` not
/// empty, `f` (after the last `.` before the last `/`) not empty and
/// without `.` or `/`, `n` from 0 to 255 in decimal without a leading zero.
/// The text is the term (a function answered back is written as it came),
/// so `&M.f/01`, which Elixir reads as `&M.f/1`, is not one.
fn is_capture(name: &str) -> bool {
    let Some((mf, arity)) = name.strip_prefix('&').and_then(|r| r.rsplit_once('/')) else {
        return false;
    };
    let Some((module, function)) = mf.rsplit_once('.') else {
        return false;
    };
    let arity_ok = !arity.is_empty()
        && arity.bytes().all(|b| b.is_ascii_digit())
        && (arity == "0" || !arity.starts_with('0'))
        && arity.parse::<u32>().is_ok_and(|n| n <= 255);
    !module.is_empty() && !function.is_empty() && !function.contains('/') && arity_ok
}

/// Short name of a term's kind, for decoding errors.
fn kind_name(t: &Term) -> &'static str {
    match t {
        Term::Nil | Term::Bool(_) | Term::Atom(_) => "atom",
        Term::Int(_) => "integer",
        Term::Float(_) => "float",
        Term::Str(_) | Term::Bytes(_) => "binary",
        Term::List(_) => "list",
        Term::Tuple(_) => "tuple",
        Term::Map(_) => "map",
        Term::Struct(_) | Term::Temporal(_) => "struct",
        Term::Fun(_) => "function",
        Term::Opaque(OpaqueKind::Ref, _) => "reference",
        Term::Opaque(OpaqueKind::Pid, _) => "pid",
        Term::Opaque(OpaqueKind::Port, _) => "port",
    }
}

/// Encodes a term as canonical tagged term JSON.
pub fn encode(term: &Term) -> String {
    let mut out = String::new();
    encode_into(term, &mut out);
    out
}

/// Appends the canonical tagged term JSON of `term` to `out`.
pub fn encode_into(term: &Term, out: &mut String) {
    match term {
        Term::Nil => out.push_str("null"),
        Term::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Term::Int(Int::Small(n)) if n.unsigned_abs() <= MAX_SAFE_INT as u64 => {
            let _ = write!(out, "{n}");
        }
        Term::Int(i) => {
            let _ = write!(out, "{{\"$int\":\"{i}\"}}");
        }
        Term::Float(x) => {
            out.push_str("{\"$float\":");
            out.push_str(&crate::num::short_float(*x));
            out.push('}');
        }
        Term::Str(s) => push_json_str(s, out),
        Term::Bytes(b) => {
            out.push_str("{\"$bytes\":\"");
            out.push_str(&base64::engine::general_purpose::STANDARD.encode(b));
            out.push_str("\"}");
        }
        Term::Atom(a) => {
            out.push_str("{\"$atom\":");
            push_json_str(a, out);
            out.push('}');
        }
        Term::List(items)
            if !items.is_empty() && items.iter().all(|i| i.as_kw_pair().is_some()) =>
        {
            out.push_str("{\"$kw\":[");
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                if let Some((k, v)) = item.as_kw_pair() {
                    out.push('[');
                    push_json_str(k, out);
                    out.push(',');
                    encode_into(v, out);
                    out.push(']');
                }
            }
            out.push_str("]}");
        }
        Term::List(items) => encode_seq(items, out),
        Term::Tuple(items) => {
            out.push_str("{\"$tuple\":");
            encode_seq(items, out);
            out.push('}');
        }
        Term::Map(m) => {
            let plain = m
                .iter()
                .all(|(k, _)| matches!(k, Term::Str(s) if !s.starts_with('$')));
            if plain {
                out.push('{');
                for (i, (k, v)) in m.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    if let Term::Str(s) = k {
                        push_json_str(s, out);
                    }
                    out.push(':');
                    encode_into(v, out);
                }
                out.push('}');
            } else {
                out.push_str("{\"$map\":[");
                for (i, (k, v)) in m.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push('[');
                    encode_into(k, out);
                    out.push(',');
                    encode_into(v, out);
                    out.push(']');
                }
                out.push_str("]}");
            }
        }
        Term::Struct(s) => {
            out.push_str("{\"$struct\":{\"module\":");
            push_json_str(&s.module, out);
            out.push_str(",\"fields\":{");
            for (i, (k, v)) in s.fields.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                push_json_str(k, out);
                out.push(':');
                encode_into(v, out);
            }
            out.push_str("}}}");
        }
        Term::Temporal(t) => {
            out.push_str(match t.kind {
                TemporalKind::Date => "{\"$date\":",
                TemporalKind::Time => "{\"$time\":",
                TemporalKind::DateTime => "{\"$datetime\":",
                TemporalKind::NaiveDateTime => "{\"$naive_datetime\":",
            });
            push_json_str(&t.iso, out);
            out.push('}');
        }
        Term::Fun(f) => {
            out.push_str("{\"$fn\":{");
            match &**f {
                FunSpec::Returns { arity, returns } => {
                    let _ = write!(out, "\"arity\":{arity},\"returns\":");
                    encode_into(returns, out);
                }
                FunSpec::Raises { arity, message } => {
                    let _ = write!(out, "\"arity\":{arity},\"raises\":");
                    push_json_str(message, out);
                }
                FunSpec::Named(name) => {
                    out.push_str("\"name\":");
                    push_json_str(name, out);
                }
            }
            out.push_str("}}");
        }
        Term::Opaque(kind, label) => {
            out.push_str(match kind {
                OpaqueKind::Ref => "{\"$ref\":",
                OpaqueKind::Pid => "{\"$pid\":",
                OpaqueKind::Port => "{\"$port\":",
            });
            push_json_str(label, out);
            out.push('}');
        }
    }
}

fn encode_seq(items: &[Term], out: &mut String) {
    out.push('[');
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        encode_into(item, out);
    }
    out.push(']');
}

/// `s` as a JSON string literal: how a decoding error quotes what it
/// names, the same in every codec of the kit (not Rust's `{:?}`).
pub fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    push_json_str(s, &mut out);
    out
}

/// Appends `s` as a JSON string literal (serde_json's escaping:
/// lower-case hex; the escaping itself is Jason's, `crate::jason`).
pub fn push_json_str(s: &str, out: &mut String) {
    crate::jason::push_escaped(s, out, false);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(json: &str) -> String {
        match decode_str(json, "/args") {
            Err(e) => e.0,
            Ok(t) => panic!("expected an error for {json}, got {t:?}"),
        }
    }

    /// The edge terms every codec of the kit reads (`spec/data/tagged_edges.json`,
    /// also read by both SDKs' tests and the Elixir adapter's): each
    /// accepted text decodes and encodes back byte for byte, each
    /// `accepted_args` decodes, and each refused `args` gives exactly the
    /// error the file states (TJ-1, TJ-3, TJ-4, TJ-6, TJ-10).
    #[test]
    fn shared_edge_terms() {
        let doc: serde_json::Value =
            serde_json::from_str(include_str!("../../spec/data/tagged_edges.json"))
                .unwrap_or_else(|e| panic!("spec/data/tagged_edges.json: {e}"));
        let texts = |key: &str| -> Vec<String> {
            doc[key]
                .as_array()
                .unwrap_or_else(|| panic!("no {key} array"))
                .iter()
                .map(|v| match v {
                    serde_json::Value::String(s) => s.clone(),
                    other => other["args"].as_str().unwrap_or_default().to_owned(),
                })
                .collect()
        };
        let accepted = texts("accepted");
        assert!(accepted.len() > 50, "{} accepted texts", accepted.len());
        for text in &accepted {
            match decode_str(text, "") {
                Ok(t) => assert_eq!(&encode(&t), text),
                Err(e) => panic!("{text}: {e}"),
            }
        }
        for text in texts("accepted_args") {
            if let Err(e) = decode_args(&text, "/args") {
                panic!("{}: {e}", &text[..text.len().min(80)]);
            }
        }
        let refused = doc["refused"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default();
        assert!(refused.len() > 50, "{} refused texts", refused.len());
        for entry in refused {
            let args = entry["args"].as_str().unwrap_or_default();
            let want = entry["error"].as_str().unwrap_or_default();
            assert_eq!(err(args), want, "{}", &args[..args.len().min(80)]);
        }
    }

    /// TJ-2, TJ-10
    #[test]
    fn unknown_tag_names_its_path() {
        assert_eq!(
            err(r#"[1, {"$map": [[{"$atm": "a"}, 1]]}]"#),
            r#"/args/1/$map/0/0: unknown tag "$atm""#
        );
    }

    /// TJ-4
    #[test]
    fn duplicated_keys_are_errors() {
        assert_eq!(
            err(r#"[{"a": 1, "a": 2}]"#),
            "/args/0: duplicated map key \"a\""
        );
        assert_eq!(
            err(r#"[{"$map": [[1, "x"], [2, "y"], [1, "z"]]}]"#),
            "/args/0/$map: duplicated map key 1"
        );
        assert_eq!(
            err(r#"[{"$map": [[{"$atom": "a"}, 1], [{"$atom": "a"}, 2]]}]"#),
            "/args/0/$map: duplicated map key {\"$atom\":\"a\"}"
        );
    }

    /// TJ-3
    #[test]
    fn int_tag_needs_a_decimal_string() {
        assert_eq!(
            err(r#"{"$int": "12a"}"#),
            r#"/args/$int: "12a" is not a decimal integer"#
        );
        assert_eq!(
            err(r#"{"$int": 12}"#),
            "/args/$int: expected a decimal integer string, got a number"
        );
        assert_eq!(
            err(r#"{"$int": ""}"#),
            r#"/args/$int: "" is not a decimal integer"#
        );
    }

    /// TJ-3
    #[test]
    fn float_tag_needs_a_number() {
        assert_eq!(
            err(r#"[{"$float": "1.5"}]"#),
            r#"/args/0/$float: $float must be a JSON number, got the string "1.5""#
        );
        assert_eq!(
            err(r#"[{"$float": null}]"#),
            "/args/0/$float: $float must be a JSON number, got null"
        );
    }

    /// TJ-3
    #[test]
    fn bare_floats_are_errors() {
        assert!(err("[1.5]").starts_with("/args/0: bare number 1.5 is not a term"));
    }

    /// TJ-1
    #[test]
    fn bad_base64_is_an_error() {
        assert!(err(r#"{"$bytes": "!!"}"#).starts_with("/args/$bytes: bad base64"));
    }

    /// TJ-2
    #[test]
    fn tag_objects_have_one_key() {
        assert_eq!(
            err(r#"{"$atom": "a", "b": 1}"#),
            "/args: tag object \"$atom\" has a second key \"b\": a tag is a one-key object"
        );
        assert!(err(r#"{"a": 1, "$b": 1}"#).contains("starts with '$'"));
    }

    /// TJ-10
    #[test]
    fn syntax_errors_keep_their_position() {
        assert!(err("[1,").contains("line 1"));
    }

    /// TJ-10
    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = "[".repeat(100_000) + &"]".repeat(100_000);
        assert!(err(&deep).contains("(TJ-10)"));
        let deep_tuples = r#"{"$tuple":["#.repeat(50_000) + &"]}".repeat(50_000);
        assert!(err(&deep_tuples).contains("(TJ-10)"));
        // Exactly MAX_DEPTH arrays and objects, the value's own included.
        let lists = |n: usize| "[".repeat(n) + &"]".repeat(n);
        assert!(decode_str(&lists(MAX_DEPTH), "").is_ok());
        assert!(err(&lists(MAX_DEPTH + 1))
            .contains("nested deeper than 120 arrays and objects (TJ-10)"));
        let tuples = |n: usize| r#"{"$tuple":["#.repeat(n) + &"]}".repeat(n);
        assert!(decode_str(&tuples(MAX_DEPTH / 2), "").is_ok());
        assert!(err(&tuples(MAX_DEPTH / 2 + 1)).contains("(TJ-10)"));
        // A `$map` pair is its own array; an empty `$map` is two containers.
        let inner = lists(MAX_DEPTH - 2);
        assert!(decode_str(&format!(r#"{{"$map": [[1, {inner}]]}}"#), "").is_err());
        let inner = lists(MAX_DEPTH - 3);
        assert!(decode_str(&format!(r#"{{"$map": [[1, {inner}]]}}"#), "").is_ok());
        let empty_map = |n: usize| "[".repeat(n) + r#"{"$map": []}"# + &"]".repeat(n);
        assert!(decode_str(&empty_map(MAX_DEPTH - 2), "").is_ok());
        assert!(err(&empty_map(MAX_DEPTH - 1)).contains("(TJ-10)"));
    }

    /// TJ-3: a bare integer is at most 2^53-1 in magnitude; beyond, `$int`.
    #[test]
    fn bare_integers_stop_at_2_pow_53() {
        assert_eq!(
            decode_str("9007199254740991", "").ok(),
            Some(Term::int(MAX_SAFE_INT))
        );
        assert_eq!(
            decode_str("-9007199254740991", "").ok(),
            Some(Term::int(-MAX_SAFE_INT))
        );
        for n in [
            "9007199254740992",
            "-9007199254740992",
            "18446744073709551615",
        ] {
            assert!(err(n).contains("(TJ-3)"), "{n}");
        }
        assert_eq!(
            decode_str(r#"{"$int": "18446744073709551616"}"#, "")
                .map(|t| encode(&t))
                .ok(),
            Some(r#"{"$int":"18446744073709551616"}"#.to_owned())
        );
    }

    /// TJ-1: an atom has at most 255 characters (`String.to_atom/1`).
    #[test]
    fn atoms_stop_at_255_characters() {
        let atom = |n: usize| format!(r#"{{"$atom": "{}"}}"#, "é".repeat(n));
        assert!(decode_str(&atom(255), "").is_ok());
        assert!(err(&atom(256)).contains("at most 255 characters"));
        let kw = format!(r#"{{"$kw": [["{}", 1]]}}"#, "a".repeat(256));
        assert!(err(&kw).contains("/$kw/0/0: an atom has at most 255"));
    }

    /// TJ-7: a `$struct` decodes as written; completion adds v0.13.0's
    /// defaults and refuses a field v0.13.0 lacks, naming where it is.
    #[test]
    fn structs_decode_as_written_and_complete_with_defaults() {
        let json = r#"{"$struct": {"module": "PtcRunner.Tool", "fields": {"name": "x"}}}"#;
        let t = decode_str(json, "").unwrap();
        let Term::Struct(s) = &t else {
            panic!("not a struct: {t:?}")
        };
        assert_eq!(s.fields, vec![("name".to_owned(), Term::str("x"))]);
        assert_eq!(
            encode(&t),
            r#"{"$struct":{"module":"PtcRunner.Tool","fields":{"name":"x"}}}"#
        );
        let full = structs::complete_term(&t, "/args/0").unwrap();
        let Term::Struct(s) = &*full else {
            panic!("not a struct: {full:?}")
        };
        assert_eq!(s.field("cache"), Some(&Term::Bool(false)));
        assert_eq!(s.field("visibility"), Some(&Term::atom("public")));
        let typo = decode_str(
            r#"[[{"$struct": {"module": "PtcRunner.Tool", "fields": {"nam": "x"}}}]]"#,
            "",
        )
        .expect("a field v0.13.0 lacks still decodes");
        assert_eq!(
            structs::complete_term(&typo, "/args").unwrap_err(),
            "/args/0/0/$struct/fields: PtcRunner.Tool has no field \"nam\""
        );
        assert_eq!(
            err(r#"{"$struct": {"module": "Range", "fields": {}}}"#),
            "/args/$struct: $struct module Range is not a struct of the boundary"
        );
    }

    /// TJ-7: a `MapSet` whose `map` is not a map of members to `[]` is no
    /// term of the boundary, to decode or to complete.
    #[test]
    fn malformed_mapsets_are_refused() {
        for map in [
            r#"{"$float": 1.5}"#,
            "[1, 2]",
            r#"{"$datetime": "2024-01-01T00:00:00Z"}"#,
            r#"{"$struct": {"module": "MapSet", "fields": {}}}"#,
            r#"{"$map": [[1, 2]]}"#,
        ] {
            let json =
                format!(r#"{{"$struct": {{"module": "MapSet", "fields": {{"map": {map}}}}}}}"#);
            assert_eq!(
                err(&json),
                "/args/$struct/fields: MapSet field \"map\" must be a map of members to [] (as MapSet.new/1 makes it)",
                "{json}"
            );
        }
        let set = Term::Struct(Box::new(Struct {
            module: "MapSet".into(),
            fields: vec![("map".into(), Term::Float(1.5))],
        }));
        assert!(structs::complete_term(&Term::List(vec![set]), "/args")
            .unwrap_err()
            .starts_with("/args/0/$struct/fields: MapSet field \"map\" must be a map"));
        let ok = decode_str(
            r#"{"$struct": {"module": "MapSet", "fields": {"map": {"$map": [[1, []]]}}}}"#,
            "",
        );
        assert!(ok.is_ok(), "{ok:?}");
    }

    /// TJ-1, TJ-5
    #[test]
    fn encoding_is_canonical() {
        let a = decode_str(r#"{"b": 1, "a": [true, null, {"$float": 1.0}]}"#, "").unwrap();
        assert_eq!(encode(&a), r#"{"a":[true,null,{"$float":1.0}],"b":1}"#);
        let big = decode_str(r#"{"$int": "9007199254740992"}"#, "").unwrap();
        assert_eq!(encode(&big), r#"{"$int":"9007199254740992"}"#);
        let safe = decode_str(r#"{"$int": "9007199254740991"}"#, "").unwrap();
        assert_eq!(encode(&safe), "9007199254740991");
        let kw = decode_str(r#"{"$kw": [["a", 1]]}"#, "").unwrap();
        assert_eq!(encode(&kw), r#"{"$kw":[["a",1]]}"#);
        let neg0 = decode_str(r#"{"$float": -0.0}"#, "").unwrap();
        assert_eq!(encode(&neg0), r#"{"$float":-0.0}"#);
        let bytes_utf8 = decode_str(r#"{"$bytes": "aGk="}"#, "").unwrap();
        assert_eq!(bytes_utf8, Term::str("hi"));
    }

    /// TJ-11: a map keyed by dates encodes its pairs in term order, where a
    /// date is a map compared by day first.
    #[test]
    fn date_keys_encode_in_term_order() {
        let m = decode_str(
            r#"{"$map":[[{"$date":"2024-01-02"},1],[{"$date":"2023-05-01"},2],[{"$date":"2024-01-01"},3]]}"#,
            "",
        )
        .expect("decodes");
        assert_eq!(
            encode(&m),
            r#"{"$map":[[{"$date":"2024-01-01"},3],[{"$date":"2023-05-01"},2],[{"$date":"2024-01-02"},1]]}"#
        );
    }

    /// TJ-6, TJ-8, TJ-9: temporal text, function specs and opaque labels survive as written.
    #[test]
    fn temporal_functions_and_opaque_terms_round_trip() {
        for json in [
            r#"{"$datetime":"2026-05-07T12:00:00.120+02:00"}"#,
            r#"{"$time":"12:00:00"}"#,
            r#"{"$naive_datetime":"2026-05-07T12:00:00.000001"}"#,
            r#"{"$fn":{"arity":1,"returns":{"$atom":"ok"}}}"#,
            r#"{"$fn":{"arity":2,"raises":"boom"}}"#,
            r#"{"$fn":{"name":"&PtcRunner.Tool.new/2"}}"#,
            r#"{"$pid":"worker"}"#,
        ] {
            assert_eq!(encode(&decode_str(json, "").unwrap()), json);
        }
        assert!(err(r#"{"$date": "2026-5-7"}"#).contains("not an ISO 8601 date"));
        assert!(err(r#"{"$fn": {"arity": 1}}"#).starts_with("/args/$fn: a $fn is"));
        assert!(err(r#"{"$ref": 1}"#).contains("expected a label string"));
    }
}
