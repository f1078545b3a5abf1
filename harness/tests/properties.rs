//! Properties of the term model and the reference, on generated terms
//! (`ptc_conformance_harness::review::gen`): the tagged codec round-trips, and
//! canonicalization is invariant under the rewrites that v0.13.0 treats as
//! the same call (atom/string keys, hyphen/underscore keys, integral floats,
//! tuples, map construction order), is idempotent, and drives cache hints
//! and previews; error payloads are JSON that carries their reason.
//!
//! Rewrites touch only the places canonicalization enters: map keys (atom
//! and binary ones) and values, list and tuple elements. They never rewrite
//! a key's inside, an atom or string *value*, or a tool name, because those
//! are not invariant in v0.13.0; `not_invariant_in_v0_13_0` shows each.

use proptest::prelude::*;
use ptc_conformance::key_normalizer::{canonical_cache_key, normalize_keys};
use ptc_conformance::native_preview::{build, cache_hint};
use ptc_conformance::protocol::render_error;
use ptc_conformance::tagged::{decode_str, encode};
use ptc_conformance::term::Int;
use ptc_conformance::{jason, num, Term};
use ptc_conformance_harness::review::gen;

/// Decides node by node whether a rewrite applies: the `n`-th decision is
/// bit `n mod 64` of a generated mask, so one case mixes rewritten and
/// untouched nodes, and shrinking the mask shrinks the rewrite.
struct Picks {
    mask: u64,
    n: u32,
}

impl Picks {
    fn new(mask: u64) -> Picks {
        Picks { mask, n: 0 }
    }

    fn pick(&mut self) -> bool {
        let bit = self.mask.rotate_right(self.n % 64) & 1 == 1;
        self.n += 1;
        bit
    }
}

/// Rebuilds `t` bottom-up through the places canonicalization enters (map
/// values, list and tuple elements; never inside keys), passing each map
/// key through `key` and each rebuilt node through `node`. Maps are rebuilt
/// with `Term::map` (`Map.new/1`) from their pairs in iteration order.
fn rewrite(
    t: &Term,
    key: &mut dyn FnMut(&Term) -> Term,
    node: &mut dyn FnMut(Term) -> Term,
) -> Term {
    let rebuilt = match t {
        Term::Map(m) => Term::map(
            m.iter()
                .map(|(k, v)| (key(k), rewrite(v, key, node)))
                .collect(),
        ),
        Term::List(items) => Term::List(items.iter().map(|i| rewrite(i, key, node)).collect()),
        Term::Tuple(items) => Term::Tuple(items.iter().map(|i| rewrite(i, key, node)).collect()),
        other => other.clone(),
    };
    node(rebuilt)
}

/// (a) Some atom keys become string keys and some string keys atom keys.
fn flip_atom_string_keys(t: &Term, mask: u64) -> Term {
    let mut picks = Picks::new(mask);
    rewrite(
        t,
        &mut |k| match (k, k.as_atom()) {
            (Term::Str(s), _) if picks.pick() => Term::atom(s),
            (_, Some(name)) if picks.pick() => Term::str(name),
            _ => k.clone(),
        },
        &mut |n| n,
    )
}

/// (b) Some atom and string keys have every `-` turned into `_` and every
/// `_` into `-`.
fn swap_hyphens_in_keys(t: &Term, mask: u64) -> Term {
    let mut picks = Picks::new(mask);
    let swap = |s: &str| -> String {
        s.chars()
            .map(|c| match c {
                '-' => '_',
                '_' => '-',
                c => c,
            })
            .collect()
    };
    rewrite(
        t,
        &mut |k| match (k, k.as_atom()) {
            (Term::Str(s), _) if picks.pick() => Term::Str(swap(s)),
            (_, Some(name)) if picks.pick() => Term::atom(&swap(name)),
            _ => k.clone(),
        },
        &mut |n| n,
    )
}

/// An integer as the nearest double, as Erlang converts one for comparison
/// (Rust reads decimal text correctly rounded).
fn to_f64(i: &Int) -> f64 {
    i.to_string().parse().unwrap_or(f64::NAN)
}

