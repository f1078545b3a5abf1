//! `PtcRunner.PtcToolProtocol.validate_program/1`: the check on the
//! `program` argument of a `lisp_eval` call (`spec/ptc_tool_protocol_validate_program.md`,
//! `PP-50`..). The rest of the protocol module lives in `protocol`.

use crate::inspect::inspect_bytes_at;
use crate::term::Term;
use crate::Release;

/// PP-53: exactly the 25 `White_Space` code points.
/// The code points of Unicode's `White_Space` property, which
/// `String.trim/1` removes from both ends (Elixir 1.18.4, Unicode 15.1).
pub const WHITE_SPACE: &[char] = &[
    '\u{09}', '\u{0A}', '\u{0B}', '\u{0C}', '\u{0D}', '\u{20}', '\u{85}', '\u{A0}', '\u{1680}',
    '\u{2000}', '\u{2001}', '\u{2002}', '\u{2003}', '\u{2004}', '\u{2005}', '\u{2006}', '\u{2007}',
    '\u{2008}', '\u{2009}', '\u{200A}', '\u{2028}', '\u{2029}', '\u{202F}', '\u{205F}', '\u{3000}',
];

/// `validate_program/1`: `{:ok, program}` for a binary with something
/// other than white space in it; `{:error, :args_error, message}` for
/// `nil`, for any other non-binary (the message embeds its `inspect/1`
/// text), and for a binary that `String.trim/1` empties.
pub fn validate_program(rel: Release, program: &Term) -> Term {
    let error = |message: Vec<u8>| {
        Term::Tuple(vec![
            Term::atom("error"),
            Term::atom("args_error"),
            Term::binary(message),
        ])
    };
    match program {
        // PP-50: nil.
        Term::Nil => error(b"lisp_eval requires a non-empty `program` string argument.".to_vec()),
        // PP-52: a binary that `String.trim/1` empties.
        Term::Str(_) | Term::Bytes(_) if is_blank(program.as_binary().unwrap_or_default()) => {
            error(b"lisp_eval `program` must be a non-empty string.".to_vec())
        }
        // PP-54: every other binary, unchanged (not UTF-8 too).
        Term::Str(_) | Term::Bytes(_) => Term::ok(program.clone()),
        // PP-51: any other term, by its `inspect/1` text, byte for byte: a
        // display struct's bytes that are not UTF-8 stay as they are.
        other => error(
            [
                &b"lisp_eval `program` must be a string, got "[..],
                &inspect_bytes_at(rel, other),
                b".",
            ]
            .concat(),
        ),
    }
}

/// Whether `String.trim/1` leaves nothing: the binary is a run of UTF-8
/// encoded `White_Space` code points (possibly none).
fn is_blank(mut bytes: &[u8]) -> bool {
    'next: while !bytes.is_empty() {
        for ws in WHITE_SPACE {
            let mut buf = [0u8; 4];
            let enc = ws.encode_utf8(&mut buf).as_bytes();
            if let Some(rest) = bytes.strip_prefix(enc) {
                bytes = rest;
                continue 'next;
            }
        }
        return false;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::Struct;

    /// PP-51: the message keeps the raw bytes of `inspect/1`, as the
    /// release's string interpolation does; no byte becomes U+FFFD.
    #[test]
    fn message_keeps_the_invalid_bytes_of_a_display_struct() {
        let var = Term::Struct(Box::new(Struct {
            module: "PtcRunner.Lisp.Format.Var".into(),
            fields: vec![("name".into(), Term::binary(vec![0xff]))],
        }));
        for rel in Release::ALL {
            let Term::Tuple(t) = validate_program(rel, &var) else {
                panic!("not a tuple")
            };
            assert_eq!(
                t[2].as_binary(),
                Some(&b"lisp_eval `program` must be a string, got #'\xff."[..])
            );
        }
    }
}
