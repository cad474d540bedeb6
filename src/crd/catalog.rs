//! The CRDs of a run: the bundled ones, replaced kind by kind by those given with `--crds`.
//!
//! Looking a kind up costs nothing until an object of it is validated: its compact JSON is
//! parsed and its schemas compiled on first use, once per run, from any thread.

use super::bundle::{BUNDLED, Channel, compact};
use super::cel::RuleParser;
use super::diags::{InvalidCrd, RuleNotEvaluated};
use super::schema::Schema;
use crate::diag::{Code, Diagnostic};
use crate::source::{SourceId, Span};
use crate::yaml::{Node, parse_chunk};
use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// Where a kind's CRD comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Bundled: the vendored file under `crds/`.
    Bundled(&'static str),
    /// `--crds`: the file it was read from.
    User(String),
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Origin::Bundled(file) => write!(f, "bundled crds/{file}"),
            Origin::User(file) => write!(f, "{file} (--crds)"),
        }
    }
}

/// One version of a kind.
#[derive(Debug)]
pub struct CrdVersion {
    /// `v1`, `v1alpha2`, ...
    pub name: String,
    /// `served`: the API server accepts objects of this version.
    pub served: bool,
    /// Whether the status subresource is on (then `status` is ignored on create).
    pub status_subresource: bool,
    /// The compiled schema, once compiled.
    schema: OnceLock<Result<Schema, String>>,
    /// What a bundled version compiles its schema from on first use: the schema's JSON text
    /// in the bundle (`None`: the version has none). A `--crds` version is compiled at once.
    bundled_schema: Option<&'static str>,
}

impl CrdVersion {
    /// The compiled schema (`Err`: why it could not be compiled). A bundled version compiles it
    /// on first use: Gateway API CRDs list `v1beta1` with the same schema as `v1`, and a run
    /// whose objects are all `v1` need not pay for it (compiling the bundled schemas is most
    /// of a small run's start-up).
    pub fn schema(&self) -> &Result<Schema, String> {
        self.schema.get_or_init(|| match self.bundled_schema {
            Some(text) => serde_json::from_str::<Json>(text)
                .map_err(|e| format!("the bundled schema is not JSON: {e}"))
                .and_then(|json| Schema::compile_with(&json, RuleParser::Fast)),
            None => Err(NO_SCHEMA.into()),
        })
    }
}

/// Why a version without `openAPIV3Schema` validates nothing.
const NO_SCHEMA: &str = "the version has no openAPIV3Schema";

/// A version of a bundled CRD as the bundle holds it, its schema left as text.
#[derive(serde::Deserialize)]
struct BundledVersion<'a> {
    #[serde(default)]
    name: String,
    #[serde(default)]
    served: bool,
    #[serde(default)]
    status: bool,
    #[serde(borrow, default)]
    schema: Option<&'a serde_json::value::RawValue>,
}

/// A bundled CRD as the bundle holds it: only its versions are read here.
#[derive(serde::Deserialize)]
struct BundledCrd<'a> {
    #[serde(borrow, default)]
    versions: Vec<BundledVersion<'a>>,
}

/// A kind's CRD, compiled.
#[derive(Debug)]
pub struct CrdKind {
    /// Where it comes from.
    pub origin: Origin,
    /// Its versions, in CRD order.
    pub versions: Vec<CrdVersion>,
}

impl CrdKind {
    /// A version by name.
    pub fn version(&self, name: &str) -> Option<&CrdVersion> {
        self.versions.iter().find(|v| v.name == name)
    }

    /// Names of the served versions.
    pub fn served(&self) -> Vec<&str> {
        self.versions
            .iter()
            .filter(|v| v.served)
            .map(|v| v.name.as_str())
            .collect()
    }

    /// A `--crds` kind, every version compiled at once (so that a schema that does not compile
    /// stops the run before any object is read).
    fn compile(origin: Origin, compact: &Json) -> CrdKind {
        let versions = compact
            .get("versions")
            .and_then(Json::as_array)
            .map(|list| {
                list.iter()
                    .map(|v| CrdVersion {
                        name: v.get("name").and_then(Json::as_str).unwrap_or("").into(),
                        served: v.get("served").and_then(Json::as_bool).unwrap_or(false),
                        status_subresource: v
                            .get("status")
                            .and_then(Json::as_bool)
                            .unwrap_or(false),
                        schema: OnceLock::from(match v.get("schema") {
                            Some(s) => Schema::compile_with(s, RuleParser::Grammar),
                            None => Err(NO_SCHEMA.into()),
                        }),
                        bundled_schema: None,
                    })
                    .collect()
            })
            .unwrap_or_default();
        CrdKind { origin, versions }
    }

