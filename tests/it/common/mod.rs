//! Test helpers: run the real `dopol` binary from the repository root and read its output.
#![allow(dead_code)]

pub mod browser;
pub mod fixtures;

use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The repository root (tests run `dopol` from there, so paths in messages are stable).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A Gateway `infra/gw` with one HTTP listener `http` open to routes from every namespace.
pub const GATEWAY: &str = "apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: infra}
spec:
  gatewayClassName: kuadrant
  listeners:
  - {name: http, protocol: HTTP, port: 80, allowedRoutes: {namespaces: {from: All}}}
";

/// An Envoy Gateway Gateway `ns/gw` (class `eg`) with one listener, `http` on port 80.
pub const EG_GATEWAY: &str = "apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: ns}
spec:
  gatewayClassName: eg
  listeners:
  - {name: http, port: 80, protocol: HTTP}
";

/// An HTTPRoute `app/route` (one rule, `rule-1`) attached to [`GATEWAY`].
pub const ROUTE: &str = "apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: route, namespace: app}
spec:
  parentRefs: [{name: gw, namespace: infra}]
";

/// The `.yaml` files directly in `dir`, sorted (an upstream guide's files, in apply order).
pub fn yaml_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    files
}

/// YAML documents joined into one stream.
pub fn stream(documents: &[&str]) -> Vec<u8> {
    documents.join("---\n").into_bytes()
}

/// What a run printed and returned.
#[derive(Debug)]
pub struct Output {
    pub stdout: String,
    pub stderr: String,
    pub code: i32,
}

impl Output {
    /// Asserts the exit code, showing stderr when it differs.
    pub fn code(&self, expected: i32) -> &Self {
        assert_eq!(
            self.code, expected,
            "exit code; stderr:\n{}\nstdout:\n{}",
            self.stderr, self.stdout
        );
        self
    }

    /// Parses stdout as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}", self.stdout))
    }

    /// Asserts stderr contains every needle.
    pub fn stderr_has(&self, needles: &[&str]) -> &Self {
        for needle in needles {
            assert!(
                self.stderr.contains(needle),
                "stderr lacks {needle:?}:\n{}",
                self.stderr
            );
        }
        self
    }

    /// Asserts stdout contains every needle.
    pub fn stdout_has(&self, needles: &[&str]) -> &Self {
        for needle in needles {
            assert!(
                self.stdout.contains(needle),
                "stdout lacks {needle:?}:\n{}",
                self.stdout
            );
        }
        self
    }

    /// Asserts stderr contains none of the needles.
    pub fn stderr_lacks(&self, needles: &[&str]) -> &Self {
        for needle in needles {
            assert!(
                !self.stderr.contains(needle),
                "stderr has {needle:?}:\n{}",
                self.stderr
            );
        }
        self
    }
}

/// Runs `dopol args...` in `dir`, with `stdin` as standard input.
pub fn run_in(dir: &Path, args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dopol"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        // Tables fit COLUMNS when it is set; tests see the width of a pipe (none).
        .env_remove("COLUMNS")
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("dopol runs");
    if let Some(input) = stdin {
        child
            .stdin
            .take()
            .expect("piped")
            .write_all(input)
            .expect("stdin written");
    }
    let out = child.wait_with_output().expect("dopol finishes");
    Output {
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
        code: out.status.code().unwrap_or(-1),
    }
}

/// Runs `dopol args...` from the repository root.
pub fn dopol(args: &[&str]) -> Output {
    run_in(&root(), args, None)
}

/// Runs `dopol args...` inside the test process ([`dopol::cli::run_captured`]), from the
/// repository root, as [`dopol`] would run the binary: both streams piped, no colour, no
/// `COLUMNS`. For sweeps that run thousands of commands; `in_process_runs_match_the_binary`
/// (tests/it/families.rs) holds it to the binary's output.
pub fn in_process(args: &[&str]) -> Output {
    assert_eq!(
        std::env::current_dir().expect("a working directory"),
        root(),
        "in-process runs read paths from the repository root"
    );
    let out = dopol::cli::run_captured(args);
    Output {
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
        code: out.code,
    }
}

