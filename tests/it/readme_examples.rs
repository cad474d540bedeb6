//! Every example in README.md and in the pages under docs/ runs as written, from the repository
//! root, with the built binary; where a page shows a command's output, the output is the real
//! one. Links in those pages stay inside the repository and resolve, and the README links every
//! page.
//!
//! Commands are the lines of ```sh blocks and the `$ ` lines of ```console blocks that start
//! with `dopol ` (or `COLUMNS=N dopol `) or `cargo run -- ` or `cargo run --release -- ` (run as `dopol`, the binary
//! this test built). A
//! console block's output is compared line by line (trailing spaces ignored) with stdout, then
//! stderr; a `...` line stands for any number of lines. Blocks of other languages (```text,
//! ```yaml, ...) are not run. The man pages' examples (from
//! `dopol::cli::generate::EXAMPLES`) run too, on a bundled example in place of `manifests/`.
//!
//! Commands that need something a checkout may lack are listed in [`SKIPPED`] with the reason
//! and tested another way below.

use crate::common::root;
use std::path::Path;
use std::process::{Command, Stdio};

/// Commands that are not run as written, each with why and where it is tested instead.
const SKIPPED: &[(&str, &str)] = &[
    (
        "dopol diff git:main git:HEAD -f testdata/examples/shop",
        "needs a branch `main` and history: `git_sides_compare_two_revisions` runs it in a new repository",
    ),
    (
        "kubectl get gateways,httproutes,grpcroutes,namespaces,",
        "needs a cluster: `kubectl_output_on_stdin` pipes what it prints (testdata/kubectl/get-all.yaml)",
    ),
];

/// Commands that show a usage error or a missing input on purpose, with the exit code they must
/// return; their output is compared as any other's.
const FAILING: &[(&str, i32)] = &[
    ("dopol lint --config testdata/config/bad-level.yaml", 2),
    ("dopol effective -f testdata/examples/shop --route cartt", 2),
    ("dopol lint -f testdata/examples/shop -n nope", 2),
    ("dopol diff testdata/nope testdata/examples/shop", 3),
    ("dopol lint testdata/examples/shop --exclude '*.yaml'", 3),
    ("dopol test testdata/codes/selects-nothing/suite.yaml", 2),
];

/// One command found in a page.
struct Example {
    /// The page, relative to the repository root (`README.md`, `docs/lint.md`).
    page: String,
    /// 1-based line of the command in the page.
    line: usize,
    /// The shell command, with `cargo run [--release] --` replaced by `dopol`.
    command: String,
    /// The output the page shows (console blocks only).
    shown: Option<Vec<String>>,
}

/// README.md and every markdown page under docs/, relative to the repository root, sorted.
fn pages() -> Vec<String> {
    fn walk(dir: &Path, relative: &str, found: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let entry = entry.unwrap();
            let name = entry.file_name().into_string().expect("UTF-8 file name");
            let path = format!("{relative}/{name}");
            if entry.file_type().unwrap().is_dir() {
                walk(&entry.path(), &path, found);
            } else if name.ends_with(".md") {
                found.push(path);
            }
        }
    }
    let mut found = Vec::new();
    walk(&root().join("docs"), "docs", &mut found);
    found.sort();
    found.insert(0, "README.md".to_string());
    found
}

/// The text of a page.
fn read(page: &str) -> String {
    std::fs::read_to_string(root().join(page)).unwrap_or_else(|e| panic!("{page}: {e}"))
}

/// The commands of a page's ```sh and ```console blocks.
fn examples(page: &str, readme: &str) -> Vec<Example> {
    let mut found = Vec::new();
    // The language and indentation of the open block.
    let mut block: Option<(String, usize)> = None;
    let lines: Vec<&str> = readme.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim_start();
        if let Some(lang) = line.strip_prefix("```") {
            let indent = lines[i].len() - line.len();
            block = match block {
                Some(_) => None,
                None => Some((lang.trim().to_string(), indent)),
            };
            i += 1;
            continue;
        }
        match block
            .as_ref()
            .map(|(lang, indent)| (lang.as_str(), *indent))
        {
            Some(("sh", _)) => {
                if let Some(command) = command_of(line) {
                    found.push(Example {
                        page: page.to_string(),
                        line: i + 1,
                        command,
                        shown: None,
                    });
                }
            }
            Some(("console", indent)) => {
                if let Some(command) = line.strip_prefix("$ ").and_then(command_of) {
                    let mut shown = Vec::new();
                    let mut j = i + 1;
                    while j < lines.len()
                        && !lines[j].trim_start().starts_with("$ ")
                        && !lines[j].trim_start().starts_with("```")
                    {
                        let text = lines[j].trim_end();
                        shown.push(text.get(indent..).unwrap_or(text.trim_start()).to_string());
                        j += 1;
                    }
                    found.push(Example {
                        page: page.to_string(),
                        line: i + 1,
                        command,
                        shown: Some(shown),
                    });
                }
            }
            _ => {}
        }
        i += 1;
    }
    found
}

