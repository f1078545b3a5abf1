//! What changed: the smallest part of two answers that differs, base →
//! head. A cause is named by it first (a key renamed or added, a value
//! replaced, an exception class, the order of a list, the differing words
//! of a text), then by when it shows ([`super::Trigger`]). The change is
//! also a test: [`Change::undo`] takes it out of another pair of answers,
//! and a difference that then disappears is that change seen elsewhere
//! (inside a message that quotes an inspected term, inside one op's answer
//! embedded in another's), which [`super::join`] uses to join causes.

use crate::judging::judge::Reading;
use crate::review::kinds::{comparable, Labels, Side};
use crate::subject::Answer;
use ptc_conformance::diff::diff;
use ptc_conformance::ops::Op;
use ptc_conformance::term::{Map, Struct, Term};

/// Characters of a value or text shown in a title at most; a longer one
/// keeps its two ends (`start…(+56 chars)…end`).
const SHOWN_CHARS: usize = 64;

/// How the answers differ at the place of a [`Change`].
#[derive(Clone, Debug, PartialEq)]
pub enum Delta {
    /// One side returns, the other raises (`class: message`).
    Raises {
        /// The side that raises.
        side: Side,
        /// What it raises.
        class: String,
        /// Its message.
        message: String,
    },
    /// Both raise, different exceptions.
    Class {
        /// Base's exception.
        base: String,
        /// Head's.
        head: String,
    },
    /// A text reworded: the words where the two differ, whole (the shared
    /// start and end elided), each side's.
    Text {
        /// Base's words there.
        base: String,
        /// Head's words there.
        head: String,
        /// The smallest part of base's text that differs (characters).
        base_edit: String,
        /// The smallest part of head's text that differs (characters).
        head_edit: String,
        /// The shared text before the differing characters.
        before: String,
        /// The shared text after them.
        after: String,
    },
    /// A map key (or struct field) only one side's answer has.
    Key {
        /// The side that has it.
        side: Side,
        /// The key, as tagged JSON (a string key as a JSON string).
        key: String,
        /// Its value there.
        value: String,
    },
    /// A map key renamed, its value kept.
    Renamed {
        /// Base's key.
        base: String,
        /// Head's key.
        head: String,
    },
    /// A value replaced.
    Value {
        /// Base's value (Elixir's notation).
        base: String,
        /// Head's value.
        head: String,
        /// Base's value as a term (to undo the change with).
        base_term: Term,
        /// Head's value as a term.
        head_term: Term,
    },
    /// The same elements, in another order.
    Order,
    /// An answer that is no value nor exception (a refusal, a fault).
    Other(String),
}

/// What changed between base's and head's answer to one input: where, and how.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    /// The op.
    pub op: &'static str,
    /// Where in the answer, in words: `the answer`, `"reason"`,
    /// `PtcRunner.Tool.cache`, `the message of ArgumentError`.
    pub at: String,
    /// How many steps into the answer the place is (0: the answer).
    pub depth: usize,
    /// How.
    pub delta: Delta,
}

impl Change {
    /// The change between `base` and `head`, answers of `op` that differ.
    pub fn of(op: &'static Op, base: &Answer, head: &Answer) -> Change {
        let change = |at: &str, depth, delta| Change {
            op: op.name,
            at: at.to_owned(),
            depth,
            delta,
        };
        match (base, head) {
            (Answer::Raised(b), Answer::Raised(h)) if b.class != h.class => change(
                "the exception",
                0,
                Delta::Class {
                    base: b.class.clone(),
                    head: h.class.clone(),
                },
            ),
            (Answer::Raised(b), Answer::Raised(h)) => change(
                &format!("the message of {}", b.class),
                0,
                text_delta(&b.message, &h.message),
            ),
            (Answer::Raised(r), _) | (_, Answer::Raised(r)) if answered(base) && answered(head) => {
                let side = if matches!(base, Answer::Raised(_)) {
                    Side::Expected
                } else {
                    Side::Actual
                };
                change(
                    "the answer",
                    0,
                    Delta::Raises {
                        side,
                        class: r.class.clone(),
                        message: r.message.clone(),
                    },
                )
            }
            // A payload equal as JSON, rendered differently (the strict
            // level): the two texts' differing characters.
            (Answer::Ok(Term::Str(bs)), Answer::Ok(Term::Str(hs)))
                if op.output == ptc_conformance::ops::Output::JsonString
                    && bs != hs
                    && matches!(
                        (serde_json::from_str::<serde_json::Value>(bs), serde_json::from_str::<serde_json::Value>(hs)),
                        (Ok(x), Ok(y)) if x == y
                    ) =>
            {
                change("the rendered JSON", 0, text_delta(bs, hs))
            }
            (Answer::Ok(b), Answer::Ok(h)) => {
                let (b, h) = comparable(op, b, h, Reading::AsAnswered);
                let mut path = Vec::new();
                let delta = smallest(&b, &h, &mut path);
                let at = path
                    .iter()
                    .rev()
                    .find(|p| !p.starts_with('#'))
                    .cloned()
                    .unwrap_or_else(|| "the answer".to_owned());
                change(&at, path.len(), delta)
            }
            _ => change(
                "the answer",
                0,
                Delta::Other(format!(
                    "{} in base, {} in head",
                    crate::review::fuzz::describe(base),
                    crate::review::fuzz::describe(head)
                )),
            ),
        }
    }

