//! `Keyword` and field access as Elixir 1.18.4 does them, for the option
//! lists and maps PtcRunner's functions read: `Keyword.get/3`,
//! `Keyword.fetch/2`, `Keyword.fetch!/2`, `Keyword.take/2`, `Map.get/2` and
//! the `term.field` syntax, each raising as Elixir does.

use crate::errors::{case_clause, module_not_available};
use crate::inspect::inspect;
use crate::term::Term;
use crate::{Raised, Release};

/// The value `:lists.keyfind(key, 1, list)` finds under the atom `key` in
/// a keyword list, matched against `{^key, value}`: the first tuple whose
/// first element is `key` decides (other elements are skipped); `None` when
/// there is none. A found tuple that is not a pair raises `CaseClauseError`;
/// `list` that is not a list raises `FunctionClauseError` in
/// `Keyword.<fun>` (`fun` is e.g. `get/3`). The `CaseClauseError` inspects
/// the tuple as release `rel`'s build prints it (REL-7). PtcRunner's option
/// lists are read so (PP-8, PP-10, TL-6).
pub fn find<'a>(
    rel: Release,
    list: &'a Term,
    key: &str,
    fun: &str,
) -> Result<Option<&'a Term>, Raised> {
    let Term::List(items) = list else {
        return Err(Raised::function_clause_in(&format!("Keyword.{fun}")));
    };
    let found = items.iter().find(|item| match item {
        Term::Tuple(t) => t.first().and_then(Term::as_atom) == Some(key),
        _ => false,
    });
    match found {
        None => Ok(None),
        Some(Term::Tuple(t)) if t.len() == 2 => Ok(Some(&t[1])),
        Some(other) => Err(case_clause(rel, other)),
    }
}

/// `Keyword.get(list, key)`: `None` when absent (the caller applies its
/// default; PP-8).
pub fn get<'a>(rel: Release, list: &'a Term, key: &str) -> Result<Option<&'a Term>, Raised> {
    find(rel, list, key, "get/3")
}

/// `Keyword.get/3` on the elements of a list (PP-8, TL-6, NP-7).
pub fn get_in(rel: Release, items: &[Term], key: &str) -> Result<Option<Term>, Raised> {
    let list = Term::List(items.to_vec());
    Ok(get(rel, &list, key)?.cloned())
}

/// `Keyword.fetch(list, key)`: `None` for `:error` (PP-8: `:validated`).
pub fn fetch<'a>(rel: Release, list: &'a Term, key: &str) -> Result<Option<&'a Term>, Raised> {
    find(rel, list, key, "fetch/2")
}

/// `Keyword.fetch!(list, key)`: a missing key raises `KeyError`.
pub fn fetch_bang<'a>(list: &'a Term, key: &str) -> Result<&'a Term, Raised> {
    fetch_bang_at(crate::Release::default(), list, key)
}

/// [`fetch_bang`] whose `KeyError` inspects `list` as release `rel`'s
/// build prints it (REL-7).
pub fn fetch_bang_at<'a>(
    rel: crate::Release,
    list: &'a Term,
    key: &str,
) -> Result<&'a Term, Raised> {
    find(rel, list, key, "fetch!/2")?.ok_or_else(|| crate::errors::key_error_at(rel, key, list))
}

/// `Keyword.take(list, [key])`: every `{key, v}` entry, in order; an
/// element that is not a 2-tuple raises `FunctionClauseError` (PP-100's
/// **Quirk**: the `validated` entries, whose first value PP-116 adds).
pub fn take(list: &Term, key: &str) -> Result<Vec<Term>, Raised> {
    let Term::List(items) = list else {
        return Err(Raised::function_clause("Keyword", "take", 2));
    };
    let mut taken = vec![];
    for item in items {
        match item {
            Term::Tuple(t) if t.len() == 2 => {
                if t[0].as_atom() == Some(key) {
                    taken.push(item.clone());
                }
            }
            _ => {
                return Err(Raised::function_clause_in(
                    "anonymous fn/1 in Keyword.take/2",
                ))
            }
        }
    }
    Ok(taken)
}

/// `Map.get(map, key)` for an atom key on a map or struct (`None` if
/// absent): the `:parsed_signature` of JH-10, a step's `return` (PP-14).
pub fn map_get<'a>(map: &'a Term, key: &str) -> Option<&'a Term> {
    match map {
        Term::Map(m) => m.get_atom(key),
        Term::Struct(s) => s.field(key),
        _ => None,
    }
}

/// Elixir's `term.field`: the value under the atom key on a map or struct;
/// `KeyError` when a map lacks it (with a hint about the dot syntax when
/// `term` is not a map); `UndefinedFunctionError` for an atom other than
/// `nil`/`true`/`false`, which Elixir takes for a module and calls `field/0` on.
pub fn dot<'a>(term: &'a Term, field: &str) -> Result<&'a Term, Raised> {
    dot_at(crate::Release::default(), term, field)
}

/// [`dot`] whose `KeyError` inspects `term` as release `rel`'s build
/// prints it (REL-7); PP-19 reads the execution map so.
pub fn dot_at<'a>(rel: crate::Release, term: &'a Term, field: &str) -> Result<&'a Term, Raised> {
    if let Some(v) = map_get(term, field) {
        return Ok(v);
    }
    match term {
        Term::Map(_) | Term::Struct(_) | Term::Temporal(_) => {
            Err(crate::errors::key_error_at(rel, field, term))
        }
        Term::Atom(a) => Err(module_not_available(a, field, 0)),
        // `{:badkey, key, term}` normalized for a term that is no map.
        _ => Err(crate::errors::raise(
            &crate::elixir::messages::KEY_ERROR_NOT_A_MAP,
            &[
                ("key", &inspect(&Term::atom(field))),
                (
                    "term",
                    &crate::inspect::inspect_with_at(rel, term, true, None),
                ),
            ],
        )),
    }
}
