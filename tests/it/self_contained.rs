//! Nothing in the repository points outside it: the reference is `docs/`, so no tracked text
//! file may cite a specification that a clone does not have.

use crate::common::root;
use std::process::Command;

/// What a pointer outside the repository looks like (assembled so that this file does not match
/// itself).
fn forbidden() -> Vec<String> {
    let section = '\u{a7}';
    vec![
        format!("../{}", "shared"),
        format!("SPEC {section}"),
        format!("SPEC{}", ".md"),
        format!("families {section}"),
        format!("families.md {section}"),
        format!("request.md {section}"),
    ]
}

/// Every tracked text file with its contents. Files vanish from a work tree without leaving
/// the index (a deletion not yet committed); binary files are not text.
fn tracked_texts() -> Vec<(String, String)> {
    let out = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(root())
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git ls-files failed");
    let files: Vec<(String, String)> = String::from_utf8(out.stdout)
        .unwrap()
        .split('\0')
        .filter(|f| !f.is_empty())
        .filter_map(|f| {
            let text = std::fs::read_to_string(root().join(f)).ok()?;
            Some((f.to_string(), text))
        })
        .collect();
    assert!(files.iter().any(|(f, _)| f == "README.md"));
    files
}

#[test]
fn no_tracked_file_points_outside_the_repository() {
    let patterns = forbidden();
    let mut found = Vec::new();
    for (file, text) in &tracked_texts() {
        for (n, line) in text.lines().enumerate() {
            // `docs/families.md §2.6` is this repository's own rule number.
            let outside = line.replace("docs/families.md", "");
            if let Some(pattern) = patterns.iter().find(|p| outside.contains(p.as_str())) {
                found.push(format!("{file}:{}: `{pattern}`: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "pointers outside the repository (cite docs/ instead):\n{}",
        found.join("\n")
    );
}

/// GitHub's anchor of a markdown heading: lowercase, punctuation but `-` dropped, spaces to `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == '-' || *c == ' ' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// Every `docs/<file>.md#<anchor>` cited anywhere names a heading of that file, and every
/// `docs/families.md §N` a row of its rule numbers.
#[test]
fn references_into_docs_resolve() {
    let texts = tracked_texts();
    let anchors = |doc: &str| -> Vec<String> {
        let text = &texts.iter().find(|(f, _)| f == doc).expect(doc).1;
        text.lines()
            .filter_map(|l| l.strip_prefix('#'))
            .map(|h| anchor(h.trim_start_matches('#')))
            .collect()
    };
    // Not `…/authorino/blob/v0.11.0/docs/features.md#…`: an upstream project's docs.
    let link = regex::Regex::new(r"(?m)(?:^|[\s(`\[])docs/([a-z-]+\.md)#([a-z0-9_-]+)").unwrap();
    let number = regex::Regex::new(r"docs/families\.md §(\d(?:\.\d)?)").unwrap();
    let families = &texts
        .iter()
        .find(|(f, _)| f == "docs/families.md")
        .unwrap()
        .1;
    let mut broken = Vec::new();
    for (file, text) in &texts {
        for found in link.captures_iter(text) {
            let doc = format!("docs/{}", &found[1]);
            if !anchors(&doc).contains(&found[2].to_string()) {
                broken.push(format!("{file}: {}", found[0].trim()));
            }
        }
        for found in number.captures_iter(text) {
            if !families.contains(&format!("\n| {} |", &found[1])) {
                broken.push(format!("{file}: {}", &found[0]));
            }
        }
    }
    assert!(
        broken.is_empty(),
        "references to nothing:\n{}",
        broken.join("\n")
    );
    assert_eq!(
        anchor("4.1 Constraints and deactivation"),
        "41-constraints-and-deactivation"
    );
}