    /// The change in words, base → head, without the op:
    /// `key "feedback" became "hint"`, `"…accepted values are…" became "…expected one of…"`.
    pub fn phrase(&self, labels: Labels) -> String {
        let side = |s: &Side| match s {
            Side::Expected => labels.0,
            Side::Actual => labels.1,
        };
        let at = if self.at == "the answer" {
            String::new()
        } else {
            format!(" at {}", self.at)
        };
        match &self.delta {
            Delta::Raises {
                side: s,
                class,
                message,
            } => format!(
                "{} raises {class} ({}) where {} returns",
                side(s),
                shown(&one_line(message)),
                side(&other(*s))
            ),
            Delta::Class { base, head } => format!("{base} became {head}"),
            Delta::Text { base, head, .. } => {
                let place = if self.at == "the answer" {
                    "the text".to_owned()
                } else {
                    self.at.clone()
                };
                format!("{place}: {} became {}", quoted(base), quoted(head))
            }
            Delta::Key {
                side: s,
                key,
                value,
            } => {
                let verb = match s {
                    Side::Expected => "removed",
                    Side::Actual => "added",
                };
                let what = match key.strip_prefix('.') {
                    Some(field) => format!("field {field}"),
                    None => format!("key {key}"),
                };
                format!("{what}{at} {verb} ({} in {})", shown(value), side(s))
            }
            Delta::Renamed { base, head } => format!("key {base}{at} became {head}"),
            Delta::Value { base, head, .. } => {
                let (b, h) = shown_pair(base, head);
                format!("{b}{at} became {h}")
            }
            Delta::Order => format!("the order of the elements{at} changed"),
            Delta::Other(what) => what.clone(),
        }
    }

    /// `answer` (one side's, of any op) with this change taken out where
    /// it shows as a value: head's words written as base's in every text,
    /// head's key renamed back, a key only one side has left out, head's
    /// value put back, the exception class put back. `None` when the
    /// change is not one a value shows (an exception instead of a value).
    pub fn undo(&self, op: &'static Op, answer: &Answer) -> Option<Answer> {
        self.undo_by(op, answer, 0)
    }

    /// [`Change::undo`] with the `v`-th of a reworded text's [`Change::edits`].
    fn undo_by(&self, op: &'static Op, answer: &Answer, v: usize) -> Option<Answer> {
        match (&self.delta, answer) {
            (Delta::Class { base, head }, Answer::Raised(r)) if &r.class == head => {
                let mut r = r.clone();
                r.class = base.clone();
                Some(Answer::Raised(r))
            }
            (Delta::Text { .. }, Answer::Raised(r)) => {
                let mut r = r.clone();
                r.message = self.undo_text(&r.message, v)?;
                Some(Answer::Raised(r))
            }
            (_, Answer::Ok(t)) => {
                let t = match (op.output, t) {
                    (ptc_conformance::ops::Output::JsonString, Term::Str(s)) => {
                        match serde_json::from_str::<serde_json::Value>(s) {
                            Ok(v) => ptc_conformance::diff::plain_json_to_term(&v),
                            Err(_) => t.clone(),
                        }
                    }
                    _ => t.clone(),
                };
                Some(Answer::Ok(self.undo_term(&t, v)?))
            }
            _ => None,
        }
    }

    /// A text with head's part of a reworded text written as base's, by
    /// the [`Change::edits`] variant `v`.
    fn undo_text(&self, s: &str, v: usize) -> Option<String> {
        let (base, head) = self.edits().into_iter().nth(v)?;
        (!head.is_empty() && s.contains(head.as_str())).then(|| s.replace(head.as_str(), &base))
    }

    /// For a reworded text, the rewritings that may take it out of another
    /// text, base's part and head's each: the differing characters alone,
    /// then with one to three characters of the shared text before or after
    /// them (the fixed part of a format, where the rest is what the input
    /// put there), then the differing words whole.
    pub fn edits(&self) -> Vec<(String, String)> {
        let Delta::Text {
            base,
            head,
            base_edit,
            head_edit,
            before,
            after,
        } = &self.delta
        else {
            return Vec::new();
        };
        let mut out = vec![(base_edit.clone(), head_edit.clone())];
        for n in 1..=3 {
            let l: String = before
                .chars()
                .rev()
                .take(n)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            let r: String = after.chars().take(n).collect();
            out.push((format!("{l}{base_edit}"), format!("{l}{head_edit}")));
            out.push((format!("{base_edit}{r}"), format!("{head_edit}{r}")));
        }
        let strip = |s: &str| s.trim_matches('…').to_owned();
        out.push((strip(base), strip(head)));
        let mut seen = std::collections::BTreeSet::new();
        out.retain(|(b, h)| !h.is_empty() && b != h && seen.insert(h.clone()));
        out
    }

    /// `t` with the change taken out wherever it shows.
    fn undo_term(&self, t: &Term, v: usize) -> Option<Term> {
        let mut hit = false;
        let out = self.walk(t, v, &mut hit);
        hit.then_some(out)
    }

