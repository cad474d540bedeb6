//! The config file `.dopol.yaml`, through the real binary: found upward from the working
//! directory, paths relative to it, the command line winning over it, `--config` and
//! `--no-config`, located diagnostics for a bad file (exit 2), and the pre-commit hook's and the
//! GitHub Actions job's commands working with it as written in docs/lint.md.

use crate::common::{root, run_in};
use std::fs;
use std::path::Path;

fn write(dir: &Path, path: &str, text: &str) {
    let path = dir.join(path);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

/// A route whose parentRef names a Gateway the input lacks: a DPL2001 warning.
const ORPHAN: &str = "apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: orphan, namespace: shop}
spec:
  parentRefs: [{name: missing, namespace: infra}]
";

/// A project: the shop example under `deploy/manifests` (plus a route with a warning), an
/// extra directory `other/`, and `src/app/` to run from.
fn project(config: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for file in ["platform.yaml", "shop.yaml"] {
        let text = fs::read_to_string(root().join("testdata/examples/shop").join(file)).unwrap();
        write(d, &format!("deploy/manifests/{file}"), &text);
    }
    write(d, "deploy/manifests/orphan.yaml", ORPHAN);
    write(d, "deploy/manifests/orphan.tmpl.yaml", ORPHAN);
    fs::create_dir_all(d.join("src/app")).unwrap();
    write(d, ".dopol.yaml", config);
    dir
}

const CONFIG: &str = "# dopol settings for this repository
inputs: [deploy/manifests/]
exclude: ['*.tmpl.yaml']
lint:
  fail-on: warning
  ignore: [ordered-by-name]
";

#[test]
fn the_config_is_found_upward_and_its_paths_are_relative_to_it() {
    let dir = project(CONFIG);
    let out = run_in(&dir.path().join("src/app"), &["lint", "-v"], None);
    out.code(1).stderr_has(&[
        "using config file ../../.dopol.yaml",
        "read 3 files",
        "0 errors, 1 warning, 0 infos in 10 objects from 3 files",
    ]);
    out.stdout_has(&[
        "⚠ [DPL2001] parentRef names Gateway infra/missing, which is not in the input",
        "╭─[../../deploy/manifests/orphan.yaml:5:23]",
    ]);
    // Every command reading manifests takes the inputs from it.
    let out = run_in(&dir.path().join("src/app"), &["topology"], None);
    out.code(0).stdout_has(&["Gateway infra/public"]);
}

#[test]
fn the_command_line_wins_over_the_config() {
    let dir = project(CONFIG);
    let d = dir.path();
    // --fail-on replaces the config's fail-on.
    let out = run_in(d, &["lint", "--fail-on", "error"], None);
    out.code(0);
    assert_eq!(
        out.stderr,
        "0 errors, 1 warning, 0 infos in 10 objects from 3 files\n"
    );
    // --ignore adds to the config's ignore.
    let out = run_in(d, &["lint", "--ignore", "DPL2001"], None);
    out.code(0);
    assert_eq!(
        out.stderr,
        "no issues (1 suppressed) in 10 objects from 3 files\n"
    );
    // Paths on the command line replace the config's inputs (its excludes stay).
    let out = run_in(
        d,
        &[
            "lint",
            "deploy/manifests/platform.yaml",
            "deploy/manifests/shop.yaml",
        ],
        None,
    );
    out.code(0);
    assert_eq!(out.stderr, "no issues in 9 objects from 2 files\n");
    let out = run_in(d, &["lint", "-v", "deploy"], None);
    out.code(1).stderr_has(&["read 3 files"]);
    // --exclude adds to the config's exclude.
    let out = run_in(d, &["lint", "--exclude", "orphan.yaml"], None);
    out.code(0);
    assert_eq!(out.stderr, "no issues in 9 objects from 2 files\n");
    // --min-severity from the config, and over it.
    write(
        d,
        ".dopol.yaml",
        &format!("{CONFIG}  min-severity: error\n"),
    );
    let out = run_in(d, &["lint"], None);
    out.code(1);
    assert_eq!(out.stdout, "");
    let out = run_in(d, &["lint", "--min-severity", "warning"], None);
    out.code(1).stdout_has(&["[DPL2001]"]);
}

#[test]
fn config_and_no_config_choose_the_file() {
    let dir = project("inputs: [does-not-exist/]\n");
    let d = dir.path();
    write(
        d,
        "ci/dopol.yaml",
        "inputs: [../deploy/manifests]\nexclude: ['orphan*']\n",
    );
    let out = run_in(d, &["lint", "--config", "ci/dopol.yaml"], None);
    out.code(0);
    assert_eq!(out.stderr, "no issues in 9 objects from 2 files\n");
    let out = run_in(d, &["lint", "--no-config"], None);
    out.code(2)
        .stderr_has(&["error: no input: name manifests as paths"]);
    let out = run_in(
        d,
        &[
            "lint",
            "--no-config",
            "deploy/manifests/shop.yaml",
            "deploy/manifests/platform.yaml",
        ],
        None,
    );
    out.code(0);
    let out = run_in(d, &["lint"], None);
    out.code(3)
        .stdout_has(&["× [DPL1002] `does-not-exist/` does not exist"]);
    let out = run_in(d, &["lint", "--config", "nowhere.yaml"], None);
    out.code(2).stderr_has(&[
        "× [DPL1020] cannot read the config file `nowhere.yaml`: No such file or directory",
    ]);
}

#[test]
fn a_bad_config_is_reported_where_it_is_and_stops_the_run() {
    let dir = project(
        "inputs: deploy/manifests
exlude: ['*.tmpl.yaml']
lint:
  fail-on: warn
  ignore: [DPL2001, granularty-trap]
  min-severity: 3
",
    );
    let out = run_in(&dir.path().join("src"), &["lint"], None);
    out.code(2);
    assert_eq!(out.stdout, "");
    assert_eq!(
        out.stderr,
        "  × [DPL1020] unknown key `exlude` in the config file
   ╭─[../.dopol.yaml:2:1]
 1 │ inputs: deploy/manifests
 2 │ exlude: ['*.tmpl.yaml']
   · ───┬──
   ·    ╰── not a setting
 3 │ lint:
   ╰────
  help: did you mean `exclude`?

  × [DPL1020] `lint.fail-on` must be one of error, warning, info; found `warn`
   ╭─[../.dopol.yaml:4:12]
 3 │ lint:
 4 │   fail-on: warn
   ·            ──┬─
   ·              ╰── not a level
 5 │   ignore: [DPL2001, granularty-trap]
   ╰────
  help: did you mean `warning`?

  × [DPL1020] `lint.ignore`: unknown diagnostic code `granularty-trap`
   ╭─[../.dopol.yaml:5:21]
 4 │   fail-on: warn
 5 │   ignore: [DPL2001, granularty-trap]
   ·                     ───────┬───────
   ·                            ╰── not a code or check name
 6 │   min-severity: 3
   ╰────
  help: did you mean `granularity-trap`?

  × [DPL1020] `lint.min-severity` must be a string, found an integer
   ╭─[../.dopol.yaml:6:17]
 5 │   ignore: [DPL2001, granularty-trap]
 6 │   min-severity: 3
   ·                 ┬
   ·                 ╰── expected a string
   ╰────

error: the config file `../.dopol.yaml` is not valid (4 problems); nothing was evaluated (--no-config ignores it)
"
    );
    // Every manifest-reading command stops the same way; --no-config runs.
    let out = run_in(&dir.path().join("src"), &["effective"], None);
    out.code(2).stderr_has(&["[DPL1020] unknown key `exlude`"]);
    let out = run_in(
        &dir.path().join("src"),
        &[
            "lint",
            "--no-config",
            "../deploy/manifests/shop.yaml",
            "../deploy/manifests/platform.yaml",
        ],
        None,
    );
    out.code(0);
    // `lint --list` needs no config.
    run_in(&dir.path().join("src"), &["lint", "--list"], None).code(0);
}

#[test]
fn invalid_yaml_in_the_config_is_located() {
    let dir = project("inputs: [deploy/\n");
    let out = run_in(dir.path(), &["lint"], None);
    out.code(2).stderr_has(&[
        "× [DPL1020] invalid YAML:",
        "╭─[.dopol.yaml:",
        "error: the config file `.dopol.yaml` is not valid (1 problem)",
    ]);
}

#[test]
fn families_in_the_config_are_relative_to_it() {
    let dir = project("inputs: [deploy/manifests]\nfamilies: [policy/families.yaml]\n");
    write(
        dir.path(),
        "policy/families.yaml",
        "apiVersion: dopol/v1\nkind: PolicyFamilies\nfamilies: 3\n",
    );
    let out = run_in(
        &dir.path().join("src"),
        &["lint", "--fail-on", "error"],
        None,
    );
    out.code(2)
        .stderr_has(&["[DPL1014]", "╭─[../policy/families.yaml:3:11]"]);
}

#[test]
fn the_documented_pre_commit_and_github_actions_commands_work_with_a_config() {
    let dir = project(CONFIG);
    // The hook runs `dopol lint` with the hook's `args` (none: the config has the inputs).
    let out = run_in(dir.path(), &["lint"], None);
    out.code(1).stdout_has(&["⚠ [DPL2001]"]);
    // The GitHub Actions job.
    let out = run_in(dir.path(), &["lint", "-o", "github"], None);
    out.code(1);
    assert_eq!(
        out.stdout,
        "::warning file=deploy/manifests/orphan.yaml,line=5,col=23,endLine=5,endColumn=30,title=DPL2001 parent-not-found::parentRef names Gateway infra/missing, which is not in the input (ParentNotFound)%0Ahelp: add the Gateway's manifest to the inputs, or pass --assume-gateways to evaluate against a stand-in\n"
    );
    let out = run_in(dir.path(), &["lint", "-o", "sarif"], None);
    out.code(1);
    assert_eq!(
        out.json()["runs"][0]["results"].as_array().unwrap().len(),
        1
    );
}
