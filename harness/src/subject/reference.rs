//! The reference (the `ptc-conformance` crate, `src/`) as a subject, in
//! process, answering as one PtcRunner release: every op that release
//! has, every feature.

use super::{Answer, Flow, Request, Subject};
use ptc_conformance::{ops, structs, Release};
use std::collections::BTreeSet;

/// The Rust reference, in process, answering as release `release`
/// (`spec/releases.md`); [`Reference::default`] is v0.13.0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reference {
    /// The release it answers as.
    pub release: Release,
}

impl Reference {
    /// The reference answering as `release`.
    pub fn at(release: Release) -> Reference {
        Reference { release }
    }

    /// Calls the reference for one request. Its arguments are completed
    /// with the release's struct defaults first (TJ-7: a sender writes only
    /// the fields it means); a field the release's struct lacks is
    /// declined, as that release's adapter declines it (REL-1). An op the
    /// release lacks is declined too (`tool.private?` before v0.13.0).
    pub fn answer(&self, request: Request<'_>) -> Answer {
        let rel = self.release;
        let Some(op) = ops::find(request.op) else {
            return Answer::Unsupported(format!("unknown op {:?}", request.op));
        };
        if !op.exists_at(rel) {
            return Answer::Unsupported(format!(
                "{}: no {} at release {rel} (it came in {})",
                request.op, op.elixir, op.since
            ));
        }
        let args = match structs::complete_args_at(rel, request.args, "/args") {
            Ok(args) => args,
            Err(why) => return Answer::Unsupported(format!("cannot decode args: {why}")),
        };
        match op.invoke(rel, &args) {
            Ok(t) => Answer::Ok(t),
            Err(r) if r.is_no_tagged_form() => {
                Answer::Unsupported(format!("cannot encode result: {}", r.message))
            }
            Err(r) => Answer::Raised(r),
        }
    }
}

impl Subject for Reference {
    fn name(&self) -> String {
        if self.release == Release::default() {
            format!("reference (ptc-conformance {})", env!("CARGO_PKG_VERSION"))
        } else {
            format!(
                "reference at {} (ptc-conformance {})",
                self.release,
                env!("CARGO_PKG_VERSION")
            )
        }
    }
    fn ops(&self) -> BTreeSet<String> {
        ops::at(self.release).map(|o| o.name.to_owned()).collect()
    }
    fn features(&self) -> BTreeSet<String> {
        ptc_conformance::features::ALL
            .iter()
            .map(|f| (*f).to_owned())
            .collect()
    }
    fn extensions(&self) -> BTreeSet<String> {
        BTreeSet::from(["atoms".to_owned()])
    }
    /// AP-19: the reference holds no Elixir code; it gives its release's
    /// atom table (JH-5, REL-2), whose differences between releases are the
    /// boundary's new and dropped names.
    fn atoms(&mut self) -> Option<Result<Vec<String>, String>> {
        Some(Ok(ptc_conformance::atom_table::table_at(self.release)
            .into_iter()
            .map(str::to_owned)
            .collect()))
    }
    fn run_batch(
        &mut self,
        requests: &[Request<'_>],
        on_answer: &mut dyn FnMut(usize, Answer) -> Flow,
    ) {
        for (i, r) in requests.iter().enumerate() {
            if on_answer(i, self.answer(*r)) == Flow::Stop {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptc_conformance::tagged::decode_args;
    use ptc_conformance::Term;

    fn answer(op: &str, args: &str) -> Answer {
        let args = decode_args(args, "/args").expect("test args decode");
        Reference::default().answer(Request::new(op, &args))
    }

    /// TJ-7, AP-17: the reference completes the structs it is given with
    /// v0.13.0's defaults before computing, and declines a field v0.13.0's
    /// struct lacks, naming where it is.
    #[test]
    fn the_reference_completes_struct_args() {
        let partial = answer(
            "tool.new",
            r#"["t", {"$struct": {"module": "PtcRunner.Tool", "fields": {"name": "x"}}}]"#,
        );
        let full = answer(
            "tool.new",
            r#"["t", {"$struct": {"module": "PtcRunner.Tool", "fields": {"name": "x", "function": null, "signature": null, "description": null, "type": null, "expose": null, "native_result": null, "visibility": {"$atom": "public"}, "cache": false}}}]"#,
        );
        assert_eq!(partial, full);
        let Answer::Ok(Term::Tuple(items)) = &partial else {
            panic!("tool.new answers a tuple: {partial:?}")
        };
        let Term::Struct(tool) = &items[1] else {
            panic!("with a tool: {partial:?}")
        };
        assert_eq!(
            tool.fields.len(),
            9,
            "every field of v0.13.0's struct: {tool:?}"
        );
        assert_eq!(tool.field("visibility"), Some(&Term::atom("public")));
        assert_eq!(
            answer(
                "tool.private?",
                r#"[{"$struct": {"module": "PtcRunner.Tool", "fields": {"name": "x"}}}]"#
            ),
            Answer::Ok(Term::Bool(false))
        );
        assert_eq!(
            answer(
                "tool.new",
                r#"["t", [{"$struct": {"module": "PtcRunner.Tool", "fields": {"nam": "x"}}}]]"#
            ),
            Answer::Unsupported(
                "cannot decode args: /args/1/0/$struct/fields: PtcRunner.Tool has no field \"nam\""
                    .into()
            )
        );
    }
}

/// A change planted in the reference's answers: what a test needs to hold
/// the harness against a subject that answers as the reference does except
/// where it is told not to (a planted bug, a build that lacks a field).
/// [`Altered`] makes it a subject.
pub trait Alteration: Send {
    /// The subject's name.
    fn name(&self) -> String;
    /// The release whose reference it alters; v0.13.0 unless given.
    fn release(&self) -> Release {
        Release::default()
    }
    /// The ops it declares; the reference's unless given.
    fn ops(&self) -> Option<BTreeSet<String>> {
        None
    }
    /// Its answer to `request`, given the reference's `answer`.
    fn alter(&mut self, request: Request<'_>, answer: Answer) -> Answer;
    /// Atoms its code holds beyond the reference's table (AP-19): a planted
    /// change that reads a new option names it here, as a build's code would.
    fn atoms(&self) -> Vec<String> {
        Vec::new()
    }
}

/// The reference with an [`Alteration`] planted in its answers.
#[derive(Debug)]
pub struct Altered<A>(pub A);

impl<A: Alteration> Subject for Altered<A> {
    fn name(&self) -> String {
        self.0.name()
    }
    fn ops(&self) -> BTreeSet<String> {
        self.0
            .ops()
            .unwrap_or_else(|| Reference::at(self.0.release()).ops())
    }
    fn features(&self) -> BTreeSet<String> {
        Reference::at(self.0.release()).features()
    }
    fn extensions(&self) -> BTreeSet<String> {
        Reference::at(self.0.release()).extensions()
    }
    fn atoms(&mut self) -> Option<Result<Vec<String>, String>> {
        let mut out = Reference::at(self.0.release()).atoms()?.ok()?;
        out.extend(self.0.atoms());
        out.sort_unstable();
        out.dedup();
        Some(Ok(out))
    }
    fn run_batch(
        &mut self,
        requests: &[Request<'_>],
        on_answer: &mut dyn FnMut(usize, Answer) -> Flow,
    ) {
        let reference = Reference::at(self.0.release());
        for (i, r) in requests.iter().enumerate() {
            let answer = self.0.alter(*r, reference.answer(*r));
            if on_answer(i, answer) == Flow::Stop {
                return;
            }
        }
    }
}
