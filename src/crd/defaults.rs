//! Structural defaulting, as the API server applies it before validating and storing an object.
//!
//! For every object in the value, each declared property that is absent (or `null` while not
//! `nullable`) and has a `default` gets it; then the walk goes on into every property, the new
//! ones included, so defaults inside a defaulted object apply too. A default stands where the
//! object that received it starts, as an empty span: [`defaulted_fields`] finds such values, so
//! `explain` can say a value was defaulted rather than written.

use super::schema::Schema;
use crate::source::Span;
use crate::yaml::{Entry, Key, Node, Value};
use serde_json::Value as Json;

/// `root` with its defaults applied, or `None` when no default applies.
pub fn apply(root: &Node, schema: &Schema, skip_status: bool) -> Option<Node> {
    let entries = root.as_map()?;
    let mut changed = false;
    let mut out: Vec<Entry> = Vec::with_capacity(entries.len());
    for entry in entries {
        let key = &*entry.key.text;
        let skipped =
            matches!(key, "apiVersion" | "kind" | "metadata") || (skip_status && key == "status");
        let value = match schema.property(key).filter(|_| !skipped) {
            Some(s) => default_node(&entry.value, s),
            None => None,
        };
        changed |= value.is_some();
        out.push(Entry {
            key: entry.key.clone(),
            value: value.unwrap_or_else(|| entry.value.clone()),
        });
    }
    // A top-level `spec` default (rare) applies like any other property.
    changed |= add_missing(
        &mut out,
        root.span,
        schema,
        &["apiVersion", "kind", "metadata", "status"],
    );
    changed.then(|| Node {
        span: root.span,
        value: Value::Map(out.into()),
    })
}

fn default_node(node: &Node, schema: &Schema) -> Option<Node> {
    match &node.value {
        Value::Map(entries) => {
            // Entries are copied only from the first change on: most objects need no default.
            let mut out: Option<Vec<Entry>> = None;
            for (i, entry) in entries.iter().enumerate() {
                let child = schema
                    .field(&entry.key.text)
                    .filter(|s| s.has_defaults())
                    .and_then(|s| default_node(&entry.value, s));
                if let Some(value) = child {
                    out.get_or_insert_with(|| entries[..i].to_vec())
                        .push(Entry {
                            key: entry.key.clone(),
                            value,
                        });
                } else if let Some(out) = &mut out {
                    out.push(entry.clone());
                }
            }
            let missing = schema.properties.iter().any(|(name, p)| {
                p.default.is_some()
                    && entries
                        .iter()
                        .find(|e| *e.key.text == **name)
                        .is_none_or(|e| e.value.is_null() && !p.nullable)
            });
            if missing {
                let out = out.get_or_insert_with(|| entries.to_vec());
                add_missing(out, node.span, schema, &[]);
            }
            out.map(|out| Node {
                span: node.span,
                value: Value::Map(out.into()),
            })
        }
        Value::Seq(items) => {
            let item_schema = schema.items.as_deref().filter(|s| s.has_defaults())?;
            let mut out: Option<Vec<Node>> = None;
            for (i, item) in items.iter().enumerate() {
                match default_node(item, item_schema) {
                    Some(value) => out.get_or_insert_with(|| items[..i].to_vec()).push(value),
                    None => {
                        if let Some(out) = &mut out {
                            out.push(item.clone());
                        }
                    }
                }
            }
            out.map(|out| Node {
                span: node.span,
                value: Value::Seq(out.into()),
            })
        }
        _ => None,
    }
}

/// Adds the defaults of absent (or pruned-null) properties to `entries`; whether any was added.
fn add_missing(entries: &mut Vec<Entry>, at: Span, schema: &Schema, reserved: &[&str]) -> bool {
    let span = Span::new(at.source, at.start, at.start);
    let mut changed = false;
    for (name, property) in &schema.properties {
        let Some(default) = &property.default else {
            continue;
        };
        if reserved.contains(&&**name) {
            continue;
        }
        let existing = entries.iter().position(|e| *e.key.text == **name);
        let replace = match existing {
            None => true,
            Some(i) => entries[i].value.is_null() && !property.nullable,
        };
        if !replace {
            continue;
        }
        let value = from_json(default, span);
        let value = default_node(&value, property).unwrap_or(value);
        let entry = Entry {
            key: Key {
                text: (**name).into(),
                span,
            },
            value,
        };
        match existing {
            Some(i) => entries[i] = entry,
            None => entries.push(entry),
        }
        changed = true;
    }
    changed
}

/// A JSON default as a node at `span`.
pub fn from_json(json: &Json, span: Span) -> Node {
    let value = match json {
        Json::Null => Value::Null,
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => match n.as_i64() {
            Some(i) => Value::Int(i),
            None => Value::Float(n.as_f64().unwrap_or(0.0)),
        },
        Json::String(s) => Value::String(s.as_str().into()),
        Json::Array(items) => Value::Seq(
            items
                .iter()
                .map(|i| from_json(i, span))
                .collect::<Vec<_>>()
                .into(),
        ),
        Json::Object(map) => Value::Map(
            map.iter()
                .map(|(k, v)| Entry {
                    key: Key {
                        text: k.as_str().into(),
                        span,
                    },
                    value: from_json(v, span),
                })
                .collect::<Vec<_>>()
                .into(),
        ),
    };
    Node { span, value }
}

/// The fields defaulting added under `node`, in document order: the path of each added
/// field (the outermost one of an added subtree) and its value. Added fields are
/// recognised by their empty spans (a written key always has a non-empty one).
pub fn defaulted_fields(node: &Node) -> Vec<(String, Json)> {
    let mut out = Vec::new();
    walk_defaulted(node, &mut String::new(), &mut out);
    out
}

fn walk_defaulted(node: &Node, path: &mut String, out: &mut Vec<(String, Json)>) {
    let len = path.len();
    match &node.value {
        Value::Map(entries) => {
            for e in entries.iter() {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(&e.key.text);
                if e.key.span.is_empty() && e.key.span == e.value.span {
                    out.push((path.clone(), e.value.to_json()));
                } else {
                    walk_defaulted(&e.value, path, out);
                }
                path.truncate(len);
            }
        }
        Value::Seq(items) => {
            for (i, item) in items.iter().enumerate() {
                path.push_str(&format!("[{i}]"));
                walk_defaulted(item, path, out);
                path.truncate(len);
            }
        }
        _ => {}
    }
}