    fn walk(&self, t: &Term, v: usize, hit: &mut bool) -> Term {
        if let Delta::Value {
            base_term,
            head_term,
            ..
        } = &self.delta
        {
            if t == head_term {
                *hit = true;
                return base_term.clone();
            }
        }
        let all = |xs: &[Term], hit: &mut bool| -> Vec<Term> {
            xs.iter().map(|x| self.walk(x, v, hit)).collect()
        };
        match t {
            Term::Str(_) | Term::Bytes(_) => match self.undo_text(&lossy(t), v) {
                Some(new) => {
                    *hit = true;
                    Term::Str(new)
                }
                None => t.clone(),
            },
            Term::List(xs) => {
                let mut xs = all(xs, hit);
                if self.delta == Delta::Order {
                    xs.sort_by(ptc_conformance::term::term_cmp);
                    *hit = true;
                }
                Term::List(xs)
            }
            Term::Tuple(xs) => Term::Tuple(all(xs, hit)),
            Term::Map(m) => {
                // A key renamed back where the map also holds base's key
                // (head writes its own and keeps the one it was given):
                // the renamed pair is base's.
                let shadowed = match &self.delta {
                    Delta::Renamed { base, head } => m
                        .iter()
                        .any(|(k, _)| &ptc_conformance::tagged::encode(k) == head)
                        .then_some(base.as_str()),
                    _ => None,
                };
                let pairs = m
                    .iter()
                    .filter(|(k, _)| {
                        shadowed.is_none_or(|b| ptc_conformance::tagged::encode(k) != b)
                    })
                    .filter_map(|(k, val)| {
                        let key = ptc_conformance::tagged::encode(k);
                        match &self.delta {
                            Delta::Key { key: gone, .. } if &key == gone => {
                                *hit = true;
                                None
                            }
                            Delta::Renamed { base, head } if &key == head => {
                                *hit = true;
                                let k = ptc_conformance::tagged::decode_str(base, "")
                                    .unwrap_or_else(|_| k.clone());
                                Some((k, self.walk(val, v, hit)))
                            }
                            _ => Some((self.walk(k, v, hit), self.walk(val, v, hit))),
                        }
                    })
                    .collect();
                Term::Map(Map::from_pairs(pairs))
            }
            Term::Struct(s) => Term::Struct(Box::new(Struct {
                module: s.module.clone(),
                fields: s
                    .fields
                    .iter()
                    .filter_map(|(f, val)| match &self.delta {
                        Delta::Key { key, .. } if key == &format!(".{f}") => {
                            *hit = true;
                            None
                        }
                        _ => Some((f.clone(), self.walk(val, v, hit))),
                    })
                    .collect(),
            })),
            other => other.clone(),
        }
    }

    /// Whether the change is an exception on one side only (no value shows it).
    pub fn is_raise(&self) -> bool {
        matches!(self.delta, Delta::Raises { .. })
    }

    /// How plainly the change shows what changed, the plainest 0: two
    /// values, then a value on one side and an exception on the other,
    /// then two exceptions (their classes or messages), then the rest.
    pub fn plainness(&self) -> u8 {
        match &self.delta {
            Delta::Other(_) => 3,
            Delta::Class { .. } => 2,
            _ if self.at.starts_with("the message of") => 2,
            Delta::Raises { .. } => 1,
            _ => 0,
        }
    }
}

/// Whether `b` and `h` (answers of `op`) are alike once `change` is taken
/// out of both: head's answer undone, and base's too for a key only one
/// side has (its value is what differs from input to input).
pub fn undone_alike(change: &Change, op: &'static Op, b: &Answer, h: &Answer) -> bool {
    let variants = change.edits().len().max(1);
    (0..variants).any(|v| {
        // A key only one side has, and an order, are taken out of both
        // answers (the key's value is what differs from input to input;
        // either side may hold it): it must show in one of them.
        let both = matches!(change.delta, Delta::Key { .. } | Delta::Order);
        let (b2, h2) = match (change.undo_by(op, b, v), change.undo_by(op, h, v)) {
            (Some(b2), Some(h2)) if both => (b2, h2),
            (Some(b2), None) if both => (b2, plain(op, h)),
            (None, Some(h2)) if both => (plain(op, b), h2),
            (_, Some(h2)) if !both => (plain(op, b), h2),
            _ => return false,
        };
        same(&texts_read(b2), &texts_read(h2))
    }) || rule_undone_alike(change, op, b, h)
}

/// For a value replaced ([`Delta::Value`]), the change as a rule (its
/// [`Rule`]) undone in head's answer at one place of it, or at every
/// element of one list: whether base's answer is then met.
fn rule_undone_alike(change: &Change, op: &'static Op, b: &Answer, h: &Answer) -> bool {
    let Delta::Value {
        base_term,
        head_term,
        ..
    } = &change.delta
    else {
        return false;
    };
    let Some(rule) = Rule::of(base_term, head_term) else {
        return false;
    };
    let Answer::Ok(t) = plain(op, h) else {
        return false;
    };
    let b = texts_read(plain(op, b));
    rule.variants(&t)
        .into_iter()
        .any(|v| same(&b, &texts_read(Answer::Ok(v))))
}

