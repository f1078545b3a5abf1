//! `PtcRunner.SubAgent.Signature.parse/1` as `PtcToolProtocol.parse_signature/1`
//! exposes it: the signature grammar, its AST as tagged terms, and the exact
//! error strings of its nimble_parsec parser (`spec/signature.md`, `SG-`).
//!
//! The grammar is a PEG: choices are ordered, repetitions are greedy and
//! each alternative backtracks whole. Only three failures ever reach the
//! caller (SG-10): the shorthand type's `:` at the first non-blank byte,
//! its type keyword right after that `:`, and the end of input after a
//! complete signature. Every failure inside a parameter list, map or list
//! is swallowed by the choice that tried it, so the parser below only
//! needs to say *whether* each piece matched.

use crate::term::Term;
use crate::Raised;

const PROTOCOL: &str = "PtcRunner.PtcToolProtocol";

/// The type keywords in the order the parser tries them; a keyword matches
/// as a prefix, so `boolean` must come before `bool` (SG-3). The second
/// element is the atom the keyword parses to.
const KEYWORDS: &[(&str, &str)] = &[
    ("datetime", "datetime"),
    ("string", "string"),
    ("int", "int"),
    ("float", "float"),
    ("boolean", "bool"),
    ("bool", "bool"),
    ("keyword", "keyword"),
    ("map", "map"),
    ("any", "any"),
];

/// The names the error hint lists and accepts as valid (SG-12).
const VALID_TYPES: &[&str] = &[
    "string", "int", "float", "bool", "boolean", "keyword", "map", "any", "datetime",
];

/// `inspect/1` of the three reasons nimble_parsec reports (SG-10).
const EXPECTED_COLON: &str = r#""expected ASCII character equal to \":\"""#;
const EXPECTED_KEYWORD: &str = r#""expected string \"datetime\" or string \"string\" or string \"int\" or string \"float\" or string \"boolean\" or string \"bool\" or string \"keyword\" or string \"map\" or string \"any\"""#;
const EXPECTED_EOS: &str = r#""expected end of string""#;

/// `PtcToolProtocol.parse_signature/1`: `{:ok, signature}` or
/// `{:error, message}` for a binary; any other term raises
/// `FunctionClauseError` (SG-1).
pub fn parse_signature(input: &Term) -> Result<Term, Raised> {
    let bytes = input
        .as_binary()
        .ok_or_else(|| Raised::function_clause(PROTOCOL, "parse_signature", 1))?;
    Ok(match parse(bytes) {
        Ok(sig) => Term::ok(sig),
        Err(message) => Term::error(Term::str(message)),
    })
}

/// `Signature.Parser.parse/1` on the bytes of a binary: the
/// `{:signature, params, return_type}` term, or the error message.
pub fn parse(input: &[u8]) -> Result<Term, String> {
    let p = Parser { s: input };
    let start = p.ws(0);
    let parsed = p.full_signature(start).or_else(|| {
        p.simple_type(start)
            .map(|(t, end)| (signature(vec![], t), end))
    });
    match parsed {
        Some((sig, end)) => {
            let end = p.ws(end);
            if end == input.len() {
                Ok(sig)
            } else {
                Err(error(input, end, EXPECTED_EOS))
            }
        }
        // The shorthand's primitive type is the last alternative tried, so
        // its failure is the one reported.
        None if input.get(start) != Some(&b':') => Err(error(input, start, EXPECTED_COLON)),
        None => Err(error(input, start + 1, EXPECTED_KEYWORD)),
    }
}

/// The message for a failure at byte `offset` (SG-11, SG-12).
fn error(input: &[u8], offset: usize, reason: &str) -> String {
    let line = 1 + input[..offset].iter().filter(|&&b| b == b'\n').count();
    let mut message = format!("parse error at line {line}, column {offset}: {reason}");
    if reason == EXPECTED_COLON && names_invalid_type(input) {
        message.push_str("\n\nHint: Valid types are :");
        message.push_str(&VALID_TYPES.join(", :"));
        message.push_str(". For lists use [:type], for maps use {field :type}.");
    }
    message
}

/// Whether some `:` followed by a run of ASCII lower-case letters names
/// something that is not a valid type (the regex `:([a-z]+)`, scanned
/// left to right without overlaps).
fn names_invalid_type(input: &[u8]) -> bool {
    let mut i = 0;
    while i < input.len() {
        if input[i] == b':' {
            let run = input[i + 1..]
                .iter()
                .take_while(|b| b.is_ascii_lowercase())
                .count();
            if run > 0 {
                let word = &input[i + 1..i + 1 + run];
                if !VALID_TYPES.iter().any(|t| t.as_bytes() == word) {
                    return true;
                }
                i += 1 + run;
                continue;
            }
        }
        i += 1;
    }
    false
}

