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

mod pipeline;
mod process;

pub use process::AdapterConfig;

use crate::subject::wire::{self, Hello};
use process::{Event, Process};
use std::sync::mpsc::RecvTimeoutError;

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

impl Drop for Adapter {
    fn drop(&mut self) {
        if let Some(p) = self.process.take() {
            p.close();
        }
    }
}