/// A value change as a rule: base's value and head's with the parts they
/// share as holes (`{"a", :int}` → `{:int, "a"}` is `{x, y}` → `{y, x}`),
/// so that the same change of other values (`{"b", {:list, :int}}`) is
/// undone too.
#[derive(Debug)]
struct Rule {
    base: Pat,
    head: Pat,
}

/// A value with holes.
#[derive(Debug, PartialEq)]
enum Pat {
    Hole(usize),
    Lit(Term),
    List(Vec<Pat>),
    Tuple(Vec<Pat>),
}

/// At most this many places of an answer are tried.
const RULE_PLACES: usize = 12;

impl Rule {
    /// The rule of a change from `base` to `head`: the largest parts of
    /// head's value found in base's, as holes. `None` when they share
    /// nothing, or head's is one hole (a value unwrapped matches anything).
    fn of(base: &Term, head: &Term) -> Option<Rule> {
        fn holes(t: &Term, whole: bool, base: &Term, out: &mut Vec<Term>) -> Pat {
            if !whole && contains(base, t) {
                let i = out.iter().position(|x| x == t).unwrap_or_else(|| {
                    out.push(t.clone());
                    out.len() - 1
                });
                return Pat::Hole(i);
            }
            match t {
                Term::List(xs) => {
                    Pat::List(xs.iter().map(|x| holes(x, false, base, out)).collect())
                }
                Term::Tuple(xs) => {
                    Pat::Tuple(xs.iter().map(|x| holes(x, false, base, out)).collect())
                }
                _ => Pat::Lit(t.clone()),
            }
        }
        fn filled(t: &Term, found: &[Term], used: &mut Vec<bool>) -> Pat {
            if let Some(i) = found.iter().position(|x| x == t) {
                used[i] = true;
                return Pat::Hole(i);
            }
            match t {
                Term::List(xs) => Pat::List(xs.iter().map(|x| filled(x, found, used)).collect()),
                Term::Tuple(xs) => Pat::Tuple(xs.iter().map(|x| filled(x, found, used)).collect()),
                _ => Pat::Lit(t.clone()),
            }
        }
        let mut found = Vec::new();
        let head_pat = holes(head, true, base, &mut found);
        if found.is_empty() || matches!(head_pat, Pat::Lit(_)) {
            return None;
        }
        let mut used = vec![false; found.len()];
        let base_pat = filled(base, &found, &mut used);
        used.iter().all(|u| *u).then_some(Rule {
            base: base_pat,
            head: head_pat,
        })
    }

    /// `t` with the rule undone at one place that matches head's side (each
    /// of the first [`RULE_PLACES`] in turn), then at every element of one
    /// list that matches (up to [`RULE_PLACES`] lists).
    fn variants(&self, t: &Term) -> Vec<Term> {
        let nodes = values(t);
        let matching = |x: &Term| self.head.bind(x).is_some();
        let places = nodes.iter().filter(|x| matching(x)).take(RULE_PLACES);
        let lists = nodes
            .iter()
            .filter_map(|x| match x {
                Term::List(xs) if xs.iter().filter(|x| matching(x)).count() > 1 => Some(xs),
                _ => None,
            })
            .take(RULE_PLACES);
        let mut out: Vec<Term> = places
            .map(|p| self.at(t, &|x| std::ptr::eq(x, *p)))
            .collect();
        out.extend(lists.map(|xs| self.at(t, &|x| xs.iter().any(|e| std::ptr::eq(x, e)))));
        out
    }

    /// `t` with the rule undone at the places `pick` picks, outermost first.
    fn at(&self, t: &Term, pick: &dyn Fn(&Term) -> bool) -> Term {
        if pick(t) {
            if let Some(bound) = self.head.bind(t) {
                return self.base.fill(&bound);
            }
        }
        match t {
            Term::List(xs) => Term::List(xs.iter().map(|x| self.at(x, pick)).collect()),
            Term::Tuple(xs) => Term::Tuple(xs.iter().map(|x| self.at(x, pick)).collect()),
            Term::Map(m) => Term::map(
                m.iter()
                    .map(|(k, v)| (k.clone(), self.at(v, pick)))
                    .collect(),
            ),
            other => other.clone(),
        }
    }
}

/// `t` and the values inside it a rule is undone at (list and tuple
/// elements, map values), in pre-order.
fn values(t: &Term) -> Vec<&Term> {
    let mut out = vec![t];
    match t {
        Term::List(xs) | Term::Tuple(xs) => xs.iter().for_each(|x| out.extend(values(x))),
        Term::Map(m) => m.iter().for_each(|(_, v)| out.extend(values(v))),
        _ => {}
    }
    out
}

/// Whether `t` holds `part` (or is it).
fn contains(t: &Term, part: &Term) -> bool {
    t == part
        || match t {
            Term::List(xs) | Term::Tuple(xs) => xs.iter().any(|x| contains(x, part)),
            Term::Map(m) => m
                .iter()
                .any(|(k, v)| contains(k, part) || contains(v, part)),
            _ => false,
        }
}

