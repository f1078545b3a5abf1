//! Shrinking a disagreeing input to a small one: value trees regenerated
//! from the seed, proptest's simplify/complicate loop, then hoisting nested
//! parts out of their containers.

use super::disagreement::disagreement;
use super::known_kinds::Known;
use crate::judging::judge::Reading;
use crate::review::gen;
use crate::review::kinds::Kind;
use crate::subject::{Answer, Request, Subject};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use ptc_conformance::ops::Op;
use ptc_conformance::term::Term;
use std::path::PathBuf;

/// A kind of disagreement, with its smallest instance shrunk.
#[derive(Clone, Debug)]
pub struct Finding {
    /// The kind.
    pub kind: Kind,
    /// Generated inputs found of this kind (before shrinking).
    pub count: usize,
    /// The op.
    pub op: &'static Op,
    /// The minimal arguments found.
    pub args: Vec<Term>,
    /// What the expected side (the reference) answered.
    pub expected: Answer,
    /// What the subject answered.
    pub actual: Answer,
    /// How they differ.
    pub diff: String,
    /// Shrinking steps that kept the disagreement.
    pub shrink_steps: usize,
    /// The case file written, if any.
    pub emitted: Option<PathBuf>,
}

/// Seeds the generator from `seed` (the same seed, the same inputs).
pub fn rng(seed: u64) -> TestRng {
    let mut bytes = [0u8; 32];
    for (i, chunk) in bytes.chunks_mut(8).enumerate() {
        chunk.copy_from_slice(
            &(seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)).to_le_bytes(),
        );
    }
    TestRng::from_seed(RngAlgorithm::ChaCha, &bytes)
}

/// The stream of an op's `chunk`-th batch: the op's name and the chunk
/// alone decide it, so an op gets the same inputs for a seed whether it is
/// fuzzed alone (`--op X`) or among others.
pub(super) fn stream(op: &str, chunk: usize) -> u64 {
    let name = op.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    name ^ (chunk as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93)
}

/// The first `n` inputs of `stream` for `seed`, as value trees.
pub(super) fn generate(
    strategy: &BoxedStrategy<Vec<Term>>,
    seed: u64,
    stream: u64,
    n: usize,
) -> Result<Vec<BoxedTree>, String> {
    let mut runner = TestRunner::new_with_rng(Config::default(), rng(seed ^ stream));
    (0..n)
        .map(|_| strategy.new_tree(&mut runner).map_err(|e| e.to_string()))
        .collect()
}

pub(super) type BoxedTree = Box<dyn ValueTree<Value = Vec<Term>>>;

/// Shrinks an input that disagrees in `kind`: simplify while a
/// disagreement of that kind stays, complicate when it goes (proptest's
/// shrinking loop), 5000 steps at most.
pub(super) fn shrink(
    expected_side: &mut dyn Subject,
    subject: &mut dyn Subject,
    op: &'static Op,
    kind: &Kind,
    known: &Known,
    mut tree: impl ValueTree<Value = Vec<Term>>,
    reading: Reading,
) -> Finding {
    let mut check = |args: &[Term]| {
        let expected = expected_side.call(Request::new(op.name, args));
        let actual = subject.call(Request::new(op.name, args));
        disagreement(op, args, &expected, &actual, known, reading)
            .filter(|(_, k)| k == kind)
            .map(|(d, _)| (expected, actual, d))
    };
    let first = tree.current();
    let (mut expected, mut actual, mut diff) = check(&first).unwrap_or((
        Answer::Error("the disagreement did not reproduce".into()),
        Answer::Error("the disagreement did not reproduce".into()),
        "the disagreement did not reproduce when sent alone".into(),
    ));
    let mut best = first;
    let mut steps = 0;
    let mut budget = 5000;
    if tree.simplify() {
        while budget > 0 {
            budget -= 1;
            let candidate = tree.current();
            match check(&candidate) {
                Some((e, a, d)) => {
                    (expected, actual, diff) = (e, a, d);
                    best = candidate;
                    steps += 1;
                    if !tree.simplify() {
                        break;
                    }
                }
                None => {
                    if !tree.complicate() {
                        break;
                    }
                }
            }
        }
    }
    // Then hoist nested parts out of their containers and leave out list
    // elements and map entries while the disagreement stays (value trees
    // cannot), within the same budget.
    let mut improved = true;
    while improved && budget > 0 {
        improved = false;
        let mut candidates = gen::mutate::hoists(&best);
        candidates.extend(gen::mutate::removals(&best));
        for candidate in candidates {
            if budget == 0 {
                break;
            }
            budget -= 1;
            if let Some((e, a, d)) = check(&candidate) {
                (expected, actual, diff) = (e, a, d);
                best = candidate;
                steps += 1;
                improved = true;
                break;
            }
        }
    }
    Finding {
        kind: kind.clone(),
        count: 1,
        op,
        args: best,
        expected,
        actual,
        diff,
        shrink_steps: steps,
        emitted: None,
    }
}

/// How many nodes a term has (its size, for reports and tests).
pub fn size(t: &Term) -> usize {
    1 + match t {
        Term::List(items) | Term::Tuple(items) => items.iter().map(size).sum(),
        Term::Map(m) => m.iter().map(|(k, v)| size(k) + size(v)).sum(),
        Term::Struct(s) => s.fields.iter().map(|(_, v)| size(v)).sum(),
        _ => 0,
    }
}