fn signature(params: Vec<Term>, ret: Term) -> Term {
    Term::tuple(vec![Term::atom("signature"), Term::List(params), ret])
}

/// A PEG over bytes: each rule takes a position and gives the parsed term
/// and the position after it, or `None` (having consumed nothing).
struct Parser<'a> {
    s: &'a [u8],
}

impl Parser<'_> {
    fn at(&self, pos: usize, byte: u8) -> bool {
        self.s.get(pos) == Some(&byte)
    }

    /// Zero or more of space, tab, newline, carriage return (SG-8).
    fn ws(&self, mut pos: usize) -> usize {
        while matches!(self.s.get(pos), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            pos += 1;
        }
        pos
    }

    /// `(params) -> type` (SG-2).
    fn full_signature(&self, pos: usize) -> Option<(Term, usize)> {
        if !self.at(pos, b'(') {
            return None;
        }
        let mut pos = self.ws(pos + 1);
        let mut params = vec![];
        if let Some((list, end)) = self.fields(pos) {
            params = list;
            pos = end;
        }
        pos = self.ws(pos);
        if !self.at(pos, b')') {
            return None;
        }
        pos = self.ws(pos + 1);
        if !self.s[pos..].starts_with(b"->") {
            return None;
        }
        let (ret, end) = self.simple_type(self.ws(pos + 2))?;
        Some((signature(params, ret), end))
    }

    /// SG-9: types nest without limit (a list or map type holds any simple type).
    /// A map type, a list type or a primitive type, tried in that order.
    fn simple_type(&self, pos: usize) -> Option<(Term, usize)> {
        self.map_type(pos)
            .or_else(|| self.list_type(pos))
            .or_else(|| self.primitive_type(pos))
    }

    /// `:keyword` with an optional `?` right after it (SG-3, SG-4).
    fn primitive_type(&self, pos: usize) -> Option<(Term, usize)> {
        if !self.at(pos, b':') {
            return None;
        }
        let rest = &self.s[pos + 1..];
        let (text, atom) = KEYWORDS
            .iter()
            .find(|(text, _)| rest.starts_with(text.as_bytes()))?;
        let end = pos + 1 + text.len();
        if self.at(end, b'?') {
            let t = Term::tuple(vec![Term::atom("optional"), Term::atom(atom)]);
            Some((t, end + 1))
        } else {
            Some((Term::atom(atom), end))
        }
    }

    /// `[type]` (SG-5).
    fn list_type(&self, pos: usize) -> Option<(Term, usize)> {
        if !self.at(pos, b'[') {
            return None;
        }
        let (inner, end) = self.simple_type(self.ws(pos + 1))?;
        let end = self.ws(end);
        if !self.at(end, b']') {
            return None;
        }
        Some((Term::tuple(vec![Term::atom("list"), inner]), end + 1))
    }

    /// `{name type, ...}`, possibly empty (SG-6).
    fn map_type(&self, pos: usize) -> Option<(Term, usize)> {
        if !self.at(pos, b'{') {
            return None;
        }
        let mut pos = self.ws(pos + 1);
        let mut fields = vec![];
        if let Some((list, end)) = self.fields(pos) {
            fields = list;
            pos = end;
        }
        pos = self.ws(pos);
        if !self.at(pos, b'}') {
            return None;
        }
        let t = Term::tuple(vec![Term::atom("map"), Term::List(fields)]);
        Some((t, pos + 1))
    }

    /// One or more `name type` pairs separated by commas; a separator not
    /// followed by a pair is left unconsumed. Parameters and map fields
    /// share this shape.
    fn fields(&self, pos: usize) -> Option<(Vec<Term>, usize)> {
        let (first, mut pos) = self.field(pos)?;
        let mut list = vec![first];
        loop {
            let comma = self.ws(pos);
            if !self.at(comma, b',') {
                break;
            }
            match self.field(self.ws(comma + 1)) {
                Some((f, end)) => {
                    list.push(f);
                    pos = end;
                }
                None => break,
            }
        }
        Some((list, pos))
    }

    /// `name type` as `{"name", type}`; blanks between them are optional.
    fn field(&self, pos: usize) -> Option<(Term, usize)> {
        let (name, end) = self.identifier(pos)?;
        let (t, end) = self.simple_type(self.ws(end))?;
        Some((Term::tuple(vec![Term::str(name), t]), end))
    }

    /// A letter or `_`, then letters, digits, `-` and `_` (SG-7).
    fn identifier(&self, pos: usize) -> Option<(String, usize)> {
        let first = *self.s.get(pos)?;
        if !(first.is_ascii_alphabetic() || first == b'_') {
            return None;
        }
        let len = 1 + self.s[pos + 1..]
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'-' || **b == b'_')
            .count();
        let name = String::from_utf8_lossy(&self.s[pos..pos + len]).into_owned();
        Some((name, pos + len))
    }
}
