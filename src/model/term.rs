//! The Elixir term model: one Rust value for every term the tool boundary
//! handles, with Erlang's equality and ordering rules as code.
//!
//! Maps are kept sorted in *map key order* (Erlang term order, except that
//! every integer sorts before every float), which is the iteration order of
//! Elixir maps up to 32 keys. That order decides which key wins when two keys
//! normalize alike and the key order of JSON the reference renders.

use num_bigint::BigInt;
use num_traits::ToPrimitive;
use std::cmp::Ordering;
use std::fmt;

/// An Elixir term.
///
/// `==` on terms is OTP 25's exact equality (`=:=`): `1` and `1.0` differ,
/// `0.0` and `-0.0` do not (they are one map key), and maps, kept in key
/// order, compare by content. Whether two terms are written alike, signed
/// zeros included, is their tagged JSON's business (`diff` compares that).
#[derive(Clone, Debug, PartialEq)]
pub enum Term {
    /// `nil` (the atom `:nil`).
    Nil,
    /// `true` / `false` (the atoms `:true` / `:false`).
    Bool(bool),
    /// An integer of any size.
    Int(Int),
    /// A float; `-0.0` is kept. NaN and infinities are not terms.
    Float(f64),
    /// A binary that is valid UTF-8.
    Str(String),
    /// A binary that is not valid UTF-8 (never valid UTF-8: see [`Term::binary`]).
    Bytes(Vec<u8>),
    /// An atom other than `nil`, `true` and `false`.
    Atom(String),
    /// A proper list.
    List(Vec<Term>),
    /// A tuple.
    Tuple(Vec<Term>),
    /// A map that is not a struct.
    Map(Map),
    /// A struct other than the four temporal ones.
    Struct(Box<Struct>),
    /// `Date`, `Time`, `DateTime` or `NaiveDateTime`, as its ISO 8601 text.
    Temporal(Temporal),
    /// A function, known by the behaviour spec it was decoded from.
    Fun(Box<FunSpec>),
    /// An opaque reference, pid or port, known by a label.
    Opaque(OpaqueKind, String),
}

/// An integer: machine-sized when it fits, exact big integer otherwise.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Int {
    /// Fits in an `i64`.
    Small(i64),
    /// Does not fit in an `i64` (never constructed for values that do).
    Big(BigInt),
}

/// Which of the four calendar structs a [`Temporal`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TemporalKind {
    /// `%Date{}`
    Date,
    /// `%Time{}`
    Time,
    /// `%DateTime{}`
    DateTime,
    /// `%NaiveDateTime{}`
    NaiveDateTime,
}

/// A calendar struct kept as the ISO 8601 text Elixir's `to_iso8601/1` prints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Temporal {
    /// Which struct.
    pub kind: TemporalKind,
    /// Its ISO 8601 text (precision shown by the digits).
    pub iso: String,
}

/// Reference, pid or port.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum OpaqueKind {
    /// `make_ref()`
    Ref,
    /// `self()`
    Pid,
    /// `Port.open/2`
    Port,
}

/// A struct: its module (without `Elixir.`) and every field but `__struct__`.
#[derive(Clone, Debug, PartialEq)]
pub struct Struct {
    /// Module name, e.g. `PtcRunner.Tool`.
    pub module: String,
    /// Fields sorted by name.
    pub fields: Vec<(String, Term)>,
}

/// What is known of a function: a behaviour spec from a case, or a name.
#[derive(Clone, Debug, PartialEq)]
pub enum FunSpec {
    /// `fn` of `arity` that returns `returns`.
    Returns {
        /// Number of arguments.
        arity: u32,
        /// The value returned whatever the arguments.
        returns: Term,
    },
    /// `fn` of `arity` that raises `RuntimeError` with `message`.
    Raises {
        /// Number of arguments.
        arity: u32,
        /// The exception message.
        message: String,
    },
    /// A capture such as `&PtcRunner.Foo.bar/1`, or another fun by its text.
    Named(String),
}