/// The command of a line that runs dopol, if it is one.
fn command_of(line: &str) -> Option<String> {
    let cargo_run = ["cargo run -- ", "cargo run --release -- "];
    if let Some(rest) = cargo_run
        .iter()
        .find_map(|prefix| line.strip_prefix(prefix))
    {
        return Some(format!("dopol {rest}"));
    }
    let command = line.strip_prefix("COLUMNS=").map_or(line, |rest| {
        rest.trim_start_matches(|c: char| c.is_ascii_digit())
            .trim_start()
    });
    command.starts_with("dopol ").then(|| line.to_string())
}

/// What a shell command printed and returned.
struct Ran {
    stdout: String,
    stderr: String,
    code: i32,
}

/// Runs a shell command in `dir` with the built dopol first on PATH.
fn sh(dir: &Path, command: &str) -> Ran {
    let bin = Path::new(env!("CARGO_BIN_EXE_dopol")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(dir)
        .env("PATH", path)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .expect("sh runs");
    Ran {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
    }
}

/// Whether `actual` has the lines `shown`, where a `...` line matches any lines.
fn matches_shown(shown: &[String], actual: &[&str]) -> bool {
    let mut shown = shown.to_vec();
    while shown.last().is_some_and(|l| l.is_empty()) {
        shown.pop();
    }
    let fragments: Vec<&[String]> = shown.split(|l| l.trim() == "...").collect();
    let open_end = shown.last().is_some_and(|l| l.trim() == "...");
    let mut at = 0;
    for (n, fragment) in fragments.iter().enumerate() {
        if fragment.is_empty() {
            continue;
        }
        let found = (at..=actual.len().saturating_sub(fragment.len())).find(|&start| {
            (n > 0 || start == 0)
                && fragment
                    .iter()
                    .zip(&actual[start..])
                    .all(|(s, a)| s.as_str() == a.trim_end())
        });
        match found {
            Some(start) => at = start + fragment.len(),
            None => return false,
        }
    }
    open_end || at == actual.len()
}

/// Runs one example and says what is wrong with it, if anything.
fn check(example: &Example) -> Option<String> {
    let ran = sh(&root(), &example.command);
    let failing = FAILING.iter().find(|(c, _)| *c == example.command);
    if let Some((_, code)) = failing {
        if ran.code != *code {
            return Some(format!(
                "{}:{}: `{}` exits {}, not {code}\n{}",
                example.page, example.line, example.command, ran.code, ran.stderr
            ));
        }
    // Exit 3 is an example about bad input; a path that is not there is a broken example.
    } else if ![0, 1, 3].contains(&ran.code) || ran.stderr.contains("[DPL1002]") {
        return Some(format!(
            "{}:{}: `{}` exits {} (usage error, missing input or bug)\n{}",
            example.page, example.line, example.command, ran.code, ran.stderr
        ));
    }
    let shown = example.shown.as_ref()?;
    let text = format!("{}{}", ran.stdout, ran.stderr);
    let mut actual: Vec<&str> = text.lines().collect();
    while actual.last().is_some_and(|l| l.trim().is_empty()) {
        actual.pop();
    }
    (!matches_shown(shown, &actual)).then(|| {
        format!(
            "{}:{}: the output shown for `{}` is not the real one; real output:\n{}",
            example.page, example.line, example.command, text
        )
    })
}

#[test]
fn every_example_of_every_page_runs_and_shows_its_real_output() {
    let pages = pages();
    let examples: Vec<Example> = pages
        .iter()
        .flat_map(|page| examples(page, &read(page)))
        .collect();
    assert!(
        examples.len() >= 40,
        "found only {} examples",
        examples.len()
    );
    assert!(
        examples.iter().filter(|e| e.page == "README.md").count() >= 9,
        "the README's tour has an example per command"
    );
    let mut problems = Vec::new();
    for example in &examples {
        if SKIPPED
            .iter()
            .any(|(prefix, _)| example.command.starts_with(prefix))
        {
            continue;
        }
        problems.extend(check(example));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

#[test]
fn every_skipped_or_failing_command_is_in_a_page() {
    let texts: Vec<String> = pages().iter().map(|page| read(page)).collect();
    for (prefix, reason) in SKIPPED {
        assert!(
            texts.iter().any(|text| text.contains(prefix)),
            "SKIPPED lists `{prefix}` ({reason}), which no page has any more"
        );
    }
    for (command, code) in FAILING {
        assert!(
            texts.iter().any(|text| text.contains(command)),
            "FAILING lists `{command}` (exit {code}), which no page has any more"
        );
    }
}

/// GitHub's anchor of a markdown heading: lowercase, punctuation but `-` and `_` dropped,
/// spaces to `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == '-' || *c == ' ' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a page's headings (not of `#` lines inside code blocks).
fn anchors(text: &str) -> Vec<String> {
    let mut in_code = false;
    let mut found = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
        } else if !in_code && line.starts_with('#') {
            found.push(anchor(line.trim_start_matches('#')));
        }
    }
    found
}

/// The targets of a page's markdown links (`[text](target)`), outside code blocks and code
/// spans, each with its line.
fn links(text: &str) -> Vec<(usize, String)> {
    let link = regex::Regex::new(r"\]\(([^()\s]+)\)").unwrap();
    let mut in_code = false;
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        // Code spans hold examples, not links.
        let prose: String = line
            .split('`')
            .enumerate()
            .filter(|(i, _)| i % 2 == 0)
            .map(|(_, part)| part)
            .collect::<Vec<_>>()
            .join(" ");
        for target in link.captures_iter(&prose) {
            found.push((n + 1, target[1].to_string()));
        }
    }
    found
}