    /// A bundled kind: its versions are read now, their schemas compiled on first use.
    /// Bundled rules are known to read the same with the fast parser (see `RuleParser`).
    fn bundled(bundled: &'static super::bundle::Bundled) -> CrdKind {
        let crd: BundledCrd<'static> =
            serde_json::from_str(bundled.compact).unwrap_or(BundledCrd {
                versions: Vec::new(),
            });
        let versions = crd
            .versions
            .into_iter()
            .map(|v| CrdVersion {
                name: v.name,
                served: v.served,
                status_subresource: v.status,
                schema: OnceLock::new(),
                bundled_schema: v.schema.map(serde_json::value::RawValue::get),
            })
            .collect();
        CrdKind {
            origin: Origin::Bundled(bundled.file),
            versions,
        }
    }
}

enum Entry {
    /// A bundled CRD, by its index in `BUNDLED`.
    Bundled(usize),
    User(Box<CrdKind>),
}

/// The bundled CRDs, each compiled on first use and then shared by every catalog of the process
/// (a long-lived process, such as the tests or a fuzzer, runs many commands).
fn bundled_kind(index: usize) -> &'static CrdKind {
    static COMPILED: OnceLock<Vec<OnceLock<CrdKind>>> = OnceLock::new();
    let cells = COMPILED.get_or_init(|| BUNDLED.iter().map(|_| OnceLock::new()).collect());
    cells[index].get_or_init(|| CrdKind::bundled(&BUNDLED[index]))
}

/// The CRDs of a run, by `(group, kind)`.
pub struct Catalog {
    kinds: BTreeMap<(String, String), Entry>,
}

impl std::fmt::Debug for Catalog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.kinds.keys()).finish()
    }
}

impl Default for Catalog {
    fn default() -> Self {
        Catalog::bundled(Channel::default())
    }
}

impl Catalog {
    /// The bundled CRDs, with Gateway API's `channel`.
    pub fn bundled(channel: Channel) -> Catalog {
        let kinds = BUNDLED
            .iter()
            .enumerate()
            .filter(|(_, b)| b.channel.is_none_or(|c| c == channel))
            .map(|(i, b)| (bundled_key(b), Entry::Bundled(i)))
            .collect();
        Catalog { kinds }
    }

    /// An empty catalog (validation off).
    pub fn empty() -> Catalog {
        Catalog {
            kinds: BTreeMap::new(),
        }
    }

    /// Adds (or replaces) the kind of a CRD given with `--crds`. Returns its `(group, kind)`.
    pub fn add_user(&mut self, file: &str, crd: &Json) -> Option<(String, String)> {
        let compact = compact(crd)?;
        let key = key_of(&compact)?;
        let kind = CrdKind::compile(Origin::User(file.into()), &compact);
        self.kinds.insert(key.clone(), Entry::User(Box::new(kind)));
        Some(key)
    }

    /// The CRD of a kind, compiled on first use.
    pub fn get(&self, group: &str, kind: &str) -> Option<&CrdKind> {
        match self.kinds.get(&(group.to_string(), kind.to_string()))? {
            Entry::User(kind) => Some(kind),
            Entry::Bundled(index) => Some(bundled_kind(*index)),
        }
    }

    /// One `rule-not-evaluated` info per rule of these kinds that dopol cannot evaluate
    /// (compiling every rule of each kind once). Bundled CRDs are skipped: every one of their
    /// rules compiles (`crd::cel::tests::every_bundled_rule_compiles` keeps it so), and
    /// compiling them all would cost a small run most of its time.
    pub fn not_evaluated(
        &self,
        kinds: &std::collections::BTreeSet<(String, String)>,
    ) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        for (group, kind) in kinds {
            let Some(crd) = self.get(group, kind) else {
                continue;
            };
            if matches!(crd.origin, Origin::Bundled(_)) {
                continue;
            }
            for version in crd.versions.iter().filter(|v| v.served) {
                let Ok(schema) = version.schema() else {
                    continue;
                };
                let mut rules = Vec::new();
                schema.visit_rules("openAPIV3Schema", &mut rules);
                for (at, rule) in rules {
                    if rule.is_transition() && !rule.optional_old_self {
                        continue;
                    }
                    if let Err(why) = rule.compiled() {
                        out.push(Diagnostic::from(RuleNotEvaluated {
                            kind,
                            group,
                            version: &version.name,
                            rule: &rule.rule,
                            at: &at,
                            why: &why,
                        }));
                    }
                }
            }
        }
        out
    }

    /// Every `(group, kind)` known, sorted.
    pub fn kinds(&self) -> impl Iterator<Item = (&str, &str)> {
        self.kinds.keys().map(|(g, k)| (g.as_str(), k.as_str()))
    }
}

/// `(group, kind)` of a bundled CRD, read from its compact JSON's first bytes without parsing
/// the rest (the compact form starts with them).
fn bundled_key(bundled: &super::bundle::Bundled) -> (String, String) {
    let field = |name: &str| -> String {
        let needle = format!("\"{name}\":\"");
        bundled
            .compact
            .find(&needle)
            .map(|at| {
                let rest = &bundled.compact[at + needle.len()..];
                rest[..rest.find('"').unwrap_or(0)].to_string()
            })
            .unwrap_or_default()
    };
    (field("group"), field("kind"))
}

