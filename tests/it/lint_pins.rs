//! Pins of today's `dopol lint -o json` output, one snapshot per fixture directory, so that a
//! refactor of the lint rules can be shown to change no diagnostic.
//!
//! The fixtures are every directory under `testdata/` that directly holds a manifest file
//! (`.yaml`, `.yml`, `.json`) — the same set `scripts/compare-outputs.sh` computes with
//! `find testdata -type f ... -printf '%h\n' | sort -u`. Each is linted from the repository root
//! (so file paths in the report stay relative, `testdata/...`), twice, to prove the output is
//! deterministic; the snapshot holds the exit code and the whole parsed report (summary and every
//! diagnostic with all of its fields). A snapshot is named from the directory path with `/`
//! replaced by `__`, so a failing pin names its fixture.
//!
//! Update after an intended change with `INSTA_UPDATE=always cargo test --test it lint_pins::` (or
//! `cargo insta test --test it --review`) and review the diff of `tests/it/snapshots/`.

use crate::common::{Output, dopol, root};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::path::Path;

/// Manifest extensions, as in `scripts/compare-outputs.sh`.
const MANIFEST_EXTENSIONS: [&str; 3] = ["yaml", "yml", "json"];

/// Every directory under `testdata/` that directly holds a manifest file, relative to the
/// repository root with `/` separators, sorted.
fn fixture_dirs() -> Vec<String> {
    fn walk(dir: &Path, relative: &str, found: &mut BTreeSet<String>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
            .map(|entry| entry.expect("directory entry"))
            .collect();
        entries.sort_by_key(|entry| entry.file_name());
        for entry in entries {
            // Like `find -type f`: symbolic links are neither followed nor counted.
            let kind = entry.file_type().expect("file type");
            let name = entry.file_name().into_string().expect("UTF-8 file name");
            if kind.is_dir() {
                walk(&entry.path(), &format!("{relative}/{name}"), found);
            } else if kind.is_file()
                && Path::new(&name)
                    .extension()
                    .and_then(|e| e.to_str())
                    .is_some_and(|e| MANIFEST_EXTENSIONS.contains(&e))
            {
                found.insert(relative.to_string());
            }
        }
    }
    let mut found = BTreeSet::new();
    walk(&root().join("testdata"), "testdata", &mut found);
    // The CRD validation fixtures are pinned message by message by tests/it/crd_upstream.rs and
    // tests/it/crd.rs; their whole reports (half a megabyte) would add nothing. The fuzz findings
    // are held by tests/it/fuzz_regressions.rs to "no crash", not to a report. The fixtures of
    // testdata/codes/ are pinned by tests/it/codes.rs, each with the arguments it needs.
    found
        .into_iter()
        .filter(|dir| {
            !dir.starts_with("testdata/crd/")
                && !dir.starts_with("testdata/fuzz")
                && !dir.starts_with("testdata/codes/")
        })
        .collect()
}

/// The snapshot name of a fixture directory.
fn snapshot_name(dir: &str) -> String {
    dir.replace('/', "__")
}

/// What is pinned for one run: the exit code and the parsed report. Should stdout not be JSON
/// (a usage error, exit 2), the raw stdout and stderr are pinned instead.
fn pin(out: &Output) -> Value {
    match serde_json::from_str::<Value>(&out.stdout) {
        Ok(report) if out.code != 2 => json!({ "exitCode": out.code, "report": report }),
        _ => json!({ "exitCode": out.code, "stdout": out.stdout, "stderr": out.stderr }),
    }
}

/// Lints one fixture directory twice and checks its pin; `Err` names the directory whose pin
/// changed (the snapshot assertion's own report is printed by insta).
fn check_pin(dir: &str) -> Result<(), String> {
    let args = ["lint", "-f", dir, "-o", "json", "--color", "never"];
    let first = dopol(&args);
    let second = dopol(&args);
    assert_eq!(
        (first.code, &first.stdout, &first.stderr),
        (second.code, &second.stdout, &second.stderr),
        "`dopol lint -f {dir}` is not deterministic"
    );
    let pinned = pin(&first);
    let name = snapshot_name(dir);
    let description = format!("dopol {}", args.join(" "));
    std::panic::catch_unwind(|| {
        insta::with_settings!({
            description => description,
            omit_expression => true,
        }, {
            insta::assert_json_snapshot!(name, pinned);
        });
    })
    .map_err(|_| dir.to_string())
}

/// Every fixture directory, its runs spread over the machine's cores (each directory is two
/// whole `dopol` processes; one after the other they took most of this test binary's time).
/// Every fixture is checked before failing, so one run lists every changed pin.
#[test]
fn lint_json_per_fixture_directory() {
    let dirs = fixture_dirs();
    assert!(
        dirs.len() >= 80,
        "expected the fixture directories of testdata/, found {dirs:?}"
    );
    let failed = crate::common::failures_on_every_core(&dirs, |dir| check_pin(dir));
    assert!(
        failed.is_empty(),
        "lint output changed for {} fixture director{}: {failed:#?}",
        failed.len(),
        if failed.len() == 1 { "y" } else { "ies" }
    );
}

/// A snapshot whose fixture directory is gone (renamed, removed) is reported rather than left
/// behind as a pin of nothing.
#[test]
fn every_pin_has_its_fixture_directory() {
    let expected: BTreeSet<String> = fixture_dirs()
        .iter()
        .map(|dir| format!("it__lint_pins__{}.snap", snapshot_name(dir)))
        .collect();
    let stale: Vec<String> = std::fs::read_dir(root().join("tests/it/snapshots"))
        .expect("tests/it/snapshots")
        .map(|entry| entry.expect("entry").file_name().into_string().unwrap())
        .filter(|name| name.starts_with("it__lint_pins__") && name.ends_with(".snap"))
        .filter(|name| !expected.contains(name))
        .collect();
    assert!(stale.is_empty(), "snapshots without a fixture: {stale:#?}");
}
