//! The reference (the `ptc-conformance` crate, `src/`) as a subject, in
//! process: every op of the registry, every feature.

use super::{Answer, Flow, Request, Subject};
use ptc_conformance::ops;
use std::collections::BTreeSet;

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
