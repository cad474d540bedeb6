//! What the command targets share: running dopol's commands in this process on a file, with
//! their output thrown away.

use clap::Parser as _;
use dopol::cli::args::Cli;
use std::path::PathBuf;
use std::sync::Once;

/// Sends this process's stdout to /dev/null (once): the commands print documents the fuzzer
/// does not read. (Run with `-close_fd_mask=2` to silence their diagnostics too; libFuzzer keeps
/// its own output.)
pub fn quiet() {
    static QUIET: Once = Once::new();
    QUIET.call_once(|| {
        let null = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/null")
            .expect("/dev/null");
        use std::os::fd::AsRawFd;
        // SAFETY: dup2 on valid descriptors; the File stays open for the process's lifetime.
        unsafe {
            libc::dup2(null.as_raw_fd(), 1);
        }
        std::mem::forget(null);
    });
}

/// A file of this process to write inputs to (one per target process).
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dopol-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir.join(name)
}

/// A fixture of the repository.
pub fn fixture(path: &str) -> String {
    format!("{}/../{path}", env!("CARGO_MANIFEST_DIR"))
}

/// How long one command may take on one input (the "hang": over 2 s on an input under
/// 64 KiB), with room for the sanitizer's slowdown.
const HANG: std::time::Duration = std::time::Duration::from_secs(6);

/// Runs `dopol ARGS` as `main` does (on dopol's workers); a panic is a finding, and so is a
/// command slower than [`HANG`].
pub fn run(args: &[&str]) {
    let mut all = vec!["dopol"];
    all.extend_from_slice(args);
    let cli = match Cli::try_parse_from(all) {
        Ok(cli) => cli,
        Err(error) => panic!("the fuzz target built a bad command line {args:?}: {error}"),
    };
    let started = std::time::Instant::now();
    dopol::platform::on_workers(|| dopol::cli::run(&cli));
    let took = started.elapsed();
    assert!(
        took < HANG,
        "hang: `dopol {}` took {took:?}",
        args.join(" ")
    );
}

/// The command lines a target runs on `file`: every report command in every format
/// (`route`: what `explain` looks at; `policy`: what `reach` looks at).
pub fn commands(file: &str, route: &str, policy: &str) -> Vec<Vec<String>> {
    let shop = fixture("testdata/examples/shop");
    let mut out: Vec<Vec<&str>> = Vec::new();
    for format in ["table", "json", "yaml"] {
        out.push(vec!["effective", "-o", format, "-f", file]);
        out.push(vec!["status", "-o", format, "-f", file]);
        out.push(vec!["overridden", "-o", format, "-f", file]);
        out.push(vec!["explain", "-o", format, "--route", route, "-f", file]);
        out.push(vec!["reach", "-o", format, policy, "-f", file]);
    }
    out.push(vec!["effective", "-o", "json", "--compact", "-f", file]);
    for format in ["tree", "dot", "mermaid"] {
        out.push(vec!["topology", "-o", format, "-f", file]);
    }
    for format in ["human", "json", "sarif", "github", "junit"] {
        out.push(vec!["lint", "-o", format, "-f", file]);
    }
    out.push(vec!["diff", &shop, file]);
    out.push(vec!["diff", "-o", "json", file, &shop]);
    (out.into_iter())
        .map(|args| args.into_iter().map(str::to_string).collect())
        .collect()
}

/// Runs the command `choice` picks among [`commands`] (one per input keeps a run fast; the
/// fuzzer's choices cover them all).
pub fn one_command(choice: u8, file: &str, route: &str, policy: &str) {
    let all = commands(file, route, policy);
    let args = &all[usize::from(choice) % all.len()];
    run(&args.iter().map(String::as_str).collect::<Vec<_>>());
}
