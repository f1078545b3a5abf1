//! The parts of an input a cause search takes out, one at a time: each
//! struct field (left out: the build's default), each struct (replaced by
//! `nil`), each option of a keyword-like list and each map pair (left
//! out), and each value (replaced by `nil`), with the trigger each names.

use super::Trigger;
use crate::review::gen::keys::KeyClass;
use crate::review::gen::mutate::{children, mutate};
use crate::review::kinds::{size, type_name};
use ptc_conformance::term::{FunSpec, Struct, Term};

/// An input with one part taken out, and what that part names.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// What the part names.
    pub trigger: Trigger,
    /// How it was taken out (`left out`, `replaced by nil`).
    pub how: &'static str,
    /// The input without it.
    pub args: Vec<Term>,
    /// The part's size (nodes), to try the smallest first.
    pub size: usize,
    /// The node the part was taken from, and its path (pairs of one map
    /// share them).
    pub from: (usize, String),
    /// The text inside the part whose characters a search may take out
    /// one at a time ([`text_at`]): a string or atom value, the key of
    /// a map pair (the pair's index), or an option's key (the index of
    /// the option in its list).
    pub text: Option<(usize, Option<usize>)>,
}

/// Where a node sits, for the path of a value trigger and for telling
/// an option's key (the first atom of a tuple in a list) apart.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    Arg,
    ListItem,
    TupleItem(usize),
    MapKey,
    MapValue,
    Field,
    Returns,
}

