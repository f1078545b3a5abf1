//! An external implementation behind adapter protocol v1 (`spec/adapter_protocol.md`).
//!
//! One process serves the whole run; requests are pipelined within a
//! bounded window. Reading and writing happen on their own threads, so a
//! hung or flooding adapter never blocks the harness: every request has a
//! deadline, answer lines are capped in length, stderr is drained into a
//! bounded tail. After a crash or a timeout the process is killed and
//! restarted (handshake included) and the run goes on; a request that was
//! in flight during a crash is retried once, alone, so one bad case cannot
//! take innocent ones with it.

use crate::subject::{Answer, Flow, Request, Subject};
use crate::subject::wire::{self, Hello};
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// How to run an adapter.
#[derive(Clone, Debug)]
pub struct AdapterConfig {
    /// The program and its arguments (run without a shell).
    pub command: Vec<String>,
    /// How long one request may take.
    pub timeout: Duration,
    /// How long start-up and the handshake may take.
    pub startup_timeout: Duration,
    /// How many requests may be in flight at once (1: one at a time).
    pub window: usize,
    /// Longest answer line accepted, in bytes.
    pub max_line: usize,
    /// How many restarts in a row may fail before the run gives up.
    pub max_restarts: usize,
    /// Working directory of the adapter process (default: the harness's).
    pub cwd: Option<std::path::PathBuf>,
}

impl AdapterConfig {
    /// Defaults for `command`: 5 s per request, 30 s start-up, window 64, 16 MiB lines.
    pub fn new(command: Vec<String>) -> AdapterConfig {
        AdapterConfig {
            command,
            timeout: Duration::from_secs(5),
            startup_timeout: Duration::from_secs(30),
            window: 64,
            max_line: 16 << 20,
            max_restarts: 3,
            cwd: None,
        }
    }
}

/// Lines of stderr kept for reports.
const STDERR_LINES: usize = 20;
/// Longest stderr line kept, in characters.
const STDERR_LINE_CHARS: usize = 500;

enum Event {
    Line(Result<(u64, Answer), wire::BadLine>),
    TooLong { id: Option<u64>, len: usize },
    Closed(String),
}

struct Process {
    child: Child,
    stdin_tx: Option<Sender<String>>,
    events: Receiver<Vec<Event>>,
    queued: VecDeque<Event>,
    stderr: Arc<Mutex<VecDeque<String>>>,
}