impl Pat {
    /// The terms `t` binds to this pattern's holes, if it matches.
    fn bind(&self, t: &Term) -> Option<Vec<Option<Term>>> {
        fn go(p: &Pat, t: &Term, out: &mut Vec<Option<Term>>) -> bool {
            match (p, t) {
                (Pat::Hole(i), _) => {
                    if out.len() <= *i {
                        out.resize(i + 1, None);
                    }
                    match &out[*i] {
                        Some(x) => x == t,
                        None => {
                            out[*i] = Some(t.clone());
                            true
                        }
                    }
                }
                (Pat::Lit(x), _) => x == t,
                (Pat::List(ps), Term::List(xs)) | (Pat::Tuple(ps), Term::Tuple(xs)) => {
                    ps.len() == xs.len() && ps.iter().zip(xs).all(|(p, x)| go(p, x, out))
                }
                _ => false,
            }
        }
        let mut out = Vec::new();
        go(self, t, &mut out).then_some(out)
    }

    /// This pattern with its holes filled from `bound`.
    fn fill(&self, bound: &[Option<Term>]) -> Term {
        match self {
            Pat::Hole(i) => bound.get(*i).cloned().flatten().unwrap_or(Term::Nil),
            Pat::Lit(t) => t.clone(),
            Pat::List(ps) => Term::List(ps.iter().map(|p| p.fill(bound)).collect()),
            Pat::Tuple(ps) => Term::Tuple(ps.iter().map(|p| p.fill(bound)).collect()),
        }
    }
}

/// An answer with a rendered JSON text read as the term it renders.
fn plain(op: &'static Op, a: &Answer) -> Answer {
    match (op.output, a) {
        (ptc_conformance::ops::Output::JsonString, Answer::Ok(Term::Str(s))) => {
            match serde_json::from_str::<serde_json::Value>(s) {
                Ok(v) => Answer::Ok(ptc_conformance::diff::plain_json_to_term(&v)),
                Err(_) => a.clone(),
            }
        }
        _ => a.clone(),
    }
}

fn same(a: &Answer, b: &Answer) -> bool {
    match (a, b) {
        (Answer::Ok(x), Answer::Ok(y)) => diff(x, y).is_empty(),
        (Answer::Raised(x), Answer::Raised(y)) => x.class == y.class && x.message == y.message,
        _ => false,
    }
}

/// A binary's text: itself when UTF-8, its bytes read lossily otherwise.
fn lossy(t: &Term) -> String {
    match t {
        Term::Str(s) => s.clone(),
        Term::Bytes(b) => String::from_utf8_lossy(b).into_owned(),
        _ => String::new(),
    }
}

/// An answer with every binary read as text ([`lossy`]), so that a text
/// undone in a binary compares with the other side's.
fn texts_read(a: Answer) -> Answer {
    fn go(t: &Term) -> Term {
        let all = |xs: &[Term]| xs.iter().map(go).collect();
        match t {
            Term::Bytes(_) => Term::Str(lossy(t)),
            Term::List(xs) => Term::List(all(xs)),
            Term::Tuple(xs) => Term::Tuple(all(xs)),
            Term::Map(m) => Term::map(m.iter().map(|(k, v)| (go(k), go(v))).collect()),
            Term::Struct(s) => Term::Struct(Box::new(Struct {
                module: s.module.clone(),
                fields: s.fields.iter().map(|(f, v)| (f.clone(), go(v))).collect(),
            })),
            other => other.clone(),
        }
    }
    match a {
        Answer::Ok(t) => Answer::Ok(go(&t)),
        other => other,
    }
}

fn answered(a: &Answer) -> bool {
    matches!(a, Answer::Ok(_) | Answer::Raised(_))
}

fn other(s: Side) -> Side {
    match s {
        Side::Expected => Side::Actual,
        Side::Actual => Side::Expected,
    }
}

