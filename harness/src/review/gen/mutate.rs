//! Mutations of the corpus's own cases: a golden case's `args` with one
//! sub-term replaced by another term, so the fuzzer starts from inputs
//! someone already found interesting and walks off them.
//!
//! A sub-term is any node of the argument list below the list itself: an
//! argument, a list or tuple item, a map key or value, a struct field's
//! value, a function's return value. Struct field names and modules stay,
//! so a mutated struct is still a struct the adapter can build.
//! Shrinking moves the choice to the first case and the first node, and
//! shrinks the replacement.

use super::domain;
use proptest::prelude::*;
use ptc_conformance::term::{FunSpec, Term};

/// The argument lists of the corpus cases of one op that mutation may
/// start from: those without a map of more than 32 keys anywhere (whose
/// iteration order is the VM's hash order, `spec/terms.md` TJ-4).
pub fn seeds<'a>(op: &str, cases: impl IntoIterator<Item = &'a [Term]>) -> Vec<Vec<Term>> {
    let _ = op;
    cases
        .into_iter()
        .filter(|args| !args.iter().any(has_large_map))
        .map(<[Term]>::to_vec)
        .collect()
}

fn has_large_map(t: &Term) -> bool {
    match t {
        Term::Map(m) => {
            m.pairs().len() > 32 || m.iter().any(|(k, v)| has_large_map(k) || has_large_map(v))
        }
        Term::List(items) | Term::Tuple(items) => items.iter().any(has_large_map),
        Term::Struct(s) => s.fields.iter().any(|(_, v)| has_large_map(v)),
        Term::Fun(f) => matches!(&**f, FunSpec::Returns { returns, .. } if has_large_map(returns)),
        _ => false,
    }
}

