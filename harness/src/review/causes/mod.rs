//! Causes: what changed in the answers of two builds, and when it shows.
//! A kind of difference says where it shows (a symptom); a cause is one
//! change of behaviour, named in three steps:
//!
//! - **what** ([`what`]): the smallest part of the two answers that
//!   differs, base → head (a key renamed or added, a value replaced, an
//!   exception class, an order, the differing words of a text);
//! - **when** ([`when`]: [`Search`], over [`when::parts`], with
//!   [`when::default`], [`when::message`] and [`when::protocols`] for the
//!   parts the answers themselves name): the
//!   smallest part of the input without which the two builds answer alike
//!   (delta debugging, one step: C-Reduce and `ddmin` look for the same
//!   smallest part), or always; the [`Trigger`];
//! - **joined** ([`join`]): a kind or cause another cause explains by
//!   test (that cause's change undone in its answers, or that cause's
//!   trigger taken out of its input, the two agree) is that cause; an
//!   example that holds two changes at once (no single part of it, or
//!   only a whole container, makes the two agree) joins the causes whose
//!   triggers, taken out of it together, do.
//!
//! Triggers that name one change of the code by themselves (one
//! character, one option key, one struct's definition, one protocol's
//! implementations: [`Trigger::same_cause`]) are one cause without a test.
//! The search is bounded: at most [`MAX_CANDIDATES`] inputs per kind,
//! sent to each side in one pipelined batch, the two sides at once.

//!
//! The code is laid out the same way: `what.rs`, `when/`, `join.rs`.

pub mod join;
pub mod what;
pub mod when;

pub(crate) use when::search;
pub use when::search::Search;
pub use when::trigger::{bare_option, shown_char, Trigger};
pub use when::{
    default, holds_struct, in_list, message, named, parts, protocols, under, unquoted, Found,
    MAX_CANDIDATES,
};

// What the tests below read as `super::*`.
#[cfg(test)]
use crate::review::kinds::Side;
#[cfg(test)]
use crate::subject::Answer;
#[cfg(test)]
use ptc_conformance::term::Term;

#[cfg(test)]
mod changes;
#[cfg(test)]
mod planted;
#[cfg(test)]
mod tests;