/// Runs `dopol args...` from the repository root with `COLUMNS=width`.
pub fn at_width(width: usize, args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_dopol"))
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .env("COLUMNS", width.to_string())
        .output()
        .expect("dopol runs");
    Output {
        stdout: String::from_utf8(out.stdout).expect("UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("UTF-8"),
        code: out.status.code().unwrap_or(-1),
    }
}

/// `dopol effective -f <each dir> -o json <extra>` from the repository root.
pub fn effective(dirs: &[&str], extra: &[&str]) -> Output {
    let mut args = vec!["effective", "-o", "json"];
    for dir in dirs {
        args.push("-f");
        args.push(dir);
    }
    args.extend_from_slice(extra);
    dopol(&args)
}

/// One rule of an effective policy: key, value, source locator.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleView {
    pub key: String,
    pub value: Value,
    pub source: String,
}

/// The rules of the effective policy of `kind` on `path_id` (empty if none).
pub fn rules(doc: &Value, kind: &str, path_id: &str) -> Vec<RuleView> {
    assert_eq!(doc["apiVersion"], "dopol/v1");
    assert_eq!(doc["kind"], "EffectivePolicyList");
    let items = doc["items"].as_array().expect("items");
    let Some(item) = items
        .iter()
        .find(|i| i["policyKind"] == kind && i["pathId"] == path_id)
    else {
        return Vec::new();
    };
    let rules = item["rules"].as_object().expect("rules is an object");
    let views: Vec<RuleView> = rules
        .iter()
        .map(|(key, r)| RuleView {
            key: key.clone(),
            value: r["value"].clone(),
            source: r["source"].as_str().expect("source").to_string(),
        })
        .collect();
    // `sources` must be the sorted unique sources of the rules.
    let mut expected: Vec<String> = views.iter().map(|r| r.source.clone()).collect();
    expected.sort();
    expected.dedup();
    let sources: Vec<String> = item["sources"]
        .as_array()
        .expect("sources")
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect();
    assert_eq!(sources, expected, "sources of {kind} on {path_id}");
    views
}

/// The owner marker of a rule value: `plain.selector` (authentication entries), `opa.rego`
/// (authorization entries) or a bare `owner` field (declared families without a CRD).
pub fn owner_of(value: &Value) -> String {
    [
        &value["plain"]["selector"],
        &value["opa"]["rego"],
        &value["owner"],
    ]
    .into_iter()
    .find_map(|v| v.as_str())
    .unwrap_or("")
    .to_string()
}

/// `(key, owner marker (see [`owner_of`]), source ns/name)` triples, for fixtures whose values
/// carry an owner.
pub fn owners(doc: &Value, kind: &str, path_id: &str) -> Vec<(String, String, String)> {
    rules(doc, kind, path_id)
        .into_iter()
        .map(|r| {
            let owner = owner_of(&r.value);
            let source = r
                .source
                .split_once(':')
                .map(|(_, nn)| nn.to_string())
                .unwrap_or(r.source);
            (r.key, owner, source)
        })
        .collect()
}

/// All `(policyKind, pathId)` pairs of an effective document.
pub fn items(doc: &Value) -> Vec<(String, String)> {
    doc["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|i| {
            (
                i["policyKind"].as_str().unwrap().to_string(),
                i["pathId"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// Builds `Vec<(String, String, String)>` from string triples.
pub fn triples(list: &[(&str, &str, &str)]) -> Vec<(String, String, String)> {
    list.iter()
        .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
        .collect()
}

/// `(code, severity, line, message)` of one lint diagnostic.
pub type Finding = (String, String, u64, String);

/// The diagnostics of a `dopol lint -o json` document, in output order.
pub fn findings(doc: &Value) -> Vec<Finding> {
    doc["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["severity"].as_str().unwrap().to_string(),
                d["line"].as_u64().unwrap_or(0),
                d["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// Runs `check` on every item, spread over the machine's cores (each check is usually a few
/// whole `dopol` processes), and returns every failure, sorted: a test checks all its cases
/// before failing, so that one run lists every case that changed.
pub fn failures_on_every_core<T: Sync>(
    items: &[T],
    check: impl Fn(&T) -> Result<(), String> + Sync,
) -> Vec<String> {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    let next = AtomicUsize::new(0);
    let failed = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                while let Some(item) = items.get(next.fetch_add(1, Ordering::Relaxed)) {
                    if let Err(why) = check(item) {
                        failed.lock().unwrap().push(why);
                    }
                }
            });
        }
    });
    let mut failed = failed.into_inner().unwrap();
    failed.sort();
    failed
}