impl FunSpec {
    /// The function's arity, when known.
    pub fn arity(&self) -> Option<u32> {
        match self {
            FunSpec::Returns { arity, .. } | FunSpec::Raises { arity, .. } => Some(*arity),
            FunSpec::Named(name) => name.rsplit_once('/').and_then(|(_, a)| a.parse().ok()),
        }
    }
}

/// The parts of a capture's text `&M.f/n` as the adapters read them back
/// (`spec/terms.md` TJ-8): the module atom's name (`M` after `:` taken
/// literally, else `Elixir.` + `M`), the function's name (the text between
/// the last `.` and the last `/`, literally) and the arity text; `None`
/// for a text of another shape.
pub fn capture_parts(name: &str) -> Option<(String, &str, &str)> {
    let (mf, arity) = name.strip_prefix('&')?.rsplit_once('/')?;
    let (module, function) = mf.rsplit_once('.')?;
    if module.is_empty() || function.is_empty() {
        return None;
    }
    let atom = match module.strip_prefix(':') {
        Some(erlang) => erlang.to_owned(),
        None => format!("Elixir.{module}"),
    };
    Some((atom, function, arity))
}

/// A map: pairs sorted by [`map_key_cmp`], keys unique.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Map(Vec<(Term, Term)>);

impl Map {
    /// The empty map.
    pub fn new() -> Map {
        Map(Vec::new())
    }

    /// Builds a map as `Map.new/1` does: pairs are taken in order and a later
    /// pair replaces an earlier one with the same key.
    pub fn from_pairs(pairs: Vec<(Term, Term)>) -> Map {
        let mut indexed: Vec<(usize, (Term, Term))> = pairs.into_iter().enumerate().collect();
        indexed.sort_by(|(ia, (ka, _)), (ib, (kb, _))| map_key_cmp(ka, kb).then(ia.cmp(ib)));
        let mut out: Vec<(Term, Term)> = Vec::with_capacity(indexed.len());
        for (_, (k, v)) in indexed {
            match out.last_mut() {
                Some(last) if map_key_cmp(&last.0, &k) == Ordering::Equal => *last = (k, v),
                _ => out.push((k, v)),
            }
        }
        Map(out)
    }

    /// Builds a map from pairs already sorted and unique (checked in debug builds).
    pub fn from_sorted_unchecked(pairs: Vec<(Term, Term)>) -> Map {
        debug_assert!(pairs
            .windows(2)
            .all(|w| map_key_cmp(&w[0].0, &w[1].0) == Ordering::Less));
        Map(pairs)
    }

    /// Pairs in iteration order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &(Term, Term)> {
        self.0.iter()
    }

    /// Pairs in iteration order, owned.
    pub fn into_pairs(self) -> Vec<(Term, Term)> {
        self.0
    }

    /// Pairs as a slice.
    pub fn pairs(&self) -> &[(Term, Term)] {
        &self.0
    }

    /// Whether the map has no keys.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The value under `key`, matched as Erlang matches map keys.
    pub fn get(&self, key: &Term) -> Option<&Term> {
        self.0
            .binary_search_by(|(k, _)| map_key_cmp(k, key))
            .ok()
            .map(|i| &self.0[i].1)
    }

    /// The value under the string key `key`.
    pub fn get_str(&self, key: &str) -> Option<&Term> {
        self.get(&Term::Str(key.to_owned()))
    }

    /// The value under the atom key `key`.
    pub fn get_atom(&self, key: &str) -> Option<&Term> {
        self.get(&Term::atom(key))
    }

    /// Returns a map with `key` set to `value`.
    pub fn insert(&mut self, key: Term, value: Term) {
        match self.0.binary_search_by(|(k, _)| map_key_cmp(k, &key)) {
            Ok(i) => self.0[i] = (key, value),
            Err(i) => self.0.insert(i, (key, value)),
        }
    }
}

impl Struct {
    /// The value of field `name`.
    pub fn field(&self, name: &str) -> Option<&Term> {
        self.fields
            .binary_search_by(|(k, _)| k.as_str().cmp(name))
            .ok()
            .map(|i| &self.fields[i].1)
    }
}

