//! `Inspect.Algebra` as Elixir 1.18.4 lays documents out: the part of it
//! that `inspect/2` uses (strings, strict and flex breaks, nesting, groups
//! and `container_doc/6`). `inspect(term, pretty: true)` formats at width 80;
//! `inspect/1` formats at an infinite width, so nothing ever breaks
//! (`spec/inspect.md`, IN-19).
//!
//! Text is measured in bytes, as the layout measures a plain binary.

/// An algebra document.
#[derive(Clone, Debug)]
pub enum Doc {
    /// `empty()` (`:doc_nil`).
    Nil,
    /// A plain binary, measured by its byte size (any bytes: a display
    /// struct's `Inspect` may interpolate invalid UTF-8).
    Str(Vec<u8>),
    /// `break(s)` (strict) or `flex_break(s)` (flex).
    Break(&'static str, bool),
    /// `nest(doc, n)` (always).
    Nest(Box<Doc>, usize),
    /// `group(doc)`.
    Group(Box<Doc>),
    /// `concat(a, b)`.
    Cons(Box<Doc>, Box<Doc>),
}

impl Doc {
    /// A string document.
    pub fn text(s: impl Into<Vec<u8>>) -> Doc {
        Doc::Str(s.into())
    }

    /// `concat(a, b)`.
    pub fn concat(a: Doc, b: Doc) -> Doc {
        Doc::Cons(Box::new(a), Box::new(b))
    }

    /// `group(doc)`.
    pub fn group(doc: Doc) -> Doc {
        Doc::Group(Box::new(doc))
    }

    /// `nest(doc, n)`; `nest(doc, 0)` is `doc`.
    pub fn nest(doc: Doc, n: usize) -> Doc {
        if n == 0 {
            doc
        } else {
            Doc::Nest(Box::new(doc), n)
        }
    }

    /// `glue(a, s, b)`: a strict break between two documents.
    pub fn glue(a: Doc, s: &'static str, b: Doc) -> Doc {
        Doc::concat(a, Doc::concat(Doc::Break(s, false), b))
    }

    /// `flex_glue(a, s, b)`: a flex break between two documents.
    pub fn flex_glue(a: Doc, s: &'static str, b: Doc) -> Doc {
        Doc::concat(a, Doc::concat(Doc::Break(s, true), b))
    }

    /// Whether `container_doc` calls the document simple: text only.
    fn simple(&self) -> bool {
        match self {
            Doc::Nil | Doc::Str(_) => true,
            Doc::Cons(a, b) => a.simple() && b.simple(),
            _ => false,
        }
    }
}

/// How `container_doc/6` may break between items (its `:break` option).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Breaks {
    /// `:maybe`: flex when every item is text, else strict.
    Maybe,
    /// `:strict`: one item per line once the group breaks.
    Strict,
    /// `:flex`: as many items per line as fit.
    Flex,
}

/// `container_doc(left, items, right, opts, fun, separator: ",", break: b)`:
/// `limit` items at most (then `...`); each item's document is made by
/// `each` with the limit that remains for it.
pub fn container_doc<T>(
    left: &str,
    items: &[T],
    right: &str,
    limit: usize,
    breaks: Breaks,
    mut each: impl FnMut(&T, usize) -> Doc,
) -> Doc {
    if items.is_empty() {
        return Doc::text(format!("{left}{right}"));
    }
    let mut docs = Vec::with_capacity(items.len());
    let mut simple = breaks == Breaks::Maybe;
    let mut limit = limit;
    for item in items {
        if limit == 0 {
            docs.push(Doc::text("..."));
            break;
        }
        let doc = each(item, limit - 1);
        if !matches!(doc, Doc::Nil) {
            limit -= 1;
        }
        simple = simple && doc.simple();
        docs.push(doc);
    }
    let flex = simple || breaks == Breaks::Flex;
    let joined = docs
        .into_iter()
        .rev()
        .reduce(|acc, doc| join(doc, acc, flex))
        .unwrap_or(Doc::Nil);
    if flex {
        Doc::group(Doc::concat(
            Doc::concat(Doc::text(left), Doc::nest(joined, 1)),
            Doc::text(right),
        ))
    } else {
        Doc::group(Doc::glue(
            Doc::nest(Doc::glue(Doc::text(left), "", joined), 2),
            "",
            Doc::text(right),
        ))
    }
}

