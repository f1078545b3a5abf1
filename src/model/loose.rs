//! Comparing exception messages as `spec/README.md` § Loosely compared
//! message parts says: exactly, but for the parts that depend on the VM
//! rather than on PtcRunner. The harness's judge and the crate's own
//! golden-corpus test (`tests/golden_corpus.rs`) both call this one copy.

/// Whether two exception messages agree once the parts that depend on the
/// VM rather than on PtcRunner are masked (`spec/README.md`, LOOSE-1 and
/// LOOSE-2): a `Protocol.UndefinedError`'s list of implementations, and
/// the text inside `#Function<...>`, `#PID<...>`, `#Reference<...>` and
/// `#Port<...>`, whose length may also move `inspect`'s line breaks, so
/// a message holding one is compared without white space.
pub fn messages_match(expected: &str, actual: &str) -> bool {
    if expected == actual {
        return true;
    }
    let (e, e_opaque) = mask(expected);
    let (a, a_opaque) = mask(actual);
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