/// Every part of `args` of `op` that a cause search may take out, the
/// smallest first (a named part before a value of the same size), at
/// most `max`.
pub fn candidates(op: &'static str, args: &[Term], max: usize) -> Vec<Candidate> {
    let mut out = Vec::new();
    let mut n = 0usize;
    for (i, a) in args.iter().enumerate() {
        walk(
            op,
            args,
            a,
            (&format!("/{i}"), Place::Arg, false),
            &mut n,
            &mut out,
        );
    }
    // Values alone in their list's place come first, a few of them, on
    // top of the budget's other parts (they must not crowd those out).
    let (mut nested, mut out): (Vec<Candidate>, Vec<Candidate>) = out
        .into_iter()
        .partition(|c| matches!(c.trigger, Trigger::Nested { .. }));
    nested.truncate(NESTED_IN_ALL);
    let max = max.saturating_sub(nested.len());
    out.sort_by_key(|c| (c.size, c.trigger.rank()));
    // Within the budget: every named part (a field, a struct, an option,
    // a map pair), then values, at most [`PER_PLACE`] of each place and
    // replacement (the elements of one long list are one place), the
    // smallest first; tried in size order.
    let mut per_place: std::collections::HashMap<(String, &'static str), usize> =
        std::collections::HashMap::new();
    let mut keep: Vec<bool> = out
        .iter()
        .map(|c| !matches!(c.trigger, Trigger::Value { .. }))
        .collect();
    let mut room = max.saturating_sub(keep.iter().filter(|k| **k).count());
    for (i, c) in out.iter().enumerate() {
        if let Trigger::Value { path, .. } = &c.trigger {
            let n = per_place.entry((path.clone(), c.how)).or_default();
            if room > 0 && *n < PER_PLACE {
                *n += 1;
                room -= 1;
                keep[i] = true;
            }
        }
    }
    let mut kept: Vec<Candidate> = out
        .into_iter()
        .zip(keep)
        .filter_map(|(c, k)| k.then_some(c))
        .collect();
    kept.truncate(max);
    nested.extend(kept);
    nested
}

/// Values tried at most per place and replacement.
pub const PER_PLACE: usize = 3;
/// Elements of one list a search tries alone in the list's place, at most.
const NESTED: usize = 2;
/// Values a search tries alone in their list's place, in all, at most.
const NESTED_IN_ALL: usize = 4;

/// A map, list or tuple: what an op may or may not enter.
fn compound(t: &Term) -> bool {
    matches!(t, Term::Map(_) | Term::List(_) | Term::Tuple(_))
}

fn walk(
    op: &'static str,
    args: &[Term],
    t: &Term,
    (path, place, in_list_tuple): (&str, Place, bool),
    n: &mut usize,
    out: &mut Vec<Candidate>,
) {
    let me = *n;
    *n += 1;
    // The text a search may take characters out of: a string or atom
    // replaced whole, a map pair's key.
    let text_of = |key: Option<(usize, &Term)>| match key {
        Some((j, Term::Str(_) | Term::Atom(_))) => Some((me, Some(j))),
        Some(_) => None,
        None => matches!(t, Term::Str(_) | Term::Atom(_)).then_some((me, None)),
    };
    let mut push = |trigger: Trigger, how: &'static str, new: &Term, size: usize, text| {
        out.push(Candidate {
            trigger,
            how,
            args: mutate(args, me, new),
            size,
            from: (me, path.to_owned()),
            text,
        });
    };
    match t {
        Term::Struct(s) => {
            for (name, v) in &s.fields {
                let without = Term::Struct(Box::new(Struct {
                    module: s.module.clone(),
                    fields: s
                        .fields
                        .iter()
                        .filter(|(f, _)| f != name)
                        .cloned()
                        .collect(),
                }));
                let trigger = Trigger::Field {
                    module: s.module.clone(),
                    field: name.clone(),
                };
                push(trigger, "left out", &without, 1 + size(v), None);
            }
            let trigger = Trigger::Struct {
                module: s.module.clone(),
            };
            push(trigger, "replaced by nil", &Term::Nil, size(t), None);
            // Where the op reads options, a struct is a malformed list of
            // them: replaced by no options, as any other value there.
            if option_list(op, path) {
                let trigger = value_trigger(op, path, t);
                push(
                    trigger,
                    "replaced by []",
                    &Term::List(Vec::new()),
                    size(t),
                    None,
                );
            }
        }
        // A list where the op reads options (`spec/data/ops.json`); any
        // other list is data, whatever its elements look like.
        Term::List(items) if option_list(op, path) => {
            // A bare atom in a list is an option too (a flag, or an entry
            // of a keyword list a build reads as malformed).
            for (j, item) in items.iter().enumerate() {
                let bare = match item {
                    Term::Atom(a) => Some(a.as_str()),
                    _ => None,
                };
                if let Some(key) = option_key(item).or(bare) {
                    let mut rest = items.clone();
                    rest.remove(j);
                    let trigger = Trigger::Option {
                        op,
                        path: path.to_owned(),
                        key: key.to_owned(),
                    };
                    // Its key's characters, so that a character a key
                    // rule newly reads is found inside an option's key
                    // as it is inside a map key or a string.
                    push(
                        trigger,
                        "left out",
                        &Term::List(rest),
                        size(item),
                        Some((me, Some(j))),
                    );
                }
            }
        }
        Term::Map(m) => {
            for (j, (k, v)) in m.iter().enumerate() {
                let rest: Vec<(Term, Term)> = m
                    .iter()
                    .enumerate()
                    .filter(|(x, _)| *x != j)
                    .map(|(_, p)| p.clone())
                    .collect();
                let class = KeyClass::of(k).map_or("non-text", KeyClass::name);
                let trigger = Trigger::MapKey { class };
                let text = text_of(Some((j, k)));
                push(
                    trigger,
                    "left out",
                    &Term::map(rest),
                    size(k) + size(v),
                    text,
                );
            }
        }
        // A list of data: each of its first compound elements in its
        // place (a change in whether an op enters lists shows when the
        // value is found alone). Tried first: the list is one node.
        Term::List(items) => {
            for item in items.iter().filter(|x| compound(x)).take(NESTED) {
                let trigger = Trigger::Nested {
                    op,
                    path: path.to_owned(),
                };
                push(trigger, "taken out of its list", item, 0, None);
            }
        }
        _ => {}
    }
    // An option's key is no part of its own: the option is (left out
    // whole, above); a struct is replaced by `nil` as a struct, above.
    let key_of_option = matches!(
        (t, place, in_list_tuple),
        (Term::Atom(_), Place::TupleItem(0), true)
    );
    let value = !matches!(t, Term::Struct(_)) && place != Place::MapKey && !key_of_option;
    if value {
        let trigger = value_trigger(op, path, t);
        // `[]` too: the neutral value of options and lists, where `nil`
        // is no value at all (and the only other value `nil` can take).
        if !matches!(t, Term::List(xs) if xs.is_empty()) {
            push(
                trigger.clone(),
                "replaced by []",
                &Term::List(Vec::new()),
                size(t),
                text_of(None),
            );
        }
        if !matches!(t, Term::Nil) {
            push(
                trigger.clone(),
                "replaced by nil",
                &Term::Nil,
                size(t),
                text_of(None),
            );
        }
        // An edge value (an empty text, a count): another of its type, for
        // where `nil` and `[]` cut the op short on both sides (an error
        // neither gave before says nothing of the part) and an empty text
        // has no character to take out.
        if let Some(other) = another_of_its_type(t) {
            push(
                trigger,
                "replaced by another of its type",
                &other,
                size(t),
                text_of(None),
            );
        }
    }
    // Children in the order `mutate` counts them.
    let kids = children(t);
    let in_list = matches!(place, Place::ListItem);
    let mut keys_next = true;
    for (j, child) in kids.into_iter().enumerate() {
        let (seg, p) = match t {
            // An option is named by its key: `/1/[format_options]/1` is
            // the value of the option `format_options` in argument 2's list.
            Term::List(_) => match option_key(child).filter(|_| option_list(op, path)) {
                Some(key) => (format!("/[{key}]"), Place::ListItem),
                None => ("/*".to_owned(), Place::ListItem),
            },
            Term::Tuple(_) => (format!("/{j}"), Place::TupleItem(j)),
            Term::Map(m) => {
                let is_key = keys_next;
                keys_next = !keys_next;
                if is_key {
                    ("/*".to_owned(), Place::MapKey)
                } else {
                    let key = m.iter().nth(j / 2).map(|(k, _)| k);
                    match key.and_then(Term::as_atom) {
                        Some(a) => (format!("/:{a}"), Place::MapValue),
                        None => ("/*".to_owned(), Place::MapValue),
                    }
                }
            }
            Term::Struct(s) => match s.fields.get(j) {
                Some((f, _)) if s.module != "MapSet" => (format!("/.{f}"), Place::Field),
                _ => ("/*".to_owned(), Place::Field),
            },
            _ => ("/returns".to_owned(), Place::Returns),
        };
        let tuple_in_list = matches!(t, Term::Tuple(_)) && in_list;
        walk(
            op,
            args,
            child,
            (&format!("{path}{seg}"), p, tuple_in_list),
            n,
            out,
        );
    }
}

