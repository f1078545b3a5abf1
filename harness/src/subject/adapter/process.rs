//! The adapter process: its configuration, spawning it, and the threads
//! that write requests, read answer lines (capped in length) and keep a
//! bounded tail of its stderr, so a hung or flooding adapter never blocks
//! the harness.

use crate::quote::Tail;
use crate::subject::wire;
use crate::subject::Answer;
use std::collections::VecDeque;
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

/// Lines of stderr kept for reports (quoted as [`crate::quote`] cuts them).
pub(super) const STDERR_LINES: usize = 20;
/// Bytes kept of one stderr line: enough for [`crate::quote::LINE_CHARS`]
/// characters of any UTF-8.
const STDERR_LINE_BYTES: usize = 4 * crate::quote::LINE_CHARS;

pub(super) enum Event {
    Line(Result<(u64, Answer), wire::BadLine>),
    TooLong { id: Option<u64>, len: usize },
    Closed(String),
}

pub(super) struct Process {
    child: Child,
    stdin_tx: Option<Sender<String>>,
    events: Receiver<Vec<Event>>,
    queued: VecDeque<Event>,
    stderr: Arc<Mutex<Tail>>,
}

impl Process {
    pub(super) fn spawn(cfg: &AdapterConfig) -> Result<Process, String> {
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
        let stderr = Arc::new(Mutex::new(Tail::new(STDERR_LINES)));
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
    pub(super) fn recv(&mut self, timeout: Duration) -> Result<Event, RecvTimeoutError> {
        if let Some(e) = self.queued.pop_front() {
            return Ok(e);
        }
        let batch = self.events.recv_timeout(timeout)?;
        self.queued.extend(batch);
        self.queued.pop_front().ok_or(RecvTimeoutError::Timeout)
    }

    /// Whether answers already read wait to be taken: the window is
    /// refilled once they are, in one write, not once per answer.
    pub(super) fn has_queued(&self) -> bool {
        !self.queued.is_empty()
    }

    pub(super) fn send(&self, line: String) {
        if let Some(tx) = &self.stdin_tx {
            let _ = tx.send(line);
        }
    }

    pub(super) fn stderr_tail(&self) -> String {
        match self.stderr.lock() {
            Ok(t) if !t.is_empty() => format!("last lines of stderr:\n{}", t.render()),
            _ => "(stderr was empty)".into(),
        }
    }

    /// Kills the process and says how it ended.
    pub(super) fn kill(self) -> String {
        self.end(Duration::ZERO)
    }

    /// Ends the process after a crash: it closed its output, so it is
    /// probably exiting; give it up to half a second to report its status.
    pub(super) fn reap(self) -> String {
        self.end(Duration::from_millis(500))
    }

    pub(super) fn end(mut self, grace: Duration) -> String {
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
    pub(super) fn close(mut self) {
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

pub(super) fn write_requests(mut stdin: ChildStdin, rx: Receiver<String>) {
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

pub(super) fn read_answers(stdout: impl Read, max_line: usize, tx: Sender<Vec<Event>>) {
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

pub(super) fn drain_stderr(stderr: impl Read, tail: Arc<Mutex<Tail>>) {
    let mut reader = BufReader::with_capacity(1 << 16, stderr);
    // The line so far: its first bytes, and its length in characters.
    let mut head: Vec<u8> = Vec::new();
    let mut chars = 0usize;
    let keep = |head: &mut Vec<u8>, chars: &mut usize| {
        if let Ok(mut t) = tail.lock() {
            t.push(head, *chars);
        }
        head.clear();
        *chars = 0;
    };
    // Bytes only: a flood is read as fast as it comes, keeping line heads.
    let take = |bytes: &[u8], head: &mut Vec<u8>, chars: &mut usize| {
        let room = STDERR_LINE_BYTES.saturating_sub(head.len());
        head.extend_from_slice(&bytes[..bytes.len().min(room)]);
        // UTF-8 continuation bytes do not start a character.
        *chars += bytes.iter().filter(|&&b| b & 0xC0 != 0x80).count();
    };
    loop {
        let buf = match reader.fill_buf() {
            Ok([]) | Err(_) => break,
            Ok(b) => b,
        };
        let n = buf.len();
        let mut rest = buf;
        while let Some(i) = rest.iter().position(|&b| b == b'\n') {
            take(&rest[..i], &mut head, &mut chars);
            keep(&mut head, &mut chars);
            rest = &rest[i + 1..];
        }
        take(rest, &mut head, &mut chars);
        reader.consume(n);
    }
    if !head.is_empty() || chars > 0 {
        keep(&mut head, &mut chars);
    }
}
