//! One fixture and one snapshot per lint code, in the style of ruff's rule fixtures: every code of
//! the catalogue (`dopol lint --list`, [`Code::all`]) has a directory `testdata/codes/<name>/`
//! holding the smallest manifest set that makes `dopol lint` report it, and a snapshot
//! `snapshots/it__codes__<name>.snap` of the human report. A documented code that no fixture
//! produces fails here, as does a fixture or snapshot left behind by a removed or renamed code.
//!
//! A fixture is linted with `-f testdata/codes/<name>` unless its directory holds an `args` file:
//! then the file's lines are the arguments instead (one argument per line; blank lines and lines
//! starting with `#` are comments), for the codes that need `--config`, `--families`, `--crds`,
//! `--assume-gateways` or a path that does not exist. Paths are relative to the repository root.
//! An `args` file whose first argument is `test` runs `dopol test` instead of `dopol lint`: the
//! codes of a suite that is wrong (DPL9xxx) are reported there.
//!
//! A retired code (its summary starts with `Retired:`) stays in the catalogue so that suppressions
//! naming it stay valid, and is never reported: its fixture is the input that used to report it,
//! and the check is that it no longer does (the snapshot pins what lint says instead).
//!
//! Update the snapshots after an intended change with
//! `INSTA_UPDATE=always cargo test --test it codes::` and review the diff of `tests/it/snapshots/`.

use crate::common::{Output, dopol, root};
use dopol::diag::Code;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;

/// Where the fixtures are, relative to the repository root.
const FIXTURES: &str = "testdata/codes";

/// The snapshot file name prefix of this module.
const SNAPSHOT_PREFIX: &str = "it__codes__";