/// The trigger of the value `t` at `path` of `op`'s input.
fn value_trigger(op: &'static str, path: &str, t: &Term) -> Trigger {
    Trigger::Value {
        op,
        path: path.to_owned(),
        of: type_name(t),
        value: crate::review::show::abbreviate_line(&ptc_conformance::tagged::encode(t)),
    }
}

/// A value of `t`'s type other than `t`, for an empty text (`"x"`) and
/// an integer (`0`, or `2` for `0`); `None` for the rest.
fn another_of_its_type(t: &Term) -> Option<Term> {
    match t {
        Term::Str(s) if s.is_empty() => Some(Term::str("x")),
        Term::Int(_) if *t == Term::int(0) => Some(Term::int(2)),
        Term::Int(_) => Some(Term::int(0)),
        _ => None,
    }
}

/// Whether the list at `path` (`/1/1`) of `op`'s arguments is one the op
/// reads options from: a place `spec/data/ops.json` names under the
/// argument's `options` (read from the spec packed into the binary).
pub fn option_list(op: &str, path: &str) -> bool {
    option_places()
        .get(op)
        .is_some_and(|places| places.iter().any(|p| p == path))
}

/// Every list of options in `args` of `op`: the lists at the places
/// [`option_list`] names, nested ones included.
pub fn option_lists<'a>(op: &str, args: &'a [Term]) -> Vec<&'a [Term]> {
    fn go<'a>(op: &str, t: &'a Term, path: &str, out: &mut Vec<&'a [Term]>) {
        match t {
            Term::List(xs) => {
                let options = option_list(op, path);
                if options {
                    out.push(xs);
                }
                for x in xs {
                    let seg = match option_key(x).filter(|_| options) {
                        Some(k) => format!("/[{k}]"),
                        None => "/*".to_owned(),
                    };
                    go(op, x, &format!("{path}{seg}"), out);
                }
            }
            Term::Tuple(xs) => {
                for (j, x) in xs.iter().enumerate() {
                    go(op, x, &format!("{path}/{j}"), out);
                }
            }
            Term::Struct(s) => {
                for (f, v) in &s.fields {
                    go(op, v, &format!("{path}/.{f}"), out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for (i, a) in args.iter().enumerate() {
        go(op, a, &format!("/{i}"), &mut out);
    }
    out
}

/// Every op's option places, as full paths (`/2`, `/1/[format_options]/1`).
fn option_places() -> &'static std::collections::BTreeMap<String, Vec<String>> {
    static PLACES: std::sync::OnceLock<std::collections::BTreeMap<String, Vec<String>>> =
        std::sync::OnceLock::new();
    PLACES.get_or_init(|| {
        let file = crate::corpus::embedded::Embedded::Spec
            .files()
            .iter()
            .find(|(path, _)| *path == "data/ops.json")
            .map(|(_, bytes)| *bytes)
            .unwrap_or_default();
        let data: serde_json::Value = serde_json::from_slice(file).unwrap_or_default();
        let mut out = std::collections::BTreeMap::new();
        for op in data["ops"].as_array().into_iter().flatten() {
            let Some(name) = op["op"].as_str() else {
                continue;
            };
            let places: Vec<String> = op["args"]
                .as_array()
                .into_iter()
                .flatten()
                .enumerate()
                .flat_map(|(i, a)| {
                    a["options"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(serde_json::Value::as_str)
                        .map(move |p| format!("/{i}{p}"))
                })
                .collect();
            out.insert(name.to_owned(), places);
        }
        out
    })
}

/// The key of a keyword-like list element: a tuple whose first element is
/// an atom (`{:visibility, :public}`, or a shorter or longer tuple a
/// `Keyword` function meets all the same: `{:visibility}`,
/// `{:visibility, :public, :x}`), however well-formed.
fn option_key(item: &Term) -> Option<&str> {
    match item {
        Term::Tuple(xs) if !xs.is_empty() => xs[0].as_atom(),
        _ => None,
    }
}

/// `args` with every `module` struct in them replaced by `nil`, or `None`
/// when they hold none.
pub fn without_structs(args: &[Term], module: &str) -> Option<Vec<Term>> {
    fn go(t: &Term, module: &str, hit: &mut bool) -> Term {
        let all = |xs: &[Term], hit: &mut bool| xs.iter().map(|x| go(x, module, hit)).collect();
        match t {
            Term::Struct(s) if s.module == module => {
                *hit = true;
                Term::Nil
            }
            Term::Struct(s) => Term::Struct(Box::new(Struct {
                module: s.module.clone(),
                fields: s
                    .fields
                    .iter()
                    .map(|(f, v)| (f.clone(), go(v, module, hit)))
                    .collect(),
            })),
            Term::List(xs) => Term::List(all(xs, hit)),
            Term::Tuple(xs) => Term::Tuple(all(xs, hit)),
            Term::Map(m) => Term::map(
                m.iter()
                    .map(|(k, v)| (go(k, module, hit), go(v, module, hit)))
                    .collect(),
            ),
            Term::Fun(f) => match &**f {
                FunSpec::Returns { arity, returns } => Term::Fun(Box::new(FunSpec::Returns {
                    arity: *arity,
                    returns: go(returns, module, hit),
                })),
                _ => t.clone(),
            },
            other => other.clone(),
        }
    }
    let mut hit = false;
    let out = args.iter().map(|a| go(a, module, &mut hit)).collect();
    hit.then_some(out)
}

/// The node `at` of `args`, counted as [`mutate`] counts them.
fn node_at(args: &[Term], at: usize) -> Option<&Term> {
    fn go<'a>(t: &'a Term, at: usize, n: &mut usize) -> Option<&'a Term> {
        if *n == at {
            return Some(t);
        }
        *n += 1;
        children(t).into_iter().find_map(|c| go(c, at, n))
    }
    let mut n = 0;
    args.iter().find_map(|a| go(a, at, &mut n))
}

/// The text a candidate's `text` names in `args` (a string, an atom's
/// name, a map key), if it is one.
pub fn text_at(args: &[Term], (node, key): (usize, Option<usize>)) -> Option<String> {
    let t = node_at(args, node)?;
    let t = match (t, key) {
        (Term::Map(m), Some(j)) => &m.pairs().get(j)?.0,
        (Term::List(items), Some(j)) => option_key_term(items.get(j)?)?,
        (t, None) => t,
        _ => return None,
    };
    match t {
        Term::Str(s) | Term::Atom(s) => Some(s.clone()),
        _ => None,
    }
}

/// `args` with the text a candidate's `text` names replaced by `new`, of
/// the same type (a string stays a string, an atom an atom).
pub fn with_text(
    args: &[Term],
    (node, key): (usize, Option<usize>),
    new: &str,
) -> Option<Vec<Term>> {
    let t = node_at(args, node)?;
    let like = |old: &Term| match old {
        Term::Str(_) => Some(Term::str(new)),
        Term::Atom(_) => Some(Term::atom(new)),
        _ => None,
    };
    let replaced = match (t, key) {
        (Term::Map(m), Some(j)) => {
            let mut pairs = m.pairs().to_vec();
            let pair = pairs.get_mut(j)?;
            pair.0 = like(&pair.0)?;
            Term::map(pairs)
        }
        (Term::List(items), Some(j)) => {
            let mut items = items.clone();
            match items.get_mut(j)? {
                Term::Tuple(kv) if !kv.is_empty() => kv[0] = like(&kv[0])?,
                bare @ Term::Atom(_) => *bare = like(bare)?,
                _ => return None,
            }
            Term::List(items)
        }
        (t, None) => like(t)?,
        _ => return None,
    };
    Some(mutate(args, node, &replaced))
}

/// `args` with the text a candidate's `text` names replaced by `new`, and
/// every other string or atom of the input that reads the same too (a
/// signature's field and the key of the value checked against it, a
/// tool's name and the map key it sits under: a name the input gives in
/// two places must change in both, or the two stop matching and the
/// builds agree for that reason alone).
pub fn with_text_everywhere(
    args: &[Term],
    at: (usize, Option<usize>),
    new: &str,
) -> Option<Vec<Term>> {
    let old = text_at(args, at)?;
    let args = with_text(args, at, new)?;
    Some(args.iter().map(|a| renamed(a, &old, new)).collect())
}

/// `t` with every string and atom that reads `old` written `new`.
fn renamed(t: &Term, old: &str, new: &str) -> Term {
    let all = |xs: &[Term]| xs.iter().map(|x| renamed(x, old, new)).collect();
    match t {
        Term::Str(s) if s == old => Term::str(new),
        Term::Atom(s) if s == old => Term::atom(new),
        Term::List(xs) => Term::List(all(xs)),
        Term::Tuple(xs) => Term::Tuple(all(xs)),
        Term::Map(m) => Term::map(
            m.pairs()
                .iter()
                .map(|(k, v)| (renamed(k, old, new), renamed(v, old, new)))
                .collect(),
        ),
        Term::Struct(s) => Term::Struct(Box::new(Struct {
            module: s.module.clone(),
            fields: s
                .fields
                .iter()
                .map(|(f, v)| (f.clone(), renamed(v, old, new)))
                .collect(),
        })),
        other => other.clone(),
    }
}

/// The key of an option entry: the atom first in a tuple, or a bare atom.
fn option_key_term(item: &Term) -> Option<&Term> {
    match item {
        Term::Tuple(kv) => kv.first().filter(|k| matches!(k, Term::Atom(_))),
        Term::Atom(_) => Some(item),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Options are looked for where ops.json says the op reads them, and
    /// a list of atoms an op reads as data (`filter_by_expose`'s allowed
    /// set) holds none.
    #[test]
    fn options_are_where_the_op_reads_them() {
        assert!(option_list("protocol.render_error", "/2"));
        assert!(option_list("tool.new", "/1/1"));
        assert!(option_list(
            "protocol.render_success_from_step",
            "/1/[format_options]/1"
        ));
        assert!(!option_list("exposure.filter_by_expose", "/2"));
        // A struct where options are read is replaced by no options too.
        let tool = Term::Struct(Box::new(Struct {
            module: "PtcRunner.Tool".into(),
            fields: vec![],
        }));
        let step_args = vec![Term::Nil, tool.clone()];
        let found = candidates("protocol.render_success_from_step", &step_args, 96);
        assert!(
            found.iter().any(|c| c.how == "replaced by []"
                && c.args[1] == Term::List(vec![])
                && matches!(&c.trigger, Trigger::Value { path, .. } if path == "/1")),
            "{found:?}"
        );
        let data = candidates("term.inspect", &[tool], 96);
        assert!(!data.iter().any(|c| c.how == "replaced by []"), "{data:?}");
        let args = vec![
            Term::List(vec![]),
            Term::tuple(vec![Term::atom("text"), Term::atom("tool_call")]),
            Term::List(vec![Term::atom("native"), Term::atom("both")]),
        ];
        let found = candidates("exposure.filter_by_expose", &args, 96);
        assert!(
            !found
                .iter()
                .any(|c| matches!(c.trigger, Trigger::Option { .. })),
            "{found:?}"
        );
    }

    /// A name the input gives twice changes in both places.
    #[test]
    fn a_list_of_data_offers_its_first_compound_elements_alone_in_its_place() {
        let map = |k: &str| Term::map(vec![(Term::str(k), Term::Int(1.into()))]);
        let args = vec![Term::List(vec![
            Term::str("x"),
            map("a-b"),
            map("c-d"),
            map("e-f"),
        ])];
        let all = candidates("key_normalizer.normalize_keys", &args, 64);
        let nested: Vec<&Candidate> = all
            .iter()
            .filter(|c| matches!(c.trigger, Trigger::Nested { .. }))
            .collect();
        // The first two maps (not the string, not the third), tried first.
        let alone: Vec<&Term> = nested.iter().map(|c| &c.args[0]).collect();
        assert_eq!(alone, vec![&map("a-b"), &map("c-d")]);
        assert!(nested
            .iter()
            .all(|c| c.trigger.when(("base", "head")).contains("args/0)")));
        // Not in a list the op reads options from.
        let opts = vec![
            Term::Nil,
            Term::Nil,
            Term::List(vec![Term::tuple(vec![Term::atom("limit"), map("x")])]),
        ];
        assert!(candidates("protocol.render_error", &opts, 64)
            .iter()
            .all(|c| !matches!(c.trigger, Trigger::Nested { .. })));
        // One op's lists are one cause; two ops' are two.
        let at = |op, path: &str| Trigger::Nested {
            op,
            path: path.to_owned(),
        };
        let nk = "key_normalizer.normalize_keys";
        assert!(at(nk, "/0").same_cause(&at(nk, "/0/:x")));
        assert!(!at(nk, "/0").same_cause(&at("protocol.to_json_value", "/0")));
    }

    #[test]
    fn a_text_is_renamed_wherever_the_input_repeats_it() {
        let args = vec![
            Term::List(vec![Term::tuple(vec![
                Term::atom("a/b"),
                Term::atom("any"),
            ])]),
            Term::map(vec![(Term::atom("a/b"), Term::str("a/b"))]),
        ];
        let at = (0, Some(0)); // node 0: the list (nodes are numbered in pre-order); its option 0
        assert_eq!(text_at(&args, at).as_deref(), Some("a/b"));
        let out = with_text_everywhere(&args, at, "ab").unwrap();
        assert_eq!(
            out,
            vec![
                Term::List(vec![Term::tuple(vec![Term::atom("ab"), Term::atom("any")])]),
                Term::map(vec![(Term::atom("ab"), Term::str("ab"))]),
            ]
        );
    }
}
