//! The thing under test: one small trait. The in-process reference and an
//! external adapter ([`crate::adapter::Adapter`]) are two implementations
//! of it, and every runner, report and fuzzer works against the trait.

use ptc_conformance::ops;
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
    /// Calls the reference for one request.
    pub fn answer(request: Request<'_>) -> Answer {
        match ops::find(request.op) {
            None => Answer::Unsupported(format!("unknown op {:?}", request.op)),
            Some(op) => match op.invoke(request.args) {
                Ok(t) => Answer::Ok(t),
                Err(r) => Answer::Raised(r),
            },
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
