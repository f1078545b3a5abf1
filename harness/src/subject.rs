//! The thing under test: one small trait. The in-process reference and an
//! external adapter ([`crate::adapter::Adapter`]) are two implementations
//! of it, and every runner, report and fuzzer works against the trait.

use ptc_conformance::{ops, structs};
use ptc_conformance::{Raised, Term};
use std::collections::BTreeSet;

/// One call to make: an op and its arguments.
#[derive(Clone, Copy, Debug)]
pub struct Request<'a> {
    /// The op name.
    pub op: &'a str,
    /// Positional arguments.
    pub args: &'a [Term],
    /// The arguments as tagged JSON, when already encoded (a case's are,
    /// once, at load), so an adapter need not encode them again.
    pub args_json: Option<&'a str>,
}

impl<'a> Request<'a> {
    /// A request for `op` with `args`.
    pub fn new(op: &'a str, args: &'a [Term]) -> Request<'a> {
        Request {
            op,
            args,
            args_json: None,
        }
    }
}

/// What a subject answered to one request.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// It returned a term.
    Ok(Term),
    /// It raised an exception.
    Raised(Raised),
    /// It declined the request, saying why.
    Unsupported(String),
    /// No valid answer: timeout, crash, malformed or missing answer.
    Error(String),
}

/// Whether to go on sending requests after an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Go on.
    Continue,
    /// Stop: requests not yet sent are not sent.
    Stop,
}

