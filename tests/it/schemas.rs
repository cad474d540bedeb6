//! Every command's `-o json` document, on every fixture directory under `testdata/`, validates
//! against the JSON Schema of its kind in `docs/schema/` (docs/json.md).
//!
//! [`DOCUMENTS`] is the table of (schema, command lines): one more row covers one more document.
//! Per fixture it runs `effective` (plain, `--compact`, `--uncovered`), `overridden`, `status`,
//! `topology`, `lint`, two what-if `diff`s and two `request`s once each, `reach` on the first
//! [`REACHED`] policies of the fixture's status and `explain` on the first [`EXPLAINED`] routes
//! with an effective policy: every document kind on every fixture, without running each command
//! once per policy or route (which took minutes). The `status` and `effective` documents the
//! fixture's policies and routes are read from are validated, not run again. Fixtures run in
//! parallel threads.
//!
//! A run may fail on its input (exit 3: the document is still printed, except by `diff`, which
//! prints none when a side has input errors) or find nothing to print on a usage error (exit 2,
//! e.g. an invalid families file, or a request no Gateway receives).

use crate::common::root;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// How many of a fixture's policies `reach` is run on.
const REACHED: usize = 2;
/// How many of a fixture's routes `explain` is run on.
const EXPLAINED: usize = 1;

/// What the commands need to know about a fixture.
struct Fixture {
    /// `-f DIR`, and `--families DIR/families.yaml` when the directory has one.
    inputs: Vec<String>,
    /// The first [`REACHED`] policy locators in its `status`.
    policies: Vec<String>,
    /// The first [`EXPLAINED`] routes (`ns/name`) a path with an effective policy goes through.
    routes: Vec<String>,
    /// The documents already printed while reading the above, by command line.
    printed: BTreeMap<Vec<String>, Result<Option<Value>, String>>,
}

/// Command lines of one fixture for one document kind.
type Runs = fn(&Fixture) -> Vec<Vec<String>>;

/// The schema file (under docs/schema/) and the command lines whose output it describes.
const DOCUMENTS: &[(&str, Runs)] = &[
    ("effective.schema.json", |f| {
        vec![with(&["effective", "-o", "json"], f)]
    }),
    ("effective-index.schema.json", |f| {
        vec![with(&["effective", "-o", "json", "--compact"], f)]
    }),
    ("uncoveredpathlist.schema.json", |f| {
        vec![with(&["effective", "--uncovered", "-o", "json"], f)]
    }),
    ("overridden.schema.json", |f| {
        vec![with(&["overridden", "-o", "json"], f)]
    }),
    ("status.schema.json", |f| {
        vec![with(&["status", "-o", "json"], f)]
    }),
    ("reach.schema.json", |f| {
        f.policies
            .iter()
            .map(|p| with(&["reach", p, "-o", "json"], f))
            .collect()
    }),
    ("explain.schema.json", |f| {
        f.routes
            .iter()
            .map(|r| with(&["explain", "--route", r, "-o", "json"], f))
            .collect()
    }),
    ("diff.schema.json", |f| {
        vec![
            with(
                &[
                    "diff",
                    "-o",
                    "json",
                    "--with",
                    "testdata/whatif/catalog-auth.yaml",
                ],
                f,
            ),
            with(
                &[
                    "diff",
                    "-o",
                    "json",
                    "--with",
                    "testdata/whatif/stricter-platform-limits.yaml",
                ],
                f,
            ),
        ]
    }),
    ("topology.schema.json", |f| {
        vec![with(&["topology", "-o", "json"], f)]
    }),
    ("lint.schema.json", |f| {
        vec![with(&["lint", "-o", "json", "--fail-on", "info"], f)]
    }),
    ("request.schema.json", |f| {
        vec![
            with(
                &[
                    "request",
                    "GET",
                    "http://api.toystore.com/toys",
                    "-o",
                    "json",
                ],
                f,
            ),
            with(
                &[
                    "request",
                    "--grpc",
                    "shop.v1.Cart/Add",
                    "--authority",
                    "grpc.example.com",
                    "-o",
                    "json",
                ],
                f,
            ),
        ]
    }),
];

/// `args` followed by the fixture's inputs.
fn with(args: &[&str], fixture: &Fixture) -> Vec<String> {
    args.iter()
        .map(|a| a.to_string())
        .chain(fixture.inputs.iter().cloned())
        .collect()
}

/// Every directory under testdata/ that directly holds a manifest file.
fn fixture_dirs() -> Vec<String> {
    fn walk(dir: &Path, found: &mut BTreeSet<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, found);
            } else if path
                .extension()
                .is_some_and(|e| e == "yaml" || e == "yml" || e == "json")
            {
                let relative = path.parent().unwrap().strip_prefix(root()).unwrap();
                found.insert(relative.to_string_lossy().into_owned());
            }
        }
    }
    let mut found = BTreeSet::new();
    walk(&root().join("testdata"), &mut found);
    found
        .into_iter()
        .filter(|d| !d.starts_with("testdata/fuzz"))
        .collect()
}

