//! A Kuma policy's spec as the evaluation reads it: the top-level `targetRef` and the `to`,
//! `from`, `rules` and `default` sections (§K1), with manifest `null`s pruned as the API
//! server prunes them (§K7).

use super::index::string_map;
use crate::source::Span;
use crate::yaml::Node;
use serde_json::Value as Json;
use std::collections::BTreeMap;

/// A `targetRef`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ref {
    /// `kind` (`Mesh` when absent).
    pub kind: String,
    /// `name`.
    pub name: Option<String>,
    /// `namespace`.
    pub namespace: Option<String>,
    /// `labels`.
    pub labels: BTreeMap<String, String>,
    /// `sectionName`.
    pub section: Option<String>,
    /// `tags` (deprecated kinds).
    pub tags: BTreeMap<String, String>,
    /// `proxyTypes`.
    pub proxy_types: Vec<String>,
    /// Where it is written (the spec when absent).
    pub span: Span,
}

impl Ref {
    /// `{kind: Mesh}`, for an absent top level.
    fn mesh(span: Span) -> Ref {
        Ref {
            kind: "Mesh".to_string(),
            span,
            ..Ref::default()
        }
    }

    /// Reads a `targetRef`.
    pub fn read(node: Option<&Node>, fallback: Span) -> Ref {
        let Some(node) = node.filter(|n| n.as_map().is_some()) else {
            return Ref::mesh(fallback);
        };
        let text = |key: &str| node.get(key).and_then(Node::as_str).map(str::to_string);
        Ref {
            kind: text("kind").unwrap_or_else(|| "Mesh".to_string()),
            name: text("name").filter(|n| !n.is_empty()),
            namespace: text("namespace").filter(|n| !n.is_empty()),
            labels: string_map(node.get("labels")),
            section: text("sectionName").filter(|n| !n.is_empty()),
            tags: string_map(node.get("tags")),
            proxy_types: (node.get("proxyTypes").and_then(Node::as_seq))
                .unwrap_or_default()
                .iter()
                .filter_map(|t| t.as_str().map(str::to_string))
                .collect(),
            span: node.span,
        }
    }
}

/// A `to[]` or `from[]` item.
#[derive(Clone, Debug)]
pub struct Item {
    /// Its `targetRef`.
    pub target: Ref,
    /// Its `default`, nulls pruned (`{}` when absent).
    pub conf: Json,
    /// Where it is written.
    pub span: Span,
}

/// A `rules[]` item.
#[derive(Clone, Debug)]
pub struct RuleItem {
    /// Its `matches[]` (empty: a catch-all rule).
    pub matches: Vec<Json>,
    /// Its `default`, nulls pruned.
    pub conf: Json,
    /// Where it is written.
    pub span: Span,
}

/// The sections of one policy.
#[derive(Clone, Debug, Default)]
pub struct View {
    /// The top-level `targetRef` (`Mesh` when absent).
    pub top: Ref,
    /// `to`, when present.
    pub to: Option<Vec<Item>>,
    /// `from`, when present.
    pub from: Option<Vec<Item>>,
    /// `rules`, when present.
    pub rules: Option<Vec<RuleItem>>,
    /// `default` (single-default kinds).
    pub default: Option<Json>,
}

impl View {
    /// Reads a policy spec.
    pub fn read(spec: &Node) -> View {
        let items = |key: &str| {
            spec.get(key).and_then(Node::as_seq).map(|seq| {
                seq.iter()
                    .map(|item| Item {
                        target: Ref::read(item.get("targetRef"), item.span),
                        conf: conf(item.get("default")),
                        span: item.span,
                    })
                    .collect()
            })
        };
        let rules = spec.get("rules").and_then(Node::as_seq).map(|seq| {
            seq.iter()
                .map(|item| RuleItem {
                    matches: (item.get("matches").and_then(Node::as_seq))
                        .unwrap_or_default()
                        .iter()
                        .map(|m| prune_nulls(m.to_json()))
                        .collect(),
                    conf: conf(item.get("default")),
                    span: item.span,
                })
                .collect()
        });
        View {
            top: Ref::read(spec.get("targetRef"), spec.span),
            to: items("to"),
            from: items("from"),
            rules,
            default: spec.get("default").map(|d| conf(Some(d))),
        }
    }
}

/// A `default` as JSON, nulls pruned; `{}` when absent.
fn conf(node: Option<&Node>) -> Json {
    node.map_or(Json::Object(Default::default()), |n| {
        prune_nulls(n.to_json())
    })
}

/// Removes the `null` members of every object (the API server prunes them).
pub fn prune_nulls(value: Json) -> Json {
    match value {
        Json::Object(map) => Json::Object(
            map.into_iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k, prune_nulls(v)))
                .collect(),
        ),
        Json::Array(items) => Json::Array(items.into_iter().map(prune_nulls).collect()),
        other => other,
    }
}
