//! `dopol test`: the bundled suites pass and fail where they should, every machine format is
//! well-formed when cases fail (parsed here: JUnit with roxmltree, JSON against its schema,
//! SARIF against the 2.1.0 schema), a wrong suite exits 2, `--run`, coverage, and the no-weakening
//! gate on a git repository built in the test.

use crate::common::{dopol, root, run_in};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

const SHOP: &str = "testdata/examples/shop/shop.dopoltest.yaml";
const FAILING: &str = "testdata/examples/shop/shop-fails.dopoltest.yaml";

#[test]
fn the_shop_suite_passes() {
    let out = dopol(&["test", SHOP]);
    out.code(0).stdout_has(&["PASS", "8 passed, 0 failed"]);
}

#[test]
fn the_realworld_suites_pass_across_families() {
    dopol(&["test", "testdata/realworld"])
        .code(0)
        .stdout_has(&["3 passed, 0 failed"]);
}

#[test]
fn failing_cases_exit_1_with_their_first_difference() {
    let out = dopol(&["test", FAILING]);
    out.code(1).stdout_has(&[
        "FAIL",
        "path:     istio|infra/public|infra/public#http|shop/cart|shop/cart#checkout",
        "expected: authpolicy.kuadrant.io:infra/platform-auth",
        "actual:   authpolicy.kuadrant.io:shop/cart-auth",
        "0 passed, 5 failed",
    ]);
}

#[test]
fn json_is_valid_against_its_schema_whether_cases_pass_or_fail() {
    let validator = crate::schemas::validator("policy-test-report.schema.json");
    for (suite, code) in [
        (SHOP, 0),
        (FAILING, 1),
        ("testdata/codes/selects-nothing/suite.yaml", 2),
    ] {
        let out = dopol(&["test", suite, "-o", "json", "--coverage"]);
        out.code(code);
        let doc: Value = serde_json::from_str(&out.stdout).expect("JSON");
        let errors: Vec<String> = validator.iter_errors(&doc).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{suite}: {errors:?}");
    }
}

#[test]
fn junit_is_well_formed_when_cases_fail() {
    let out = dopol(&["test", FAILING, "-o", "junit"]);
    out.code(1);
    let doc = roxmltree::Document::parse(&out.stdout).expect("well-formed XML");
    let failures = doc
        .descendants()
        .filter(|n| n.has_tag_name("failure"))
        .count();
    assert_eq!(failures, 5);
    let names: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .filter_map(|n| n.attribute("name"))
        .collect();
    assert!(
        names.contains(&"the cart keeps the platform's JWT <&\"'>"),
        "{names:?}"
    );
}

#[test]
fn junit_is_well_formed_when_a_suite_is_wrong() {
    let out = dopol(&[
        "test",
        "testdata/codes/unknown-rule-key/suite.yaml",
        "-o",
        "junit",
    ]);
    out.code(2);
    roxmltree::Document::parse(&out.stdout).expect("well-formed XML");
}

#[test]
fn sarif_is_valid_when_cases_fail() {
    let out = dopol(&["test", FAILING, "-o", "sarif"]);
    out.code(1);
    let log: Value = serde_json::from_str(&out.stdout).expect("SARIF is JSON");
    let errors = crate::lint_formats::sarif_errors(&crate::lint_formats::sarif_validator(), &log);
    assert!(errors.is_empty(), "{errors:#?}");
    assert_eq!(log["runs"][0]["results"].as_array().map(Vec::len), Some(5));
}

#[test]
fn github_annotates_each_failed_case() {
    let out = dopol(&["test", FAILING, "-o", "github"]);
    out.code(1);
    assert_eq!(
        out.stdout
            .lines()
            .filter(|l| l.starts_with("::error file="))
            .count(),
        5
    );
}

#[test]
fn run_selects_cases_by_name() {
    let out = dopol(&["test", FAILING, "--run", "catalog has"]);
    out.code(1).stdout_has(&["0 passed, 1 failed"]);
    dopol(&["test", SHOP, "--run", "^HTTPS"])
        .code(0)
        .stdout_has(&["1 passed, 0 failed"]);
    dopol(&["test", SHOP, "--run", "("])
        .code(2)
        .stderr_has(&["--run"]);
}

#[test]
fn a_file_named_explicitly_that_is_not_a_suite_is_an_error() {
    dopol(&["test", "testdata/examples/shop/shop.yaml"])
        .code(2)
        .stderr_has(&["DPL9002", "is not a PolicyTest"]);
}

#[test]
fn directories_are_searched_for_suites_only() {
    // testdata/examples/shop holds manifests beside its two suites (one passes, one fails
    // where it should): the manifests are not read as suites.
    dopol(&["test", "testdata/examples"])
        .code(1)
        .stdout_has(&["8 passed, 5 failed"]);
}

#[test]
fn coverage_per_kind_and_gateway_and_fail_under() {
    let out = dopol(&["test", SHOP, "--coverage", "--show-untested", "-o", "json"]);
    out.code(0);
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    let coverage = &doc["coverage"][0];
    assert_eq!(coverage["total"]["paths"], 5);
    assert_eq!(coverage["total"]["tested"], 5);
    assert!(
        coverage["kinds"]
            .as_array()
            .unwrap()
            .iter()
            .any(|k| k["name"] == "RateLimitPolicy")
    );
    let partial = dopol(&[
        "test",
        SHOP,
        "--run",
        "catalog",
        "--coverage",
        "--show-untested",
        "--fail-under",
        "50",
    ]);
    partial.code(1).stdout_has(&[
        "Untested paths:",
        "shop/cart#checkout",
        "under --fail-under 50",
    ]);
}

fn git(dir: &Path, args: &[&str]) {
    let status = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .status()
        .expect("git runs");
    assert!(status.success(), "git {args:?}");
}

