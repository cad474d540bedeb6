//! The command-line front end: the only module that knows clap, the terminal and exit codes.
//!
//! `main` calls [`main_exit_code`]; each command parses its flags into plain options, runs the
//! library pipeline, prints diagnostics to stderr and the document to stdout.

pub mod args;
pub mod catalogue;
pub mod config;
pub mod diff;
pub mod effective;
pub mod generate;
pub mod lint;
pub mod observe;
pub mod options;
pub mod request;
pub mod session;
pub mod test;

use args::{Cli, Command};
use clap::Parser;
use session::Exit;

/// Parses `std::env::args`, runs the command, and returns the process exit code.
/// Panics are caught and reported as internal errors (exit code 4).
pub fn main_exit_code() -> i32 {
    let cli = Cli::parse();
    let result = std::panic::catch_unwind(|| crate::platform::on_workers(|| run(&cli)));
    match result {
        Ok(exit) => exit as i32,
        Err(_) => {
            eprintln!(
                "error: dopol hit an internal error (a bug); please report it with the input that caused it"
            );
            Exit::Internal as i32
        }
    }
}

/// Runs a parsed command line (after [`config::prepare`] resolved its inputs).
pub fn run(cli: &Cli) -> Exit {
    let mut command = cli.command.clone();
    let result = config::prepare(&mut command).and_then(|()| dispatch(&command));
    let exit = result.unwrap_or_else(|session::UsageError(message)| {
        eprintln!("error: {message}");
        Exit::Usage
    });
    match crate::model::changed_meanwhile() {
        Ok(()) => exit,
        Err(changed) => {
            eprintln!("error: {changed}");
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
        Command::Lint(args) => lint::run(args),
        Command::Diff(args) => diff::run(args),
        Command::Request(args) => request::run(args),
        Command::Test(args) => test::run(args),
        Command::Completions(args) => Ok(generate::completions(args)),
        Command::Man(args) => Ok(generate::man(args)),
    }
}