fn join(left: Doc, right: Doc, flex: bool) -> Doc {
    match (left, right) {
        (Doc::Nil, Doc::Nil) => Doc::Nil,
        (left, Doc::Nil) => left,
        (Doc::Nil, right) => right,
        (left, right) if flex => Doc::flex_glue(Doc::concat(left, Doc::text(",")), " ", right),
        (left, right) => Doc::glue(Doc::concat(left, Doc::text(",")), " ", right),
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Flat,
    Break,
}

/// One entry of the layout stacks: a document with its indentation and
/// mode, or (while measuring) the end of a group with the break flag to
/// restore.
#[derive(Clone, Copy)]
enum Entry<'a> {
    Doc(usize, Mode, &'a Doc),
    Tail(bool),
}

/// `format(doc, width)` as text; `None` is an infinite width. Invalid
/// UTF-8 (only a display struct's text holds any) is replaced: use
/// [`format_bytes`] where it must stay.
pub fn format(doc: &Doc, width: Option<usize>) -> String {
    match String::from_utf8(format_bytes(doc, width)) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    }
}

/// `format(doc, width)` as the binary Elixir builds, byte for byte.
pub fn format_bytes(doc: &Doc, width: Option<usize>) -> Vec<u8> {
    let mut out: Vec<u8> = Vec::new();
    let mut k = 0usize;
    // The stack's top is its last element.
    let mut stack: Vec<Entry> = vec![Entry::Doc(0, Mode::Flat, doc)];
    while let Some(entry) = stack.pop() {
        let Entry::Doc(i, m, d) = entry else { continue };
        match d {
            Doc::Nil => {}
            Doc::Str(s) => {
                out.extend_from_slice(s);
                k += s.len();
            }
            Doc::Cons(x, y) => {
                stack.push(Entry::Doc(i, m, y));
                stack.push(Entry::Doc(i, m, x));
            }
            Doc::Nest(x, j) => stack.push(Entry::Doc(i + j, m, x)),
            Doc::Break(s, true) => {
                let after = k + s.len();
                let keep = match width {
                    None => true,
                    Some(w) => m == Mode::Flat || fits(w, after, true, stack.clone()),
                };
                if keep {
                    out.extend_from_slice(s.as_bytes());
                    k = after;
                } else {
                    newline(&mut out, i);
                    k = i;
                }
            }
            Doc::Break(s, false) => {
                if m == Mode::Break {
                    newline(&mut out, i);
                    k = i;
                } else {
                    out.extend_from_slice(s.as_bytes());
                    k += s.len();
                }
            }
            Doc::Group(x) => {
                let flat = match width {
                    None => true,
                    Some(w) => fits(w, k, false, vec![Entry::Doc(i, Mode::Flat, x)]),
                };
                let mode = if flat { Mode::Flat } else { Mode::Break };
                stack.push(Entry::Doc(i, mode, x));
            }
        }
    }
    out
}

fn newline(out: &mut Vec<u8>, indent: usize) {
    out.push(b'\n');
    out.resize(out.len() + indent, b' ');
}

/// `fits/4`: whether what is on `stack` fits in `w` from column `k` up to
/// its first break in break mode; `b` says a flat break was seen (only
/// then does overflowing count).
fn fits(w: usize, mut k: usize, mut b: bool, mut stack: Vec<Entry>) -> bool {
    loop {
        if k > w && b {
            return false;
        }
        let Some(entry) = stack.pop() else {
            return true;
        };
        let (i, m, d) = match entry {
            Entry::Tail(saved) => {
                b = saved;
                continue;
            }
            Entry::Doc(i, m, d) => (i, m, d),
        };
        match d {
            Doc::Break(..) if m == Mode::Break => return true,
            Doc::Group(x) => {
                stack.push(Entry::Tail(b));
                stack.push(Entry::Doc(i, Mode::Flat, x));
            }
            Doc::Nil => {}
            Doc::Str(s) => k += s.len(),
            Doc::Break(s, _) => {
                k += s.len();
                b = true;
            }
            Doc::Nest(x, j) => stack.push(Entry::Doc(i + j, m, x)),
            Doc::Cons(x, y) => {
                stack.push(Entry::Doc(i, m, y));
                stack.push(Entry::Doc(i, m, x));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_group_breaks_only_when_it_does_not_fit() {
        let doc = Doc::group(Doc::glue(Doc::text("hello"), " ", Doc::text("world")));
        assert_eq!(format(&doc, Some(30)), "hello world");
        assert_eq!(format(&doc, Some(10)), "hello\nworld");
        assert_eq!(format(&doc, None), "hello world");
    }

    #[test]
    fn flex_containers_fill_lines() {
        let items: Vec<String> = (1..=5).map(|n| n.to_string()).collect();
        let doc = container_doc("[", &items, "]", 50, Breaks::Maybe, |s, _| {
            Doc::text(s.clone())
        });
        assert_eq!(format(&doc, Some(8)), "[1, 2,\n 3, 4,\n 5]");
        let doc = container_doc("[", &items, "]", 3, Breaks::Strict, |s, _| {
            Doc::text(s.clone())
        });
        assert_eq!(format(&doc, Some(8)), "[\n  1,\n  2,\n  3,\n  ...\n]");
    }
}