/// A repository with the shop example at `base`, then a commit that raises the platform's
/// ceiling and drops the cart's AuthPolicy.
fn repository() -> tempfile::TempDir {
    let repo = tempfile::tempdir().unwrap();
    let dir = repo.path();
    git(dir, &["init", "-q", "-b", "main"]);
    std::fs::create_dir(dir.join("manifests")).unwrap();
    let platform =
        std::fs::read_to_string(root().join("testdata/examples/shop/platform.yaml")).unwrap();
    let shop = std::fs::read_to_string(root().join("testdata/examples/shop/shop.yaml")).unwrap();
    std::fs::write(dir.join("manifests/platform.yaml"), &platform).unwrap();
    std::fs::write(dir.join("manifests/shop.yaml"), &shop).unwrap();
    std::fs::write(dir.join("all.dopoltest.yaml"), "apiVersion: dopol.dev/v1alpha1\nkind: PolicyTest\ncases:\n- name: every path is rate limited\n  paths: {gateway: public}\n  expect: {rate-limit: true}\n").unwrap();
    git(dir, &["add", "."]);
    git(dir, &["commit", "-q", "-m", "base"]);
    git(dir, &["tag", "base"]);
    let raised = platform.replace("        - limit: 1000\n", "        - limit: 5000\n");
    assert_ne!(raised, platform);
    std::fs::write(dir.join("manifests/platform.yaml"), raised).unwrap();
    git(dir, &["commit", "-q", "-am", "raise the ceiling"]);
    repo
}

#[test]
fn against_finds_weakened_paths_grouped() {
    let repo = repository();
    let out = run_in(
        repo.path(),
        &[
            "test",
            "all.dopoltest.yaml",
            "-f",
            "manifests",
            "--against",
            "base",
            "-o",
            "json",
        ],
        None,
    );
    assert_eq!(out.code, 1, "{}\n{}", out.stdout, out.stderr);
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    let weakened = doc["against"]["weakened"].as_array().unwrap();
    assert_eq!(weakened.len(), 1, "{weakened:?}");
    assert_eq!(weakened[0]["verdict"], "weaker");
    assert_eq!(weakened[0]["rule"], "global");
    assert_eq!(weakened[0]["paths"].as_array().unwrap().len(), 5);
    let same = run_in(
        repo.path(),
        &[
            "test",
            "all.dopoltest.yaml",
            "-f",
            "manifests",
            "--against",
            "HEAD",
        ],
        None,
    );
    assert_eq!(same.code, 0, "{}\n{}", same.stdout, same.stderr);
    let alone = run_in(
        &repo.path().join("manifests"),
        &["test", "-f", ".", "--against", "base"],
        None,
    );
    assert_eq!(
        alone.code, 1,
        "the gate runs without suites:\n{}\n{}",
        alone.stdout, alone.stderr
    );
    assert!(
        alone.stdout.contains("WEAKER  RateLimitPolicy `global`"),
        "{}",
        alone.stdout
    );
    assert!(
        same.stdout.contains("No path is weaker than at HEAD."),
        "{}",
        same.stdout
    );
}

#[test]
fn outcomes_overridden_and_conflicted() {
    dopol(&[
        "test",
        "testdata/envoy/conflict-age/conflict-age.dopoltest.yaml",
    ])
    .code(0)
    .stdout_has(&["2 passed, 0 failed"]);
    dopol(&["test", SHOP, "--run", "overridden"])
        .code(0)
        .stdout_has(&["1 passed, 0 failed"]);
}

#[test]
fn a_family_that_cannot_say_fails_a_neutral_check_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("timeouts.dopoltest.yaml");
    std::fs::write(&suite, "apiVersion: dopol.dev/v1alpha1\nkind: PolicyTest\ncases:\n- name: the cart is not authenticated\n  paths: {route: shop/cart}\n  expect: {authentication: false}\n").unwrap();
    let families = "testdata/families/kuadrant-model/families.yaml";
    let manifests = "testdata/families/kuadrant-model/manifests.yaml";
    let out = dopol(&[
        "test",
        suite.to_str().unwrap(),
        "-f",
        manifests,
        "--families",
        families,
    ]);
    out.code(3).stdout_has(&[
        "FAIL",
        "cannot say: the family of TimeoutPolicy cannot tell",
    ]);
}

#[test]
fn the_config_file_lists_suites_and_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let shop = root().join("testdata/examples/shop");
    std::fs::create_dir(dir.path().join("policies")).unwrap();
    std::fs::write(
        dir.path().join(".dopol.yaml"),
        format!("inputs: [{}]\ntests: [policies]\n", shop.display()),
    )
    .unwrap();
    std::fs::write(dir.path().join("policies/cart.dopoltest.yaml"), "apiVersion: dopol.dev/v1alpha1\nkind: PolicyTest\ncases:\n- name: the cart is limited\n  paths: {route: shop/cart}\n  expect: {rate-limit: true}\n").unwrap();
    let out = run_in(dir.path(), &["test"], None);
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    assert!(out.stdout.contains("1 passed, 0 failed"), "{}", out.stdout);
}

#[test]
fn a_request_dopol_request_would_refuse_is_a_suite_error() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("bad.dopoltest.yaml");
    std::fs::write(&suite, "apiVersion: dopol.dev/v1alpha1\nkind: PolicyTest\ncases:\n- name: relative\n  request: {method: GET, url: /admin}\n  expect: {route: shop/cart}\n").unwrap();
    dopol(&[
        "test",
        suite.to_str().unwrap(),
        "-f",
        "testdata/examples/shop",
    ])
    .code(2)
    .stderr_has(&["DPL9007", "the request is not valid"]);
}
