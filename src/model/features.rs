//! Features: the term kinds beyond plain JSON that a port must represent to
//! run a case (`spec/terms.md` § Features). A case declares the features its
//! terms use; lint checks the declaration against [`used_by`].

use crate::term::{Int, Term};
use std::collections::BTreeSet;

/// Every feature name, in the order the spec lists them.
pub const ALL: &[&str] = &[
    "atoms",
    "tuples",
    "floats",
    "bigints",
    "binaries",
    "term-keys",
    "structs",
    "temporal",
    "functions",
    "opaque",
];

/// Whether `name` is a feature.
pub fn is_feature(name: &str) -> bool {
    ALL.contains(&name)
}

/// The features `term` uses, added to `out`.
pub fn used_by(term: &Term, out: &mut BTreeSet<&'static str>) {
    match term {
        Term::Nil | Term::Bool(_) | Term::Str(_) => {}
        Term::Int(Int::Small(n)) if n.unsigned_abs() <= crate::tagged::MAX_SAFE_INT as u64 => {}
        Term::Int(_) => {
            out.insert("bigints");
        }
        Term::Float(_) => {
            out.insert("floats");
        }
        Term::Bytes(_) => {
            out.insert("binaries");
        }
        Term::Atom(_) => {
            out.insert("atoms");
        }
        Term::List(items) => items.iter().for_each(|t| used_by(t, out)),
        Term::Tuple(items) => {
            out.insert("tuples");
            items.iter().for_each(|t| used_by(t, out));
        }
        Term::Map(m) => {
            for (k, v) in m.iter() {
                if !matches!(k, Term::Str(_)) {
                    out.insert("term-keys");
                }
                used_by(k, out);
                used_by(v, out);
            }
        }
        Term::Struct(s) => {
            out.insert("structs");
            out.insert("atoms");
            s.fields.iter().for_each(|(_, v)| used_by(v, out));
        }
        Term::Temporal(_) => {
            out.insert("temporal");
        }
        Term::Fun(f) => {
            out.insert("functions");
            if let crate::term::FunSpec::Returns { returns, .. } = &**f {
                used_by(returns, out);
            }
        }
        Term::Opaque(..) => {
            out.insert("opaque");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_follow_the_terms() {
        let t = crate::tagged::decode_str(
            r#"[{"$tuple": [1]}, {"$map": [[1, {"$float": 1.5}]]}, {"$int": "99999999999999999999"}]"#,
            "",
        )
        .unwrap();
        let mut got = BTreeSet::new();
        used_by(&t, &mut got);
        assert_eq!(
            got.into_iter().collect::<Vec<_>>(),
            vec!["bigints", "floats", "term-keys", "tuples"]
        );
    }
}
