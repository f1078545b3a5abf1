//! Pipelining and matching: requests go out within the window, answers
//! are matched to them by id, each has a deadline, and after a crash or a
//! timeout the process is restarted and what was in flight is retried.

use super::process::{Event, Process};
use super::Adapter;
use crate::quote;
use crate::subject::wire;
use crate::subject::{Answer, Flow, Request, Subject};
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::sync::mpsc::RecvTimeoutError;
use std::time::Instant;

struct InFlight {
    index: usize,
    deadline: Instant,
}

impl Subject for Adapter {
    fn name(&self) -> String {
        format!(
            "{} {} ({}) via {}",
            quote::line(&self.hello.name),
            quote::line(&self.hello.version),
            quote::line(&self.hello.language),
            self.cfg.command.join(" ")
        )
    }
    fn release(&self) -> Option<ptc_conformance::Release> {
        self.hello().release
    }
    fn ops(&self) -> BTreeSet<String> {
        self.hello.ops.clone()
    }
    fn extensions(&self) -> BTreeSet<String> {
        self.hello.extensions.clone()
    }
    fn atoms(&mut self) -> Option<Result<Vec<String>, String>> {
        if !self.hello.extensions.contains("atoms") {
            return None;
        }
        // Part of the set-up, not an op: an adapter that lists a whole
        // VM's atoms on a loaded machine has the start-up timeout for it.
        let timeout = self.cfg.timeout;
        self.cfg.timeout = timeout.max(self.cfg.startup_timeout);
        let answer = self.call(Request::new("atoms", &[]));
        self.cfg.timeout = timeout;
        Some(crate::subject::read_atoms(answer))
    }
    fn call_setup(&mut self, requests: &[Request<'_>]) -> Vec<Answer> {
        let timeout = self.cfg.timeout;
        self.cfg.timeout = timeout.max(self.cfg.startup_timeout);
        let answers = self.call_many(requests);
        self.cfg.timeout = timeout;
        answers
    }
    fn features(&self) -> BTreeSet<String> {
        self.hello.features.clone()
    }
    fn faults(&self) -> Vec<String> {
        let mut out = self.faults.clone();
        if self.restarts > 0 {
            out.push(format!(
                "the adapter was restarted {} time(s)",
                self.restarts
            ));
        }
        out
    }

    fn run_batch(
        &mut self,
        requests: &[Request<'_>],
        on_answer: &mut dyn FnMut(usize, Answer) -> Flow,
    ) {
        let encoded: Vec<std::borrow::Cow<'_, str>> = requests
            .iter()
            .map(|r| match r.args_json {
                Some(j) => std::borrow::Cow::Borrowed(j),
                None => std::borrow::Cow::Owned(wire::encode_args(r.args)),
            })
            .collect();
        let mut pending: VecDeque<usize> = (0..requests.len()).collect();
        let mut attempts = vec![0u8; requests.len()];
        let mut answered = vec![false; requests.len()];
        let mut inflight: BTreeMap<u64, InFlight> = BTreeMap::new();
        let mut done_ids: HashMap<u64, usize> = HashMap::new();
        // Requests retried after a crash go one at a time.
        let mut serial = 0usize;
        let mut stopped = false;
        let mut answered_since_start = true;
        let mut report = |i: usize, a: Answer, answered: &mut Vec<bool>| -> Flow {
            answered[i] = true;
            on_answer(i, a)
        };
        loop {
            let Some(process) = self.process.as_mut() else {
                for i in pending
                    .drain(..)
                    .chain(std::mem::take(&mut inflight).into_values().map(|f| f.index))
                {
                    if !answered[i] {
                        report(
                            i,
                            Answer::Error("not run: the adapter could not be restarted".into()),
                            &mut answered,
                        );
                    }
                }
                return;
            };
            let window = if serial > 0 {
                1
            } else {
                self.cfg.window.max(1)
            };
            let mut lines = String::new();
            // Refilled once the answers already read are taken (or the
            // window is half empty): one write and one wake-up of the
            // writer for many requests, not one per answer.
            let refill = !process.has_queued() || inflight.len() <= window / 2;
            while refill && !stopped && inflight.len() < window {
                let Some(i) = pending.pop_front() else { break };
                let id = self.next_id;
                self.next_id += 1;
                wire::push_request(&mut lines, id, requests[i].op, &encoded[i]);
                inflight.insert(
                    id,
                    InFlight {
                        index: i,
                        deadline: Instant::now() + self.cfg.timeout,
                    },
                );
            }
            if !lines.is_empty() {
                process.send(lines);
            }
            if inflight.is_empty() {
                return;
            }
            // Ids grow with send time and the timeout is fixed: the oldest
            // request in flight has the soonest deadline.
            let soonest = inflight
                .first_key_value()
                .map(|(_, f)| f.deadline)
                .unwrap_or_else(Instant::now);
            let event = process.recv(soonest.saturating_duration_since(Instant::now()));
            let mut crash: Option<String> = None;
            match event {
                Ok(Event::Line(Ok((id, answer)))) => match inflight.remove(&id) {
                    Some(f) => {
                        answered_since_start = true;
                        serial = serial.saturating_sub(1);
                        done_ids.insert(id, f.index);
                        if report(f.index, answer, &mut answered) == Flow::Stop {
                            stopped = true;
                        }
                    }
                    None => match done_ids.get(&id) {
                        Some(&i) => self.faults.push(format!(
                            "answered request {id} (case #{i}) twice; the second answer was ignored"
                        )),
                        None => self
                            .faults
                            .push(format!("answered id {id}, which was never asked")),
                    },
                },
                Ok(Event::Line(Err(bad))) => {
                    match bad.id.and_then(|id| inflight.remove(&id).map(|f| (id, f))) {
                        Some((id, f)) => {
                            done_ids.insert(id, f.index);
                            if report(
                                f.index,
                                Answer::Error(format!("malformed answer: {}", bad.message)),
                                &mut answered,
                            ) == Flow::Stop
                            {
                                stopped = true;
                            }
                        }
                        None => self
                            .faults
                            .push(format!("unreadable line on stdout: {}", bad.message)),
                    }
                }
                Ok(Event::TooLong { id, len }) => {
                    let msg = format!(
                        "answer line of {len} bytes is over the {} byte limit",
                        self.cfg.max_line
                    );
                    match id.and_then(|id| inflight.remove(&id).map(|f| (id, f))) {
                        Some((id, f)) => {
                            done_ids.insert(id, f.index);
                            if report(f.index, Answer::Error(msg), &mut answered) == Flow::Stop {
                                stopped = true;
                            }
                        }
                        None => self.faults.push(msg),
                    }
                }
                Ok(Event::Closed(why)) => crash = Some(why),
                Err(RecvTimeoutError::Disconnected) => crash = Some("its output ended".into()),
                Err(RecvTimeoutError::Timeout) => {
                    let now = Instant::now();
                    let mut expired: Vec<u64> = inflight
                        .iter()
                        .filter(|(_, f)| f.deadline <= now)
                        .map(|(id, _)| *id)
                        .collect();
                    if expired.is_empty() {
                        continue;
                    }
                    // Requests queue behind the one the adapter is busy
                    // with, so their deadlines pass with its: only the
                    // oldest is at fault, unless the adapter has answered
                    // nothing since it was (re)started.
                    if answered_since_start {
                        expired.truncate(1);
                    }
                    answered_since_start = false;
                    let status = self.process.take().map(Process::kill).unwrap_or_default();
                    for id in &expired {
                        if let Some(f) = inflight.remove(id) {
                            done_ids.insert(*id, f.index);
                            let msg = format!(
                                "timed out after {:?}; the adapter was restarted ({status})",
                                self.cfg.timeout
                            );
                            self.faults.push(format!(
                                "{} timed out after {:?}: {}",
                                requests[f.index].op,
                                self.cfg.timeout,
                                crate::quote::line(&encoded[f.index])
                            ));
                            if report(f.index, Answer::Error(msg), &mut answered) == Flow::Stop {
                                stopped = true;
                            }
                        }
                    }
                    // The rest were not at fault: send them again.
                    let mut rest: Vec<(u64, usize)> = std::mem::take(&mut inflight)
                        .into_iter()
                        .map(|(id, f)| (id, f.index))
                        .collect();
                    rest.sort();
                    for (_, i) in rest.into_iter().rev() {
                        pending.push_front(i);
                    }
                    if let Err(e) = self.restart() {
                        self.faults.push(e);
                    }
                    continue;
                }
            }
            if let Some(why) = crash {
                let status = self.process.take().map(Process::reap).unwrap_or_default();
                let mut rest: Vec<(u64, usize)> = std::mem::take(&mut inflight)
                    .into_iter()
                    .map(|(id, f)| (id, f.index))
                    .collect();
                rest.sort();
                let mut retry = Vec::new();
                for (id, i) in rest {
                    attempts[i] += 1;
                    if attempts[i] >= 2 || rest_is_alone(&retry, serial) {
                        done_ids.insert(id, i);
                        let msg = format!("the adapter crashed while answering: {why}; {status}");
                        if report(i, Answer::Error(msg), &mut answered) == Flow::Stop {
                            stopped = true;
                        }
                    } else {
                        retry.push(i);
                    }
                }
                serial += retry.len();
                for i in retry.into_iter().rev() {
                    pending.push_front(i);
                }
                if pending.is_empty() || stopped {
                    return;
                }
                if let Err(e) = self.restart() {
                    self.faults.push(e);
                }
            }
        }
    }
}

/// A request in flight alone (serial mode) when the process crashed is the
/// culprit: no retry.
fn rest_is_alone(retry: &[usize], serial: usize) -> bool {
    serial > 0 && retry.is_empty()
}
