//! Shrinking a disagreeing input to a small one: value trees regenerated
//! from the seed, proptest's simplify/complicate loop, then hoisting nested
//! parts out of their containers.

use super::disagreement::difference_of_kind;
use super::known_kinds::Known;
use super::refusal::{self, Field};
use crate::judging::judge::Reading;
use crate::review::attribution::{explain, ShapeChange, Shapes};
use crate::review::gen;
use crate::review::kinds::Kind;
use crate::subject::{Answer, Request, Subject};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use ptc_conformance::ops::Op;
use ptc_conformance::term::Term;
use std::collections::BTreeSet;
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

/// The seed of an op's inputs: `seed` and the op's name alone decide
/// them, so an op gets the same inputs whether it is fuzzed alone (`--op
/// X`) or among others (its `k`-th batch is [`generate`]'s batch `k`).
pub fn op_seed(seed: u64, op: &str) -> u64 {
    seed ^ op.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The first `n` inputs of batch `b` for `seed`, as value trees.
pub fn generate<V: std::fmt::Debug>(
    strategy: &BoxedStrategy<V>,
    seed: u64,
    b: usize,
    n: usize,
) -> Result<Vec<Box<dyn ValueTree<Value = V>>>, String> {
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        rng(seed ^ (b as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93)),
    );
    (0..n)
        .map(|_| strategy.new_tree(&mut runner).map_err(|e| e.to_string()))
        .collect()
}

/// Shrinks an input that disagrees in `kind`: simplify while a
/// disagreement of that kind stays, complicate when it goes (proptest's
/// shrinking loop), then leave out elements and hoist nested parts; 5000
/// steps at most.
pub(super) fn shrink(
    expected_side: &mut dyn Subject,
    subject: &mut dyn Subject,
    op: &'static Op,
    (kind, shapes): (&Kind, &Shapes),
    (known, refusals, leave_out): (&Known, bool, &BTreeSet<Field>),
    tree: impl ValueTree<Value = Vec<Term>>,
    (reading, budget): (Reading, usize),
) -> Finding {
    // Of the same kind and not explained by the struct shape changes, so
    // that the example shows what is left; sent without the fields the
    // instance was sent without.
    let prepare = |args: &Vec<Term>| refusal::stripped(args, leave_out).unwrap_or(args.clone());
    let check = |args: &Vec<Term>| {
        let args = &prepare(args);
        let request = [Request::new(op.name, args)];
        let ((mut e, mut a), _) =
            crate::subject::call_both(&mut *expected_side, &mut *subject, &request);
        let none = || Answer::Error("no answer".into());
        let (expected, actual) = (e.pop().unwrap_or_else(none), a.pop().unwrap_or_else(none));
        difference_of_kind(op, args, &expected, &actual, known, reading, refusals)
            .filter(|(_, k)| {
                k == kind
                    && (ShapeChange::of(k).is_some()
                        || explain(op, &expected, &actual, shapes, reading).is_none())
            })
            .map(|(d, _)| (expected, actual, d))
    };
    let smaller = |a: &Vec<Term>| {
        let mut out = gen::mutate::removals(a);
        out.extend(gen::mutate::hoists(a));
        out
    };
    let (args, found, steps) = shrink_until(tree, check, smaller, budget);
    let args = prepare(&args);
    let (expected, actual, diff) = found.unwrap_or((
        Answer::Error("the disagreement did not reproduce".into()),
        Answer::Error("the disagreement did not reproduce".into()),
        "the disagreement did not reproduce when sent alone".into(),
    ));
    Finding {
        kind: kind.clone(),
        count: 1,
        op,
        args,
        expected,
        actual,
        diff,
        shrink_steps: steps,
        emitted: None,
    }
}

/// proptest's shrinking loop over any value tree, for `fuzz` and `laws`:
/// simplify while `check` still finds the fault, complicate when it goes;
/// then replace the value by one of its `smaller` variants (nested parts
/// hoisted out of their containers, which value trees cannot do) while the
/// fault stays; 5000 checks at most. Returns the smallest value found,
/// what `check` said of it (`None` when no value reproduced the fault) and
/// the steps that kept the fault.
pub fn shrink_with<V, W>(
    tree: impl ValueTree<Value = V>,
    check: impl FnMut(&V) -> Option<W>,
    smaller: impl Fn(&V) -> Vec<V>,
) -> (V, Option<W>, usize) {
    shrink_until(tree, check, smaller, 5000)
}

/// [`shrink_with`] with at most `budget` checks (the smallest value found
/// by then): a comparison that meets many kinds shrinks each within its
/// share, counted in checks so that a seed replays the same examples.
pub fn shrink_until<V, W>(
    mut tree: impl ValueTree<Value = V>,
    mut check: impl FnMut(&V) -> Option<W>,
    smaller: impl Fn(&V) -> Vec<V>,
    budget: usize,
) -> (V, Option<W>, usize) {
    let first = tree.current();
    let mut found = check(&first);
    let mut best = first;
    let mut steps = 0;
    let mut budget = budget.min(5000);
    if tree.simplify() {
        while budget > 0 {
            budget -= 1;
            let candidate = tree.current();
            match check(&candidate) {
                Some(w) => {
                    found = Some(w);
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
    // Then hoist nested parts out of their containers while the fault
    // stays (value trees cannot), within the same budget.
    let mut improved = true;
    while improved && budget > 0 {
        improved = false;
        for candidate in smaller(&best) {
            if budget == 0 {
                break;
            }
            budget -= 1;
            if let Some(w) = check(&candidate) {
                found = Some(w);
                best = candidate;
                steps += 1;
                improved = true;
                break;
            }
        }
    }
    (best, found, steps)
}