/// The arguments that select a code's fixture: its `args` file, or `-f testdata/codes/<name>`.
fn fixture_args(name: &str) -> Vec<String> {
    let dir = format!("{FIXTURES}/{name}");
    let args_file = root().join(&dir).join("args");
    match std::fs::read_to_string(&args_file) {
        Ok(text) => {
            let args: Vec<String> = text
                .lines()
                .map(str::trim)
                .filter(|line| !line.is_empty() && !line.starts_with('#'))
                .map(str::to_string)
                .collect();
            assert!(!args.is_empty(), "{dir}/args names no argument");
            args
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => vec!["-f".to_string(), dir],
        Err(e) => panic!("read {}: {e}", args_file.display()),
    }
}

/// `dopol lint <fixture args> <extra>`, or `dopol test <args> <extra>` for a fixture whose
/// `args` start with `test` (the codes of a wrong suite, which `dopol test` reports).
fn lint(fixture: &[String], extra: &[&str]) -> (String, Output) {
    let mut args: Vec<&str> = if fixture.first().is_some_and(|a| a == "test") {
        Vec::new()
    } else {
        vec!["lint"]
    };
    args.extend(fixture.iter().map(String::as_str));
    args.extend_from_slice(extra);
    (format!("dopol {}", args.join(" ")), dopol(&args))
}

/// The `(code, name)` of every diagnostic of a `dopol lint -o json` report.
fn reported(out: &Output) -> Result<Vec<(String, String)>, String> {
    let report: Value = serde_json::from_str(&out.stdout).map_err(|e| {
        format!(
            "stdout is not JSON ({e}); exit code {}\nstdout:\n{}\nstderr:\n{}",
            out.code, out.stdout, out.stderr
        )
    })?;
    let diagnostics = report["diagnostics"]
        .as_array()
        .ok_or_else(|| format!("no `diagnostics` in the report:\n{}", out.stdout))?;
    Ok(diagnostics
        .iter()
        .map(|d| {
            let text = |key: &str| d[key].as_str().unwrap_or_default().to_string();
            (text("code"), text("name"))
        })
        .collect())
}

/// What the snapshot of a code holds: the command, its exit code, stdout and stderr.
fn pin(command: &str, out: &Output) -> String {
    format!(
        "$ {command}\nexit code: {}\n----- stdout -----\n{}----- stderr -----\n{}",
        out.code, out.stdout, out.stderr
    )
}

/// Lints the fixture of `code` as JSON (it must report the code) and as the human report (it must
/// match the snapshot named after the code). `Err` says what went wrong.
fn check_code(code: Code) -> Result<(), String> {
    let name = code.name();
    let fixture = fixture_args(name);
    let (command, json) = lint(&fixture, &["-o", "json", "--color", "never"]);
    let found = reported(&json).map_err(|e| format!("{name}: `{command}`: {e}"))?;
    let is_reported = found.iter().any(|(id, n)| id == code.as_str() && n == name);
    if retired(code) {
        if is_reported {
            return Err(format!("{name} is retired, yet `{command}` reports it"));
        }
        let (command, human) = lint(&fixture, &["--color", "never"]);
        return pin_snapshot(code, &command, &human);
    }
    if !is_reported {
        let names: Vec<&str> = found.iter().map(|(_, n)| n.as_str()).collect();
        return Err(format!(
            "{name} ({}): `{command}` does not report it; it reports {names:?}",
            code.as_str()
        ));
    }
    let (command, human) = lint(&fixture, &["--color", "never"]);
    let tag = format!("[{}]", code.as_str());
    if !human.stdout.contains(&tag) && !human.stderr.contains(&tag) {
        return Err(format!(
            "{name}: the human report of `{command}` does not show {tag}"
        ));
    }
    pin_snapshot(code, &command, &human)
}

/// Whether `code` is retired: kept in the catalogue, never reported.
fn retired(code: Code) -> bool {
    code.summary().starts_with("Retired:")
}

/// The human report of `command` matches the snapshot named after `code`.
fn pin_snapshot(code: Code, command: &str, human: &Output) -> Result<(), String> {
    let name = code.name();
    let text = pin(command, human);
    std::panic::catch_unwind(|| {
        insta::with_settings!({
            description => format!("{} {name}: {}", code.as_str(), code.summary()),
            omit_expression => true,
        }, {
            insta::assert_snapshot!(name, text);
        });
    })
    .map_err(|_| format!("{name}: the human report differs from its snapshot"))
}

/// Every code is reported by its fixture, and its human report matches its snapshot. The runs
/// are spread over the machine's cores; every code is checked before failing.
#[test]
fn every_code_is_reported_by_its_fixture() {
    let codes: Vec<Code> = Code::all().collect();
    let failed = crate::common::failures_on_every_core(&codes, |code| check_code(*code));
    assert!(
        failed.is_empty(),
        "{} of {} codes fail their fixture:\n{}",
        failed.len(),
        codes.len(),
        failed.join("\n")
    );
}

/// The names of the entries of a directory.
fn entries(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").file_name())
        .map(|name| name.into_string().expect("UTF-8 file name"))
        .collect()
}

/// Every code has a fixture directory, and every entry of testdata/codes/ is the directory of a
/// code (none is left behind by a renamed or removed code).
#[test]
fn every_code_has_a_fixture_directory_and_every_directory_a_code() {
    let names: BTreeSet<String> = Code::all().map(|c| c.name().to_string()).collect();
    let dirs = entries(&root().join(FIXTURES));
    let missing: Vec<&String> = names.difference(&dirs).collect();
    let stale: Vec<&String> = dirs.difference(&names).collect();
    assert!(
        missing.is_empty() && stale.is_empty(),
        "codes without a directory in {FIXTURES}/: {missing:?}\nentries of {FIXTURES}/ naming no code: {stale:?}"
    );
    for name in &dirs {
        assert!(
            root().join(FIXTURES).join(name).is_dir(),
            "{FIXTURES}/{name} is not a directory"
        );
    }
}

/// Every `it__codes__*.snap` is named after a code: a renamed or removed code leaves no pin of
/// nothing behind.
#[test]
fn every_snapshot_names_a_code() {
    let names: BTreeSet<String> = Code::all().map(|c| c.name().to_string()).collect();
    let stale: Vec<String> = entries(&root().join("tests/it/snapshots"))
        .into_iter()
        .filter_map(|file| {
            let name = file.strip_prefix(SNAPSHOT_PREFIX)?.strip_suffix(".snap")?;
            (!names.contains(name)).then(|| file.clone())
        })
        .collect();
    assert!(stale.is_empty(), "snapshots naming no code: {stale:#?}");
}
