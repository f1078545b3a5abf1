//! Attribution of differences to a struct's change of shape. When two
//! builds' structs differ by a field (one build's `PtcRunner.Tool` has
//! `visibility`, the other's does not), that one change shows up far from
//! the struct itself: inside a function value's result, in `inspect` text
//! and exception messages that render the struct, and as a refusal by the
//! build that lacks the field of an input that names it. `compare` reports
//! the change once, as the struct's kind, and counts those echoes under it.
//!
//! The rule (README § Comparing two builds of PtcRunner): a difference is
//! *explained* by the shape changes found when the two answers become equal
//! after removing those fields from those structs everywhere in both
//! answers (inside function specs, map keys and values, lists, tuples), and
//! their rendered text `field: value` (with its separating comma, for the
//! literal forms a default takes: `nil`, `:atom`, booleans, numbers, `%{}`,
//! `[]`, `""`) from the struct's text in every string and exception
//! message, a string that renders such a struct being compared without
//! white space (the extra field moves `inspect`'s line breaks); on the side
//! that has the field, `...` closing the struct's text (inspect's item
//! limit reached one field earlier) is the field's text too. A refusal is
//! explained when its reason names the struct and a field only the other
//! side's struct has. Anything else in the same answer that differs keeps
//! the difference its own kind: nothing is hidden.

use crate::judging::judge::Reading;
use crate::review::kinds::{comparable, How, Kind, Side};
use crate::subject::Answer;
use ptc_conformance::diff::diff;
use ptc_conformance::ops::Op;
use ptc_conformance::term::{FunSpec, Struct, Term};
use std::collections::BTreeSet;

/// A struct's change of shape: a field only one side's struct has.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ShapeChange {
    /// The struct's module.
    pub module: String,
    /// The field.
    pub field: String,
    /// The side whose struct has it.
    pub side: Side,
}

/// The shape changes found so far.
pub type Shapes = BTreeSet<ShapeChange>;

impl ShapeChange {
    /// The shape change a kind reports, if it reports one (a struct field
    /// only one side has).
    pub fn of(kind: &Kind) -> Option<ShapeChange> {
        let (How::OnlyIn(side), Some(module)) = (&kind.how, &kind.structure) else {
            return None;
        };
        Some(ShapeChange {
            module: module.clone(),
            field: kind.path.strip_prefix("/.")?.to_owned(),
            side: *side,
        })
    }

    /// The kind a report lists this change under (op left empty, as
    /// [`Kind::cause`] has it).
    pub fn kind(&self) -> Kind {
        Kind {
            op: "",
            path: format!("/.{}", self.field),
            structure: Some(self.module.clone()),
            how: How::OnlyIn(self.side),
        }
    }
}

/// Why a difference is explained: the shape changes it echoes, and whether
/// it is a refusal of an input that names a field (rather than an answer
/// that holds or renders one).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Explanation {
    /// The shape changes whose fields were removed (or named by a refusal).
    pub changes: BTreeSet<ShapeChange>,
    /// The side lacking the field refused an input naming it.
    pub refused: bool,
}

