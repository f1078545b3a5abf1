//! The two sides answering on threads of their own while the fuzzing
//! loop judges: the loop hands a side a batch and comes back for its
//! answers later, so both builds work on the next batch while the answers
//! of this one are judged, and neither waits for the loop.

use crate::subject::{Answer, Request, Subject};
use ptc_conformance::term::Term;
use std::collections::BTreeMap;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Inputs of one op, shared by the two sides and the loop.
pub type Inputs = Arc<Vec<Vec<Term>>>;

/// A side's answers to one job, with the time it took to answer them.
type Answered = (Vec<Answer>, Duration);

/// One side's thread, as the loop sees it: jobs go out in order, answers
/// come back in the same order (those of a later job waiting here until
/// an earlier one is taken).
struct Side {
    jobs: Option<Sender<(&'static str, Inputs)>>,
    answers: Receiver<Answered>,
    arrived: BTreeMap<u64, Answered>,
    next_in: u64,
}

impl Side {
    fn take(&mut self, ticket: u64, n: usize) -> Answered {
        while !self.arrived.contains_key(&ticket) {
            match self.answers.recv() {
                Ok(a) => {
                    self.arrived.insert(self.next_in, a);
                    self.next_in += 1;
                }
                Err(_) => {
                    let lost = vec![Answer::Error("the side's thread stopped".into()); n];
                    return (lost, Duration::ZERO);
                }
            }
        }
        self.arrived.remove(&ticket).unwrap_or_default()
    }
}

/// A job handed to both sides: its number, to come back for its answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ticket(u64, usize);

/// Both sides, each answering on its own thread of `scope`.
pub struct Sides {
    sides: [Side; 2],
    next: u64,
}

impl Sides {
    /// Starts a thread per side in `scope`; each ends when this is dropped.
    pub fn start<'scope, 'env>(
        scope: &'scope std::thread::Scope<'scope, 'env>,
        expected: &'scope mut dyn Subject,
        subject: &'scope mut dyn Subject,
    ) -> Sides {
        let spawn = |side: &'scope mut dyn Subject| {
            let (jobs, inbox) = channel::<(&'static str, Inputs)>();
            let (outbox, answers) = channel::<Answered>();
            scope.spawn(move || {
                for (op, inputs) in inbox {
                    let requests: Vec<Request<'_>> =
                        inputs.iter().map(|a| Request::new(op, a)).collect();
                    let started = Instant::now();
                    let answers = side.call_many(&requests);
                    if outbox.send((answers, started.elapsed())).is_err() {
                        return;
                    }
                }
            });
            Side {
                jobs: Some(jobs),
                answers,
                arrived: BTreeMap::new(),
                next_in: 0,
            }
        };
        Sides {
            sides: [spawn(expected), spawn(subject)],
            next: 0,
        }
    }

    /// Hands `inputs` of `op` to both sides; they start at once (after
    /// the jobs handed before).
    pub fn send(&mut self, op: &'static str, inputs: &Inputs) -> Ticket {
        for side in &mut self.sides {
            if let Some(jobs) = &side.jobs {
                if jobs.send((op, Arc::clone(inputs))).is_err() {
                    side.jobs = None;
                }
            }
        }
        let ticket = Ticket(self.next, inputs.len());
        self.next += 1;
        ticket
    }

    /// Both sides' answers to the job of `ticket`, waiting for them, with
    /// the time each side took.
    pub fn take(&mut self, ticket: Ticket) -> ((Vec<Answer>, Vec<Answer>), (Duration, Duration)) {
        let [e, a] = &mut self.sides;
        let (xe, te) = e.take(ticket.0, ticket.1);
        let (xa, ta) = a.take(ticket.0, ticket.1);
        ((xe, xa), (te, ta))
    }

    /// Both sides' answers to `inputs` of `op`, now.
    pub fn ask(
        &mut self,
        op: &'static str,
        inputs: Vec<Vec<Term>>,
    ) -> ((Vec<Answer>, Vec<Answer>), (Duration, Duration)) {
        let ticket = self.send(op, &Arc::new(inputs));
        self.take(ticket)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::subject::reference::Reference;

    #[test]
    fn answers_come_back_to_their_tickets_in_any_order_of_taking() {
        let mut e = Reference::default();
        let mut a = Reference::default();
        std::thread::scope(|scope| {
            let mut sides = Sides::start(scope, &mut e, &mut a);
            let key = |s: &str| Arc::new(vec![vec![Term::Str(s.into())]]);
            let first = sides.send("key_normalizer.normalize_key", &key("a-b"));
            let second = sides.send("key_normalizer.normalize_key", &key("c-d"));
            // The later job is taken first: the earlier one's answers wait.
            let ((e2, a2), _) = sides.take(second);
            let ((e1, a1), _) = sides.take(first);
            let text = |x: &[Answer]| format!("{x:?}");
            assert!(text(&e2).contains("c_d"), "{}", text(&e2));
            assert!(text(&e1).contains("a_b"), "{}", text(&e1));
            assert_eq!(text(&e1), text(&a1));
            assert_eq!(text(&e2), text(&a2));
        });
    }
}
