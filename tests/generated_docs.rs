//! The committed completions (`completions/`) and man pages (`man/`) match the CLI definition.
//! Regenerate them with `scripts/generate-docs.sh`.

mod common;
use common::root;
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
    let out = common::dopol(&["completions", "bash"]);
    out.code(0);
    assert_eq!(
        out.stdout.as_bytes(),
        std::fs::read(root().join("completions/dopol.bash")).unwrap()
    );
    assert!(out.stdout.contains("effective") && out.stdout.contains("--fail-on"));
}
