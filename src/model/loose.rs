//! Comparing exception messages as `spec/README.md` § Loosely compared
//! message parts says: exactly, but for the parts that depend on the VM
//! rather than on PtcRunner. The harness's judge and the crate's own
//! golden-corpus test (`tests/golden_corpus.rs`) both call this one copy.

use crate::term::Term;

/// Whether two exception messages agree once the parts that depend on the
/// VM rather than on PtcRunner are masked (`spec/README.md`, LOOSE-1,
/// LOOSE-2 and LOOSE-4): an `#Inspect.Error<...>`'s stack frames, a
/// `Protocol.UndefinedError`'s list of implementations, and
/// the text inside `#Function<...>`, `#PID<...>`, `#Reference<...>` and
/// `#Port<...>`, whose length may also move `inspect`'s line breaks, so
/// a message holding one is compared without white space.
pub fn messages_match(expected: &str, actual: &str) -> bool {
    if expected == actual {
        return true;
    }
    let (e, e_opaque) = mask(&mask_stacktraces(expected));
    let (a, a_opaque) = mask(&mask_stacktraces(actual));
    if e_opaque || a_opaque {
        let squeeze = |s: &str| s.split_whitespace().collect::<String>();
        squeeze(&e) == squeeze(&a)
    } else {
        e == a
    }
}

/// The message with its VM-dependent parts replaced by `_`, and whether it
/// held an opaque term's text.
fn mask(message: &str) -> (String, bool) {
    const IMPLS: [&str; 2] = [
        ". This protocol is implemented for the following type(s): ",
        ". There are no implementations for this protocol.",
    ];
    let mut text = message.to_owned();
    if text.starts_with("protocol ") {
        if let Some(got) = text.find("\n\nGot value:") {
            let head = &text[..got];
            let start = IMPLS.iter().filter_map(|m| head.rfind(m)).max();
            text = format!("{}. _{}", &text[..start.unwrap_or(got)], &text[got..]);
        }
    }
    let mut opaque = false;
    for tag in ["#Function<", "#PID<", "#Reference<", "#Port<"] {
        let mut out = String::with_capacity(text.len());
        let mut rest = text.as_str();
        while let Some(at) = rest.find(tag) {
            let body = &rest[at + tag.len()..];
            let Some(end) = body.find('>') else { break };
            out.push_str(&rest[..at + tag.len()]);
            out.push_str("_>");
            rest = &body[end + 1..];
            opaque = true;
        }
        out.push_str(rest);
        text = out;
    }
    (text, opaque)
}

/// `text` with the stack frames of every `#Inspect.Error<...>` in it
/// replaced by `_` (`spec/README.md`, LOOSE-4): the lines between
/// `Stacktrace:` and the blank line before the closing `>`, newlines
/// written as they are or escaped as in JSON text.
pub fn mask_stacktraces(text: &str) -> std::borrow::Cow<'_, str> {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    if !text.contains("Stacktrace:") {
        return std::borrow::Cow::Borrowed(text);
    }
    RE.get_or_init(|| {
        regex::Regex::new(r"(?s)Stacktrace:(\n|\\n){2}.*?(\n|\\n){2}( *)>")
            .unwrap_or_else(|e| panic!("{e}"))
    })
    .replace_all(text, "Stacktrace:${1}${1}_${2}${2}${3}>")
}

/// `term` with [`mask_stacktraces`] applied to every string in it, and to
/// every binary that is not UTF-8 (an `#Inspect.Error<...>` of an invalid
/// binary holds its bytes and its stack frames alike).
pub fn mask_stacktraces_in(term: &Term) -> Term {
    let masked = map_strings(term, &|s| {
        s.contains("Stacktrace:")
            .then(|| mask_stacktraces(s).into_owned())
    });
    map_bytes(&masked, &|b| {
        static RE: std::sync::OnceLock<regex::bytes::Regex> = std::sync::OnceLock::new();
        let re = RE.get_or_init(|| {
            regex::bytes::Regex::new(r"(?s)Stacktrace:(\n|\\n){2}.*?(\n|\\n){2}( *)>")
                .unwrap_or_else(|e| panic!("{e}"))
        });
        re.is_match(b).then(|| {
            re.replace_all(b, &b"Stacktrace:${1}${1}_${2}${2}${3}>"[..])
                .into_owned()
        })
    })
}

