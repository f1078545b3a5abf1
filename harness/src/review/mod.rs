//! Tools beyond a run, for reviewing an implementation or the corpus:
//! generators, differential fuzzing, the laws of canonicalization, two
//! builds side by side (and, given their sources, the change that made
//! each difference, by test), recomputing expectations, and throughput.

pub mod attribution;
pub mod bench;
pub mod bless;
pub mod causes;
pub mod compare;
pub mod culprits;
pub mod fuzz;
pub mod gen;
pub mod kinds;
pub mod laws;
pub mod reach;
pub mod show;
