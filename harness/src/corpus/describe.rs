//! Checks that a case's one-line description agrees with what the case
//! shows, where a machine can tell: a description that contradicts its case
//! misleads every porter who reads it (issue 25 found one that read as the
//! opposite of its rule). [`problems`] is run by `ptc-conformance lint`
//! over every case.
//!
//! What is checked, each a claim the description makes in its own clause
//! (not in a clause about something else: "a function *that raises*", "it
//! does *not* raise"):
//!
//! - a rule id it names (`PP-44`) is one the case cites;
//! - "raises X" names the class the case expects to be raised;
//! - "raises" (the call raises) belongs to a case that expects an exception;
//! - an exception class it names (`KeyError`, `Jason.EncodeError`) is the
//!   class the case raises, or is in the text the case expects (a message,
//!   an `#Inspect.Error<...>` answer), unless its clause contrasts it
//!   ("..., not `KeyError`").

use super::{Case, Expect};
use ptc_conformance::tagged;
use regex::Regex;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::LazyLock;

/// A rule id as the spec writes them (`KN-7`, `LOOSE-2`).
static RULE: LazyLock<Regex> = LazyLock::new(|| compile(r"\b[A-Z]{2,5}-[0-9]+\b"));
/// "raises" (or "raise", "raising") as a verb, with the class after it if any.
static RAISES: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r"\b(?:raises|raise|raising)\b(?:\s+(?:an?\s+|the\s+)?`?((?:[A-Z][A-Za-z0-9]*\.)*[A-Z][A-Za-z0-9]*)`?)?",
    )
});
/// An exception module's name.
static CLASS: LazyLock<Regex> =
    LazyLock::new(|| compile(r"\b(?:[A-Z][A-Za-z0-9]*\.)*[A-Z][A-Za-z0-9]*(?:Error|Exception)\b"));
/// Words that make a "raises" in their clause not the case's own claim.
static ASIDE: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r"(?i)\b(?:that|which|who|whose|not|never|no|nothing|without|instead|if|when|unless|would|n't|rather)\b|n't\b",
    )
});

/// Words that make an exception named in their clause a contrast ("..., not KeyError").
static CONTRAST: LazyLock<Regex> =
    LazyLock::new(|| compile(r"(?i)\b(?:not|never|instead|rather|nor)\b|n't\b"));

fn compile(re: &str) -> Regex {
    Regex::new(re).unwrap_or_else(|e| panic!("pattern {re}: {e}"))
}

/// The clause of `text` that ends at byte `at`: back to the last `,`, `;`,
/// `:`, `.` followed by a space, `(` or ` - `.
fn clause_before(text: &str, at: usize) -> &str {
    let head = &text[..at];
    let start = head
        .char_indices()
        .rev()
        .find(|&(i, c)| {
            matches!(c, ',' | ';' | '(' | ')' | '—')
                || (matches!(c, ':' | '.') && head[i + 1..].starts_with(' '))
        })
        .map_or(0, |(i, c)| i + c.len_utf8());
    &head[start..]
}

/// What the description of `case` says that its case contradicts, each a
/// line naming the file, the case and the claim; `rules` maps every rule
/// id the spec defines to its file.
pub fn problems(case: &Case, rules: &BTreeMap<String, PathBuf>) -> Vec<String> {
    let text = case.description.as_str();
    let mut found = Vec::new();
    let mut say = |claim: String| {
        found.push(format!(
            "{} (case {}): the description {claim}",
            case.file.display(),
            case.id
        ))
    };
    for m in RULE.find_iter(text) {
        let id = m.as_str();
        if rules.contains_key(id) && !case.spec.iter().any(|r| r == id) {
            say(format!("names rule {id}, which the case does not cite"));
        }
    }
    let (raised, answer) = match &case.expect {
        Expect::Raised { class, message } => {
            (Some(class.as_str()), message.clone().unwrap_or_default())
        }
        Expect::Ok(t) => (None, answer_text(t)),
    };
    // Classes after "raises" are judged there, not again below.
    let mut judged = Vec::new();
    for c in RAISES.captures_iter(text) {
        let Some(verb) = c.get(0) else { continue };
        judged.extend(c.get(1).map(|m| m.start()));
        if ASIDE.is_match(clause_before(text, verb.start())) {
            continue;
        }
        match (raised, c.get(1)) {
            (None, _) => say(format!(
                "says {:?}, but the case expects a value, not an exception",
                verb.as_str()
            )),
            (Some(class), Some(named)) if named.as_str() != class => say(format!(
                "says {:?}, but the case expects {class}",
                verb.as_str()
            )),
            _ => {}
        }
    }
    for m in CLASS.find_iter(text) {
        let named = m.as_str();
        if judged.contains(&m.start()) {
            continue;
        }
        let contrast = CONTRAST.is_match(clause_before(text, m.start()));
        if raised != Some(named) && !answer.contains(named) && !contrast {
            say(format!(
                "names {named}, which the case neither raises nor shows in its answer ({})",
                raised.map_or("it returns a value".to_owned(), |c| format!(
                    "it raises {c}"
                ))
            ));
        }
    }
    found
}

/// The text an answer shows: a string itself, any other term its tagged JSON.
fn answer_text(t: &ptc_conformance::Term) -> String {
    match t.as_binary() {
        Some(b) => String::from_utf8_lossy(b).into_owned(),
        None => tagged::encode(t),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::parse_case;
    use std::path::Path;

    fn case(description: &str, spec: &str, expect: &str) -> Case {
        let json = format!(
            r#"{{"id": "x/y", "op": "key_normalizer.normalize_key", "description": {description:?},
                "spec": [{spec:?}], "features": [], "level": "required", "args": ["a"], "expect": {expect}}}"#
        );
        parse_case(Path::new("x/y.json"), json.as_bytes(), "x/y", &rules())
            .unwrap_or_else(|e| panic!("{e:?}"))
    }

    fn rules() -> BTreeMap<String, PathBuf> {
        ["KN-1", "KN-2"]
            .iter()
            .map(|r| ((*r).to_owned(), PathBuf::from("spec/key_normalizer.md")))
            .collect()
    }

    const OK: &str = r#"{"ok": "a"}"#;
    const RAISED: &str =
        r#"{"raised": {"class": "FunctionClauseError", "message": "no function clause matching"}}"#;

    #[test]
    fn a_description_that_agrees_passes() {
        for (d, expect) in [
            ("A string is kept as it is (KN-1)", OK),
            ("A tuple raises FunctionClauseError", RAISED),
            ("A custom function that raises falls back", OK),
            ("Nothing raises: the key is kept", OK),
            ("It does not raise KeyError here", OK),
            ("A tuple raises FunctionClauseError, not KeyError", RAISED),
        ] {
            let c = case(d, "KN-1", expect);
            assert_eq!(problems(&c, &rules()), Vec::<String>::new(), "{d}");
        }
    }

    #[test]
    fn a_description_that_contradicts_its_case_is_named() {
        for (d, expect, claim) in [
            ("A list raises", OK, "expects a value"),
            (
                "A tuple raises KeyError",
                RAISED,
                "expects FunctionClauseError",
            ),
            ("See KN-2", OK, "names rule KN-2"),
            ("Gives a CaseClauseError", RAISED, "names CaseClauseError"),
        ] {
            let c = case(d, "KN-1", expect);
            let found = problems(&c, &rules());
            assert!(
                found.len() == 1 && found[0].contains(claim) && found[0].contains("x/y.json"),
                "{d}: {found:?}"
            );
        }
    }
}