impl Term {
    /// The atom `name`; `nil`, `true` and `false` become [`Term::Nil`] / [`Term::Bool`].
    pub fn atom(name: &str) -> Term {
        match name {
            "nil" => Term::Nil,
            "true" => Term::Bool(true),
            "false" => Term::Bool(false),
            _ => Term::Atom(name.to_owned()),
        }
    }

    /// A string term.
    pub fn str(s: impl Into<String>) -> Term {
        Term::Str(s.into())
    }

    /// An integer term.
    pub fn int(n: i64) -> Term {
        Term::Int(Int::Small(n))
    }

    /// A binary: [`Term::Str`] when valid UTF-8, else [`Term::Bytes`].
    pub fn binary(bytes: Vec<u8>) -> Term {
        match String::from_utf8(bytes) {
            Ok(s) => Term::Str(s),
            Err(e) => Term::Bytes(e.into_bytes()),
        }
    }

    /// A tuple term.
    pub fn tuple(items: Vec<Term>) -> Term {
        Term::Tuple(items)
    }

    /// A map term built as `Map.new/1` would from `pairs`.
    pub fn map(pairs: Vec<(Term, Term)>) -> Term {
        Term::Map(Map::from_pairs(pairs))
    }

    /// `{:ok, value}`.
    pub fn ok(value: Term) -> Term {
        Term::Tuple(vec![Term::atom("ok"), value])
    }

    /// `{:error, value}`.
    pub fn error(value: Term) -> Term {
        Term::Tuple(vec![Term::atom("error"), value])
    }

    /// The atom's name when this is an atom (including `nil`, `true`, `false`).
    pub fn as_atom(&self) -> Option<&str> {
        match self {
            Term::Nil => Some("nil"),
            Term::Bool(true) => Some("true"),
            Term::Bool(false) => Some("false"),
            Term::Atom(a) => Some(a),
            _ => None,
        }
    }

    /// Whether `is_atom/1` holds.
    pub fn is_atom(&self) -> bool {
        self.as_atom().is_some()
    }

    /// Whether `is_map/1` holds (structs are maps).
    pub fn is_map(&self) -> bool {
        matches!(self, Term::Map(_) | Term::Struct(_) | Term::Temporal(_))
    }

    /// Whether `is_binary/1` holds.
    pub fn is_binary(&self) -> bool {
        matches!(self, Term::Str(_) | Term::Bytes(_))
    }

    /// The bytes of a binary.
    pub fn as_binary(&self) -> Option<&[u8]> {
        match self {
            Term::Str(s) => Some(s.as_bytes()),
            Term::Bytes(b) => Some(b),
            _ => None,
        }
    }

    /// `{atom, value}` as `(name, value)`.
    pub fn as_kw_pair(&self) -> Option<(&str, &Term)> {
        match self {
            Term::Tuple(t) if t.len() == 2 => t[0].as_atom().map(|a| (a, &t[1])),
            _ => None,
        }
    }
}

impl From<i64> for Int {
    fn from(n: i64) -> Int {
        Int::Small(n)
    }
}

impl From<BigInt> for Int {
    fn from(n: BigInt) -> Int {
        match n.to_i64() {
            Some(small) => Int::Small(small),
            None => Int::Big(n),
        }
    }
}

impl Int {
    /// The value as a big integer.
    pub fn to_bigint(&self) -> BigInt {
        match self {
            Int::Small(n) => BigInt::from(*n),
            Int::Big(b) => b.clone(),
        }
    }

    /// Numeric comparison.
    pub fn cmp_int(&self, other: &Int) -> Ordering {
        match (self, other) {
            (Int::Small(a), Int::Small(b)) => a.cmp(b),
            _ => self.to_bigint().cmp(&other.to_bigint()),
        }
    }
}

impl fmt::Display for Int {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Int::Small(n) => write!(f, "{n}"),
            Int::Big(b) => write!(f, "{b}"),
        }
    }
}