/// Whether the difference between `expected` and `actual` (answers of `op`
/// already found to differ, read as `reading` says) is explained by
/// `shapes`, and by which of them.
pub fn explain(
    op: &'static Op,
    expected: &Answer,
    actual: &Answer,
    shapes: &Shapes,
    reading: Reading,
) -> Option<Explanation> {
    if shapes.is_empty() {
        return None;
    }
    let refusal = |reason: &str, refusing: Side| {
        let changes: BTreeSet<ShapeChange> = shapes
            .iter()
            .filter(|c| {
                c.side != refusing
                    && reason.contains(&format!("{} has no field \"{}\"", c.module, c.field))
            })
            .cloned()
            .collect();
        (!changes.is_empty()).then_some(Explanation {
            changes,
            refused: true,
        })
    };
    let (expected, actual) = (
        &crate::review::fuzz::mask_vm_text(expected),
        &crate::review::fuzz::mask_vm_text(actual),
    );
    let mut used = BTreeSet::new();
    let explained = match (expected, actual) {
        (Answer::Unsupported(r), a) if !matches!(a, Answer::Unsupported(_)) => {
            return refusal(r, Side::Expected)
        }
        (e, Answer::Unsupported(r)) if !matches!(e, Answer::Unsupported(_)) => {
            return refusal(r, Side::Actual)
        }
        (Answer::Ok(e), Answer::Ok(a)) => {
            let (e, a) = comparable(op, e, a, reading);
            let e = strip(&e, shapes, &mut used);
            let a = strip(&a, shapes, &mut used);
            agree(&e, &a, shapes, &mut used)
        }
        (Answer::Raised(e), Answer::Raised(a)) if e.class == a.class => {
            texts_agree(&e.message, &a.message, shapes, &mut used) != Agreement::Differs
        }
        _ => false,
    };
    (explained && !used.is_empty()).then_some(Explanation {
        changes: used,
        refused: false,
    })
}