impl Process {
    fn spawn(cfg: &AdapterConfig) -> Result<Process, String> {
        let (prog, args) = cfg
            .command
            .split_first()
            .ok_or("no adapter command given")?;
        let mut command = Command::new(prog);
        if let Some(dir) = &cfg.cwd {
            command.current_dir(dir);
        }
        let mut child = command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start adapter {prog:?}: {e}"))?;
        let stdin = child.stdin.take().ok_or("adapter stdin unavailable")?;
        let stdout = child.stdout.take().ok_or("adapter stdout unavailable")?;
        let stderr_pipe = child.stderr.take().ok_or("adapter stderr unavailable")?;
        let (tx, events) = mpsc::channel();
        let max_line = cfg.max_line;
        thread::spawn(move || read_answers(stdout, max_line, tx));
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr);
        thread::spawn(move || drain_stderr(stderr_pipe, tail));
        let (stdin_tx, stdin_rx) = mpsc::channel::<String>();
        thread::spawn(move || write_requests(stdin, stdin_rx));
        Ok(Process {
            child,
            stdin_tx: Some(stdin_tx),
            events,
            queued: VecDeque::new(),
            stderr,
        })
    }

    /// The next event, waiting at most `timeout`. Events arrive in batches
    /// (every answer already read), which keeps thread hand-offs few.
    fn recv(&mut self, timeout: Duration) -> Result<Event, RecvTimeoutError> {
        if let Some(e) = self.queued.pop_front() {
            return Ok(e);
        }
        let batch = self.events.recv_timeout(timeout)?;
        self.queued.extend(batch);
        self.queued.pop_front().ok_or(RecvTimeoutError::Timeout)
    }

    fn send(&self, line: String) {
        if let Some(tx) = &self.stdin_tx {
            let _ = tx.send(line);
        }
    }

    fn stderr_tail(&self) -> String {
        let tail = self
            .stderr
            .lock()
            .map(|t| t.iter().cloned().collect::<Vec<_>>())
            .unwrap_or_default();
        if tail.is_empty() {
            "(stderr was empty)".into()
        } else {
            format!(
                "last lines of stderr:\n{}",
                tail.iter()
                    .map(|l| format!("  | {l}"))
                    .collect::<Vec<_>>()
                    .join("\n")
            )
        }
    }

    /// Kills the process and says how it ended.
    fn kill(self) -> String {
        self.end(Duration::ZERO)
    }

    /// Ends the process after a crash: it closed its output, so it is
    /// probably exiting; give it up to half a second to report its status.
    fn reap(self) -> String {
        self.end(Duration::from_millis(500))
    }

    fn end(mut self, grace: Duration) -> String {
        self.stdin_tx = None;
        let deadline = Instant::now() + grace;
        while Instant::now() < deadline && matches!(self.child.try_wait(), Ok(None)) {
            thread::sleep(Duration::from_millis(2));
        }
        let status = match self.child.try_wait() {
            Ok(Some(s)) => format!("it exited with {s}"),
            _ => {
                let _ = self.child.kill();
                match self.child.wait() {
                    Ok(_) => "it was killed".to_owned(),
                    Err(e) => format!("it could not be reaped: {e}"),
                }
            }
        };
        // Give the stderr thread a moment to collect the last words.
        thread::sleep(Duration::from_millis(20));
        format!("{status}; {}", self.stderr_tail())
    }

    /// Says `bye` and waits briefly for a clean exit.
    fn close(mut self) {
        self.send(wire::bye_line(u64::MAX));
        self.stdin_tx = None;
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn write_requests(mut stdin: ChildStdin, rx: Receiver<String>) {
    let mut buf = Vec::with_capacity(1 << 16);
    while let Ok(line) = rx.recv() {
        buf.clear();
        buf.extend_from_slice(line.as_bytes());
        // Batch whatever else is already queued into one write.
        while buf.len() < (1 << 16) {
            match rx.try_recv() {
                Ok(more) => buf.extend_from_slice(more.as_bytes()),
                Err(_) => break,
            }
        }
        if stdin.write_all(&buf).and_then(|_| stdin.flush()).is_err() {
            return;
        }
    }
}

fn read_answers(stdout: impl Read, max_line: usize, tx: Sender<Vec<Event>>) {
    let mut reader = BufReader::with_capacity(1 << 16, stdout);
    let mut line: Vec<u8> = Vec::new();
    let mut batch: Vec<Event> = Vec::new();
    loop {
        line.clear();
        let mut len = 0usize;
        let mut too_long = false;
        loop {
            let buf = match reader.fill_buf() {
                Ok(b) => b,
                Err(e) => {
                    batch.push(Event::Closed(format!("reading its stdout failed: {e}")));
                    let _ = tx.send(batch);
                    return;
                }
            };
            if buf.is_empty() {
                let why = if len > 0 {
                    "it closed stdout in the middle of a line"
                } else {
                    "it closed stdout"
                };
                batch.push(Event::Closed(why.into()));
                let _ = tx.send(batch);
                return;
            }
            let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (i, true),
                None => (buf.len(), false),
            };
            len += chunk;
            if !too_long {
                if len > max_line {
                    too_long = true;
                    line.truncate(64);
                } else {
                    line.extend_from_slice(&buf[..chunk]);
                }
            }
            reader.consume(if done { chunk + 1 } else { chunk });
            if done {
                break;
            }
        }
        let event = if too_long {
            Event::TooLong {
                id: wire::sniff_id(&line),
                len,
            }
        } else {
            let text = String::from_utf8_lossy(&line);
            let text = text.trim_end_matches('\r');
            if text.trim().is_empty() {
                if !batch.is_empty()
                    && !reader.buffer().contains(&b'\n')
                    && tx.send(std::mem::take(&mut batch)).is_err()
                {
                    return;
                }
                continue;
            }
            Event::Line(wire::parse_answer(text))
        };
        batch.push(event);
        // Hand the batch over only when no further whole line is waiting.
        if !reader.buffer().contains(&b'\n') && tx.send(std::mem::take(&mut batch)).is_err() {
            return;
        }
    }
}

fn drain_stderr(stderr: impl Read, tail: Arc<Mutex<VecDeque<String>>>) {
    let mut reader = BufReader::with_capacity(1 << 16, stderr);
    let mut current: Vec<u8> = Vec::new();
    let keep = |line: &[u8]| {
        if let Ok(mut t) = tail.lock() {
            if t.len() == STDERR_LINES {
                t.pop_front();
            }
            t.push_back(
                String::from_utf8_lossy(line)
                    .chars()
                    .take(STDERR_LINE_CHARS)
                    .collect(),
            );
        }
    };
    loop {
        let buf = match reader.fill_buf() {
            Ok([]) | Err(_) => break,
            Ok(b) => b,
        };
        let n = buf.len();
        let mut rest = buf;
        // Bytes only: a flood is read as fast as it comes, keeping line heads.
        while let Some(i) = rest.iter().position(|&b| b == b'\n') {
            let room = (STDERR_LINE_CHARS * 4).saturating_sub(current.len());
            current.extend_from_slice(&rest[..i.min(room)]);
            keep(&current);
            current.clear();
            rest = &rest[i + 1..];
        }
        let room = (STDERR_LINE_CHARS * 4).saturating_sub(current.len());
        current.extend_from_slice(&rest[..rest.len().min(room)]);
        reader.consume(n);
    }
    if !current.is_empty() {
        keep(&current);
    }
}