/// An implementation of the boundary.
pub trait Subject {
    /// A name for reports.
    fn name(&self) -> String;
    /// The ops it declares.
    fn ops(&self) -> BTreeSet<String>;
    /// The features it declares.
    fn features(&self) -> BTreeSet<String>;
    /// Answers the requests, calling `on_answer(index, answer)` once for
    /// each request it answers, in any order. Implementations may overlap
    /// the calls (pipelining). After `on_answer` returns [`Flow::Stop`] it
    /// sends no new request; requests never answered get no call.
    fn run_batch(
        &mut self,
        requests: &[Request<'_>],
        on_answer: &mut dyn FnMut(usize, Answer) -> Flow,
    );
    /// Answers every request; one answer per request, in order.
    fn call_many(&mut self, requests: &[Request<'_>]) -> Vec<Answer> {
        let mut out: Vec<Option<Answer>> = vec![None; requests.len()];
        self.run_batch(requests, &mut |i, a| {
            out[i] = Some(a);
            Flow::Continue
        });
        out.into_iter()
            .map(|a| a.unwrap_or_else(|| Answer::Error("the subject gave no answer".into())))
            .collect()
    }
    /// Faults not tied to one request (answers to unknown ids, lines that
    /// are not answers, restarts), for the report; each fails the run.
    fn faults(&self) -> Vec<String> {
        Vec::new()
    }
    /// Answers one request.
    fn call(&mut self, request: Request<'_>) -> Answer {
        self.call_many(&[request])
            .pop()
            .unwrap_or_else(|| Answer::Error("no answer".into()))
    }
}

/// The Rust reference, in process.
#[derive(Clone, Copy, Debug, Default)]
pub struct Reference;

impl Reference {
    /// Calls the reference for one request. Its arguments are completed
    /// with v0.13.0's struct defaults first (TJ-7: a sender writes only the
    /// fields it means); a field v0.13.0's struct lacks is declined, as
    /// v0.13.0's adapter declines it.
    pub fn answer(request: Request<'_>) -> Answer {
        let Some(op) = ops::find(request.op) else {
            return Answer::Unsupported(format!("unknown op {:?}", request.op));
        };
        let args = match structs::complete_args(request.args, "/args") {
            Ok(args) => args,
            Err(why) => return Answer::Unsupported(format!("cannot decode args: {why}")),
        };
        match op.invoke(&args) {
            Ok(t) => Answer::Ok(t),
            Err(r) => Answer::Raised(r),
        }
    }
}

impl Subject for Reference {
    fn name(&self) -> String {
        format!("reference (ptc-conformance {})", env!("CARGO_PKG_VERSION"))
    }
    fn ops(&self) -> BTreeSet<String> {
        ops::OPS.iter().map(|o| o.name.to_owned()).collect()
    }
    fn features(&self) -> BTreeSet<String> {
        ptc_conformance::features::ALL
            .iter()
            .map(|f| (*f).to_owned())
            .collect()
    }
    fn run_batch(
        &mut self,
        requests: &[Request<'_>],
        on_answer: &mut dyn FnMut(usize, Answer) -> Flow,
    ) {
        for (i, r) in requests.iter().enumerate() {
            if on_answer(i, Reference::answer(*r)) == Flow::Stop {
                return;
            }
        }
    }
}

/// What a subject declares that the kit does not know: an op missing from
/// the registry or a feature `spec/terms.md` does not define. Each is an
/// adapter fault (a misspelt name would otherwise silently skip every case
/// it was meant to run), named with the closest known name.
pub fn unknown_declarations(ops: &BTreeSet<String>, features: &BTreeSet<String>) -> Vec<String> {
    let known_ops: Vec<&str> = ops::OPS.iter().map(|o| o.name).collect();
    let mut out = Vec::new();
    for op in ops.iter().filter(|o| ops::find(o).is_none()) {
        out.push(format!(
            "the handshake declares op {op:?}, which the kit does not know{} (ops: `ptc-conformance list`)",
            did_you_mean(op, &known_ops)
        ));
    }
    let known_features = ptc_conformance::features::ALL;
    for f in features
        .iter()
        .filter(|f| !ptc_conformance::features::is_feature(f))
    {
        out.push(format!(
            "the handshake declares feature {f:?}, which spec/terms.md does not define{} (features: {})",
            did_you_mean(f, known_features),
            known_features.join(", ")
        ));
    }
    out
}

/// Every fault of `subject` for a report: what its handshake declares that
/// the kit does not know, then its own faults ([`Subject::faults`]).
pub fn faults_of(subject: &dyn Subject) -> Vec<String> {
    let mut out = unknown_declarations(&subject.ops(), &subject.features());
    out.extend(subject.faults());
    out
}

/// `; did you mean "x"?` for the closest of `names` to `name`, if one is close.
fn did_you_mean(name: &str, names: &[&str]) -> String {
    names
        .iter()
        .map(|n| (edit_distance(name, n), *n))
        .filter(|(d, n)| {
            *d <= name.len().max(n.len()) / 3 || n.starts_with(name) || name.starts_with(n)
        })
        .min()
        .map(|(_, n)| format!("; did you mean {n:?}?"))
        .unwrap_or_default()
}

/// Levenshtein distance over characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptc_conformance::tagged::decode_args;

    fn answer(op: &str, args: &str) -> Answer {
        let args = decode_args(args, "/args").expect("test args decode");
        Reference::answer(Request::new(op, &args))
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

    #[test]
    fn unknown_ops_and_features_are_named_with_a_suggestion() {
        let set = |xs: &[&str]| xs.iter().map(|x| (*x).to_owned()).collect::<BTreeSet<_>>();
        let faults = unknown_declarations(
            &set(&["protocol.to_json", "key_normalizer.normalize_key"]),
            &set(&["atom", "tuples"]),
        );
        assert_eq!(faults.len(), 2, "{faults:?}");
        assert!(
            faults[0].contains("op \"protocol.to_json\"")
                && faults[0].contains("did you mean \"protocol.to_json_value\"?"),
            "{faults:?}"
        );
        assert!(
            faults[1].contains("feature \"atom\"") && faults[1].contains("did you mean \"atoms\"?"),
            "{faults:?}"
        );
        assert!(unknown_declarations(&set(&["term.inspect"]), &set(&["atoms"])).is_empty());
    }
}