fn key_of(compact: &Json) -> Option<(String, String)> {
    Some((
        compact.get("group")?.as_str()?.to_string(),
        compact.get("kind")?.as_str()?.to_string(),
    ))
}

/// The CustomResourceDefinitions in a YAML text (one per document, or the items of a `List` as
/// `kubectl get crd -o yaml` prints), as JSON, with the span of each. Other documents are
/// reported as `invalid-crd` and skipped.
pub fn crds_in(
    source: SourceId,
    text: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<(Json, Span)> {
    let mut out = Vec::new();
    for document in parse_chunk(source, text, 0..text.len(), diagnostics) {
        collect(&document.root, &mut out, diagnostics);
    }
    out
}

fn collect(node: &Node, out: &mut Vec<(Json, Span)>, diagnostics: &mut Vec<Diagnostic>) {
    let kind = node.get("kind").and_then(Node::as_str);
    if kind.is_some_and(|k| k.ends_with("List"))
        && let Some(items) = node.get("items").and_then(Node::as_seq)
    {
        for item in items {
            collect(item, out, diagnostics);
        }
        return;
    }
    if kind == Some("CustomResourceDefinition") {
        let json = serde_json::to_value(node).unwrap_or(Json::Null);
        if compact(&json).is_some() {
            out.push((json, node.span));
            return;
        }
    }
    diagnostics.push(Diagnostic::from(InvalidCrd::NotACrd).with_label(node.span, "not a CRD"));
}

/// CRD files that cannot be used: the problems, and the files to render them with.
#[derive(Debug)]
pub struct RejectedCrds {
    /// One `invalid-crd` error per problem.
    pub diagnostics: Vec<Diagnostic>,
    /// The files read.
    pub sources: crate::source::SourceMap,
}

/// The bundled CRDs of `channel`, each kind replaced by the CRDs in `paths` (files, or
/// directories whose `.yaml`/`.yml`/`.json` files are read, sorted). A file that cannot be
/// read, a document that is not a CRD, or a schema that does not compile stops the run.
pub fn with_user_crds(channel: Channel, paths: &[String]) -> Result<Catalog, RejectedCrds> {
    let mut catalog = Catalog::bundled(channel);
    let mut sources = crate::source::SourceMap::new();
    let mut diagnostics = Vec::new();
    let files: Vec<String> = paths
        .iter()
        .flat_map(|p| expand(p, &mut diagnostics))
        .collect();
    for file in files {
        let text = match std::fs::read(&file).map(String::from_utf8) {
            Ok(Ok(text)) => text,
            Ok(Err(_)) => {
                diagnostics.push(unreadable(&file, "it is not valid UTF-8"));
                continue;
            }
            Err(error) => {
                diagnostics.push(unreadable(&file, &error.to_string()));
                continue;
            }
        };
        let id = sources.add(file.clone(), text.as_str());
        let mut found = Vec::new();
        let crds = crds_in(id, &text, &mut found);
        diagnostics.extend(found.into_iter().map(|d| Diagnostic {
            code: Code::INVALID_CRD,
            ..d
        }));
        for (json, span) in crds {
            let Some((group, kind)) = catalog.add_user(&file, &json) else {
                continue;
            };
            let compiled = catalog.get(&group, &kind).map(|k| &k.versions);
            for version in compiled.into_iter().flatten() {
                if let Err(why) = version.schema() {
                    let bad = InvalidCrd::BadSchema {
                        kind: &kind,
                        group: &group,
                        version: &version.name,
                        why: &why,
                    };
                    diagnostics.push(Diagnostic::from(bad).with_label(span, "this CRD"));
                }
            }
        }
    }
    if diagnostics.is_empty() {
        Ok(catalog)
    } else {
        Err(RejectedCrds {
            diagnostics,
            sources,
        })
    }
}

fn expand(path: &str, diagnostics: &mut Vec<Diagnostic>) -> Vec<String> {
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(error) => {
            diagnostics.push(unreadable(path, &error.to_string()));
            return Vec::new();
        }
    };
    if !meta.is_dir() {
        return vec![path.to_string()];
    }
    let mut files: Vec<String> = match std::fs::read_dir(path) {
        Ok(entries) => entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| {
                p.is_file()
                    && p.extension()
                        .and_then(|e| e.to_str())
                        .is_some_and(|e| matches!(e, "yaml" | "yml" | "json"))
            })
            .map(|p| p.to_string_lossy().into_owned())
            .collect(),
        Err(error) => {
            diagnostics.push(unreadable(path, &error.to_string()));
            return Vec::new();
        }
    };
    files.sort();
    if files.is_empty() {
        diagnostics.push(unreadable(
            path,
            "the directory holds no .yaml, .yml or .json file",
        ));
    }
    files
}

fn unreadable(path: &str, why: &str) -> Diagnostic {
    Diagnostic::from(InvalidCrd::Unreadable { path, why }).with_file(path)
}