/// Exact comparison of an integer with a float, as Erlang compares numbers:
/// the float's integer part converts exactly (a term's float is finite),
/// and on a tie its fraction decides.
fn cmp_int_float(i: &Int, x: f64) -> Ordering {
    let whole = crate::num::float_to_bigint(x).unwrap_or_default();
    let fraction = x.fract();
    i.to_bigint().cmp(&whole).then(if fraction > 0.0 {
        Ordering::Less
    } else if fraction < 0.0 {
        Ordering::Greater
    } else {
        Ordering::Equal
    })
}

fn type_rank(t: &Term) -> u8 {
    // number < atom < reference < fun < port < pid < tuple < map < list < bitstring
    match t {
        Term::Int(_) | Term::Float(_) => 0,
        Term::Nil | Term::Bool(_) | Term::Atom(_) => 1,
        Term::Opaque(OpaqueKind::Ref, _) => 2,
        Term::Fun(_) => 3,
        Term::Opaque(OpaqueKind::Port, _) => 4,
        Term::Opaque(OpaqueKind::Pid, _) => 5,
        Term::Tuple(_) => 6,
        Term::Map(_) | Term::Struct(_) | Term::Temporal(_) => 7,
        Term::List(_) => 8,
        Term::Str(_) | Term::Bytes(_) => 9,
    }
}

/// Erlang term order (`<`, `==` for numbers compare across int and float).
///
/// Two terms the Elixir comparison operators call equal (e.g. `1` and `1.0`)
/// compare `Equal`. Structs, the calendar ones included, order as the maps
/// they are: by size, then keys, then values, `__struct__` among the keys
/// (`spec/terms.md`, TJ-11). Functions, references, pids and ports order
/// by VM internals; here by their spec or label.
/// (LOOSE-3: their order against each other is the VM's business.)
pub fn term_cmp(a: &Term, b: &Term) -> Ordering {
    cmp_with(a, b, false)
}

/// Map key order: term order, except that every integer sorts before every
/// float and `1` and `1.0` are different keys (`-0.0` and `0.0` are the same
/// key on OTP 25, the reference platform).
pub fn map_key_cmp(a: &Term, b: &Term) -> Ordering {
    cmp_with(a, b, true)
}

fn cmp_with(a: &Term, b: &Term, exact: bool) -> Ordering {
    let (ra, rb) = (type_rank(a), type_rank(b));
    if ra != rb {
        return ra.cmp(&rb);
    }
    match (a, b) {
        (Term::Int(x), Term::Int(y)) => x.cmp_int(y),
        (Term::Float(x), Term::Float(y)) => x.partial_cmp(y).unwrap_or(Ordering::Equal),
        (Term::Int(x), Term::Float(y)) => {
            if exact {
                Ordering::Less
            } else {
                cmp_int_float(x, *y)
            }
        }
        (Term::Float(x), Term::Int(y)) => {
            if exact {
                Ordering::Greater
            } else {
                cmp_int_float(y, *x).reverse()
            }
        }
        (Term::Opaque(_, x), Term::Opaque(_, y)) => x.cmp(y),
        (Term::Fun(x), Term::Fun(y)) => format!("{x:?}").cmp(&format!("{y:?}")),
        (Term::Tuple(x), Term::Tuple(y)) => {
            x.len().cmp(&y.len()).then_with(|| cmp_seq(x, y, exact))
        }
        (Term::List(x), Term::List(y)) => cmp_seq(x, y, exact),
        _ if ra == 1 => a.as_atom().cmp(&b.as_atom()),
        _ if ra == 9 => a.as_binary().cmp(&b.as_binary()),
        _ => cmp_maps(&map_view(a), &map_view(b), exact),
    }
}

