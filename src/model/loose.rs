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

/// `term` with [`mask_stacktraces`] applied to every string in it.
pub fn mask_stacktraces_in(term: &Term) -> Term {
    map_strings(term, &|s| {
        s.contains("Stacktrace:")
            .then(|| mask_stacktraces(s).into_owned())
    })
}

/// `term` with every string in it (list, tuple and map values, at any
/// depth) replaced by `f`'s answer where it gives one.
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

/// Whether a [`mask_vm_text`] result holds an opaque term's text.
pub fn holds_vm_text(masked: &str) -> bool {
    MASKED_OPAQUE.iter().any(|m| masked.contains(m))
}
