//! The pre-commit hook, for real: the `pre-commit` tool (installed into a virtualenv under
//! `target/` when it is not on PATH) builds the hook from this repository's HEAD, and a bad
//! manifest blocks a commit while a good one passes. The temporary repository is set up as
//! docs/lint.md shows: the inputs in `.dopol.yaml`, the hook without `args`.

use crate::common::root;
use std::path::{Path, PathBuf};
use std::process::Command;

fn run(cmd: &mut Command) -> std::process::Output {
    cmd.output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"))
}

fn ok(cmd: &mut Command) -> String {
    let output = run(cmd);
    assert!(
        output.status.success(),
        "{cmd:?} failed:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// `pre-commit` on PATH, or installed from PyPI into `target/pre-commit-venv`.
fn pre_commit() -> PathBuf {
    if Command::new("pre-commit")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        return PathBuf::from("pre-commit");
    }
    let venv = root().join("target/pre-commit-venv");
    let bin = venv.join("bin/pre-commit");
    if !bin.exists() {
        ok(Command::new("python3").args(["-m", "venv"]).arg(&venv));
        ok(Command::new(venv.join("bin/pip")).args(["install", "--quiet", "pre-commit"]));
    }
    bin
}

fn git(dir: &Path) -> Command {
    let mut cmd = Command::new("git");
    cmd.current_dir(dir)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com");
    cmd
}

#[test]
fn a_bad_manifest_blocks_the_commit_and_a_good_one_passes() {
    let head = ok(git(&root()).args(["rev-parse", "HEAD"]))
        .trim()
        .to_string();
    let tracked =
        ok(git(&root()).args(["ls-tree", "--name-only", &head, ".pre-commit-hooks.yaml"]));
    assert_eq!(
        tracked.trim(),
        ".pre-commit-hooks.yaml",
        "HEAD must contain the hook definition (commit it first)"
    );

    let pre_commit = pre_commit();
    let repo = tempfile::tempdir().unwrap();
    let dir = repo.path();
    ok(git(dir).args(["init", "-q", "-b", "main"]));
    std::fs::create_dir(dir.join("manifests")).unwrap();
    for file in ["platform.yaml", "shop.yaml"] {
        std::fs::copy(
            root().join("testdata/examples/shop").join(file),
            dir.join("manifests").join(file),
        )
        .unwrap();
    }
    // As docs/lint.md shows it: the inputs in `.dopol.yaml`, the hook without args.
    std::fs::write(dir.join(".dopol.yaml"), "inputs: [manifests/]\n").unwrap();
    std::fs::write(
        dir.join(".pre-commit-config.yaml"),
        format!(
            "repos:\n- repo: {}\n  rev: {head}\n  hooks:\n  - id: dopol-lint\n",
            root().display()
        ),
    )
    .unwrap();
    // The hook is built once and cached under target/ across test runs. pre-commit builds it
    // with `cargo install` (the release profile); this test proves the hook's wiring, not the
    // optimizer, so the profile is set to build like `dev` does: without it, this one test was
    // a second optimized build of every crate, minutes of CI.
    let with_env = |mut cmd: Command| {
        cmd.env("PRE_COMMIT_HOME", root().join("target/pre-commit-home"))
            .env("CARGO_TARGET_DIR", root().join("target/pre-commit-build"))
            .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "0")
            .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "256")
            .env("CARGO_PROFILE_RELEASE_STRIP", "false");
        cmd
    };
    let mut install = with_env(Command::new(&pre_commit));
    ok(install.current_dir(dir).args(["install"]));

    ok(git(dir).args(["add", "."]));
    let mut commit = with_env(git(dir));
    let good = run(commit.args(["commit", "-q", "-m", "good manifests"]));
    assert!(
        good.status.success(),
        "the good commit was blocked:\n{}{}",
        String::from_utf8_lossy(&good.stdout),
        String::from_utf8_lossy(&good.stderr)
    );

    std::fs::write(
        dir.join("manifests/dangling.yaml"),
        "apiVersion: kuadrant.io/v1\nkind: AuthPolicy\nmetadata: {name: dangling, namespace: shop}\nspec:\n  targetRef: {group: gateway.networking.k8s.io, kind: HTTPRoute, name: carts}\n  rules:\n    authentication:\n      key: {apiKey: {selector: {}}}\n",
    )
    .unwrap();
    ok(git(dir).args(["add", "."]));
    let mut commit = with_env(git(dir));
    let bad = run(commit.args(["commit", "-q", "-m", "bad manifest"]));
    let output = format!(
        "{}{}",
        String::from_utf8_lossy(&bad.stdout),
        String::from_utf8_lossy(&bad.stderr)
    );
    assert!(
        !bad.status.success(),
        "the bad commit went through:\n{output}"
    );
    assert!(
        output.contains("[DPL3001] HTTPRoute target carts was not found"),
        "{output}"
    );
    assert!(output.contains("did you mean `cart`?"), "{output}");
    let log = ok(git(dir).args(["log", "--oneline"]));
    assert_eq!(log.lines().count(), 1, "only the good commit exists");
}