/// (c) Some integral float values become the equal integer, and some
/// integers that a double holds exactly become that float (`0` becomes
/// `0.0` or `-0.0`).
fn swap_integral_floats(t: &Term, mask: u64) -> Term {
    let mut picks = Picks::new(mask);
    rewrite(t, &mut Term::clone, &mut |n| match n {
        Term::Float(x) if num::is_integral(x) && picks.pick() => {
            num::trunc(x).map_or(Term::Float(x), Term::Int)
        }
        Term::Int(i) if picks.pick() => {
            let x = to_f64(&i);
            if num::is_integral(x) && num::trunc(x).as_ref() == Some(&i) {
                Term::Float(if x == 0.0 && picks.pick() { -0.0 } else { x })
            } else {
                Term::Int(i)
            }
        }
        other => other,
    })
}

/// (d) Some lists become tuples and some tuples lists.
fn swap_tuples_and_lists(t: &Term, mask: u64) -> Term {
    let mut picks = Picks::new(mask);
    rewrite(t, &mut Term::clone, &mut |n| match n {
        Term::List(items) if picks.pick() => Term::Tuple(items),
        Term::Tuple(items) if picks.pick() => Term::List(items),
        other => other,
    })
}

/// (e) Every map is built again from its pairs in another order: reversed
/// or not, and rotated.
fn reorder_map_construction(t: &Term, mask: u64) -> Term {
    let mut picks = Picks::new(mask);
    rewrite(t, &mut Term::clone, &mut |n| match n {
        Term::Map(m) => {
            let mut pairs = m.into_pairs();
            if picks.pick() {
                pairs.reverse();
            }
            let len = pairs.len().max(1);
            pairs.rotate_left(usize::try_from(mask).unwrap_or(0) % len);
            Term::map(pairs)
        }
        other => other,
    })
}

/// All five rewrites, one after the other.
fn all_rewrites(t: &Term, mask: u64) -> Term {
    let t = flip_atom_string_keys(t, mask);
    let t = swap_hyphens_in_keys(&t, mask.rotate_left(13));
    let t = swap_integral_floats(&t, mask.rotate_left(26));
    let t = swap_tuples_and_lists(&t, mask.rotate_left(39));
    reorder_map_construction(&t, mask.rotate_left(52))
}

/// `canonical_cache_key("t", args)`, which cannot raise for a binary name.
fn key_of(args: &Term) -> Term {
    canonical_cache_key(&Term::str("t"), args)
        .unwrap_or_else(|e| panic!("canonical_cache_key raised {e}"))
}