/// The atoms, short strings and keyword keys the seeds use, as terms: a
/// vocabulary of option names and values that matter to the op.
pub fn vocabulary(seeds: &[Vec<Term>]) -> Vec<Term> {
    fn walk(t: &Term, out: &mut Vec<Term>) {
        match t {
            Term::Atom(_) => out.push(t.clone()),
            Term::Str(s) if s.chars().count() <= 24 => out.push(t.clone()),
            Term::List(items) | Term::Tuple(items) => items.iter().for_each(|i| walk(i, out)),
            Term::Map(m) => m.iter().for_each(|(k, v)| {
                walk(k, out);
                walk(v, out);
            }),
            Term::Struct(s) => s.fields.iter().for_each(|(_, v)| walk(v, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    seeds.iter().flatten().for_each(|t| walk(t, &mut out));
    out.sort_by(ptc_conformance::term::term_cmp);
    out.dedup();
    out
}

/// Nodes in pre-order, `t` included. A `MapSet`'s `map` is not a node of
/// its own, nor are its values: it stays a map of members to `[]` (any
/// other is no set, `spec/terms.md` TJ-7), only its members change.
fn count(t: &Term) -> usize {
    1 + match t {
        Term::List(items) | Term::Tuple(items) => items.iter().map(count).sum(),
        Term::Map(m) => pairs_count(m.pairs()),
        Term::Struct(s) => s
            .fields
            .iter()
            .map(|(_, v)| match v {
                Term::Map(m) if s.module == "MapSet" => m.iter().map(|(k, _)| count(k)).sum(),
                v => count(v),
            })
            .sum(),
        Term::Fun(f) => match &**f {
            FunSpec::Returns { returns, .. } => count(returns),
            _ => 0,
        },
        _ => 0,
    }
}

fn pairs_count(pairs: &[(Term, Term)]) -> usize {
    pairs.iter().map(|(k, v)| count(k) + count(v)).sum()
}

/// Replaces node `n` of `t` (pre-order, `t` itself is node 0) with `new`;
/// when `n` lies beyond `t`, returns how many nodes `t` has.
fn replace(t: &mut Term, n: usize, new: &Term) -> Result<(), usize> {
    if n == 0 {
        *t = new.clone();
        return Ok(());
    }
    let found = match t {
        Term::List(items) | Term::Tuple(items) => in_seq(items.iter_mut(), n - 1, new),
        Term::Map(m) => in_map(m, n - 1, new),
        Term::Struct(s) => {
            let set = s.module == "MapSet";
            let module = s.module.clone();
            let mut left = n - 1;
            let mut result = Err(0);
            for (name, v) in s.fields.iter_mut() {
                let r = match v {
                    Term::Map(m) if set => in_set(m, left, new),
                    // A field that cannot hold `new` keeps its value: a URI
                    // made of anything but binaries, `nil` and an integer
                    // port is no term of the boundary (TJ-7), and both sides
                    // would only decline it.
                    _ if left == 0 && !fits(&module, name, new) => Ok(()),
                    v => replace(v, left, new),
                };
                match r {
                    Ok(()) => {
                        result = Ok(());
                        break;
                    }
                    Err(c) => left -= c,
                }
            }
            result.map_err(|_| n - 1 - left)
        }
        Term::Fun(f) => match &mut **f {
            FunSpec::Returns { returns, .. } => replace(returns, n - 1, new),
            _ => Err(0),
        },
        _ => Err(0),
    };
    found.map_err(|below| 1 + below)
}

/// Whether field `name` of a `module` struct may hold `value`, as the
/// decoders check it ([`ptc_conformance::structs::check_values`]).
fn fits(module: &str, name: &str, value: &Term) -> bool {
    ptc_conformance::structs::check_values(module, &[(name.to_owned(), value.clone())]).is_ok()
}

/// Node `n` among `items` (counted from 0), or how many nodes they have.
fn in_seq<'a>(
    items: impl Iterator<Item = &'a mut Term>,
    n: usize,
    new: &Term,
) -> Result<(), usize> {
    let mut left = n;
    let mut total = 0;
    for i in items {
        match replace(i, left, new) {
            Ok(()) => return Ok(()),
            Err(c) => {
                left -= c;
                total += c;
            }
        }
    }
    Err(total)
}

/// Node `n` among a map's keys and values; the map is rebuilt, since a
/// replaced key may sort elsewhere or equal another (the later pair wins).
fn in_map(m: &mut ptc_conformance::term::Map, n: usize, new: &Term) -> Result<(), usize> {
    let mut pairs = std::mem::take(m).into_pairs();
    let r = in_seq(pairs.iter_mut().flat_map(|(k, v)| [k, v]), n, new);
    *m = ptc_conformance::term::Map::from_pairs(pairs);
    r
}

/// Node `n` among a set's members (its map's keys), the map rebuilt as
/// [`in_map`] does; the values stay `[]`.
fn in_set(m: &mut ptc_conformance::term::Map, n: usize, new: &Term) -> Result<(), usize> {
    let mut pairs = std::mem::take(m).into_pairs();
    let r = in_seq(pairs.iter_mut().map(|(k, _)| k), n, new);
    *m = ptc_conformance::term::Map::from_pairs(pairs);
    r
}

/// `args` with node `at` (counted over all arguments, pre-order, modulo
/// their size) replaced by `new`.
pub fn mutate(args: &[Term], at: usize, new: &Term) -> Vec<Term> {
    let mut out = args.to_vec();
    let total: usize = out.iter().map(count).sum();
    if total == 0 {
        return out;
    }
    let mut n = at % total;
    for a in out.iter_mut() {
        match replace(a, n, new) {
            Ok(()) => break,
            Err(c) => n -= c,
        }
    }
    out
}

/// The children of a node, as [`mutate`] counts them (pre-order): list
/// and tuple items, a map's keys and values, a struct's field values (a
/// `MapSet`'s members), a function's return value.
pub fn children(t: &Term) -> Vec<&Term> {
    match t {
        Term::List(items) | Term::Tuple(items) => items.iter().collect(),
        Term::Map(m) => m.iter().flat_map(|(k, v)| [k, v]).collect(),
        Term::Struct(s) => s
            .fields
            .iter()
            .flat_map(|(_, v)| match v {
                Term::Map(m) if s.module == "MapSet" => m.iter().map(|(k, _)| k).collect(),
                v => vec![v],
            })
            .collect(),
        Term::Fun(f) => match &**f {
            FunSpec::Returns { returns, .. } => vec![returns],
            _ => vec![],
        },
        _ => vec![],
    }
}

/// Node `n` of `args` in pre-order, as [`mutate`] counts them.
fn node_at(args: &[Term], mut n: usize) -> Option<&Term> {
    fn walk<'a>(t: &'a Term, n: &mut usize) -> Option<&'a Term> {
        if *n == 0 {
            return Some(t);
        }
        *n -= 1;
        children(t).into_iter().find_map(|c| walk(c, n))
    }
    args.iter().find_map(|a| walk(a, &mut n))
}

/// Simpler variants of `args` for shrinking past what proptest's value
/// trees can do: each node replaced by one of its children (a nested
/// disagreement hoisted out of its containers), outermost nodes first.
pub fn hoists(args: &[Term]) -> Vec<Vec<Term>> {
    let total: usize = args.iter().map(count).sum();
    let mut out = Vec::new();
    for n in 0..total {
        if let Some(node) = node_at(args, n) {
            for child in children(node) {
                out.push(mutate(args, n, child));
            }
        }
    }
    out
}

/// Smaller variants of `args` for shrinking: one element of a list or
/// tuple, or one pair of a map, left out, outermost collections first
/// (value trees cannot shrink a map below the size its strategy draws,
/// e.g. [`domain::large_map`]'s 33 keys).
pub fn removals(args: &[Term]) -> Vec<Vec<Term>> {
    let total: usize = args.iter().map(count).sum();
    let mut out = Vec::new();
    for n in 0..total {
        let smaller: Vec<Term> = match node_at(args, n) {
            Some(Term::List(items)) => (0..items.len())
                .map(|i| Term::List(without(items, i)))
                .collect(),
            Some(Term::Tuple(items)) => (0..items.len())
                .map(|i| Term::Tuple(without(items, i)))
                .collect(),
            Some(Term::Map(m)) => (0..m.pairs().len())
                .map(|i| Term::map(without(m.pairs(), i)))
                .collect(),
            _ => continue,
        };
        out.extend(smaller.iter().map(|t| mutate(args, n, t)));
    }
    out
}

fn without<T: Clone>(items: &[T], i: usize) -> Vec<T> {
    let mut v = items.to_vec();
    v.remove(i);
    v
}

/// Mutations of `seeds`: one case, one node, replaced by a term of the
/// op's vocabulary, a realistic term or a [`domain::hostile_term`].
pub fn mutations(seeds: Vec<Vec<Term>>) -> Option<BoxedStrategy<Vec<Term>>> {
    if seeds.is_empty() {
        return None;
    }
    let vocab = vocabulary(&seeds);
    let replacement = if vocab.is_empty() {
        prop_oneof![1 => super::term(), 2 => domain::hostile_term()].boxed()
    } else {
        prop_oneof![
            1 => prop::sample::select(vocab),
            1 => super::term(),
            2 => domain::hostile_term(),
        ]
        .boxed()
    };
    Some(
        (prop::sample::select(seeds), any::<usize>(), replacement)
            .prop_map(|(args, at, new)| mutate(&args, at, &new))
            .boxed(),
    )
}

/// Inputs aimed at a dictionary (the constants of a diff under review):
/// a well-formed input of the op, or one of its corpus cases, with one
/// node (sometimes two) replaced by a dictionary term. `None` for an
/// empty dictionary.
pub fn with_dictionary(
    well_formed: BoxedStrategy<Vec<Term>>,
    seeds: Vec<Vec<Term>>,
    dictionary: &[Term],
) -> Option<BoxedStrategy<Vec<Term>>> {
    if dictionary.is_empty() {
        return None;
    }
    let start = if seeds.is_empty() {
        well_formed
    } else {
        prop_oneof![1 => well_formed, 1 => prop::sample::select(seeds)].boxed()
    };
    let word = prop::sample::select(dictionary.to_vec());
    Some(
        (
            start,
            any::<usize>(),
            word.clone(),
            prop::option::weighted(0.3, (any::<usize>(), word)),
        )
            .prop_map(|(args, at, new, second)| {
                let once = mutate(&args, at, &new);
                match second {
                    Some((at2, new2)) => mutate(&once, at2, &new2),
                    None => once,
                }
            })
            .boxed(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_node_can_be_replaced() {
        let args = vec![
            Term::List(vec![Term::int(1), Term::tuple(vec![Term::int(2)])]),
            Term::map(vec![(Term::str("k"), Term::int(3))]),
        ];
        let total: usize = args.iter().map(count).sum();
        assert_eq!(total, 7);
        let x = Term::atom("x");
        let all: Vec<Vec<Term>> = (0..total).map(|i| mutate(&args, i, &x)).collect();
        assert_eq!(all[0], vec![x.clone(), args[1].clone()]);
        assert_eq!(all[6][1], Term::map(vec![(Term::str("k"), x.clone())]));
        assert_eq!(all[5][1], Term::map(vec![(x.clone(), Term::int(3))]));
        for (i, m) in all.iter().enumerate() {
            assert_ne!(m, &args, "node {i} was not replaced");
        }
    }

    /// TJ-7: a URI field takes a replacement only when the URI stays a
    /// term of the boundary; otherwise the input is left as it was.
    #[test]
    fn a_uri_field_takes_only_what_a_uri_holds() {
        let uri = |host: Term| {
            Term::Struct(Box::new(
                ptc_conformance::structs::written("URI", [("host", host)])
                    .unwrap_or_else(|e| panic!("{e}")),
            ))
        };
        let args = vec![Term::List(vec![uri(Term::str("h"))])];
        assert_eq!(count(&args[0]), 3);
        assert_eq!(mutate(&args, 2, &Term::int(1)), args);
        assert_eq!(mutate(&args, 2, &Term::List(vec![])), args);
        assert_eq!(
            mutate(&args, 2, &Term::str("x")),
            vec![Term::List(vec![uri(Term::str("x"))])]
        );
        assert_eq!(
            mutate(&args, 2, &Term::Nil),
            vec![Term::List(vec![uri(Term::Nil)])]
        );
        // The whole struct is still a node another term may replace.
        assert_eq!(
            mutate(&args, 1, &Term::int(1)),
            vec![Term::List(vec![Term::int(1)])]
        );
    }

    #[test]
    fn removals_leave_out_one_item_or_pair() {
        let m = Term::map(vec![
            (Term::str("a"), Term::int(1)),
            (Term::str("b"), Term::int(2)),
        ]);
        let args = vec![Term::List(vec![m.clone(), Term::int(3)])];
        let r = removals(&args);
        assert!(r.contains(&vec![Term::List(vec![Term::int(3)])]));
        assert!(r.contains(&vec![Term::List(vec![m])]));
        assert!(r.contains(&vec![Term::List(vec![
            Term::map(vec![(Term::str("b"), Term::int(2))]),
            Term::int(3)
        ])]));
        assert_eq!(r.len(), 4);
    }

    #[test]
    fn hoists_replace_a_node_by_a_child() {
        let inner = Term::map(vec![(Term::str("a"), Term::int(1))]);
        let args = vec![Term::List(vec![Term::tuple(vec![inner.clone()])])];
        let h = hoists(&args);
        assert!(h.contains(&vec![Term::tuple(vec![inner.clone()])]));
        assert!(h.contains(&vec![Term::List(vec![inner.clone()])]));
        assert!(h.contains(&vec![Term::List(vec![Term::tuple(vec![Term::int(1)])])]));
    }
}