/// Every link of README.md and docs/ is relative, names a file or directory of the repository,
/// and, with `#anchor`, a heading of that page.
#[test]
fn links_stay_in_the_repository_and_resolve() {
    let mut broken = Vec::new();
    for page in pages() {
        let text = read(&page);
        let dir = Path::new(&page).parent().unwrap().to_path_buf();
        for (line, target) in links(&text) {
            let at = format!("{page}:{line}: `{target}`");
            if target.contains("://") || target.starts_with("mailto:") || target.starts_with('/') {
                broken.push(format!("{at} points outside the repository"));
                continue;
            }
            let (file, fragment) = match target.split_once('#') {
                Some((file, fragment)) => (file, Some(fragment)),
                None => (target.as_str(), None),
            };
            let path = if file.is_empty() {
                root().join(&page)
            } else {
                root().join(&dir).join(file)
            };
            if !path.exists() {
                broken.push(format!("{at} names nothing"));
                continue;
            }
            if let Some(fragment) = fragment {
                let target_text = std::fs::read_to_string(&path).unwrap_or_default();
                if !anchors(&target_text).iter().any(|a| a == fragment) {
                    broken.push(format!("{at} names no heading of {}", path.display()));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// The README is the way in: it links every page under docs/ (and the schema directory).
#[test]
fn the_readme_links_every_page() {
    let linked: Vec<String> = links(&read("README.md"))
        .into_iter()
        .map(|(_, target)| target.split('#').next().unwrap().to_string())
        .collect();
    let mut missing: Vec<String> = pages()
        .into_iter()
        .filter(|page| page != "README.md")
        .filter(|page| !linked.contains(page))
        .collect();
    if !linked.iter().any(|l| l == "docs/schema/") {
        missing.push("docs/schema/".to_string());
    }
    assert!(
        missing.is_empty(),
        "README.md links none of: {}",
        missing.join(", ")
    );
}

#[test]
fn the_readme_stays_a_landing_page() {
    let readme = read("README.md");
    let lines = readme.lines().count();
    assert!(lines <= 350, "README.md has {lines} lines (at most 350)");
    assert!(
        readme.starts_with(
            "# dopol\n\n```sh\ncargo run -- effective -f testdata/examples/shop    # build dopol and show the effective policy of a bundled example\ncargo test                                          # run the test suite\n```\n"
        ),
        "README.md begins with the two commands a newcomer needs"
    );
    // The tour: at most 15 output lines per example.
    for example in examples("README.md", &readme) {
        if let Some(shown) = &example.shown {
            let count = shown.len() - shown.iter().rev().take_while(|l| l.is_empty()).count();
            assert!(
                count <= 15,
                "README.md:{}: `{}` shows {count} lines (at most 15)",
                example.line,
                example.command,
            );
        }
    }
}

#[test]
fn shown_output_comparison_honours_ellipses() {
    let shown: Vec<String> = ["a", "...", "d"].map(String::from).to_vec();
    assert!(matches_shown(&shown, &["a", "b", "c", "d"]));
    assert!(!matches_shown(&shown, &["a", "b", "c", "d", "e"]));
    assert!(!matches_shown(&shown, &["x", "a", "d"]));
    let open: Vec<String> = ["a", "..."].map(String::from).to_vec();
    assert!(matches_shown(&open, &["a", "b"]));
}

/// The man pages' examples, with `manifests/` a bundled example; each must run (exit 0 or 1).
#[test]
fn man_page_examples_run() {
    for (command, examples) in dopol::cli::generate::EXAMPLES {
        for (line, _) in *examples {
            if !line.starts_with("dopol ")
                || line.contains("git:")
                || *command == "completions"
                || *command == "man"
            {
                continue;
            }
            let fixture = if *command == "request" {
                "testdata/request/kuadrant/"
            } else {
                "testdata/examples/shop/"
            };
            let line = line
                .replace("old-manifests/", "testdata/creation-order/a-older")
                .replace("new-manifests/", "testdata/creation-order/b-older")
                .replace("manifests/", fixture)
                .replace("new-policy.yaml", "testdata/whatif/catalog-auth.yaml")
                .replace("> dopol.sarif", "> /dev/null")
                .replace("-o policies.html", "-o /dev/null")
                .replace("> page.html", "> /dev/null")
                .replace("| dot -Tsvg > topology.svg", "");
            let ran = sh(&root(), &line);
            assert!(
                (ran.code == 0 || ran.code == 1) && !ran.stderr.contains("[DPL1002]"),
                "man example of {command} `{line}` exits {}:\n{}",
                ran.code,
                ran.stderr
            );
        }
    }
}

/// `dopol diff git:main git:HEAD -f DIR` on a repository with two commits: the README's
/// pull-request form, which a shallow checkout cannot run.
#[test]
fn git_sides_compare_two_revisions() {
    let repo = tempfile::tempdir().unwrap();
    let git = |args: &[&str]| {
        let ok = Command::new("git")
            .args(args)
            .current_dir(repo.path())
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@example.com")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@example.com")
            .output()
            .unwrap()
            .status
            .success();
        assert!(ok, "git {args:?}");
    };
    git(&["init", "-q", "-b", "main"]);
    let shop = repo.path().join("testdata/examples/shop");
    std::fs::create_dir_all(&shop).unwrap();
    for entry in std::fs::read_dir(root().join("testdata/examples/shop")).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), shop.join(entry.file_name())).unwrap();
    }
    git(&["add", "."]);
    git(&["commit", "-q", "-m", "shop"]);
    git(&["checkout", "-q", "-b", "stricter"]);
    let platform = shop.join("platform.yaml");
    let text = std::fs::read_to_string(&platform).unwrap();
    assert!(text.contains("- limit: 1000\n"));
    std::fs::write(&platform, text.replace("- limit: 1000\n", "- limit: 500\n")).unwrap();
    git(&["commit", "-q", "-am", "stricter"]);
    let ran = sh(
        repo.path(),
        "dopol diff git:main git:HEAD -f testdata/examples/shop --stat",
    );
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    assert!(
        ran.stdout.contains(
            "+0   -0   ~1    istio|infra/public|infra/public#http|shop/cart|shop/cart#checkout"
        ),
        "{}",
        ran.stdout
    );
}

/// The live-cluster recipe: `kubectl get ... -A -o yaml` output (a `kind: List` whose items carry
/// status, managedFields and the other fields the API server adds) piped into `dopol effective
/// -f -`. The Namespaces decide the listener's selector: shop/cart attaches, legacy/old does not.
#[test]
fn kubectl_output_on_stdin() {
    let list = std::fs::read(root().join("testdata/kubectl/get-all.yaml")).unwrap();
    let out = crate::common::run_in(
        &root(),
        &["effective", "-f", "-", "-o", "json"],
        Some(&list),
    );
    out.code(0);
    let doc = out.json();
    let path = "istio|infra/public|infra/public#http|shop/cart|shop/cart#rule-1";
    let rules = crate::common::rules(&doc, "RateLimitPolicy", path);
    let summary: Vec<(String, String)> = rules
        .iter()
        .map(|r| (r.key.clone(), r.source.clone()))
        .collect();
    assert_eq!(
        summary,
        [
            (
                "global".to_string(),
                "ratelimitpolicy.kuadrant.io:infra/gateway-limits".to_string()
            ),
            (
                "per-user".to_string(),
                "ratelimitpolicy.kuadrant.io:shop/cart-limits".to_string()
            ),
        ]
    );
    assert_eq!(rules[0].value["rates"][0]["limit"], 100);
    let paths: Vec<&str> = doc["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["pathId"].as_str().unwrap())
        .collect();
    assert_eq!(paths, [path], "legacy/old is not allowed by the listener");
    out.stderr_has(&["legacy/old"]);
}
