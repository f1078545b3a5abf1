//! `PtcRunner.SubAgent.KeyNormalizer`: hyphen → underscore key
//! normalization and canonical cache keys (`spec/key_normalizer.md`, `KN-`).

use crate::term::{Map, Term};
use crate::Raised;

const MODULE: &str = "PtcRunner.SubAgent.KeyNormalizer";

/// `normalize_key/1`: atoms and binaries become binaries with every `-`
/// replaced by `_`; any other term is returned as it is.
pub fn normalize_key(key: &Term) -> Term {
    // KN-1: an atom (`nil`, `true`, `false` included) becomes its text with each `-` made `_`.
    if let Some(atom) = key.as_atom() {
        return Term::Str(atom.replace('-', "_"));
    }
    match key {
        // KN-2: a binary, UTF-8 or not, has each `-` byte made `_`; other dashes stay.
        Term::Str(s) => Term::Str(s.replace('-', "_")),
        Term::Bytes(b) => Term::binary(
            b.iter()
                .map(|&c| if c == b'-' { b'_' } else { c })
                .collect(),
        ),
        // KN-3: any other key is returned unchanged.
        other => other.clone(),
    }
}

/// `normalize_keys/1`: normalizes the keys of maps, recursing through map
/// values and list elements. Structs and tuples are not entered. When two
/// keys normalize alike, the one later in map iteration order wins.
pub fn normalize_keys(value: &Term) -> Term {
    match value {
        // KN-4: a plain map is rebuilt (keys normalized, values recursed, keys not entered);
        // KN-6 (Quirk): pair by pair, so a later key that normalizes alike wins.
        Term::Map(m) => Term::Map(Map::from_pairs(
            m.iter()
                .map(|(k, v)| (normalize_key(k), normalize_keys(v)))
                .collect(),
        )),
        // KN-5: a list element by element; structs, tuples and the rest are not entered.
        Term::List(items) => Term::List(items.iter().map(normalize_keys).collect()),
        other => other.clone(),
    }
}

/// `canonical_cache_key/2`: `{tool_name, canonical_args}` for map args,
/// `{tool_name, {:non_map, args}}` otherwise. Raises `FunctionClauseError`
/// when `tool_name` is not a binary.
pub fn canonical_cache_key(tool_name: &Term, args: &Term) -> Result<Term, Raised> {
    // KN-7: a tool name that is not a binary raises, whatever `args` is.
    if !tool_name.is_binary() {
        return Err(Raised::function_clause(MODULE, "canonical_cache_key", 2));
    }
    let key = if args.is_map() {
        canonicalize(args)
    } else {
        Term::Tuple(vec![Term::atom("non_map"), args.clone()])
    };
    Ok(Term::Tuple(vec![tool_name.clone(), key]))
}

/// The canonical form of one value (KN rules on maps, lists, tuples, floats).
pub fn canonicalize(value: &Term) -> Term {
    match value {
        // KN-8: atom and binary keys normalized, other keys kept exactly; collisions as KN-6.
        Term::Map(m) => Term::Map(Map::from_pairs(
            m.iter()
                .map(|(k, v)| (stringify_key(k), canonicalize(v)))
                .collect(),
        )),
        // KN-9: lists and tuples (keyword lists too) become lists of canonical forms.
        Term::List(items) | Term::Tuple(items) => {
            Term::List(items.iter().map(canonicalize).collect())
        }
        // KN-10: an integral float becomes its exact integer (`-0.0` → `0`, Quirk).
        Term::Float(x) if crate::num::is_integral(*x) => match crate::num::trunc(*x) {
            Some(i) => Term::Int(i),
            None => value.clone(),
        },
        // KN-11: every other value, structs included, is its own canonical form.
        other => other.clone(),
    }
}

/// KN-8: atom and binary keys are normalized, other keys kept exactly.
fn stringify_key(k: &Term) -> Term {
    if k.is_atom() || k.is_binary() {
        normalize_key(k)
    } else {
        k.clone()
    }
}
