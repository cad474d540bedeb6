//! Where a command writes: the process's stdout and stderr, or two buffers.
//!
//! The binary always writes to the process's streams. A program that runs commands inside
//! itself ([`crate::cli::run_captured`]) gets their output as bytes instead: the test suite's
//! sweeps run a dozen commands on each of hundreds of fixture directories, and starting the
//! unoptimized binary for each run was most of their time (and of CI's). A captured run sees
//! what a run with both streams piped sees: no terminal, so no colour and no table width, and
//! neither `NO_COLOR` nor `COLUMNS` read from the environment (the test harness's `run_in`
//! sets `NO_COLOR` and removes `COLUMNS` for the same reason).
//!
//! The buffers are the current thread's: a captured run installs them on the thread that runs
//! the command ([`with_capture`]), so runs on other threads of the same process, captured or
//! not, never mix their output. Every write of the command line's output goes through
//! [`stdout`], [`stderr`] or [`eprintln!`](crate::cli::console) below.

use std::cell::RefCell;
use std::io::{self, IsTerminal, Write};
use std::sync::{Arc, Mutex};

/// What a captured run wrote, and its exit code.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Captured {
    /// Everything written to stdout.
    pub stdout: Vec<u8>,
    /// Everything written to stderr.
    pub stderr: Vec<u8>,
    /// The exit code the process would have ended with.
    pub code: i32,
}

/// The two buffers of one captured run.
#[derive(Clone, Debug, Default)]
pub struct Capture(Arc<Mutex<(Vec<u8>, Vec<u8>)>>);

impl Capture {
    /// The bytes written so far, with `code`.
    pub fn finish(&self, code: i32) -> Captured {
        let guard = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        Captured {
            stdout: guard.0.clone(),
            stderr: guard.1.clone(),
            code,
        }
    }
}

thread_local! {
    static CAPTURE: RefCell<Option<Capture>> = const { RefCell::new(None) };
}

/// Runs `job` with this thread's output going to `capture`; the thread's previous target is
/// back afterwards, also when `job` panics.
pub fn with_capture<T>(capture: &Capture, job: impl FnOnce() -> T) -> T {
    struct Restore(Option<Capture>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            CAPTURE.with(|c| *c.borrow_mut() = previous);
        }
    }
    let previous = CAPTURE.with(|c| c.borrow_mut().replace(capture.clone()));
    let _restore = Restore(previous);
    job()
}

/// The current thread's capture, if its output is captured.
fn current() -> Option<Capture> {
    CAPTURE.with(|c| c.borrow().clone())
}

/// Which of the two streams.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    /// Standard output: documents.
    Out,
    /// Standard error: diagnostics and messages.
    Err,
}

/// A writer to one stream of the current thread.
pub struct Writer(Target);

enum Target {
    Stdout(io::StdoutLock<'static>),
    Stderr(io::StderrLock<'static>),
    Captured(Capture, Stream),
}

impl Write for Writer {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.0 {
            Target::Stdout(out) => out.write(buf),
            Target::Stderr(err) => err.write(buf),
            Target::Captured(capture, stream) => {
                let mut guard = capture
                    .0
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
                match stream {
                    Stream::Out => guard.0.extend_from_slice(buf),
                    Stream::Err => guard.1.extend_from_slice(buf),
                }
                Ok(buf.len())
            }
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.0 {
            Target::Stdout(out) => out.flush(),
            Target::Stderr(err) => err.flush(),
            Target::Captured(..) => Ok(()),
        }
    }
}

/// The current thread's stdout.
pub fn stdout() -> Writer {
    Writer(match current() {
        Some(capture) => Target::Captured(capture, Stream::Out),
        None => Target::Stdout(io::stdout().lock()),
    })
}

/// The current thread's stderr.
pub fn stderr() -> Writer {
    Writer(match current() {
        Some(capture) => Target::Captured(capture, Stream::Err),
        None => Target::Stderr(io::stderr().lock()),
    })
}

/// Whether `stream` is a terminal (never, when captured).
pub fn is_terminal(stream: Stream) -> bool {
    current().is_none()
        && match stream {
            Stream::Out => io::stdout().is_terminal(),
            Stream::Err => io::stderr().is_terminal(),
        }
}

/// The environment variable `name` as the command line reads it (`NO_COLOR`, `COLUMNS`):
/// unset for a captured run.
pub fn env(name: &str) -> Option<std::ffi::OsString> {
    match current() {
        Some(_) => None,
        None => std::env::var_os(name),
    }
}

/// Writes a line to the current thread's stderr (a failed write to stderr has nowhere to be
/// said, as with `std::eprintln!`, which panics instead).
pub fn eprint_line(args: std::fmt::Arguments<'_>) {
    let mut err = stderr();
    let _ = err.write_fmt(args).and_then(|()| err.write_all(b"\n"));
}

/// `eprintln!` to the current thread's stderr ([`eprint_line`]).
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::cli::console::eprint_line(format_args!($($arg)*))
    };
}
pub(crate) use say;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_capture_holds_both_streams_and_ends_with_its_scope() {
        let capture = Capture::default();
        let inner = Capture::default();
        with_capture(&capture, || {
            let _ = stdout().write_all(b"doc");
            say!("note {}", 1);
            with_capture(&inner, || say!("inner"));
            assert!(!is_terminal(Stream::Out));
            assert_eq!(env("PATH"), None);
        });
        assert_eq!(
            capture.finish(3),
            Captured {
                stdout: b"doc".to_vec(),
                stderr: b"note 1\n".to_vec(),
                code: 3
            }
        );
        assert_eq!(inner.finish(0).stderr, b"inner\n");
        assert!(current().is_none());
    }

    #[test]
    fn the_previous_target_comes_back_after_a_panic() {
        let capture = Capture::default();
        let result = std::panic::catch_unwind(|| with_capture(&capture, || panic!("boom")));
        assert!(result.is_err());
        assert!(current().is_none());
    }
}
