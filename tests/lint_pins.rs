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
//! Update after an intended change with `INSTA_UPDATE=always cargo test --test lint_pins` (or
//! `cargo insta test --test lint_pins --review`) and review the diff of `tests/snapshots/`.

mod common;
use common::{Output, dopol, root};
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
    // The CRD validation fixtures are pinned message by message by tests/crd_upstream.rs and
    // tests/crd.rs; their whole reports (half a megabyte) would add nothing. The fuzz findings
    // are held by tests/fuzz_regressions.rs to "no crash", not to a report.
    found
        .into_iter()
        .filter(|dir| !dir.starts_with("testdata/crd/") && !dir.starts_with("testdata/fuzz"))
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

#[test]
fn lint_json_per_fixture_directory() {
    let dirs = fixture_dirs();
    assert!(
        dirs.len() >= 80,
        "expected the fixture directories of testdata/, found {dirs:?}"
    );

    let mut failed = Vec::new();
    for dir in &dirs {
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
        // Every fixture is checked before failing, so one run lists every changed pin.
        let result = std::panic::catch_unwind(|| {
            insta::with_settings!({
                description => description,
                omit_expression => true,
            }, {
                insta::assert_json_snapshot!(name, pinned);
            });
        });
        if result.is_err() {
            failed.push(dir.clone());
        }
    }
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
        .map(|dir| format!("lint_pins__{}.snap", snapshot_name(dir)))
        .collect();
    let stale: Vec<String> = std::fs::read_dir(root().join("tests/snapshots"))
        .expect("tests/snapshots")
        .map(|entry| entry.expect("entry").file_name().into_string().unwrap())
        .filter(|name| name.starts_with("lint_pins__") && name.ends_with(".snap"))
        .filter(|name| !expected.contains(name))
        .collect();
    assert!(stale.is_empty(), "snapshots without a fixture: {stale:#?}");
}
