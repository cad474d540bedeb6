//! The command-line front end: the only module that knows clap, the terminal and exit codes.
//!
//! `main` calls [`main_exit_code`]; each command parses its flags into plain options, runs the
//! library pipeline, prints diagnostics to stderr and the document to stdout.

pub mod args;
pub mod catalogue;
pub mod config;
pub mod console;
pub mod diff;
pub mod effective;
pub mod generate;
pub mod lint;
pub mod observe;
pub mod options;
pub mod request;
pub mod session;
pub mod test;
pub mod view;

use args::{Cli, Command};
use clap::Parser;
use session::Exit;

/// Parses `std::env::args`, runs the command, and returns the process exit code.
/// Panics are caught and reported as internal errors (exit code 4).
pub fn main_exit_code() -> i32 {
    guarded(&Cli::parse(), None)
}

/// Runs `dopol ARGS...` inside this process, its output captured ([`console`]): what the binary
/// would print and the exit code it would end with, as if both streams were pipes. Flags that
/// do not parse give clap's message and exit code, as the binary does.
pub fn run_captured<S: AsRef<str>>(args: &[S]) -> console::Captured {
    let capture = console::Capture::default();
    let argv = std::iter::once("dopol").chain(args.iter().map(AsRef::as_ref));
    let code = match Cli::try_parse_from(argv) {
        Ok(cli) => guarded(&cli, Some(&capture)),
        Err(error) => {
            let text = error.render().to_string();
            console::with_capture(&capture, || console::say!("{}", text.trim_end()));
            error.exit_code()
        }
    };
    capture.finish(code)
}

/// Runs `cli` on the workers (its output to `capture` when given) and returns its exit code;
/// a panic is reported as an internal error (exit code 4).
fn guarded(cli: &Cli, capture: Option<&console::Capture>) -> i32 {
    let job = || match capture {
        Some(capture) => console::with_capture(capture, || run(cli)),
        None => run(cli),
    };
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        crate::platform::on_workers(job)
    }));
    match result {
        Ok(exit) => exit as i32,
        Err(_) => {
            let said = || {
                console::say!(
                    "error: dopol hit an internal error (a bug); please report it with the input that caused it"
                )
            };
            match capture {
                Some(capture) => console::with_capture(capture, said),
                None => said(),
            }
            Exit::Internal as i32
        }
    }
}

/// Runs a parsed command line (after [`config::prepare`] resolved its inputs).
pub fn run(cli: &Cli) -> Exit {
    let mut command = cli.command.clone();
    let result = config::prepare(&mut command).and_then(|()| dispatch(&command));
    let exit = result.unwrap_or_else(|session::UsageError(message)| {
        console::say!("error: {message}");
        Exit::Usage
    });
    match crate::model::changed_meanwhile() {
        Ok(()) => exit,
        Err(changed) => {
            console::say!("error: {changed}");
            Exit::Input
        }
    }
}

fn dispatch(command: &Command) -> Result<Exit, session::UsageError> {
    match command {
        Command::Effective(args) => effective::run(args),
        Command::Overridden(args) => observe::overridden(args),
        Command::Status(args) => observe::status(args),
        Command::Reach(args) => observe::reach(args),
        Command::Explain(args) => observe::explain(args),
        Command::Topology(args) => observe::topology(args),
        Command::View(args) => view::run(args),
        Command::Lint(args) => lint::run(args),
        Command::Diff(args) => diff::run(args),
        Command::Request(args) => request::run(args),
        Command::Test(args) => test::run(args),
        Command::Completions(args) => Ok(generate::completions(args)),
        Command::Man(args) => Ok(generate::man(args)),
    }
}