/// Checks that `rewritten` has the same canonical cache key as `args`.
fn same_key(args: &Term, rewritten: &Term) -> Result<(), TestCaseError> {
    prop_assert_eq!(
        key_of(args),
        key_of(rewritten),
        "args {}\nrewritten {}",
        encode(args),
        encode(rewritten)
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// TJ-1, TJ-5: decoding what was encoded gives the same term, and
    /// encoding is canonical (the same bytes again).
    #[test]
    fn tagged_json_round_trips(t in gen::any_term()) {
        let text = encode(&t);
        let back = decode_str(&text, "").map_err(|e| TestCaseError::fail(format!("{e}: {text}")))?;
        prop_assert_eq!(&back, &t, "{}", text);
        prop_assert_eq!(encode(&back), text);
    }

    /// KN-1, KN-8: atom keys and string keys converge, at any depth, so
    /// turning atom keys into string keys and string keys into atom keys
    /// keeps the cache key. Keys are distinct after normalization: where
    /// two collide (`:a` and `"a"`), KN-6 lets the later in map order win
    /// and flipping their kinds flips the winner.
    #[test]
    fn cache_key_ignores_atom_vs_string_keys(
        args in gen::distinct_keys_args_map(),
        mask in any::<u64>(),
    ) {
        same_key(&args, &flip_atom_string_keys(&args, mask))?;
    }

    /// KN-1, KN-2, KN-8: hyphenated and underscored keys converge, at any
    /// depth. Keys are distinct after normalization, as for atom/string
    /// keys (KN-6: `"a-b"` and `"a_b"` in one map is a collision).
    #[test]
    fn cache_key_ignores_hyphen_vs_underscore_in_keys(
        args in gen::distinct_keys_args_map(),
        mask in any::<u64>(),
    ) {
        same_key(&args, &swap_hyphens_in_keys(&args, mask))?;
    }

    /// KN-10: an integral float value and the equal integer converge
    /// (`2.0` and `2`, `-0.0` and `0`, `1.0e20` and
    /// `100000000000000000000`), at any depth. Values only: KN-8 keeps
    /// float keys as they are.
    #[test]
    fn cache_key_ignores_integral_float_vs_integer(
        args in gen::args_map(),
        mask in any::<u64>(),
    ) {
        same_key(&args, &swap_integral_floats(&args, mask))?;
    }

    /// KN-9: a tuple and the list of the same elements converge, at any
    /// depth (keyword lists included). Values only: KN-8 keeps tuple and
    /// list keys as they are.
    #[test]
    fn cache_key_ignores_tuple_vs_list(args in gen::args_map(), mask in any::<u64>()) {
        same_key(&args, &swap_tuples_and_lists(&args, mask))?;
    }

    /// KN-6, KN-8: the order a map was built in does not matter, even where
    /// keys collide after normalization: the winner is decided by map
    /// iteration order (key order, TJ-4), not by construction order.
    #[test]
    fn cache_key_ignores_map_construction_order(
        args in gen::colliding_args_map(),
        mask in any::<u64>(),
    ) {
        same_key(&args, &reorder_map_construction(&args, mask))?;
    }

}

// Fewer cases: each renders hints or previews, one to three milliseconds
// apiece in a debug build.
proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    /// NP-1, NP-2, NP-4: the cache hint is a function of the tool name and
    /// the canonical args: computing it twice gives the same text, and args
    /// with equal canonical keys (here: all five rewrites at once) give the
    /// same hint. So `%{a: 1}` and `%{"a" => 1.0}` share a hint, as they
    /// share a key. The converse does not hold: `0.30000000000000004` and
    /// `0.3` have different keys but render alike (NP-4, ten decimals).
    #[test]
    fn cache_hint_follows_the_canonical_key(
        name in gen::key_name(),
        args in gen::distinct_keys_args_map(),
        mask in any::<u64>(),
    ) {
        let name = Term::Str(name);
        let rewritten = all_rewrites(&args, mask);
        same_key(&args, &rewritten)?;
        let hint = cache_hint(&name, &args);
        prop_assert_eq!(&hint, &cache_hint(&name, &args), "not deterministic");
        let hint = hint.map_err(|e| TestCaseError::fail(format!("{e}: {}", encode(&args))))?;
        prop_assert_eq!(
            Ok(hint),
            cache_hint(&name, &rewritten),
            "args {}\nrewritten {}",
            encode(&args),
            encode(&rewritten)
        );
    }

    /// NP-6, NP-7, NP-21, NP-22: every preview, whatever its kind, carries
    /// `"status" => "ok"`, `"full_result_cached" => true` and the cache hint
    /// of the tool name and args, and the tag is `:ok`, or `:fallback` for a
    /// custom preview only. It is Jason-encodable (PP-40..PP-47), except a
    /// rows preview whose rows are not: v0.13.0 copies the rows as they are
    /// (NP-17, NP-19), tuples included, so only the rows can make it fail.
    /// Inputs avoid the documented raises (NP-5, NP-13, NP-23: keys without
    /// a text form, struct values), so `build` must not raise.
    #[test]
    fn every_preview_carries_the_cache_fields(
        tool in gen::native_tool(),
        result in gen::tool_result(),
        args in gen::distinct_keys_args_map(),
    ) {
        let shown = format!("tool {}\nresult {}\nargs {}", encode(&tool), encode(&result), encode(&args));
        let built = build(&tool, &result, &args)
            .map_err(|e| TestCaseError::fail(format!("build raised {e}\n{shown}")))?;
        let Term::Tuple(pair) = &built else {
            return Err(TestCaseError::fail(format!("not a pair: {}\n{shown}", encode(&built))));
        };
        let (Some(tag), Some(Term::Map(preview))) = (pair[0].as_atom(), pair.get(1)) else {
            return Err(TestCaseError::fail(format!("not {{tag, map}}: {}\n{shown}", encode(&built))));
        };
        let Term::Struct(tool) = &tool else { unreachable!("native_tool builds a struct") };
        let native_result = tool.field("native_result").cloned().unwrap_or(Term::Nil);
        let custom = matches!(&native_result, Term::List(kw)
            if matches!(kw.first(), Some(Term::Tuple(p)) if matches!(p.get(1), Some(Term::Fun(_)))));
        prop_assert!(tag == "ok" || (custom && tag == "fallback"), "tag {}\n{}", tag, shown);
        prop_assert_eq!(preview.get_str("status"), Some(&Term::str("ok")), "{}", shown);
        prop_assert_eq!(preview.get_str("full_result_cached"), Some(&Term::Bool(true)), "{}", shown);
        let name = tool.field("name").cloned().unwrap_or(Term::Nil);
        let hint = cache_hint(&name, &args).map_err(|e| TestCaseError::fail(format!("{e}\n{shown}")))?;
        prop_assert_eq!(preview.get_str("cache_hint"), Some(&hint), "{}", shown);
        let rows_encodable = preview.get_str("rows").into_iter().all(|r| jason::encode(r).is_ok());
        let encoded = jason::encode(&Term::Map(preview.clone()));
        prop_assert_eq!(encoded.is_ok(), rows_encodable, "{:?}\n{}", encoded, shown);
        if let Ok(text) = encoded {
            let parsed = serde_json::from_str::<serde_json::Value>(&text);
            prop_assert!(parsed.is_ok(), "{:?}: {}", parsed, text);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// KN-7..KN-11: canonicalizing canonical args again changes nothing:
    /// keys are already normalized strings (or kept non-text keys), no
    /// float is integral, no tuple is left, and no two keys collide.
    #[test]
    fn canonical_cache_key_is_idempotent(
        args in prop_oneof![
            2 => gen::args_map(),
            2 => gen::colliding_args_map(),
            1 => (gen::key_name(), gen::any_term()).prop_map(|(k, v)| Term::map(vec![(Term::Str(k), v)])),
        ],
    ) {
        let key = key_of(&args);
        let Term::Tuple(pair) = &key else {
            return Err(TestCaseError::fail(format!("not a pair: {}", encode(&key))));
        };
        prop_assert_eq!(key_of(&pair[1]), key.clone(), "args {}", encode(&args));
    }

    /// KN-4, KN-5, KN-6: normalizing keys twice is normalizing them once,
    /// for any term (structs and tuples are not entered either time).
    #[test]
    fn normalize_keys_is_idempotent(t in prop_oneof![gen::any_term(), gen::colliding_term()]) {
        let once = normalize_keys(&t);
        prop_assert_eq!(normalize_keys(&once), once, "term {}", encode(&t));
    }

    /// PP-3..PP-9, PP-40..PP-47: every `render_error` payload is JSON with
    /// `"status": "error"`, the reason's name (for the closed union and, by
    /// PP-5's quirk, any atom), the message, the feedback (the option or the
    /// message) and, for `:fail` only, the result. It raises only when the
    /// feedback, or for `:fail` the result, cannot be Jason-encoded.
    #[test]
    fn every_error_payload_is_json_with_its_reason(
        reason in prop_oneof![
            4 => prop::sample::select(vec![
                "parse_error", "runtime_error", "timeout", "memory_limit",
                "args_error", "fail", "validation_error",
            ]).prop_map(str::to_owned),
            1 => gen::key_name(),
        ],
        message in gen::text(),
        opts in prop::collection::vec(
            (prop::sample::select(vec!["feedback", "result", "other"]), gen::term()),
            0..4,
        ),
    ) {
        let reason_atom = Term::atom(&reason);
        let reason = reason_atom.as_atom().unwrap_or_default().to_owned();
        let first = |name: &str| opts.iter().find(|(k, _)| *k == name).map(|(_, v)| v.clone());
        let opts_term = Term::List(
            opts.iter().map(|(k, v)| Term::tuple(vec![Term::atom(k), v.clone()])).collect(),
        );
        let feedback = first("feedback").unwrap_or_else(|| Term::str(message.clone()));
        let result = (reason == "fail").then(|| first("result").unwrap_or(Term::Nil));
        let encodable = jason::encode(&feedback).is_ok() && result.iter().all(|r| jason::encode(r).is_ok());
        let shown = format!("reason {reason:?}, message {message:?}, opts {}", encode(&opts_term));
        let rendered = render_error(&reason_atom, &Term::str(message.clone()), &opts_term);
        let text = match rendered {
            Ok(Term::Str(text)) => text,
            Ok(other) => return Err(TestCaseError::fail(format!("not a string: {}\n{shown}", encode(&other)))),
            Err(e) => {
                prop_assert!(!encodable, "raised {} although encodable\n{}", e, shown);
                return Ok(());
            }
        };
        prop_assert!(encodable, "rendered {} although not encodable\n{}", text, shown);
        let json: serde_json::Value = serde_json::from_str(&text)
            .map_err(|e| TestCaseError::fail(format!("not JSON ({e}): {text}")))?;
        let as_json = |t: &Term| jason::encode(t).ok().and_then(|s| serde_json::from_str::<serde_json::Value>(&s).ok());
        prop_assert_eq!(&json["status"], "error", "{}", text);
        prop_assert_eq!(&json["reason"], reason.as_str(), "{}", text);
        prop_assert_eq!(&json["message"], message.as_str(), "{}", text);
        prop_assert_eq!(Some(json["feedback"].clone()), as_json(&feedback), "{}", text);
        let keys: Vec<&str> = json.as_object().map(|o| o.keys().map(String::as_str).collect()).unwrap_or_default();
        match &result {
            Some(r) => {
                prop_assert_eq!(Some(json["result"].clone()), as_json(r), "{}", text);
                prop_assert_eq!(keys, vec!["feedback", "message", "reason", "result", "status"]);
            }
            None => prop_assert_eq!(keys, vec!["feedback", "message", "reason", "status"]),
        }
    }
}

/// The rewrites the properties above leave out, because v0.13.0's cache
/// key is not invariant under them (each line cites its rule).
#[test]
fn not_invariant_in_v0_13_0() {
    let m = |pairs: Vec<(Term, Term)>| Term::map(pairs);
    let (a, s, i, f) = (Term::atom, Term::str, Term::int, Term::Float);
    let differ = [
        // KN-6: colliding keys; flipping their kinds flips the winner.
        (
            m(vec![(a("x"), i(1)), (s("x"), i(2))]),
            m(vec![(s("x"), i(1)), (a("x"), i(2))]),
        ),
        (
            m(vec![(s("a-b"), i(1)), (s("a_b"), i(2))]),
            m(vec![(s("a_b"), i(1)), (s("a-b"), i(2))]),
        ),
        // KN-8: float keys and tuple keys are kept as they are.
        (m(vec![(f(1.0), i(1))]), m(vec![(i(1), i(1))])),
        (
            m(vec![(Term::tuple(vec![i(1)]), i(1))]),
            m(vec![(Term::List(vec![i(1)]), i(1))]),
        ),
        // KN-11: atom values stay atoms; KN-4: values keep their hyphens.
        (m(vec![(a("k"), a("x"))]), m(vec![(a("k"), s("x"))])),
        (m(vec![(a("k"), s("a-b"))]), m(vec![(a("k"), s("a_b"))])),
        // KN-11: a charlist does not converge with the string.
        (
            m(vec![(a("k"), Term::List(vec![i(104), i(105)]))]),
            m(vec![(a("k"), s("hi"))]),
        ),
    ];
    for (x, y) in &differ {
        assert_ne!(key_of(x), key_of(y), "{} vs {}", encode(x), encode(y));
    }
    // KN-7: the tool name is not normalized.
    let args = m(vec![]);
    assert_ne!(
        canonical_cache_key(&s("get-user"), &args),
        canonical_cache_key(&s("get_user"), &args)
    );
    // Integers a double cannot hold are not rewritten by (c): 2^53 + 1.
    let odd = Int::from((1i64 << 53) + 1);
    assert_ne!(num::trunc(to_f64(&odd)), Some(odd));
}

/// NP-2, NP-4: equal hints do not mean equal cache keys: floats render with
/// ten decimals, so `0.30000000000000004` and `0.3` differ as keys but not
/// as hints.
#[test]
fn equal_hints_do_not_imply_equal_keys() {
    let args = |x: f64| Term::map(vec![(Term::atom("x"), Term::Float(x))]);
    let (a, b) = (args(0.1 + 0.2), args(0.3));
    assert_ne!(key_of(&a), key_of(&b));
    let name = Term::str("t");
    assert_eq!(cache_hint(&name, &a), cache_hint(&name, &b));
}