/// Runs dopol and returns its JSON document, if it printed one.
fn document(args: &[String]) -> Result<Option<Value>, String> {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    // In process: the sweep runs some 6,000 commands (`crate::common::in_process`).
    let out = crate::common::in_process(&args);
    if out.stdout.is_empty() {
        return match out.code {
            2 => Ok(None),
            // `diff` prints no document when a side has input errors.
            3 if args[0] == "diff" => Ok(None),
            code => Err(format!(
                "`dopol {}` printed nothing and exits {code}:\n{}",
                args.join(" "),
                out.stderr
            )),
        };
    }
    if ![0, 1, 3].contains(&out.code) {
        return Err(format!(
            "`dopol {}` exits {}:\n{}",
            args.join(" "),
            out.code,
            out.stderr
        ));
    }
    serde_json::from_str(&out.stdout)
        .map(Some)
        .map_err(|e| format!("`dopol {}` is not JSON: {e}", args.join(" ")))
}

/// The fixture's inputs, policies and routes.
fn fixture(dir: &str) -> Fixture {
    let mut inputs = vec!["-f".to_string(), dir.to_string()];
    let families = format!("{dir}/families.yaml");
    if root().join(&families).exists() {
        inputs.extend(["--families".to_string(), families]);
    }
    let mut fixture = Fixture {
        inputs,
        policies: Vec::new(),
        routes: Vec::new(),
        printed: BTreeMap::new(),
    };
    let status = with(&["status", "-o", "json"], &fixture);
    let printed = document(&status);
    if let Ok(Some(status)) = &printed {
        fixture.policies = strings(&status["items"], "policy");
        fixture.policies.truncate(REACHED);
    }
    fixture.printed.insert(status, printed);
    let effective = with(&["effective", "-o", "json"], &fixture);
    let printed = document(&effective);
    if let Ok(Some(effective)) = &printed {
        let routes: BTreeSet<String> = strings(&effective["items"], "pathId")
            .iter()
            .filter_map(|id| id.split('|').nth(3))
            .map(|route| route.rsplit('>').next().unwrap().to_string())
            .collect();
        fixture.routes = routes.into_iter().take(EXPLAINED).collect();
    }
    fixture.printed.insert(effective, printed);
    fixture
}

/// The string field `field` of every item.
fn strings(items: &Value, field: &str) -> Vec<String> {
    items
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|i| i[field].as_str().map(String::from))
        .collect()
}

/// A compiled schema of docs/schema/.
pub(crate) fn validator(file: &str) -> jsonschema::Validator {
    let text = std::fs::read_to_string(root().join("docs/schema").join(file))
        .unwrap_or_else(|e| panic!("docs/schema/{file}: {e}"));
    let schema: Value = serde_json::from_str(&text).expect("the schema is JSON");
    assert_eq!(
        schema["$schema"], "https://json-schema.org/draft/2020-12/schema",
        "{file}"
    );
    jsonschema::validator_for(&schema).unwrap_or_else(|e| panic!("{file} compiles: {e}"))
}

#[test]
fn every_json_document_validates_against_its_schema() {
    let validators: Vec<jsonschema::Validator> =
        DOCUMENTS.iter().map(|(file, _)| validator(file)).collect();
    let dirs = fixture_dirs();
    assert!(dirs.len() > 100, "{} fixture directories", dirs.len());
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get()) * 2;
    let results: Vec<(Vec<usize>, Vec<String>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                let dirs = &dirs;
                let validators = &validators;
                scope.spawn(move || {
                    let mut validated = vec![0; DOCUMENTS.len()];
                    let mut problems = Vec::new();
                    for dir in dirs.iter().skip(w).step_by(workers) {
                        let mut fixture = fixture(dir);
                        for (n, (file, runs)) in DOCUMENTS.iter().enumerate() {
                            for args in runs(&fixture) {
                                let printed = fixture
                                    .printed
                                    .remove(&args)
                                    .unwrap_or_else(|| document(&args));
                                match printed {
                                    Ok(Some(doc)) => {
                                        validated[n] += 1;
                                        problems.extend(
                                            validators[n].iter_errors(&doc).take(5).map(|e| {
                                                format!(
                                                    "`dopol {}` against {file}: {e} at {}",
                                                    args.join(" "),
                                                    e.instance_path()
                                                )
                                            }),
                                        );
                                    }
                                    Ok(None) => {}
                                    Err(problem) => problems.push(problem),
                                }
                            }
                        }
                    }
                    (validated, problems)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut validated = vec![0; DOCUMENTS.len()];
    let mut problems = Vec::new();
    for (counts, found) in results {
        for (total, count) in validated.iter_mut().zip(counts) {
            *total += count;
        }
        problems.extend(found);
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    for ((file, _), count) in DOCUMENTS.iter().zip(&validated) {
        assert!(
            *count >= 20,
            "only {count} documents validated against {file}"
        );
    }
}

/// The schemas are strict: a field dopol does not define, or an outcome it does not have, fails.
#[test]
fn schemas_refuse_unknown_fields_and_values() {
    let effective = validator("effective.schema.json");
    let out = crate::common::effective(&["testdata/examples/shop"], &[]);
    let mut doc = out.json();
    assert!(effective.is_valid(&doc));
    doc["items"][0]["colour"] = Value::from("red");
    assert!(!effective.is_valid(&doc));
    let status = validator("status.schema.json");
    let out = crate::common::dopol(&["status", "-f", "testdata/status", "-o", "json"]);
    let mut doc = out.json();
    assert!(status.is_valid(&doc));
    let outcome = doc["items"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .flat_map(|i| i["rules"].as_array_mut().unwrap().iter_mut())
        .find_map(|r| r["outcomes"].as_array_mut().unwrap().first_mut())
        .expect("a rule with outcomes");
    outcome["outcome"] = Value::from("won");
    assert!(!status.is_valid(&doc));
}