/// An adapter process and what it declared.
pub struct Adapter {
    cfg: AdapterConfig,
    process: Option<Process>,
    hello: Hello,
    next_id: u64,
    /// Faults not tied to a case (unknown ids, unreadable lines), for the report.
    pub faults: Vec<String>,
    /// How many times the process was restarted.
    pub restarts: usize,
}

impl Adapter {
    /// Starts the adapter and does the handshake.
    pub fn start(cfg: AdapterConfig) -> Result<Adapter, String> {
        let mut next_id = 0;
        let (process, hello) = handshake(&cfg, &mut next_id)?;
        Ok(Adapter {
            cfg,
            process: Some(process),
            hello,
            next_id,
            faults: Vec::new(),
            restarts: 0,
        })
    }

    /// What the adapter said in its handshake.
    pub fn hello(&self) -> &Hello {
        &self.hello
    }

    /// The adapter command.
    pub fn command(&self) -> &[String] {
        &self.cfg.command
    }

    fn restart(&mut self) -> Result<(), String> {
        self.restarts += 1;
        let mut last = String::new();
        for _ in 0..self.cfg.max_restarts.max(1) {
            match handshake(&self.cfg, &mut self.next_id) {
                Ok((p, hello)) => {
                    if hello != self.hello {
                        self.faults
                            .push("after a restart the adapter declared a different hello".into());
                    }
                    self.process = Some(p);
                    return Ok(());
                }
                Err(e) => last = e,
            }
        }
        Err(format!("the adapter could not be restarted: {last}"))
    }
}

fn handshake(cfg: &AdapterConfig, next_id: &mut u64) -> Result<(Process, Hello), String> {
    let mut p = Process::spawn(cfg)?;
    let id = *next_id;
    *next_id += 1;
    p.send(wire::hello_line(id));
    match p.recv(cfg.startup_timeout) {
        Ok(Event::Line(Ok((got, answer)))) if got == id => match wire::read_hello(&answer) {
            Ok(h) => Ok((p, h)),
            Err(e) => Err(format!("handshake: {e}; {}", p.kill())),
        },
        Ok(Event::Line(Ok((got, _)))) => Err(format!(
            "handshake: answer to hello has id {got}, expected {id}; {}",
            p.kill()
        )),
        Ok(Event::Line(Err(bad))) => Err(format!("handshake: {}; {}", bad.message, p.kill())),
        Ok(Event::TooLong { len, .. }) => Err(format!(
            "handshake: hello answer line of {len} bytes is over the limit; {}",
            p.kill()
        )),
        Ok(Event::Closed(why)) => Err(format!("handshake: {why}; {}", p.reap())),
        Err(RecvTimeoutError::Timeout) => Err(format!(
            "handshake: no answer to hello within {:?}; {}",
            cfg.startup_timeout,
            p.kill()
        )),
        Err(RecvTimeoutError::Disconnected) => {
            Err(format!("handshake: adapter output ended; {}", p.kill()))
        }
    }
}

struct InFlight {
    index: usize,
    deadline: Instant,
}

impl Subject for Adapter {
    fn name(&self) -> String {
        format!(
            "{} {} ({}) via {}",
            self.hello.name,
            self.hello.version,
            self.hello.language,
            self.cfg.command.join(" ")
        )
    }
    fn ops(&self) -> BTreeSet<String> {
        self.hello.ops.clone()
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
            while !stopped && inflight.len() < window {
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
                    let expired: Vec<u64> = inflight
                        .iter()
                        .filter(|(_, f)| f.deadline <= now)
                        .map(|(id, _)| *id)
                        .collect();
                    if expired.is_empty() {
                        continue;
                    }
                    let status = self.process.take().map(Process::kill).unwrap_or_default();
                    for id in &expired {
                        if let Some(f) = inflight.remove(id) {
                            done_ids.insert(*id, f.index);
                            let msg = format!(
                                "timed out after {:?}; the adapter was restarted ({status})",
                                self.cfg.timeout
                            );
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

impl Drop for Adapter {
    fn drop(&mut self) {
        if let Some(p) = self.process.take() {
            p.close();
        }
    }
}
