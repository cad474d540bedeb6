//! What dopol says it does names everything it does: `dopol --help`, the main man page, the
//! README, the `status` help, Cargo.toml's description and the pre-commit hook's
//! description name every built-in family, and the help, man page, README and description every
//! kind of each, as the library lists them (`Registry::builtin()`): a family added to the
//! registry without a word in these texts fails here.

use crate::common::{dopol, root};
use dopol::policy::Registry;

/// How each built-in family is written in prose (its registry name is a lowercase id).
const DISPLAY_NAMES: &[(&str, &str)] = &[
    ("kuadrant", "Kuadrant"),
    ("kgateway", "kgateway"),
    ("envoy-gateway", "Envoy Gateway"),
    ("kuma", "Kuma"),
    ("agentgateway", "agentgateway"),
];

/// The text with its runs of whitespace (line breaks of a wrapped help) as single spaces.
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether `word` occurs in `text` as a whole word (`TrafficPolicy` is not found in
/// `BackendTrafficPolicy`).
fn has_word(text: &str, word: &str) -> bool {
    let pattern = format!(r"(^|[^A-Za-z0-9]){}($|[^A-Za-z0-9])", regex::escape(word));
    regex::Regex::new(&pattern).unwrap().is_match(text)
}

/// The value of the first line of `text` that starts with `key` (after indentation).
fn line_value<'a>(text: &'a str, key: &str) -> &'a str {
    text.lines()
        .map(str::trim_start)
        .find_map(|line| line.strip_prefix(key))
        .unwrap_or_else(|| panic!("no `{key}` line"))
}

/// Every built-in family with its display name and kinds.
fn families() -> Vec<(String, Vec<&'static str>)> {
    let registry = Registry::builtin();
    let families: Vec<(String, Vec<&'static str>)> = registry
        .families()
        .map(|family| {
            let display = DISPLAY_NAMES
                .iter()
                .find(|(id, _)| *id == family.name())
                .unwrap_or_else(|| {
                    panic!(
                        "built-in family `{}` has no display name here: add it to DISPLAY_NAMES and name it in the help texts, man pages, Cargo.toml and README",
                        family.name()
                    )
                })
                .1;
            (
                display.to_string(),
                family.kinds().iter().map(|kind| kind.kind).collect(),
            )
        })
        .collect();
    let kinds: usize = families.iter().map(|(_, kinds)| kinds.len()).sum();
    assert!(
        families.len() >= 3 && kinds >= 8,
        "the registry lists {} families and {kinds} kinds",
        families.len()
    );
    families
}

#[test]
fn help_and_man_page_name_every_builtin_family_and_kind() {
    let help = dopol(&["--help"]);
    help.code(0);
    let help = flat(&help.stdout);
    let man = flat(&std::fs::read_to_string(root().join("man/dopol.1")).unwrap());
    let readme = flat(&std::fs::read_to_string(root().join("README.md")).unwrap());
    let mut missing = Vec::new();
    for (family, kinds) in families() {
        for (text, name) in [
            (&help, "dopol --help"),
            (&man, "man/dopol.1"),
            (&readme, "README.md"),
        ] {
            if !text.contains(&family) {
                missing.push(format!("{name} lacks the family {family}"));
            }
            for kind in &kinds {
                if !has_word(text, kind) {
                    missing.push(format!("{name} lacks {family}'s kind {kind}"));
                }
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

#[test]
fn status_help_names_every_builtin_family() {
    let help = dopol(&["status", "--help"]);
    help.code(0);
    let help = flat(&help.stdout);
    for (family, _) in families() {
        assert!(
            help.contains(&family),
            "`dopol status --help` does not name {family}: {help}"
        );
    }
}

#[test]
fn package_and_hook_descriptions_name_every_builtin_family() {
    let cargo = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let description = line_value(&cargo, "description = ");
    let keywords = line_value(&cargo, "keywords = ");
    let hooks = std::fs::read_to_string(root().join(".pre-commit-hooks.yaml")).unwrap();
    let hook = line_value(&hooks, "description: ");
    // crates.io takes at most five keywords: with five families they cannot name one each
    // (the description does); `gateway-api` is what every family attaches to.
    assert!(keywords.contains("\"gateway-api\""), "{keywords}");
    assert!(
        keywords.matches(',').count() < 5,
        "crates.io takes at most 5 keywords: {keywords}"
    );
    for (family, kinds) in families() {
        assert!(
            description.contains(&family),
            "Cargo.toml's description does not name {family}: {description}"
        );
        assert!(
            hook.contains(&family),
            ".pre-commit-hooks.yaml's description does not name {family}: {hook}"
        );
        for kind in kinds {
            assert!(
                has_word(description, kind),
                "Cargo.toml's description does not name {kind}: {description}"
            );
        }
    }
}

#[test]
fn whole_word_search_tells_kinds_apart() {
    assert!(has_word("kgateway TrafficPolicy;", "TrafficPolicy"));
    assert!(!has_word("BackendTrafficPolicy", "TrafficPolicy"));
    assert_eq!(flat("Envoy\n  Gateway"), "Envoy Gateway");
}