/// `term` with every binary that is not UTF-8 in it (list, tuple, map and
/// struct values, at any depth) replaced by `f`'s answer where it gives one.
pub fn map_bytes(term: &Term, f: &dyn Fn(&[u8]) -> Option<Vec<u8>>) -> Term {
    match term {
        Term::Bytes(b) => f(b).map_or_else(|| term.clone(), Term::Bytes),
        Term::List(items) => Term::List(items.iter().map(|t| map_bytes(t, f)).collect()),
        Term::Tuple(items) => Term::Tuple(items.iter().map(|t| map_bytes(t, f)).collect()),
        Term::Map(m) => Term::map(
            m.iter()
                .map(|(k, v)| (k.clone(), map_bytes(v, f)))
                .collect(),
        ),
        Term::Struct(st) => Term::Struct(Box::new(crate::term::Struct {
            module: st.module.clone(),
            fields: st
                .fields
                .iter()
                .map(|(k, v)| (k.clone(), map_bytes(v, f)))
                .collect(),
        })),
        other => other.clone(),
    }
}

/// `term` with every string in it (list, tuple, map and struct values, at
/// any depth) replaced by `f`'s answer where it gives one.
pub fn map_strings(term: &Term, f: &dyn Fn(&str) -> Option<String>) -> Term {
    match term {
        Term::Str(s) => f(s).map_or_else(|| term.clone(), Term::Str),
        Term::List(items) => Term::List(items.iter().map(|t| map_strings(t, f)).collect()),
        Term::Tuple(items) => Term::Tuple(items.iter().map(|t| map_strings(t, f)).collect()),
        Term::Map(m) => Term::map(
            m.iter()
                .map(|(k, v)| (k.clone(), map_strings(v, f)))
                .collect(),
        ),
        Term::Struct(st) => Term::Struct(Box::new(crate::term::Struct {
            module: st.module.clone(),
            fields: st
                .fields
                .iter()
                .map(|(k, v)| (k.clone(), map_strings(v, f)))
                .collect(),
        })),
        other => other.clone(),
    }
}

/// The opaque terms' texts as [`mask_vm_text`] leaves them.
const MASKED_OPAQUE: [&str; 4] = [
    "#Reference<...>",
    "#PID<...>",
    "#Port<...>",
    "#Function<...>",
];

/// `text` with every VM-made part masked, for comparing whole answers (the
/// fuzzer's view of LOOSE-2 and LOOSE-4): `#Inspect.Error<...>` stack
/// frames, the text inside `#Reference<...>` (pids, ports, functions), and
/// the span from such a text to a truncation marker, since its length moves
/// the cut.
pub fn mask_vm_text(text: &str) -> String {
    static OPAQUE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    static CUT: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let text = mask_stacktraces(text);
    let text = CUT
        .get_or_init(|| {
            regex::Regex::new(r"#(Reference|PID|Port|Function)<.*?(\.\.\. |;; )\(truncated at")
                .unwrap_or_else(|e| panic!("{e}"))
        })
        .replace_all(&text, "#$1<...>$2(truncated at");
    OPAQUE
        .get_or_init(|| {
            regex::Regex::new(r"#(Reference|PID|Port|Function)<[^>]*>")
                .unwrap_or_else(|e| panic!("{e}"))
        })
        .replace_all(&text, "#$1<...>")
        .into_owned()
}

/// [`mask_vm_text`] for a binary that is not UTF-8: each valid UTF-8 run
/// masked as text (the VM's texts and stack frames are ASCII), every other
/// byte kept, so masking never blurs an invalid byte into U+FFFD.
pub fn mask_vm_bytes(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        out.extend_from_slice(mask_vm_text(chunk.valid()).as_bytes());
        out.extend_from_slice(chunk.invalid());
    }
    out
}