/// The pairs of a map-like term in key order: a map's own, or a struct's
/// fields and `__struct__` as the map the struct is.
pub fn map_view(t: &Term) -> std::borrow::Cow<'_, [(Term, Term)]> {
    use std::borrow::Cow;
    let (module, fields) = match t {
        Term::Map(m) => return Cow::Borrowed(m.pairs()),
        Term::Struct(s) => (s.module.as_str(), s.fields.clone()),
        Term::Temporal(tm) => (tm.kind.module(), crate::structs::temporal_fields(tm)),
        _ => return Cow::Owned(Vec::new()),
    };
    let mut pairs: Vec<(Term, Term)> = fields
        .into_iter()
        .map(|(k, v)| (Term::atom(&k), v))
        .collect();
    pairs.push((
        Term::atom("__struct__"),
        Term::atom(&format!("Elixir.{module}")),
    ));
    pairs.sort_by(|x, y| map_key_cmp(&x.0, &y.0));
    Cow::Owned(pairs)
}

impl TemporalKind {
    /// The struct's module name.
    pub fn module(self) -> &'static str {
        match self {
            TemporalKind::Date => "Date",
            TemporalKind::Time => "Time",
            TemporalKind::DateTime => "DateTime",
            TemporalKind::NaiveDateTime => "NaiveDateTime",
        }
    }
}

fn cmp_seq(x: &[Term], y: &[Term], exact: bool) -> Ordering {
    for (p, q) in x.iter().zip(y) {
        let c = cmp_with(p, q, exact);
        if c != Ordering::Equal {
            return c;
        }
    }
    x.len().cmp(&y.len())
}