/// The smallest part of `b` and `h` that differs, its place pushed on
/// `path` (map keys and struct fields by name, list and tuple elements
/// as `#i`).
fn smallest(b: &Term, h: &Term, path: &mut Vec<String>) -> Delta {
    let value = |b: &Term, h: &Term| Delta::Value {
        base: term_text(b),
        head: term_text(h),
        base_term: b.clone(),
        head_term: h.clone(),
    };
    match (b, h) {
        (Term::Str(_) | Term::Bytes(_), Term::Str(_) | Term::Bytes(_)) => {
            text_delta(&lossy(b), &lossy(h))
        }
        (Term::Map(x), Term::Map(y)) => {
            let only = |a: &Map, other: &Map| -> Vec<(Term, Term)> {
                a.iter()
                    .filter(|(k, _)| other.get(k).is_none())
                    .cloned()
                    .collect()
            };
            let (ob, oh) = (only(x, y), only(y, x));
            let changed: Vec<&(Term, Term)> = x
                .iter()
                .filter(|(k, v)| y.get(k).is_some_and(|w| !diff(v, w).is_empty()))
                .collect();
            match (&ob[..], &oh[..], &changed[..]) {
                ([(kb, vb)], [(kh, vh)], []) if diff(vb, vh).is_empty() => Delta::Renamed {
                    base: ptc_conformance::tagged::encode(kb),
                    head: ptc_conformance::tagged::encode(kh),
                },
                ([], [(k, v)], []) | ([(k, v)], [], []) => Delta::Key {
                    side: if ob.is_empty() {
                        Side::Actual
                    } else {
                        Side::Expected
                    },
                    key: ptc_conformance::tagged::encode(k),
                    value: term_text(v),
                },
                ([], [], [(k, v)]) => {
                    path.push(key_text(k));
                    let w = y.get(k).unwrap_or(v);
                    smallest(v, w, path)
                }
                // Several values changed (rows reordered and the sample
                // taken from the first): the most telling change of them,
                // an order before a key before a text before a value.
                ([], [], several) => {
                    let tried: Vec<(Vec<String>, Delta)> = several
                        .iter()
                        .map(|(k, v)| {
                            let mut p = path.clone();
                            p.push(key_text(k));
                            let d = smallest(v, y.get(k).unwrap_or(v), &mut p);
                            (p, d)
                        })
                        .collect();
                    let rank = |d: &Delta| match d {
                        Delta::Order => 0,
                        Delta::Key { .. } | Delta::Renamed { .. } => 1,
                        Delta::Text { .. } => 2,
                        _ => 3,
                    };
                    match tried.into_iter().min_by_key(|(_, d)| rank(d)) {
                        Some((p, d)) if rank(&d) < 3 => {
                            *path = p;
                            d
                        }
                        _ => value(b, h),
                    }
                }
                _ => value(b, h),
            }
        }
        (Term::Struct(x), Term::Struct(y)) if x.module == y.module => {
            let ob: Vec<&(String, Term)> = x
                .fields
                .iter()
                .filter(|(f, _)| get(y, f).is_none())
                .collect();
            let oh: Vec<&(String, Term)> = y
                .fields
                .iter()
                .filter(|(f, _)| get(x, f).is_none())
                .collect();
            let changed: Vec<&(String, Term)> = x
                .fields
                .iter()
                .filter(|(f, v)| get(y, f).is_some_and(|w| !diff(v, w).is_empty()))
                .collect();
            match (&ob[..], &oh[..], &changed[..]) {
                ([], [(f, v)], []) | ([(f, v)], [], []) => {
                    path.push(x.module.clone());
                    Delta::Key {
                        side: if ob.is_empty() {
                            Side::Actual
                        } else {
                            Side::Expected
                        },
                        key: format!(".{f}"),
                        value: term_text(v),
                    }
                }
                ([], [], [(f, v)]) => {
                    path.push(format!("{}.{f}", x.module));
                    smallest(v, get(y, f).unwrap_or(v), path)
                }
                _ => value(b, h),
            }
        }
        (Term::List(x), Term::List(y)) | (Term::Tuple(x), Term::Tuple(y)) if x.len() == y.len() => {
            let differing: Vec<usize> = (0..x.len())
                .filter(|&i| !diff(&x[i], &y[i]).is_empty())
                .collect();
            if let [i] = differing[..] {
                path.push(format!("#{i}"));
                return smallest(&x[i], &y[i], path);
            }
            if matches!(b, Term::List(_)) && same_elements(x, y) {
                return Delta::Order;
            }
            value(b, h)
        }
        _ => value(b, h),
    }
}

fn get<'s>(s: &'s Struct, f: &str) -> Option<&'s Term> {
    s.fields.iter().find(|(g, _)| g == f).map(|(_, v)| v)
}

/// Whether two lists hold the same elements, each as often.
fn same_elements(x: &[Term], y: &[Term]) -> bool {
    let sorted = |v: &[Term]| {
        let mut v = v.to_vec();
        v.sort_by(ptc_conformance::term::term_cmp);
        v
    };
    let (a, b) = (sorted(x), sorted(y));
    a.len() == b.len() && a.iter().zip(&b).all(|(p, q)| diff(p, q).is_empty())
}

