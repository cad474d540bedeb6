//! An AgentgatewayPolicy's `spec` cut into rule keys (docs/families.md §5.2):
//! `<section>.<field>` for each top-level field of `frontend`, `traffic` and `backend`,
//! the value verbatim, with the splits the proxy stores separately. A `traffic` section with
//! `phase: PreRouting` is folded apart, under the prefix `preRouting.`.

use crate::name::Name;
use crate::policy::Rule;
use crate::yaml::{Entry, Node, Value};

/// The section a rule key belongs to: each has its own ladder and merge (§5.3, §5.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Section {
    /// `frontend.*`: Gateway < port < listener, most specific wins.
    Frontend,
    /// `traffic.*` (PostRouting): least specific first, Override locks.
    Traffic,
    /// `preRouting.*`: Gateway < listener, most specific wins.
    PreRouting,
    /// `backend.*`: Gateway < listener < route < rule, most specific wins.
    Backend,
}

impl Section {
    /// The section of a rule key.
    pub fn of(key: &str) -> Section {
        match key.split('.').next() {
            Some("frontend") => Section::Frontend,
            Some("preRouting") => Section::PreRouting,
            Some("backend") => Section::Backend,
            _ => Section::Traffic,
        }
    }
}

/// Keys whose every level contributes (`{"ruleSets": [...]}`, most specific first).
const UNION_KEYS: &[&str] = &[
    "traffic.authorization",
    "preRouting.authorization",
    "frontend.networkAuthorization",
    "backend.authorization",
    "backend.mcp.authorization",
];

/// Whether every level contributes to `key`.
pub fn is_union(key: &str) -> bool {
    UNION_KEYS.contains(&key)
}

/// The key whose least specific value wins (`set_if_unset`, \[controller\]).
pub const BUFFER: &str = "traffic.buffer";

/// Fields whose value may be a `conditional` list.
const CONDITIONAL_FIELDS: &[&str] = &[
    "extAuth",
    "extProc",
    "rateLimit",
    "transformation",
    "directResponse",
];

/// The rules of a decoded `spec`, sorted by key.
pub fn rules(spec: &Node) -> Vec<Rule> {
    let mut rules = Vec::new();
    for section in ["frontend", "traffic", "backend"] {
        let Some(entries) = spec.get(section).and_then(Node::as_map) else {
            continue;
        };
        let prefix = match section {
            "traffic" if pre_routing(spec) => "preRouting",
            other => other,
        };
        for entry in entries {
            section_field(prefix, entry, &mut rules);
        }
    }
    rules.sort_by(|a, b| a.key.cmp(&b.key));
    rules.dedup_by(|a, b| a.key == b.key);
    rules
}

/// Whether `traffic.phase` is `PreRouting`.
pub fn pre_routing(spec: &Node) -> bool {
    spec.get_path(&["traffic", "phase"]).and_then(Node::as_str) == Some("PreRouting")
}

/// The rules of one field of a section.
fn section_field(prefix: &str, entry: &Entry, rules: &mut Vec<Rule>) {
    let field = &*entry.key.text;
    let rule = |key: String, value: Node| Rule {
        key: Name::new(&key),
        value,
        key_span: entry.key.span,
    };
    match (prefix, field) {
        ("traffic" | "preRouting", "phase") => {}
        ("traffic" | "preRouting", "rateLimit") => {
            for part in ["local", "global"] {
                if let Some(value) = split_part(&entry.value, part) {
                    rules.push(rule(format!("{prefix}.rateLimit.{part}"), value));
                }
            }
        }
        ("traffic" | "preRouting", "headerModifiers") | ("backend", "ai" | "mcp") => {
            for sub in entry.value.as_map().unwrap_or_default() {
                let key = format!("{prefix}.{field}.{}", sub.key.text);
                rules.push(rule(key, sub.value.clone()));
            }
        }
        _ => rules.push(rule(format!("{prefix}.{field}"), entry.value.clone())),
    }
}

/// `part` (`local` or `global`) of a `rateLimit` value: the field, or for a conditional list
/// the list of the entries that set it, each with its condition (an entry setting neither is
/// in neither list, so a split list can lose its fallback).
fn split_part(value: &Node, part: &str) -> Option<Node> {
    let Some(list) = value.get("conditional").and_then(Node::as_seq) else {
        return value.get(part).cloned();
    };
    let entries: Vec<Node> = list
        .iter()
        .filter_map(|item| {
            let policy = item.get("policy")?.get(part)?;
            let mut fields = Vec::new();
            if let Some(condition) = item.get("condition") {
                fields.push(("condition", condition.clone()));
            }
            fields.push(("policy", map(vec![(part, policy.clone())])));
            Some(map(fields))
        })
        .collect();
    (!entries.is_empty()).then(|| map(vec![("conditional", seq(entries))]))
}

/// A synthetic map.
pub fn map(fields: Vec<(&str, Node)>) -> Node {
    let entries: Vec<Entry> = fields
        .into_iter()
        .map(|(key, value)| Entry {
            key: crate::yaml::Key {
                text: Name::new(key),
                span: value.span,
            },
            value,
        })
        .collect();
    Node::synthetic(Value::Map(entries.into()))
}

/// A synthetic sequence.
pub fn seq(items: Vec<Node>) -> Node {
    Node::synthetic(Value::Seq(items.into()))
}

/// Whether `key`'s value `value` is a conditional list whose every entry has a condition: a
/// request no condition matches gets nothing from it.
pub fn conditional_without_fallback(key: &str, value: &Node) -> bool {
    let field = key.split('.').nth(1).unwrap_or_default();
    if !CONDITIONAL_FIELDS.contains(&field) {
        return false;
    }
    value
        .get("conditional")
        .and_then(Node::as_seq)
        .is_some_and(|list| list.iter().all(|e| e.get("condition").is_some()))
}
