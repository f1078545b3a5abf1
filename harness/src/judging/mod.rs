//! Judging a run: comparing answers with expectations, running cases
//! against a subject, known failures, and the run's reports.
//!
//! The modules import one another in one direction only: [`outcome`] (what
//! happened to a case) and [`release`] (which release is judged) are the
//! leaves; [`judge`], [`known`] and [`report`] build on them; [`runner`]
//! puts them together.

pub mod judge;
pub mod known;
pub mod outcome;
pub mod release;
pub mod report;
pub mod runner;
