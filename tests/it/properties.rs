//! Properties of the whole pipeline over generated manifest sets (`dopol::testkit`, the same
//! generator as the structure-aware fuzz target): determinism, sources that belong to the path,
//! inert additions, empty self-diffs, and the Kuadrant fold against a reference model of the
//! table in docs/semantics.md#4-the-fold (docs/how-it-works.md).
//!
//! The pipeline runs in process (the binary is covered by the other suites). Each property runs
//! `PROPTEST_CASES` cases (default 256 here); set it higher for a longer search.

use dopol::crd::{Catalog, Channel};
use dopol::engine::Engine;
use dopol::engine::observed::Observed;
use dopol::pipeline::{InputOptions, evaluate_files};
use dopol::report::{diff, effective, filter::Filters};
use dopol::testkit::{RateLimitSpec, Target, manifests};
use proptest::prelude::*;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

fn catalog() -> Arc<Catalog> {
    static CATALOG: OnceLock<Arc<Catalog>> = OnceLock::new();
    CATALOG
        .get_or_init(|| Arc::new(Catalog::bundled(Channel::Experimental)))
        .clone()
}

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(256);
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// A fresh directory for one case.
fn scratch() -> PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("dopol-props-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Writes `documents` into `dir`, `per_file` documents per file (file names in order).
fn write(dir: &Path, documents: &[String], per_file: usize) {
    for (i, chunk) in documents.chunks(per_file.max(1)).enumerate() {
        std::fs::write(dir.join(format!("m{i:03}.yaml")), chunk.join("---\n")).expect("write");
    }
}

/// What a run of `effective -o json` would print for `files`, and the diagnostics (code and
/// message, sorted), in process.
fn effective_of(files: &[PathBuf], with: &[PathBuf]) -> (Value, Vec<String>) {
    let mut options = InputOptions {
        files: files.iter().map(|f| f.display().to_string()).collect(),
        catalog: catalog(),
        ..InputOptions::default()
    };
    options.overlay.with = with.iter().map(|f| f.display().to_string()).collect();
    let evaluated = evaluate_files(&options);
    let (engine, mut diagnostics) = Engine::new(&evaluated.model, &evaluated.topology);
    let (set, more) = engine.effective_all();
    diagnostics.extend(more);
    let report = effective::build(&engine, &set, &Filters::default());
    let mut out = Vec::new();
    dopol::render::effective_json::write(&mut out, &report).expect("render");
    let mut found: Vec<String> = evaluated
        .diagnostics()
        .chain(&diagnostics)
        .map(|d| format!("{:?} {}", d.code, d.message))
        .collect();
    found.sort();
    (serde_json::from_slice(&out).expect("JSON"), found)
}

/// The effective rules of every (path, kind): key → source.
fn rules_by_path(doc: &Value) -> BTreeMap<(String, String), BTreeMap<String, String>> {
    let mut out = BTreeMap::new();
    for item in doc["items"].as_array().into_iter().flatten() {
        let key = (
            item["pathId"].as_str().unwrap_or("").to_string(),
            item["policyKind"].as_str().unwrap_or("").to_string(),
        );
        let rules = item["rules"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(k, r)| (k.clone(), r["source"].as_str().unwrap_or("").to_string()))
            .collect();
        out.insert(key, rules);
    }
    out
}

proptest! {
    #![proptest_config(config())]

    /// Two runs print the same bytes, whatever the order of the files and however the objects
    /// are split across them.
    #[test]
    fn output_is_deterministic_and_independent_of_files(bytes in prop::collection::vec(any::<u8>(), 0..256), per_file in 1usize..5) {
        let set = manifests(&bytes);
        let one = scratch();
        write(&one, &set.documents, set.documents.len());
        let split = scratch();
        let mut reversed = set.documents.clone();
        reversed.reverse();
        write(&split, &reversed, per_file);
        let first = effective_of(std::slice::from_ref(&one), &[]);
        let again = effective_of(std::slice::from_ref(&one), &[]);
        let other = effective_of(std::slice::from_ref(&split), &[]);
        prop_assert_eq!(&first, &again);
        prop_assert_eq!(&first.0, &other.0);
        let _ = std::fs::remove_dir_all(one);
        let _ = std::fs::remove_dir_all(split);
    }

    /// The outcomes `reach` reads (`Observed::of_policy`, which keeps only the folds a policy
    /// takes part in) are the outcomes of that policy in the whole observation, and its
    /// warnings are the same.
    #[test]
    fn one_policys_observation_is_its_part_of_the_whole(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        let set = manifests(&bytes);
        let dir = scratch();
        write(&dir, &set.documents, 3);
        let options = InputOptions {
            files: vec![dir.display().to_string()],
            catalog: catalog(),
            ..InputOptions::default()
        };
        let evaluated = evaluate_files(&options);
        let (engine, _) = Engine::new(&evaluated.model, &evaluated.topology);
        let (whole, whole_warnings) = Observed::new(&engine);
        let messages = |diagnostics: Vec<dopol::diag::Diagnostic>| -> Vec<String> {
            diagnostics.into_iter().map(|d| d.message).collect()
        };
        let whole_warnings = messages(whole_warnings);
        let seen = |observed: &Observed<'_, '_>, policy: u32| -> Vec<String> {
            observed
                .each_observation(policy)
                .map(|o| format!("{} {} {} {:?}", o.path, o.block, o.key, o.outcome))
                .collect()
        };
        for policy in 0..evaluated.model.policies.len() as u32 {
            let (one, warnings) = Observed::of_policy(&engine, policy);
            prop_assert_eq!(seen(&one, policy), seen(&whole, policy));
            prop_assert_eq!(&messages(warnings), &whole_warnings);
        }
        let _ = std::fs::remove_dir_all(dir);
    }

    /// Every effective rule's source is a policy attached to the path: one of the path's
    /// policies in `status`-free terms — its locator is among the path's `sources`, and a
    /// generated policy of that name targets the path's Gateway, listener, route or rule.
    #[test]
    fn every_source_targets_an_element_of_its_path(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        let set = manifests(&bytes);
        let dir = scratch();
        write(&dir, &set.documents, 3);
        let (doc, _) = effective_of(std::slice::from_ref(&dir), &[]);
        let targets: BTreeMap<&str, &Target> =
            set.policies.iter().map(|(l, t)| (l.as_str(), t)).collect();
        for ((path, _), rules) in rules_by_path(&doc) {
            for source in rules.values() {
                let target = targets.get(source.as_str());
                prop_assert!(target.is_some(), "{} is not a generated policy", source);
                prop_assert!(on_path(target.unwrap(), &path), "{} does not target {}", source, path);
            }
        }
        let _ = std::fs::remove_dir_all(dir);
    }

    /// A policy whose target does not exist changes no effective policy, and `--with` of
    /// objects already present changes nothing either.
    #[test]
    fn inert_additions_change_nothing(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        let set = manifests(&bytes);
        let dir = scratch();
        write(&dir, &set.documents, 4);
        let base = effective_of(std::slice::from_ref(&dir), &[]).0;
        let extra = scratch();
        std::fs::write(
            extra.join("orphan.yaml"),
            "apiVersion: kuadrant.io/v1\nkind: RateLimitPolicy\nmetadata: {name: orphan, namespace: app}\n\
             spec:\n  targetRef: {group: gateway.networking.k8s.io, kind: Gateway, name: absent}\n  \
             limits: {a: {rates: [{limit: 1, window: 1s}]}}\n",
        ).expect("write");
        let with_orphan = effective_of(&[dir.clone(), extra.join("orphan.yaml")], &[]).0;
        prop_assert_eq!(&base, &with_orphan);
        let repeated = extra.join("repeat.yaml");
        std::fs::write(&repeated, set.documents.join("---\n")).expect("write");
        let with_repeat = effective_of(std::slice::from_ref(&dir), &[repeated]).0;
        prop_assert_eq!(&base, &with_repeat);
        let _ = std::fs::remove_dir_all(dir);
        let _ = std::fs::remove_dir_all(extra);
    }

    /// `diff X X` finds nothing.
    #[test]
    fn a_revision_does_not_differ_from_itself(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        let set = manifests(&bytes);
        let dir = scratch();
        write(&dir, &set.documents, 2);
        prop_assert!(self_diff_is_empty(&dir));
        let _ = std::fs::remove_dir_all(dir);
    }

    /// The RateLimitPolicy fold equals the reference model of docs/semantics.md#4-the-fold's table.
    #[test]
    fn the_kuadrant_fold_follows_the_table(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        let set = manifests(&bytes);
        let dir = scratch();
        write(&dir, &set.documents, 5);
        let (doc, _) = effective_of(std::slice::from_ref(&dir), &[]);
        let found = rules_by_path(&doc);
        let paths: BTreeSet<String> = found.keys().map(|(p, _)| p.clone()).chain(all_paths(&doc)).collect();
        for path in paths {
            let expected = reference_fold(&set.rate_limits, &path);
            let got = found.get(&(path.clone(), "RateLimitPolicy".to_string())).cloned().unwrap_or_default();
            prop_assert_eq!(&got, &expected, "path {}", path);
        }
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// Whether `diff DIR DIR` reports nothing (the report `dopol diff` renders).
fn self_diff_is_empty(dir: &Path) -> bool {
    let options = InputOptions {
        files: vec![dir.display().to_string()],
        catalog: catalog(),
        ..InputOptions::default()
    };
    let (old, new) = (evaluate_files(&options), evaluate_files(&options));
    let (old_engine, _) = Engine::new(&old.model, &old.topology);
    let (new_engine, _) = Engine::new(&new.model, &new.topology);
    let (old_observed, _) = Observed::new(&old_engine);
    let (new_observed, _) = Observed::new(&new_engine);
    diff::build(&old_observed, &new_observed, &Default::default()).is_empty()
}

/// The paths of the document (any kind).
fn all_paths(doc: &Value) -> Vec<String> {
    doc["items"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|i| i["pathId"].as_str().map(str::to_string))
        .collect()
}

/// The elements of a path id `class|gwns/gw|gwns/gw#listener|ns/route|ns/route#rule`.
struct PathElements {
    gateway: String,
    listener: String,
    route: String,
    rule: String,
}

fn elements(path: &str) -> Option<PathElements> {
    let parts: Vec<&str> = path.split('|').collect();
    let [_, gateway, listener, route, rule] = parts.as_slice() else {
        return None;
    };
    Some(PathElements {
        gateway: gateway.to_string(),
        listener: listener.split('#').nth(1)?.to_string(),
        route: route.to_string(),
        rule: rule.split('#').nth(1)?.to_string(),
    })
}

fn on_path(target: &Target, path: &str) -> bool {
    let Some(e) = elements(path) else {
        return false;
    };
    let object = format!("{}/{}", target.namespace, target.name);
    let section = target.section.as_ref();
    match target.kind {
        "Gateway" => object == e.gateway && section.is_none_or(|s| *s == e.listener),
        _ => object == e.route && section.is_none_or(|s| *s == e.rule),
    }
}

/// docs/semantics.md#4-the-fold for RateLimitPolicies, written from the table: the policies on the path ordered
/// least specific first (level, then creation time with "none" newest, then `ns/name`), folded
/// from the most specific.
fn reference_fold(policies: &[RateLimitSpec], path: &str) -> BTreeMap<String, String> {
    let Some(e) = elements(path) else {
        return BTreeMap::new();
    };
    let level = |p: &RateLimitSpec| -> Option<u8> {
        let (namespace, _) = p.name.split_once('/')?;
        let object = format!("{namespace}/{}", p.target_name);
        match (p.target_kind, &p.section) {
            ("Gateway", None) if object == e.gateway => Some(0),
            ("Gateway", Some(s)) if object == e.gateway && *s == e.listener => Some(1),
            ("HTTPRoute", None) if object == e.route => Some(2),
            ("HTTPRoute", Some(s)) if object == e.route && *s == e.rule => Some(3),
            _ => None,
        }
    };
    let mut on: Vec<(u8, &RateLimitSpec)> = policies
        .iter()
        .filter_map(|p| Some((level(p)?, p)))
        .collect();
    on.sort_by(|(la, a), (lb, b)| {
        la.cmp(lb)
            .then_with(|| match (a.created, b.created) {
                (Some(x), Some(y)) => x.cmp(y),
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (None, None) => std::cmp::Ordering::Equal,
            })
            .then_with(|| a.name.cmp(&b.name))
    });
    let mut effective: BTreeMap<String, String> = BTreeMap::new();
    for (_, p) in on.iter().rev() {
        let own: BTreeMap<String, String> = p
            .keys
            .iter()
            .map(|k| (k.clone(), p.locator.clone()))
            .collect();
        effective = match (p.block, p.strategy) {
            ("overrides", "atomic") => own,
            ("overrides", _) => {
                let mut merged = effective;
                merged.extend(own);
                merged
            }
            (_, "merge") => {
                let mut merged = own;
                merged.extend(effective);
                merged
            }
            _ if effective.is_empty() => own,
            _ => effective,
        };
    }
    effective
}

/// How often the generator attaches something: most sets must produce an effective policy,
/// or the properties above test little.
#[test]
fn most_generated_sets_produce_an_effective_policy() {
    let mut producing = 0;
    let total = 200;
    for seed in 0..total {
        let bytes: Vec<u8> = (0..128u32)
            .map(|i| (i.wrapping_mul(2_654_435_761).wrapping_add(seed * 40_503) >> 13) as u8)
            .collect();
        let set = manifests(&bytes);
        let dir = scratch();
        write(&dir, &set.documents, 4);
        let (doc, diagnostics) = effective_of(std::slice::from_ref(&dir), &[]);
        let rejected: Vec<&String> = diagnostics
            .iter()
            .filter(|d| {
                d.starts_with("UnknownField")
                    || d.starts_with("SchemaViolation")
                    || d.starts_with("ValidationRule")
            })
            .collect();
        assert!(
            rejected.is_empty(),
            "generated objects are refused: {rejected:?}\n{}",
            set.documents.join("---\n")
        );
        if !doc["items"].as_array().is_none_or(Vec::is_empty) {
            producing += 1;
        }
        let _ = std::fs::remove_dir_all(dir);
    }
    println!("{producing} of {total} generated sets produce an effective policy");
    assert!(producing * 10 >= total * 8, "{producing} of {total}");
}
