//! The command-line front end: the only module that knows clap, the terminal and exit codes.
//!
//! `main` calls [`main_exit_code`]; each command parses its flags into plain options, runs the
//! library pipeline, prints diagnostics to stderr and the document to stdout.

pub mod args;
pub mod effective;
pub mod generate;
pub mod session;

use args::{Cli, Command};
use clap::Parser;
use session::{Exit, Session};

/// Parses `std::env::args`, runs the command, and returns the process exit code.
/// Panics are caught and reported as internal errors (exit code 4).
pub fn main_exit_code() -> i32 {
    let cli = Cli::parse();
    let result = std::panic::catch_unwind(|| run(&cli));
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

/// Runs a parsed command line.
pub fn run(cli: &Cli) -> Exit {
    let result = match &cli.command {
        Command::Effective(args) => effective::run(args),
        Command::Completions(args) => Ok(generate::completions(args)),
        Command::Man(args) => Ok(generate::man(args)),
    };
    result.unwrap_or_else(|session::UsageError(message)| {
        eprintln!("error: {message}");
        Exit::Usage
    })
}

/// With `-v`: what was read.
fn print_stats(session: &Session, evaluated: &crate::pipeline::Evaluated) {
    let stats = &evaluated.model.stats;
    let model = &evaluated.model;
    session.info(&format!(
        "read {} files, {} documents: {} objects dopol reads ({} gateways, {} routes, {} policies), {} objects of other kinds skipped; {} paths",
        stats.files,
        stats.documents,
        stats.objects,
        model.gateways.len(),
        model.routes.len(),
        model.policies.len(),
        stats.skipped_other_kinds,
        evaluated.topology.paths.len()
    ));
}
