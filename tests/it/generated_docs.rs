//! The committed completions (`completions/`) and man pages (`man/`) match the CLI definition.
//! Regenerate them with `scripts/generate-docs.sh`.

use crate::common::root;
use dopol::cli::generate::{COMPLETION_FILES, completion_script, man_pages};

#[test]
fn completions_are_up_to_date() {
    for (shell, file) in COMPLETION_FILES {
        let committed = std::fs::read(root().join("completions").join(file)).unwrap_or_default();
        assert!(
            committed == completion_script(*shell),
            "completions/{file} is out of date: run scripts/generate-docs.sh"
        );
    }
}

#[test]
fn man_pages_are_up_to_date_and_complete() {
    let pages = man_pages();
    for (name, content) in &pages {
        let committed = std::fs::read(root().join("man").join(name)).unwrap_or_default();
        assert!(
            committed == *content,
            "man/{name} is out of date: run scripts/generate-docs.sh"
        );
    }
    let mut committed: Vec<String> = std::fs::read_dir(root().join("man"))
        .expect("man/ exists")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    committed.sort();
    let mut expected: Vec<String> = pages.into_iter().map(|(name, _)| name).collect();
    expected.sort();
    assert_eq!(
        committed, expected,
        "man/ holds stale pages: run scripts/generate-docs.sh"
    );
    assert!(
        expected.contains(&"dopol-lint.1".to_string())
            && expected.contains(&"dopol-effective.1".to_string())
    );
}

#[test]
fn completion_command_prints_the_committed_script() {
    let out = crate::common::dopol(&["completions", "bash"]);
    out.code(0);
    assert_eq!(
        out.stdout.as_bytes(),
        std::fs::read(root().join("completions/dopol.bash")).unwrap()
    );
    assert!(out.stdout.contains("effective") && out.stdout.contains("--fail-on"));
}

/// `--kind`, `--ignore`, `--explain`, `--fail-on` and `--min-severity` complete their values in
/// bash, zsh and fish: the bundled kinds, the lint codes and their names, the levels.
#[test]
fn completions_offer_kinds_codes_and_levels() {
    for shell in ["bash", "zsh", "fish"] {
        let out = crate::common::dopol(&["completions", shell]);
        out.code(0);
        for candidate in [
            "RateLimitPolicy",
            "TrafficPolicy",
            "SecurityPolicy",
            "DPL4004",
            "ordered-by-name",
            "DPL6007",
            "warning",
        ] {
            assert!(
                out.stdout.contains(candidate),
                "{shell} completion lacks {candidate}"
            );
        }
    }
    let bash = std::fs::read_to_string(root().join("completions/dopol.bash")).unwrap();
    let explain = bash
        .split("--explain)")
        .nth(1)
        .and_then(|rest| rest.lines().nth(1))
        .expect("bash completes --explain");
    assert!(
        explain.contains("DPL1001") && explain.contains("granularity-trap"),
        "{explain}"
    );
}

/// Values outside the completion lists are still accepted where they are valid today.
#[test]
fn completion_lists_do_not_restrict_values() {
    crate::common::dopol(&[
        "effective",
        "-f",
        "testdata/examples/shop",
        "--kind",
        "ratelimitpolicies.kuadrant.io",
        "-o",
        "json",
    ])
    .code(0);
    crate::common::dopol(&["lint", "--explain", "dpl4004"])
        .code(0)
        .stdout_has(&["DPL4004 ordered-by-name"]);
    crate::common::dopol(&[
        "lint",
        "-f",
        "testdata/examples/shop",
        "--ignore",
        "DPL4003,default-superseded-everywhere",
    ])
    .code(0);
    let out = crate::common::dopol(&[
        "effective",
        "-f",
        "testdata/examples/shop",
        "--kind",
        "NoSuchPolicy",
    ]);
    out.code(2);
}

/// Every man page has EXAMPLES and EXIT STATUS; `lint` documents `dopol.io/ignore`.
#[test]
fn man_pages_have_examples_and_exit_status() {
    for (name, content) in man_pages() {
        let text = String::from_utf8(content).unwrap();
        assert!(
            text.contains(".SH EXAMPLES\n.TP\n"),
            "{name} lacks EXAMPLES"
        );
        assert!(
            text.contains(".SH \"EXIT STATUS\"\n.TP\n\\fB0\\fR\n"),
            "{name} lacks EXIT STATUS"
        );
        assert!(text.contains("\\fB4\\fR\ninternal error (a bug)"), "{name}");
    }
    let lint = String::from_utf8(
        man_pages()
            .into_iter()
            .find(|(n, _)| n == "dopol-lint.1")
            .unwrap()
            .1,
    )
    .unwrap();
    assert!(lint.contains("dopol.io/ignore"));
    assert!(lint.contains("\\fB1\\fR\na finding at or above \\-\\-fail\\-on"));
    let help = crate::common::dopol(&["lint", "--help"]);
    help.code(0)
        .stdout_has(&["dopol.io/ignore: \"DPL4004,granularity-trap\""]);
}
