//! Option names learned from the two builds (`spec/adapter_protocol.md`
//! AP-19). An option a build newly reads is an atom its code names and the
//! other build's does not; a generator can only send an option it can
//! name, and the kit's word list cannot hold every name a release may
//! bring. So before fuzzing, `compare` asks each side that lists the
//! `atoms` extension for the atoms its code holds, and the names one side
//! has and the other lacks, shaped as an option key, are sent as option
//! keys besides the kit's words.

use crate::subject::Subject;
use std::collections::BTreeSet;

/// Learned names a pretty report lists.
const SHOWN: usize = 24;

/// What each side told and the names learned.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Learned {
    /// The names sent as option keys, sorted: atoms one side's code holds
    /// and the other's lacks, shaped as an option key (`[a-z_]` then word
    /// characters, `?` or `!` last), and not already in the kit's words.
    pub words: Vec<String>,
    /// How many atoms base listed; `None`: it lists no `atoms` extension.
    pub base: Option<usize>,
    /// How many atoms head listed; `None`: as for base.
    pub head: Option<usize>,
}

impl Learned {
    /// One line for a report: what was learned, or why nothing was.
    pub fn describe(&self) -> String {
        let missing: Vec<&str> = [("base", self.base), ("head", self.head)]
            .iter()
            .filter(|(_, n)| n.is_none())
            .map(|(side, _)| *side)
            .collect();
        if !missing.is_empty() {
            return format!(
                "option names: the kit's word list only ({} list{} no atoms, AP-19)",
                missing.join(" and "),
                if missing.len() == 1 { "s" } else { "" }
            );
        }
        if self.words.is_empty() {
            return "option names: the kit's word list; the two builds' atoms differ by no name an option could have (AP-19)".into();
        }
        format!(
            "option names: the kit's word list and {} learned from the builds' atoms (AP-19){}",
            self.words.len(),
            if self.words.len() > SHOWN {
                format!(", the first {SHOWN} below (--format json lists them all)")
            } else {
                ":".into()
            }
        )
    }

    /// The learned names a report lists under [`Learned::describe`].
    pub fn shown(&self) -> &[String] {
        &self.words[..self.words.len().min(SHOWN)]
    }
}

/// Whether `name` is shaped as a keyword key Elixir writes unquoted
/// (`retries`, `private?`): what an option is named with.
fn option_shaped(name: &str) -> bool {
    let body = name.strip_suffix(['?', '!']).unwrap_or(name);
    let mut chars = body.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_lowercase() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name.len() <= 64
}

/// Asks both sides for their atoms (AP-19) and learns the names one has
/// and the other lacks. A side whose answer is malformed is a fault,
/// returned as `(side, why)`; nothing is learned then.
pub fn learn(
    base: &mut dyn Subject,
    head: &mut dyn Subject,
) -> Result<Learned, (&'static str, String)> {
    let b = base.atoms().transpose().map_err(|e| ("base", e))?;
    let h = head.atoms().transpose().map_err(|e| ("head", e))?;
    let mut out = Learned {
        base: b.as_ref().map(Vec::len),
        head: h.as_ref().map(Vec::len),
        words: Vec::new(),
    };
    if let (Some(b), Some(h)) = (b, h) {
        let (b, h): (BTreeSet<String>, BTreeSet<String>) =
            (b.into_iter().collect(), h.into_iter().collect());
        out.words = b
            .symmetric_difference(&h)
            .filter(|w| option_shaped(w) && !crate::review::gen::ops::listed_option_word(w))
            .cloned()
            .collect();
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_shaped_names_are_plain_keyword_keys() {
        for ok in ["retries", "private?", "validate!", "_x", "max_2"] {
            assert!(option_shaped(ok), "{ok}");
        }
        for no in ["Elixir.Foo", "", "?", "a-b", "Retries", "a b", "é", "2x"] {
            assert!(!option_shaped(no), "{no}");
        }
    }
}