/// An answer's value with every VM-made part masked, as the judge compares
/// it (LOOSE-2, LOOSE-4): in every string and every binary that is not
/// UTF-8, at any depth, the stack frames of an `#Inspect.Error<...>` and
/// the text inside `#Function<...>`, `#PID<...>`, `#Reference<...>` and
/// `#Port<...>` ([`mask_vm_text`], [`mask_vm_bytes`]); a text that holds
/// such an opaque text is also stripped of its white space, since the
/// opaque text's length may move `inspect`'s line breaks.
pub fn mask_term(term: &Term) -> Term {
    let term = mask_stacktraces_in(term);
    let t = map_strings(&term, &|s| {
        s.contains('#').then(|| {
            let masked = mask_vm_text(s);
            if holds_vm_text(&masked) {
                masked.split_whitespace().collect()
            } else {
                masked
            }
        })
    });
    map_bytes(&t, &|b| {
        b.contains(&b'#').then(|| {
            let masked = mask_vm_bytes(b);
            if holds_vm_text(&String::from_utf8_lossy(&masked)) {
                masked
                    .into_iter()
                    .filter(|c| !c.is_ascii_whitespace())
                    .collect()
            } else {
                masked
            }
        })
    })
}

/// Whether a [`mask_term`] result is a text cut at a character count that
/// holds an opaque term's text (LOOSE-2): the length of the VM's text
/// decided whether and where the cut fell, so the value says nothing about
/// PtcRunner and is not compared.
pub fn cut_by_vm_text(masked: &Term) -> bool {
    match masked {
        Term::Str(s) => s.contains("(truncatedat") && holds_vm_text(s),
        _ => false,
    }
}

/// Whether a [`mask_vm_text`] result holds an opaque term's text.
pub fn holds_vm_text(masked: &str) -> bool {
    MASKED_OPAQUE.iter().any(|m| masked.contains(m))
}

/// Two answers of `protocol.atomize_value` to `args`, with every map key
/// that is an atom whose existence is the VM's business written as the
/// string it came from (`spec/README.md` LOOSE-6): a possible atom that is
/// neither guaranteed (`spec/data/atoms.json`) nor held by the arguments.
/// Nothing else changes; such a key can never collide with a string key
/// of its map, as the atom would then be held by the arguments.
pub fn vm_atom_keys(args: &[Term], expected: &Term, actual: &Term) -> (Term, Term) {
    vm_atom_keys_at(crate::Release::default(), args, expected, actual)
}

/// [`vm_atom_keys`] with release `rel`'s guaranteed atoms (REL-2).
pub fn vm_atom_keys_at(
    rel: crate::Release,
    args: &[Term],
    expected: &Term,
    actual: &Term,
) -> (Term, Term) {
    let held = crate::atom_table::atoms_of(rel, &args.iter().collect::<Vec<_>>());
    let rewrite = |t: &Term| rewrite_keys(rel, t, &held);
    (rewrite(expected), rewrite(actual))
}

/// The longest atom name OTP 25 accepts, in characters.
const MAX_ATOM_CHARS: usize = 255;

/// Whether a map key that is the atom `name` on one side and the binary
/// `name` on the other is the VM's business (LOOSE-6, JH-4 to JH-7): UTF-8
/// of at most 255 characters (any other binary makes
/// `String.to_existing_atom/1` raise on every VM), neither guaranteed nor
/// held by the arguments.
pub fn vm_decides(name: &str, held: &std::collections::BTreeSet<String>) -> bool {
    vm_decides_at(crate::Release::default(), name, held)
}

/// [`vm_decides`] with release `rel`'s guaranteed atoms (REL-2).
pub fn vm_decides_at(
    rel: crate::Release,
    name: &str,
    held: &std::collections::BTreeSet<String>,
) -> bool {
    name.chars().count() <= MAX_ATOM_CHARS
        && !crate::atom_table::guaranteed_at(rel, name)
        && !held.contains(name)
}

