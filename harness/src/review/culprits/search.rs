//! The two searches, over any test: commits bisected for many inputs at
//! once (as `git bisect`, a commit that cannot be tested skipped), and
//! Zeller's `ddmin` over a diff's hunks (a configuration that cannot be
//! tested counts as not reproducing, as in dd+).

use std::collections::BTreeSet;

/// A bisection's test: what each of the inputs shows at a commit.
pub type CommitTest<'a> = dyn FnMut(usize, &[usize]) -> Result<Vec<Seen>, String> + 'a;
/// A delta debugging test: whether a subset reproduces (`None`: cannot tell).
pub type SubsetTest<'a, T> = dyn FnMut(&[T]) -> Result<Option<bool>, String> + 'a;

/// The answer of a test of one input at one point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seen {
    /// As head: the change is in.
    New,
    /// Not as head.
    Old,
    /// Could not be tested there (does not build, does not start).
    Untestable,
}

/// For each input, the last commit known old and the first known new,
/// `(lo, hi)`: commits `0` (base) and `n - 1` (head) are known old and new
/// for every input. `test(commit, inputs)` says what each of `inputs`
/// shows at `commit`; every commit is tested at most once, for all the
/// inputs whose interval holds it. A commit that cannot be tested is
/// skipped, and an interval left with only such commits inside ends
/// wider than one commit (the culprit is one of them, as `git bisect`
/// says).
pub fn bisect(
    commits: usize,
    inputs: usize,
    test: &mut CommitTest<'_>,
) -> Result<Vec<(usize, usize)>, String> {
    let mut iv: Vec<(usize, usize)> = vec![(0, commits.saturating_sub(1)); inputs];
    let mut skipped: BTreeSet<usize> = BTreeSet::new();
    let mut tested: BTreeSet<usize> = BTreeSet::new();
    loop {
        // The widest open interval, and the testable commit nearest its middle.
        let pick = iv
            .iter()
            .filter(|(lo, hi)| hi - lo > 1)
            .filter_map(|&(lo, hi)| {
                let mid = lo + (hi - lo) / 2;
                let candidates =
                    (lo + 1..hi).filter(|c| !skipped.contains(c) && !tested.contains(c));
                candidates
                    .min_by_key(|c| c.abs_diff(mid))
                    .map(|c| (hi - lo, c))
            })
            .max_by_key(|&(width, c)| (width, std::cmp::Reverse(c)));
        let Some((_, at)) = pick else { break };
        let who: Vec<usize> = (0..inputs)
            .filter(|&i| iv[i].0 < at && at < iv[i].1)
            .collect();
        let seen = test(at, &who)?;
        tested.insert(at);
        if seen.iter().all(|s| *s == Seen::Untestable) {
            skipped.insert(at);
            continue;
        }
        for (&i, s) in who.iter().zip(seen) {
            match s {
                Seen::New => iv[i].1 = at,
                Seen::Old => iv[i].0 = at,
                Seen::Untestable => {}
            }
        }
    }
    Ok(iv)
}

/// Zeller's `ddmin`: a smallest subset of `units` (1-minimal: no one unit
/// can be left out) for which `test` reproduces, given that all of them
/// together do. `test` answers `Some(true)` for reproduces, `Some(false)`
/// for does not, `None` for cannot be tested (counted as not).
pub fn ddmin<T: Clone>(units: &[T], test: &mut SubsetTest<'_, T>) -> Result<Vec<T>, String> {
    let mut current: Vec<T> = units.to_vec();
    let mut n = 2usize;
    while current.len() >= 2 {
        let chunks = split(&current, n);
        let mut reduced = false;
        for c in &chunks {
            if test(c)? == Some(true) {
                current = c.clone();
                n = 2;
                reduced = true;
                break;
            }
        }
        if !reduced && n > 2 {
            for i in 0..chunks.len() {
                let complement: Vec<T> = chunks
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| *j != i)
                    .flat_map(|(_, c)| c.iter().cloned())
                    .collect();
                if test(&complement)? == Some(true) {
                    current = complement;
                    n = (n - 1).max(2);
                    reduced = true;
                    break;
                }
            }
        }
        if !reduced {
            if n >= current.len() {
                break;
            }
            n = (2 * n).min(current.len());
        }
    }
    Ok(current)
}

/// `xs` cut into `n` runs of nearly equal length.
fn split<T: Clone>(xs: &[T], n: usize) -> Vec<Vec<T>> {
    let n = n.min(xs.len()).max(1);
    let mut out = Vec::with_capacity(n);
    let mut start = 0;
    for i in 0..n {
        let end = start + (xs.len() - start) / (n - i);
        out.push(xs[start..end].to_vec());
        start = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ddmin_finds_the_two_hunks_that_need_each_other() {
        // Reproduces only with 3 and 7 both in; 5 alone does not build.
        let units: Vec<usize> = (0..10).collect();
        let mut tests = 0;
        let found = ddmin(&units, &mut |s: &[usize]| {
            tests += 1;
            if s == [5] {
                return Ok(None);
            }
            Ok(Some(s.contains(&3) && s.contains(&7)))
        })
        .expect("no error");
        assert_eq!(found, vec![3, 7]);
        assert!(tests < 40, "{tests} tests");
    }

    #[test]
    fn ddmin_of_one_unit_is_that_unit() {
        let found = ddmin(&[4], &mut |_: &[i32]| Ok(Some(true))).expect("no error");
        assert_eq!(found, vec![4]);
    }

    #[test]
    fn bisect_finds_each_inputs_commit_and_skips_what_does_not_build() {
        // 0 is base, 9 head; input 0 changes at 3, input 1 at 7; commit 6 does not build.
        let changes = [3, 7];
        let mut at_commits = Vec::new();
        let iv = bisect(10, 2, &mut |c, who| {
            at_commits.push(c);
            Ok(who
                .iter()
                .map(|&i| {
                    if c == 6 {
                        Seen::Untestable
                    } else if c >= changes[i] {
                        Seen::New
                    } else {
                        Seen::Old
                    }
                })
                .collect())
        })
        .expect("no error");
        assert_eq!(iv, vec![(2, 3), (5, 7)], "tested {at_commits:?}");
        let unique: BTreeSet<usize> = at_commits.iter().copied().collect();
        assert_eq!(unique.len(), at_commits.len(), "each commit tested once");
        assert!(at_commits.len() <= 6, "{at_commits:?}");
    }
}