/// How two texts differ: the words where they part, whole, each side's,
/// and the smallest differing characters (to undo the change elsewhere).
pub fn text_delta(b: &str, h: &str) -> Delta {
    let (bc, hc): (Vec<char>, Vec<char>) = (b.chars().collect(), h.chars().collect());
    let p = bc.iter().zip(&hc).take_while(|(x, y)| x == y).count();
    let s = bc[p..]
        .iter()
        .rev()
        .zip(hc[p..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let edit = |c: &[char]| -> String { c.iter().collect() };
    let (base_edit, head_edit) = (edit(&bc[p..bc.len() - s]), edit(&hc[p..hc.len() - s]));
    // Whole words: back to the start of the word the parting is in, on to
    // the end of the word where they meet again (the shared start and end
    // are alike on both sides).
    let word = |c: char| !c.is_whitespace();
    let mut start = p;
    while start > 0 && word(bc[start - 1]) {
        start -= 1;
    }
    let mut end = s;
    // Only spaces or punctuation differ (`[1 2]` written `[1, 2]`): the
    // word after them shows where.
    let slight = |c: &[char]| {
        c.iter()
            .all(|x| x.is_whitespace() || x.is_ascii_punctuation())
    };
    if slight(&bc[p..bc.len() - s]) && slight(&hc[p..hc.len() - s]) {
        while end > 0 && !word(bc[bc.len() - end]) {
            end -= 1;
        }
    }
    while end > 0 && word(bc[bc.len() - end]) {
        end -= 1;
    }
    let words = |c: &[char]| -> String {
        let mut t: String = c[start..c.len() - end].iter().collect();
        if start > 0 {
            t.insert(0, '…');
        }
        if end > 0 {
            t.push('…');
        }
        t
    };
    Delta::Text {
        base: words(&bc),
        head: words(&hc),
        base_edit,
        head_edit,
        before: bc[..p].iter().collect(),
        after: bc[bc.len() - s..].iter().collect(),
    }
}

/// A term in Elixir's notation, as `inspect/1` writes it.
fn term_text(t: &Term) -> String {
    ptc_conformance::elixir::inspect::inspect(t)
}

fn key_text(k: &Term) -> String {
    match k {
        Term::Str(s) => format!("{s:?}"),
        other => term_text(other),
    }
}

/// `s` on one line, with nothing in it that prints invisibly: line
/// breaks and tabs as `\n`, `\r`, `\t`, every other control or
/// invisible formatting character as `\u{…}`, so that two texts that
/// differ never print alike.
pub fn one_line(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control()
                || (c.is_whitespace() && c != ' ')
                || matches!(c, '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}' | '\u{2060}'..='\u{2064}' | '\u{feff}' | '\u{ad}') =>
            {
                out.push_str(&format!("\\u{{{:x}}}", c as u32));
            }
            c => out.push(c),
        }
    }
    out
}

