//! Texts that render a changed struct: comparing them with the changed
//! fields' `field: value` text removed, without white space, maps as sets
//! of entries, and up to where either side was cut short.

use super::{Agreement, ShapeChange, Shapes};

/// How texts `e` (expected's) and `a` agree: equal; or, when they render a
/// changed struct (`%Module{`), equal once the changed fields' text is
/// removed ([`strip_text`]) and white space ignored, or equal up to where
/// one of them is cut short: `...` (inspect's item limit, which an extra
/// field reaches earlier) or PtcRunner's `... (truncated at N chars`.
pub(super) fn texts_agree(e: &str, a: &str, shapes: &Shapes, used: &mut Shapes) -> Agreement {
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
pub(super) fn readable(bytes: &[u8]) -> String {
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
pub(super) fn strip_text(text: &str, shapes: &Shapes, used: &mut Shapes) -> String {
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
