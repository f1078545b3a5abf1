//! What the commands print, in one place. Everything for stdout goes
//! through [`out!`] and [`outln!`], so a closed stdout is handled once for
//! every command. `ptc-conformance list | head` ends the command at once,
//! quietly, with status 0, as ripgrep does: the reader took what it
//! wanted. A command that writes files ([`finish_work`]: `export`, `bless
//! --write`, `run --update-known-failures`, `--emit`) is not cut short by
//! its reader: it does all its work, prints nothing more, and ends with
//! the status it would have had. Any other failure to write stdout (a full
//! disk) ends the command with status 1 and says so on stderr. [`errln!`]
//! writes stderr and never panics: when stderr itself is closed there is
//! no one left to tell.

use std::fmt;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

/// Set by [`finish_work`]: a closed stdout does not end the command.
static FINISH_WORK: AtomicBool = AtomicBool::new(false);
/// Set once stdout was found closed (under [`finish_work`]).
static CLOSED: AtomicBool = AtomicBool::new(false);

/// Prints to stdout, as `print!` does, ending the command quietly when
/// stdout is closed.
macro_rules! out {
    ($($arg:tt)*) => { $crate::cli::out::stdout(format_args!($($arg)*)) };
}

/// Prints a line to stdout, as `println!` does, ending the command quietly
/// when stdout is closed.
macro_rules! outln {
    () => { $crate::cli::out::stdout(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::cli::out::stdout(format_args!("{}\n", format_args!($($arg)*))) };
}

/// Prints a line to stderr, as `eprintln!` does, without panicking when
/// stderr is closed.
macro_rules! errln {
    ($($arg:tt)*) => { $crate::cli::out::stderr(format_args!("{}\n", format_args!($($arg)*))) };
}

pub(crate) use {errln, out, outln};

/// Declares that the command writes files: a closed stdout then does not
/// end it, and what it would still print is dropped.
pub fn finish_work() {
    FINISH_WORK.store(true, Ordering::Relaxed);
}

/// Writes `text` to stdout and flushes it. When stdout is closed, ends
/// the command quietly with status 0, or, under [`finish_work`], drops
/// this and all later output; another failure ends the process
/// ([`stdout_failed`]).
pub fn stdout(text: fmt::Arguments<'_>) {
    if CLOSED.load(Ordering::Relaxed) {
        return;
    }
    let mut stdout = io::stdout().lock();
    match stdout.write_fmt(text).and_then(|()| stdout.flush()) {
        Ok(()) => {}
        Err(e) if is_closed(&e) && FINISH_WORK.load(Ordering::Relaxed) => {
            CLOSED.store(true, Ordering::Relaxed);
        }
        Err(e) => stdout_failed(&e),
    }
}

/// Writes `text` to stderr; a failure is ignored.
pub fn stderr(text: fmt::Arguments<'_>) {
    let _ = io::stderr().lock().write_fmt(text);
}

/// Whether `e` says the reader of our output has gone (`EPIPE`).
pub fn is_closed(e: &io::Error) -> bool {
    e.kind() == io::ErrorKind::BrokenPipe
}

/// Ends the process after stdout could not be written: status 0 without a
/// word when the reader closed it, else status 1 naming the error. The
/// one place a command exits without returning: the command cannot go on
/// printing, and unwinding through it would print a panic.
pub fn stdout_failed(e: &io::Error) -> ! {
    if is_closed(e) {
        std::process::exit(i32::from(crate::exit::Exit::Passed.code()));
    }
    stderr(format_args!(
        "ptc-conformance: cannot write to stdout: {e}\n"
    ));
    std::process::exit(i32::from(crate::exit::Exit::Failed.code()))
}