fn cmp_maps(x: &[(Term, Term)], y: &[(Term, Term)], exact: bool) -> Ordering {
    // Size first, then keys in key order, then values in key order.
    x.len()
        .cmp(&y.len())
        .then_with(|| {
            for ((ka, _), (kb, _)) in x.iter().zip(y) {
                let c = map_key_cmp(ka, kb);
                if c != Ordering::Equal {
                    return c;
                }
            }
            Ordering::Equal
        })
        .then_with(|| {
            for ((_, va), (_, vb)) in x.iter().zip(y) {
                let c = cmp_with(va, vb, exact);
                if c != Ordering::Equal {
                    return c;
                }
            }
            Ordering::Equal
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(x: f64) -> Term {
        Term::Float(x)
    }

    #[test]
    fn equality_is_otp_25_exact_equality() {
        assert_ne!(Term::int(1), f(1.0));
        assert_eq!(f(0.0), f(-0.0));
        assert_eq!(f(1.5), f(1.5));
    }

    #[test]
    fn atoms_nil_true_false_are_the_json_literals() {
        assert_eq!(Term::atom("nil"), Term::Nil);
        assert_eq!(Term::atom("true"), Term::Bool(true));
        assert_eq!(Term::atom("foo"), Term::Atom("foo".into()));
    }

    #[test]
    fn term_order_across_types() {
        let ordered = [
            Term::int(1),
            Term::atom("a"),
            Term::Opaque(OpaqueKind::Ref, "r".into()),
            Term::Fun(Box::new(FunSpec::Named("&M.f/1".into()))),
            Term::Opaque(OpaqueKind::Port, "p".into()),
            Term::Opaque(OpaqueKind::Pid, "p".into()),
            Term::tuple(vec![]),
            Term::map(vec![]),
            Term::List(vec![]),
            Term::str(""),
        ];
        for w in ordered.windows(2) {
            assert_eq!(
                term_cmp(&w[0], &w[1]),
                Ordering::Less,
                "{:?} < {:?}",
                w[0],
                w[1]
            );
        }
    }

    #[test]
    fn numbers_compare_by_value_but_map_keys_put_integers_first() {
        assert_eq!(term_cmp(&Term::int(2), &f(1.5)), Ordering::Greater);
        assert_eq!(term_cmp(&Term::int(1), &f(1.0)), Ordering::Equal);
        assert_eq!(map_key_cmp(&Term::int(2), &f(1.5)), Ordering::Less);
        let big = Term::Int(Int::from(BigInt::from(10).pow(20)));
        assert_eq!(term_cmp(&big, &f(1.0e20)), Ordering::Equal);
        assert_eq!(term_cmp(&big, &f(1.0e19)), Ordering::Greater);
    }

    #[test]
    fn atoms_sort_by_name_and_nil_sorts_among_them() {
        assert_eq!(term_cmp(&Term::atom("b"), &Term::Nil), Ordering::Less);
        assert_eq!(term_cmp(&Term::Nil, &Term::atom("o")), Ordering::Less);
        assert_eq!(
            term_cmp(&Term::Bool(false), &Term::Bool(true)),
            Ordering::Less
        );
    }

    #[test]
    fn map_new_keeps_the_last_of_equal_keys_and_sorts() {
        let m = Map::from_pairs(vec![
            (Term::str("b"), Term::int(1)),
            (Term::str("a"), Term::int(2)),
            (Term::str("b"), Term::int(3)),
        ]);
        let keys: Vec<_> = m.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        assert_eq!(
            keys,
            vec![
                (Term::str("a"), Term::int(2)),
                (Term::str("b"), Term::int(3))
            ]
        );
    }

    #[test]
    fn map_equality_ignores_construction_order() {
        let a = Term::map(vec![
            (Term::str("x"), Term::int(1)),
            (Term::atom("y"), Term::Nil),
        ]);
        let b = Term::map(vec![
            (Term::atom("y"), Term::Nil),
            (Term::str("x"), Term::int(1)),
        ]);
        assert_eq!(a, b);
    }

    #[test]
    fn maps_order_by_size_then_keys() {
        let small = Term::map(vec![(Term::str("z"), Term::int(1))]);
        let large = Term::map(vec![
            (Term::str("a"), Term::int(1)),
            (Term::str("b"), Term::int(1)),
        ]);
        assert_eq!(term_cmp(&small, &large), Ordering::Less);
    }

    /// TJ-11: structs order as maps, so dates compare by day first.
    #[test]
    fn calendar_structs_order_as_the_maps_they_are() {
        let t = |kind, iso: &str| {
            Term::Temporal(Temporal {
                kind,
                iso: iso.to_owned(),
            })
        };
        let ordered = [
            t(TemporalKind::Date, "2024-01-01"),
            t(TemporalKind::Date, "2023-05-01"),
            t(TemporalKind::Date, "2024-01-02"),
            t(TemporalKind::Time, "09:30:00.5"),
            t(TemporalKind::Time, "10:00:00"),
            t(TemporalKind::NaiveDateTime, "2024-01-01T10:00:00"),
            t(TemporalKind::NaiveDateTime, "2023-12-31T23:00:00"),
            t(TemporalKind::DateTime, "2024-01-01T10:00:00+02:00"),
            t(TemporalKind::DateTime, "2024-01-01T10:00:00-05:00"),
            t(TemporalKind::DateTime, "2024-01-01T10:00:00Z"),
            // Years beyond four digits and before year 0 are values like
            // any (TJ-6, TJ-11), compared after the day and the month.
            t(TemporalKind::DateTime, "10000-03-01T10:00:00Z"),
            t(TemporalKind::DateTime, "-2024-02-29T10:00:00Z"),
        ];
        for w in ordered.windows(2) {
            assert_eq!(term_cmp(&w[0], &w[1]), Ordering::Less, "{w:?}");
        }
    }

    #[test]
    fn lists_and_tuples_order() {
        let t1 = Term::tuple(vec![Term::int(9)]);
        let t2 = Term::tuple(vec![Term::int(1), Term::int(1)]);
        assert_eq!(term_cmp(&t1, &t2), Ordering::Less);
        let l1 = Term::List(vec![Term::int(1), Term::int(1)]);
        let l2 = Term::List(vec![Term::int(9)]);
        assert_eq!(term_cmp(&l1, &l2), Ordering::Less);
    }

    #[test]
    fn binary_normalizes_valid_utf8_to_str() {
        assert_eq!(Term::binary(b"abc".to_vec()), Term::str("abc"));
        assert!(matches!(Term::binary(vec![0xff]), Term::Bytes(_)));
    }
}