/// `t` with the fields of `shapes` removed from their structs, at any
/// depth (function specs, map keys and values included); the changes that
/// removed something are added to `used`. Text is left to [`agree`].
fn strip(t: &Term, shapes: &Shapes, used: &mut Shapes) -> Term {
    match t {
        Term::Struct(s) => {
            let mut fields = Vec::with_capacity(s.fields.len());
            for (name, value) in &s.fields {
                match shapes
                    .iter()
                    .find(|c| c.module == s.module && &c.field == name)
                {
                    Some(c) => {
                        used.insert(c.clone());
                    }
                    None => fields.push((name.clone(), strip(value, shapes, used))),
                }
            }
            Term::Struct(Box::new(Struct {
                module: s.module.clone(),
                fields,
            }))
        }
        Term::Fun(f) => Term::Fun(Box::new(match &**f {
            FunSpec::Returns { arity, returns } => FunSpec::Returns {
                arity: *arity,
                returns: strip(returns, shapes, used),
            },
            other => other.clone(),
        })),
        Term::List(xs) => Term::List(xs.iter().map(|x| strip(x, shapes, used)).collect()),
        Term::Tuple(xs) => Term::Tuple(xs.iter().map(|x| strip(x, shapes, used)).collect()),
        Term::Map(m) => Term::map(
            m.iter()
                .map(|(k, v)| (strip(k, shapes, used), strip(v, shapes, used)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// How two texts agree once the struct changes' text is taken out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Agreement {
    /// Equal.
    Equal,
    /// Equal up to where one of them is cut short.
    UpToCut,
    /// Not explained.
    Differs,
}

/// Whether `e` and `a` (stripped answers) agree: equal, but for texts,
/// which agree as [`texts_agree`] says, and a JSON payload's `"truncated"`
/// flag, which follows its text when that was cut on one side only.
fn agree(e: &Term, a: &Term, shapes: &Shapes, used: &mut Shapes) -> bool {
    match (e, a) {
        (Term::Str(x), Term::Str(y)) => texts_agree(x, y, shapes, used) != Agreement::Differs,
        (Term::Bytes(x), Term::Bytes(y)) => {
            texts_agree(&readable(x), &readable(y), shapes, used) != Agreement::Differs
        }
        (Term::List(xs), Term::List(ys)) | (Term::Tuple(xs), Term::Tuple(ys)) => {
            xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| agree(x, y, shapes, used))
        }
        (Term::Struct(x), Term::Struct(y)) => {
            x.module == y.module
                && x.fields.len() == y.fields.len()
                && x.fields
                    .iter()
                    .zip(&y.fields)
                    .all(|((n, v), (m, w))| n == m && agree(v, w, shapes, used))
        }
        (Term::Fun(x), Term::Fun(y)) => match (&**x, &**y) {
            (
                FunSpec::Returns { arity, returns },
                FunSpec::Returns {
                    arity: arity2,
                    returns: returns2,
                },
            ) => arity == arity2 && agree(returns, returns2, shapes, used),
            _ => x == y,
        },
        (Term::Map(x), Term::Map(y)) => {
            if x.iter().len() != y.iter().len() {
                return false;
            }
            let mut cut = false;
            let mut flag_differs = false;
            for ((k, v), (k2, w)) in x.iter().zip(y.iter()) {
                if !diff(k, k2).is_empty() {
                    return false;
                }
                match (v, w) {
                    (Term::Str(s1), Term::Str(s2)) => match texts_agree(s1, s2, shapes, used) {
                        Agreement::Differs => return false,
                        Agreement::UpToCut => cut = true,
                        Agreement::Equal => {}
                    },
                    (Term::Bool(b1), Term::Bool(b2))
                        if b1 != b2 && matches!(k, Term::Str(n) if n == "truncated") =>
                    {
                        flag_differs = true
                    }
                    _ => {
                        if !agree(v, w, shapes, used) {
                            return false;
                        }
                    }
                }
            }
            !flag_differs || cut
        }
        _ => diff(e, a).is_empty(),
    }
}

/// How texts `e` (expected's) and `a` agree: equal; or, when they render a
/// changed struct (`%Module{`), equal once the changed fields' text is
/// removed ([`strip_text`]) and white space ignored, or equal up to where
/// one of them is cut short: `...` (inspect's item limit, which an extra
/// field reaches earlier) or PtcRunner's `... (truncated at N chars`.
fn texts_agree(e: &str, a: &str, shapes: &Shapes, used: &mut Shapes) -> Agreement {
    if e == a {
        return Agreement::Equal;
    }
    let rendered: Vec<&ShapeChange> = shapes
        .iter()
        .filter(|c| {
            let open = format!("%{}{{", c.module);
            e.contains(&open) || a.contains(&open)
        })
        .collect();
    if rendered.is_empty() {
        return Agreement::Differs;
    }
    let mut removed = Shapes::new();
    let (x, y) = (
        strip_text(e, shapes, &mut removed),
        strip_text(a, shapes, &mut removed),
    );
    let agreement = if x == y {
        Agreement::Equal
    } else {
        let (px, py) = (before_cut(&x), before_cut(&y));
        let (px, py) = (px.unwrap_or(&x), py.unwrap_or(&y));
        let (short, long) = if px.len() <= py.len() {
            (px, py)
        } else {
            (py, px)
        };
        if long.starts_with(short) && (px.len() < x.len() || py.len() < y.len()) {
            // Cut short: the structs rendered may have spent the budget.
            removed.extend(rendered.into_iter().cloned());
            Agreement::UpToCut
        } else {
            Agreement::Differs
        }
    };
    if agreement != Agreement::Differs {
        used.extend(removed);
    }
    agreement
}

/// `text` before its first cut marker (`...` closing a collection, or
/// starting PtcRunner's `(truncated at N chars ...)` note), a separating
/// comma dropped, if it has one.
fn before_cut(text: &str) -> Option<&str> {
    let mut from = 0;
    while let Some(at) = text[from..].find("...") {
        let at = from + at;
        if matches!(
            text[at + 3..].chars().next(),
            Some('}' | ']' | '>' | '(') | None
        ) {
            return Some(text[..at].trim_end_matches(','));
        }
        from = at + 3;
    }
    None
}

/// `bytes` as text: its UTF-8 runs as they are, any other byte as `\xNN`.
fn readable(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    let mut rest = bytes;
    while !rest.is_empty() {
        match std::str::from_utf8(rest) {
            Ok(s) => {
                out.push_str(s);
                break;
            }
            Err(e) => {
                let (good, bad) = rest.split_at(e.valid_up_to());
                out.push_str(std::str::from_utf8(good).unwrap_or_default());
                let n = e.error_len().unwrap_or(bad.len()).max(1);
                for b in &bad[..n] {
                    out.push_str(&format!("\\x{b:02X}"));
                }
                rest = &bad[n..];
            }
        }
    }
    out
}

/// `text` (from `side`) with the rendered text of the fields of `shapes`
/// removed from their structs' text (`%Module{... field: value, ...}`),
/// compared without white space when it renders such a struct at all;
/// other text is returned as it is.
fn strip_text(text: &str, shapes: &Shapes, used: &mut Shapes) -> String {
    if !shapes
        .iter()
        .any(|c| text.contains(&format!("%{}{{", c.module)))
    {
        return text.to_owned();
    }
    let c: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    let mut out = String::with_capacity(c.len());
    // Open brackets, each with the struct module it opened, if any.
    let mut open: Vec<Option<String>> = Vec::new();
    let mut i = 0;
    while i < c.len() {
        match c[i] {
            '"' if c[i..].starts_with(&['"', '"', '"']) => {
                // A heredoc's quotes (an `#Inspect.Error<...>` quoting a
                // message): its text is read as any other.
                out.push_str("\"\"\"");
                i += 3;
                continue;
            }
            '"' => {
                // A quoted string is copied as it is.
                let start = i;
                i += 1;
                while i < c.len() && c[i] != '"' {
                    i += if c[i] == '\\' { 2 } else { 1 };
                }
                i = (i + 1).min(c.len());
                out.extend(&c[start..i]);
                continue;
            }
            '%' => {
                let name: String = c[i + 1..]
                    .iter()
                    .take_while(|ch| ch.is_alphanumeric() || matches!(ch, '.' | '_'))
                    .collect();
                let brace = i + 1 + name.chars().count();
                if c.get(brace) == Some(&'{') {
                    out.push('%');
                    out.push_str(&name);
                    out.push('{');
                    open.push((!name.is_empty()).then_some(name));
                    i = brace + 1;
                    continue;
                }
            }
            '{' | '[' | '(' => open.push(None),
            '}' | ']' | ')' => {
                open.pop();
            }
            _ => {}
        }
        if let Some(Some(module)) = open.last() {
            if matches!(out.chars().last(), Some('{' | ',')) {
                if let Some((c_, len)) = field_text_at(&c[i..], module, shapes) {
                    used.insert(c_.clone());
                    i += len;
                    if c.get(i) == Some(&',') {
                        i += 1;
                    } else if out.ends_with(',') {
                        out.pop();
                    }
                    continue;
                }
            }
        }
        out.push(c[i]);
        i += 1;
    }
    let chars: Vec<char> = out.chars().collect();
    let mut j = 0;
    sorted_maps(&chars, &mut j, shapes)
}

/// Text `c` from `i` up to the bracket closing the enclosing one (or its
/// end), with the entries of every map (`%{...}`) that renders a changed
/// struct sorted: maps are rendered in term order, where a struct with one
/// more field sorts elsewhere, so such a map's entries are compared as a
/// set.
fn sorted_maps(c: &[char], i: &mut usize, shapes: &Shapes) -> String {
    let mut out = String::new();
    while *i < c.len() {
        let ch = c[*i];
        match ch {
            '}' | ']' | ')' => return out,
            '"' if !c[*i..].starts_with(&['"', '"', '"']) => {
                let start = *i;
                *i += 1;
                while *i < c.len() && c[*i] != '"' {
                    *i += if c[*i] == '\\' { 2 } else { 1 };
                }
                *i = (*i + 1).min(c.len());
                out.extend(&c[start..*i]);
                continue;
            }
            '{' | '[' | '(' => {
                let map = ch == '{' && out.ends_with('%');
                *i += 1;
                let inner = sorted_maps(c, i, shapes);
                let close = c.get(*i).copied();
                *i = (*i + 1).min(c.len());
                out.push(ch);
                if map
                    && shapes
                        .iter()
                        .any(|s| inner.contains(&format!("%{}{{", s.module)))
                {
                    let mut entries = split_top(&inner);
                    entries.sort_unstable();
                    out.push_str(&entries.join(","));
                } else {
                    out.push_str(&inner);
                }
                out.extend(close);
                continue;
            }
            _ => {}
        }
        out.push(ch);
        *i += 1;
    }
    out
}

/// `text` split at its top-level commas (not inside brackets or quotes).
fn split_top(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut quoted, mut escaped, mut start) = (0i32, false, false, 0);
    for (at, ch) in text.char_indices() {
        if quoted {
            match (escaped, ch) {
                (false, '\\') => escaped = true,
                (false, '"') => quoted = false,
                _ => escaped = false,
            }
            continue;
        }
        match ch {
            '"' => quoted = true,
            '{' | '[' | '(' => depth += 1,
            '}' | ']' | ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&text[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    out.push(&text[start..]);
    out
}

/// The shape change whose field's text (`field:value`) starts `rest`,
/// inside `module`'s text, and that text's length; it must end where the
/// struct's next field or its end begins.
fn field_text_at<'s>(
    rest: &[char],
    module: &str,
    shapes: &'s Shapes,
) -> Option<(&'s ShapeChange, usize)> {
    let ends = |n: usize| matches!(rest.get(n), Some(',' | '}'));
    for c in shapes.iter().filter(|c| c.module == module) {
        let key: Vec<char> = format!("{}:", c.field).chars().collect();
        if !rest.starts_with(&key) {
            continue;
        }
        let value = literal_len(&rest[key.len()..])?;
        if value > 0 && ends(key.len() + value) {
            return Some((c, key.len() + value));
        }
    }
    None
}

/// The length of the literal a default takes (`nil`, `:atom`, `true`,
/// `false`, a number, `%{}`, `[]`, `""`) at the start of `s`, if one is.
fn literal_len(s: &[char]) -> Option<usize> {
    for lit in ["%{}", "[]", "\"\""] {
        let lit: Vec<char> = lit.chars().collect();
        if s.starts_with(&lit) {
            return Some(lit.len());
        }
    }
    let word = |from: usize| {
        s[from..]
            .iter()
            .take_while(|c| c.is_alphanumeric() || matches!(c, '_' | '?' | '!' | '@' | '.'))
            .count()
    };
    match s.first()? {
        ':' => Some(1 + word(1)).filter(|n| *n > 1),
        '-' => Some(1 + word(1)).filter(|n| *n > 1 && s[1].is_ascii_digit()),
        ch if ch.is_ascii_digit() => Some(word(0)),
        _ => {
            let n = word(0);
            let w: String = s[..n].iter().collect();
            matches!(w.as_str(), "nil" | "true" | "false").then_some(n)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Sources;
    use crate::review::compare::{compare, CompareConfig};
    use crate::review::fuzz::FuzzConfig;
    use crate::subject::reference::Reference;
    use crate::subject::{Flow, Request, Subject};
    use ptc_conformance::raised::Raised;

    fn tool_visibility() -> Shapes {
        [ShapeChange {
            module: "PtcRunner.Tool".into(),
            field: "visibility".into(),
            side: Side::Actual,
        }]
        .into_iter()
        .collect()
    }

    #[test]
    fn a_fields_text_is_removed_with_its_comma_inside_its_struct_only() {
        let shapes = tool_visibility();
        let mut used = Shapes::new();
        let head = "%PtcRunner.Tool{name: nil,\n  visibility: :public,\n  cache: false}";
        assert_eq!(
            strip_text(head, &shapes, &mut used),
            "%PtcRunner.Tool{name:nil,cache:false}"
        );
        assert_eq!(used, shapes);
        let last = "[%PtcRunner.Tool{name: nil, visibility: :private}]";
        assert_eq!(
            strip_text(last, &shapes, &mut used),
            "[%PtcRunner.Tool{name:nil}]"
        );
        // Not among the struct's own fields: kept.
        let nested = "%PtcRunner.Tool{name: %{visibility: :public}}";
        assert_eq!(
            strip_text(nested, &shapes, &mut used),
            "%PtcRunner.Tool{name:%{visibility::public}}"
        );
        let other = "%PtcRunner.Step{visibility: :public}";
        assert!(strip_text(other, &shapes, &mut used).contains("visibility"));
        // A value that is not a literal a default takes: kept.
        let computed = "%PtcRunner.Tool{visibility: [1, 2], cache: false}";
        assert!(strip_text(computed, &shapes, &mut used).contains("visibility"));
    }

    #[test]
    fn texts_agree_up_to_a_cut_and_maps_as_sets_only_where_a_changed_struct_is() {
        let shapes = tool_visibility();
        let mut used = Shapes::new();
        let base = "[%PtcRunner.Tool{name: nil, cache: false}, 1, 2]";
        let head = "[%PtcRunner.Tool{name: nil, visibility: :public, cache: false}, 1, ...]";
        assert_eq!(
            texts_agree(base, head, &shapes, &mut used),
            Agreement::UpToCut
        );
        // A change before the cut is not explained.
        let head = "[%PtcRunner.Tool{name: 1, visibility: :public, cache: false}, ...]";
        assert_eq!(
            texts_agree(base, head, &shapes, &mut used),
            Agreement::Differs
        );
        // Without a changed struct's text, texts are compared as they are.
        assert_eq!(
            texts_agree("[1, 2]", "[1, ...]", &shapes, &mut used),
            Agreement::Differs
        );
        // A map rendering a changed struct: its entries as a set.
        let base = "%{%PtcRunner.Tool{name: nil} => 1, ~N[2024-01-01 00:00:00] => nil}";
        let head = "%{~N[2024-01-01 00:00:00] => nil, %PtcRunner.Tool{name: nil, visibility: :public} => 1}";
        assert_eq!(
            texts_agree(base, head, &shapes, &mut used),
            Agreement::Equal
        );
        let head =
            "%{~N[2024-01-01 00:00:00] => 1, %PtcRunner.Tool{name: nil, visibility: :public} => 1}";
        assert_eq!(
            texts_agree(base, head, &shapes, &mut used),
            Agreement::Differs
        );
    }

    /// v0.13.0 seen through v0.12.0's `PtcRunner.Tool`: the reference with
    /// the `visibility` field taken out of every Tool it answers, and out
    /// of every Tool it renders in a text or message; an input naming the
    /// field is refused as a build without it refuses it. With `planted`,
    /// also a real change: a Tool rendered with `cache: true` is rendered
    /// with `cache: :yes`.
    struct WithoutVisibility {
        planted: bool,
    }

    fn without_visibility(t: &Term, planted: bool) -> Term {
        let text = |s: &str| {
            let re = regex::Regex::new(r"visibility: :(public|private),\s*").unwrap();
            let s = re.replace_all(s, "").into_owned();
            if planted && s.contains("%PtcRunner.Tool{") {
                s.replace("cache: true", "cache: :yes")
            } else {
                s
            }
        };
        match t {
            Term::Struct(s) => Term::Struct(Box::new(Struct {
                module: s.module.clone(),
                fields: s
                    .fields
                    .iter()
                    .filter(|(n, _)| !(s.module == "PtcRunner.Tool" && n == "visibility"))
                    .map(|(n, v)| (n.clone(), without_visibility(v, planted)))
                    .collect(),
            })),
            Term::List(xs) => {
                Term::List(xs.iter().map(|x| without_visibility(x, planted)).collect())
            }
            Term::Tuple(xs) => {
                Term::Tuple(xs.iter().map(|x| without_visibility(x, planted)).collect())
            }
            Term::Map(m) => Term::map(
                m.iter()
                    .map(|(k, v)| {
                        (
                            without_visibility(k, planted),
                            without_visibility(v, planted),
                        )
                    })
                    .collect(),
            ),
            Term::Str(s) => Term::Str(text(s)),
            other => other.clone(),
        }
    }

    fn names_visibility(t: &Term) -> bool {
        match t {
            Term::Struct(s) => {
                (s.module == "PtcRunner.Tool" && s.fields.iter().any(|(n, _)| n == "visibility"))
                    || s.fields.iter().any(|(_, v)| names_visibility(v))
            }
            Term::List(xs) | Term::Tuple(xs) => xs.iter().any(names_visibility),
            Term::Map(m) => m
                .iter()
                .any(|(k, v)| names_visibility(k) || names_visibility(v)),
            _ => false,
        }
    }

    impl Subject for WithoutVisibility {
        fn name(&self) -> String {
            "reference without Tool.visibility".into()
        }
        fn ops(&self) -> BTreeSet<String> {
            Reference.ops()
        }
        fn features(&self) -> BTreeSet<String> {
            Reference.features()
        }
        fn run_batch(
            &mut self,
            requests: &[Request<'_>],
            on_answer: &mut dyn FnMut(usize, Answer) -> Flow,
        ) {
            for (i, r) in requests.iter().enumerate() {
                let answer = if r.args.iter().any(names_visibility) {
                    Answer::Unsupported(
                        "cannot decode args: PtcRunner.Tool has no field \"visibility\"".into(),
                    )
                } else {
                    match Reference::answer(*r) {
                        Answer::Ok(t) => Answer::Ok(without_visibility(&t, self.planted)),
                        Answer::Raised(x) => Answer::Raised(Raised {
                            class: x.class,
                            message: match without_visibility(&Term::Str(x.message), self.planted) {
                                Term::Str(m) => m,
                                _ => unreachable!("a string stays a string"),
                            },
                        }),
                        other => other,
                    }
                };
                if on_answer(i, answer) == Flow::Stop {
                    return;
                }
            }
        }
    }

    #[test]
    fn echoes_of_a_struct_change_are_counted_under_it_and_a_real_change_stays_a_kind() {
        let corpus = crate::corpus::load_clean(&Sources::embedded()).unwrap();
        let ops = [
            "term.inspect",
            "tool.new",
            "protocol.validate_program",
            "exposure.filter_by_expose",
        ];
        let cases: Vec<&crate::corpus::Case> = corpus
            .cases
            .iter()
            .filter(|c| ops.contains(&c.op.name))
            .collect();
        let run = |planted: bool| {
            let mut fuzz = FuzzConfig::new(7);
            fuzz.ops = ops.iter().map(|o| (*o).to_owned()).collect();
            fuzz.cases_per_op = 300;
            let cfg = CompareConfig {
                strictness: crate::judging::outcome::Strictness::Default,
                emit: None,
                fuzz: Some(fuzz),
            };
            let mut base = WithoutVisibility { planted };
            let c = compare(
                &mut base,
                &mut Reference,
                &cases,
                &corpus.cases,
                &cfg,
                &mut |_| {},
            )
            .unwrap();
            let titles: Vec<String> = c
                .groups
                .iter()
                .map(|g| g.kind.title(("base", "head")))
                .collect();
            let also: Vec<(String, bool, usize, usize)> = c.groups[0]
                .also
                .iter()
                .map(|a| (a.op.to_owned(), a.refused, a.cases.len(), a.generated))
                .collect();
            (titles, also, c.explained())
        };
        let (titles, also, (cases_explained, _)) = run(false);
        // The change itself, once; its echoes under it: in answers (a Tool
        // inside a result), in inspect text and in messages, and refusals.
        assert_eq!(
            titles,
            ["struct PtcRunner.Tool: field visibility only in head"],
            "{also:?}"
        );
        let seen = |op: &str, refused: bool| {
            also.iter()
                .find(|a| a.0 == op && a.1 == refused)
                .map_or(0, |a| a.2 + a.3)
        };
        assert!(seen("term.inspect", false) > 0, "{also:?}");
        assert!(seen("protocol.validate_program", false) > 0, "{also:?}");
        assert!(seen("tool.new", true) > 0, "{also:?}");
        assert!(cases_explained > 0);
        // A real change in the same texts is not explained: its own kind.
        let (titles, _, _) = run(true);
        assert!(
            titles.iter().any(|t| t.starts_with("term.inspect at /")),
            "{titles:?}"
        );
        assert_eq!(
            titles[0],
            "struct PtcRunner.Tool: field visibility only in head"
        );
    }
}
