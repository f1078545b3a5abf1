//! What a comparison's time is held to: each side's time to answer,
//! alone, the inputs the fuzzer generates for the same configuration
//! (the same ops, schedule and seeds), generated and encoded beforehand
//! so that only the answering is timed.

use super::shrink::{generate, op_seed};
use super::{plan, FuzzConfig};
use crate::corpus::Case;
use crate::subject::{wire, Request, Subject};
use proptest::strategy::ValueTree;
use ptc_conformance::term::Term;
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

/// The generated inputs of one op, with their tagged JSON.
struct OpInputs {
    op: &'static str,
    args: Vec<Vec<Term>>,
    json: Vec<String>,
}

/// How many inputs were answered, and how long each side took to answer
/// them alone (one after the other, nothing else running in the harness).
pub fn answer_alone(
    sides: [&mut dyn Subject; 2],
    cfg: &FuzzConfig,
    corpus: &[Case],
) -> Result<(usize, [Duration; 2]), String> {
    let declared: BTreeSet<String> = sides[0]
        .ops()
        .intersection(&sides[1].ops())
        .cloned()
        .collect();
    let ops = plan(&cfg.ops, &declared)?;
    let batch = cfg.batch.max(1);
    let per_op = cfg.cases_per_op;
    // Generated on as many threads as the machine has, before any timing.
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, 4);
    let inputs: Vec<OpInputs> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                let ops = &ops;
                scope.spawn(move || {
                    ops.iter()
                        .enumerate()
                        .filter(|(i, _)| i % workers == w)
                        .map(|(_, op)| {
                            let strategy =
                                super::args_aimed(op.name, corpus, &cfg.words, &cfg.dictionary)
                                    .ok_or_else(|| format!("{}: no generator", op.name))?;
                            let mut args = Vec::with_capacity(per_op);
                            for chunk in 0..per_op.div_ceil(batch) {
                                let n = batch.min(per_op - chunk * batch);
                                let trees =
                                    generate(&strategy, op_seed(cfg.seed, op.name), chunk, n)?;
                                args.extend(trees.iter().map(|t| t.current()));
                            }
                            let json = args.iter().map(|a| wire::encode_args(a)).collect();
                            Ok(OpInputs {
                                op: op.name,
                                args,
                                json,
                            })
                        })
                        .collect::<Result<Vec<_>, String>>()
                })
            })
            .collect();
        let mut all = Vec::new();
        for h in handles {
            all.extend(
                h.join()
                    .map_err(|_| "a generator thread panicked".to_owned())??,
            );
        }
        Ok::<_, String>(all)
    })?;
    let n = inputs.iter().map(|o| o.args.len()).sum();
    let mut times = [Duration::ZERO; 2];
    for (side, time) in sides.into_iter().zip(&mut times) {
        for o in &inputs {
            let requests: Vec<Request<'_>> = o
                .args
                .iter()
                .zip(&o.json)
                .map(|(a, j)| Request {
                    op: o.op,
                    args: a,
                    args_json: Some(j),
                })
                .collect();
            let started = Instant::now();
            side.call_many(&requests);
            *time += started.elapsed();
        }
    }
    Ok((n, times))
}