/// Two values shown on one line each, cut so that the part where they
/// differ stays: the characters they share at the start and the end are
/// elided first, a few kept either side of the difference.
fn shown_pair(b: &str, h: &str) -> (String, String) {
    let (b, h) = (one_line(b), one_line(h));
    let (bc, hc): (Vec<char>, Vec<char>) = (b.chars().collect(), h.chars().collect());
    if bc.len() <= SHOWN_CHARS && hc.len() <= SHOWN_CHARS {
        return (b, h);
    }
    let p = bc.iter().zip(&hc).take_while(|(x, y)| x == y).count();
    let s = bc[p..]
        .iter()
        .rev()
        .zip(hc[p..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    const CONTEXT: usize = 12;
    let cut = |c: &[char]| -> String {
        let from = p.saturating_sub(CONTEXT);
        let to = (c.len() - s + CONTEXT).min(c.len());
        let mut out = String::new();
        if from > 0 {
            out.push_str(&format!("…(+{from} chars)…"));
        }
        let middle: String = c[from..to].iter().collect();
        out.push_str(&shown(&middle));
        if to < c.len() {
            out.push_str(&format!("…(+{} chars)…", c.len() - to));
        }
        out
    };
    (cut(&bc), cut(&hc))
}

/// A text in quotes, line breaks shown as `\n`, its middle kept (the words
/// that differ are in it).
fn quoted(s: &str) -> String {
    format!("\"{}\"", one_line(s))
}

/// A value shown on one line, its ends kept past [`SHOWN_CHARS`].
fn shown(s: &str) -> String {
    let s = one_line(s);
    let n = s.chars().count();
    if n <= SHOWN_CHARS {
        return s;
    }
    let keep = SHOWN_CHARS / 2;
    let head: String = s.chars().take(keep).collect();
    let tail: String = s.chars().skip(n - keep).collect();
    format!("{head}…(+{} chars)…{tail}", n - 2 * keep)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptc_conformance::raised::Raised;

    #[test]
    fn titles_never_show_two_different_texts_alike() {
        assert_eq!(one_line("a\rb\u{0}c\u{200b}"), "a\\rb\\u{0}c\\u{200b}");
        assert_eq!(one_line("a b\u{a0}"), "a b\\u{a0}");
        let base = format!(
            "Call lisp_eval{}then call (tool/x {{}}){}",
            "a".repeat(300),
            "z".repeat(300)
        );
        let head = base.replacen("then", "and then", 1);
        let (b, h) = shown_pair(&base, &head);
        assert_ne!(b, h);
        assert!(h.contains("and then"), "{h}");
        assert!(
            b.chars().count() < 120 && h.chars().count() < 120,
            "{b} / {h}"
        );
    }

    #[test]
    fn a_value_change_is_a_rule_of_the_parts_both_values_share() {
        let t = |xs: Vec<Term>| Term::tuple(xs);
        let (a, int) = (Term::str("a"), Term::atom("int"));
        let Some(rule) = Rule::of(&t(vec![a.clone(), int.clone()]), &t(vec![int, a])) else {
            panic!("a swap is a rule");
        };
        // Undone at the one place of another answer it changed: every
        // 2-tuple matches, and only the right one gives base's answer.
        let list = t(vec![Term::atom("list"), Term::atom("int")]);
        let head = t(vec![
            Term::atom("ok"),
            Term::List(vec![t(vec![list.clone(), Term::str("b")])]),
        ]);
        let base = t(vec![
            Term::atom("ok"),
            Term::List(vec![t(vec![Term::str("b"), list.clone()])]),
        ]);
        assert!(rule.variants(&head).contains(&base));
        // Two elements of one list, undone together.
        let two = |x: bool| {
            let p = |n: &str| {
                if x {
                    t(vec![Term::str(n), list.clone()])
                } else {
                    t(vec![list.clone(), Term::str(n)])
                }
            };
            Term::List(vec![p("b"), p("c")])
        };
        assert!(rule.variants(&two(false)).contains(&two(true)));
        // Nothing shared, or head's value a part of base's: no rule.
        assert!(Rule::of(&Term::int(1), &Term::int(2)).is_none());
        assert!(Rule::of(&t(vec![Term::atom("ok"), Term::int(1)]), &Term::int(1)).is_none());
    }

    fn op(name: &str) -> &'static Op {
        ptc_conformance::ops::find(name).unwrap()
    }

    fn ok(json: &str) -> Answer {
        Answer::Ok(ptc_conformance::tagged::decode_str(json, "").unwrap())
    }

    #[test]
    fn a_payload_equal_as_json_is_named_by_its_rendering() {
        let o = op("protocol.render_error");
        let c = Change::of(
            o,
            &ok(r#""{\"status\":\"error\"}""#),
            &ok(r#""{\n  \"status\": \"error\"\n}""#),
        );
        assert_eq!(c.at, "the rendered JSON");
        let phrase = c.phrase(("base", "head"));
        assert!(phrase.contains("\\n  "), "{phrase}");
    }

    #[test]
    fn a_renamed_key_of_a_rendered_payload_is_named_by_both_names() {
        let o = op("protocol.render_error");
        let c = Change::of(
            o,
            &ok(r#""{\"status\":\"error\",\"feedback\":\"x\"}""#),
            &ok(r#""{\"status\":\"error\",\"hint\":\"x\"}""#),
        );
        assert_eq!(
            c.delta,
            Delta::Renamed {
                base: "\"feedback\"".into(),
                head: "\"hint\"".into()
            }
        );
        assert_eq!(
            c.phrase(("base", "head")),
            "key \"feedback\" became \"hint\""
        );
        // Undone in another payload of the same change, the two agree.
        let (b, h) = (
            ok(r#""{\"feedback\":\"y\",\"reason\":\"fail\"}""#),
            ok(r#""{\"hint\":\"y\",\"reason\":\"fail\"}""#),
        );
        assert!(undone_alike(&c, o, &b, &h));
        // Not a difference of another key.
        let h = ok(r#""{\"feedback\":\"y\",\"reason\":\"failed\"}""#);
        assert!(!undone_alike(&c, o, &b, &h));
    }

    #[test]
    fn a_reworded_text_shows_its_differing_words_whole_and_undoes_in_a_message() {
        let o = op("term.inspect");
        let c = Change::of(o, &ok(r#""%{a: 1, b: 2}""#), &ok(r#""%{a => 1, b => 2}""#));
        let Delta::Text { base, head, .. } = &c.delta else {
            panic!("{c:?}")
        };
        // The shared end (" 2}") is elided, the differing middle kept whole.
        assert_eq!(
            (base.as_str(), head.as_str()),
            ("%{a: 1, b:…", "%{a => 1, b =>…")
        );
        let msg = |m: &str| {
            Answer::Raised(Raised {
                class: "ArgumentError".into(),
                message: m.into(),
            })
        };
        let c2 = Change::of(o, &ok(r#""x: 1""#), &ok(r#""x => 1""#));
        assert!(undone_alike(
            &c2,
            op("tool.validate"),
            &msg("bad value %{y: 2} given"),
            &msg("bad value %{y => 2} given")
        ));
        let words = Change::of(
            o,
            &msg("tool \"a\": the accepted values are :x"),
            &msg("tool \"a\": the expected values are :x"),
        );
        assert_eq!(
            words.phrase(("base", "head")),
            "the message of ArgumentError: \"…accepted…\" became \"…expected…\""
        );
    }

    #[test]
    fn a_replaced_value_deep_in_an_answer_is_named_where_it_is() {
        let o = op("tool.new");
        let c = Change::of(
            o,
            &ok(
                r#"{"$tuple": [{"$atom": "error"}, {"$tuple": [{"$atom": "invalid_visibility"}, 1]}]}"#,
            ),
            &ok(
                r#"{"$tuple": [{"$atom": "error"}, {"$tuple": [{"$atom": "invalid_option"}, {"$atom": "visibility"}, 1]}]}"#,
            ),
        );
        assert_eq!(
            c.phrase(("base", "head")),
            "{:invalid_visibility, 1} became {:invalid_option, :visibility, 1}"
        );
        let order = Change::of(o, &ok("[1, 2, 3]"), &ok("[3, 2, 1]"));
        assert_eq!(order.delta, Delta::Order);
        let added = Change::of(o, &ok(r#"{"a": 1}"#), &ok(r#"{"a": 1, "b": [2]}"#));
        assert_eq!(
            added.phrase(("base", "head")),
            "key \"b\" added ([2] in head)"
        );
    }
}