fn rewrite_keys(rel: crate::Release, t: &Term, held: &std::collections::BTreeSet<String>) -> Term {
    match t {
        Term::List(items) => Term::List(items.iter().map(|i| rewrite_keys(rel, i, held)).collect()),
        Term::Tuple(items) => {
            Term::Tuple(items.iter().map(|i| rewrite_keys(rel, i, held)).collect())
        }
        Term::Map(m) => Term::map(
            m.iter()
                .map(|(k, v)| {
                    let key = match k {
                        Term::Atom(a) if vm_decides_at(rel, a, held) => Term::Str(a.clone()),
                        _ => rewrite_keys(rel, k, held),
                    };
                    (key, rewrite_keys(rel, v, held))
                })
                .collect(),
        ),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_keys_whose_atom_is_the_vms_business_compare_loosely() {
        let key = |k: Term| Term::map(vec![(k, Term::int(1))]);
        let args = [key(Term::str("zq")), Term::Nil];
        let (e, a) = vm_atom_keys(&args, &key(Term::str("zq")), &key(Term::atom("zq")));
        assert_eq!(e, a, "zq is neither guaranteed nor held");
        let (e, a) = vm_atom_keys(&args, &key(Term::str("name")), &key(Term::atom("name")));
        assert_ne!(e, a, "name is guaranteed");
        let held = [key(Term::atom("zq")), Term::Nil];
        let (e, a) = vm_atom_keys(&held, &key(Term::str("zq")), &key(Term::atom("zq")));
        assert_ne!(e, a, "an atom the arguments hold exists");
        let (e, a) = vm_atom_keys(&args, &Term::str("zq"), &Term::atom("zq"));
        assert_ne!(e, a, "values are never loosened");
    }

    #[test]
    fn vm_text_is_masked_in_a_binary_that_is_not_utf8_keeping_its_bytes() {
        let a = mask_vm_bytes(b"%{#Reference<0.1.2.3> => #'a\xff}");
        let b = mask_vm_bytes(b"%{#Reference<0.9.9.9> => #'a\xff}");
        assert_eq!(a, b);
        assert_eq!(a, b"%{#Reference<...> => #'a\xff}".to_vec());
        assert_ne!(a, mask_vm_bytes(b"%{#Reference<0.1.2.3> => #'a\xfe}"));
    }

    #[test]
    fn stack_frames_are_masked_in_a_binary_that_is_not_utf8() {
        let frames = |version: &str| {
            let mut b = b"#Inspect.Error<\n  got ArgumentError: [\xff]\n\n  Stacktrace:\n\n    (ptc_runner "
                .to_vec();
            b.extend_from_slice(version.as_bytes());
            b.extend_from_slice(b") lib/ptc_runner/lisp/format.ex:65: f/2\n\n>");
            Term::List(vec![Term::Bytes(b)])
        };
        let (old, new) = (
            mask_stacktraces_in(&frames("0.12.0")),
            mask_stacktraces_in(&frames("0.13.0")),
        );
        assert_eq!(old, new);
        let Term::List(items) = old else {
            unreachable!()
        };
        let Term::Bytes(b) = &items[0] else {
            panic!("{items:?}")
        };
        assert!(b.ends_with(b"Stacktrace:\n\n_\n\n>"), "{b:?}");
        assert!(b.contains(&0xff), "the bytes before the frames are kept");
    }
    /// LOOSE-4: the mask takes one or more frame lines, whatever their
    /// text, and never none: a trace without a frame line is compared as
    /// it is, so it differs from every release's.
    #[test]
    fn the_stack_frames_mask_needs_at_least_one_line() {
        let text =
            |frames: &str| format!("#Inspect.Error<\n  got X\n\n  Stacktrace:\n\n{frames}\n>");
        let release = text("    (elixir 1.18.4) lib/string/chars.ex:3: f/1\n    g/2\n");
        for port in ["    h/0\n", "X\n", "\n"] {
            assert!(messages_match(&release, &text(port)), "{port:?}");
        }
        assert!(!messages_match(&release, &text("")));
        assert_eq!(mask_stacktraces(&text("")), text(""));
    }
}
