//! Structural defaulting, as the API server applies it before validating and storing an object.
//!
//! For every object in the value, each declared property that is absent (or `null` while not
//! `nullable`) and has a `default` gets it; then the walk goes on into every property, the new
//! ones included, so defaults inside a defaulted object apply too. A default stands where the
//! object that received it starts, as an empty span: [`defaulted_fields`] finds such values, so
//! `explain` can say a value was defaulted rather than written.

use super::schema::Schema;
use crate::source::Span;
use crate::yaml::{Entry, Key, Node, Shared, Value, intern};
use serde_json::Value as Json;

/// Applies the defaults to `root` in place; whether any applied.
///
/// The tree is edited where it lies: a parsed tree is owned by this object alone, so only the
/// mappings that gain a field are reallocated, not the spine above every default (which used
/// to copy nearly every route whole, as every backendRef gets `group`, `kind` and `weight`).
/// A subtree shared with another place (a YAML alias) is copied first, and only if it changes.
pub fn apply(root: &mut Node, schema: &Schema, skip_status: bool) -> bool {
    let span = root.span;
    let Value::Map(entries) = &mut root.value else {
        return false;
    };
    let mut changed = default_entries(entries, |key| {
        let skipped =
            matches!(key, "apiVersion" | "kind" | "metadata") || (skip_status && key == "status");
        schema.property(key).filter(|_| !skipped)
    });
    // A top-level `spec` default (rare) applies like any other property.
    changed |= add_missing(
        entries,
        span,
        schema,
        &["apiVersion", "kind", "metadata", "status"],
    );
    changed
}

fn default_node(node: &mut Node, schema: &Schema) -> bool {
    let span = node.span;
    match &mut node.value {
        Value::Map(entries) => {
            let changed = default_entries(entries, |key| schema.field(key));
            add_missing(entries, span, schema, &[]) | changed
        }
        Value::Seq(items) => {
            let Some(item_schema) = schema.items.as_deref().filter(|s| s.has_defaults()) else {
                return false;
            };
            edit(items, |items| {
                let mut changed = false;
                for item in items.iter_mut() {
                    changed |= default_node(item, item_schema);
                }
                changed
            })
        }
        _ => false,
    }
}

/// Defaults the value of each entry that `schema_of` gives a schema with defaults below it.
fn default_entries<'s>(
    entries: &mut Shared<Entry>,
    schema_of: impl Fn(&str) -> Option<&'s Schema>,
) -> bool {
    edit(entries, |entries| {
        let mut changed = false;
        for entry in entries.iter_mut() {
            if let Some(s) = schema_of(&entry.key.text).filter(|s| s.has_defaults()) {
                changed |= default_node(&mut entry.value, s);
            }
        }
        changed
    })
}

/// Runs `f` on the items in place when nothing else holds them, else on a shallow copy that
/// replaces them only when `f` changed something.
fn edit<T: Clone>(shared: &mut Shared<T>, f: impl FnOnce(&mut [T]) -> bool) -> bool {
    if let Some(items) = Shared::get_mut(shared) {
        return f(items);
    }
    let mut copy = shared.to_vec();
    let changed = f(&mut copy);
    if changed {
        *shared = copy.into();
    }
    changed
}

/// Adds the defaults of absent (or pruned-null) properties to `entries`; whether any was added.
///
/// A property written as `null` gets its default in place; absent ones are appended, in
/// schema order. When some are appended, the mapping is reallocated once at its new size, its
/// entries moved over when nothing else holds them (copied otherwise).
fn add_missing(entries: &mut Shared<Entry>, at: Span, schema: &Schema, reserved: &[&str]) -> bool {
    let span = Span::new(at.source, at.start, at.start);
    let mut replaced: Vec<(usize, Entry)> = Vec::new();
    let mut appended: Vec<Entry> = Vec::new();
    for (name, property) in &schema.properties {
        let Some(default) = &property.default else {
            continue;
        };
        if reserved.contains(&&**name) {
            continue;
        }
        let existing = entries.iter().position(|e| *e.key.text == **name);
        if existing.is_some_and(|i| !entries[i].value.is_null() || property.nullable) {
            continue;
        }
        let mut value = from_json(default, span);
        default_node(&mut value, property);
        let entry = Entry {
            key: Key {
                text: intern(name),
                span,
            },
            value,
        };
        match existing {
            Some(i) => replaced.push((i, entry)),
            None => appended.push(entry),
        }
    }
    if replaced.is_empty() && appended.is_empty() {
        return false;
    }
    if !replaced.is_empty() {
        edit(entries, |entries| {
            for (i, entry) in replaced {
                entries[i] = entry;
            }
            true
        });
    }
    if !appended.is_empty() {
        let len = entries.len() + appended.len();
        *entries = match Shared::get_mut(entries) {
            Some(own) => Shared::from_counted(len, own.iter_mut().map(take_entry).chain(appended)),
            None => Shared::from_counted(len, entries.iter().cloned().chain(appended)),
        };
    }
    true
}

/// Moves an entry's value out, leaving `null` (its key is shared, not copied).
fn take_entry(entry: &mut Entry) -> Entry {
    Entry {
        key: entry.key.clone(),
        value: std::mem::replace(&mut entry.value, Node::synthetic(Value::Null)),
    }
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
                        text: intern(k),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crd::cel::tests::yaml;

    fn schema() -> Schema {
        let json: Json = serde_json::from_str(
            r#"{"type":"object","properties":{"spec":{"type":"object","properties":{
                "refs":{"type":"array","items":{"type":"object","properties":{
                    "name":{"type":"string"},
                    "kind":{"type":"string","default":"Service"},
                    "weight":{"type":"integer","default":1}}}},
                "mode":{"type":"string","default":"fast"}}}}}"#,
        )
        .unwrap();
        Schema::compile(&json).unwrap()
    }

    #[test]
    fn defaults_are_applied_in_place_and_marked_by_empty_spans() {
        let mut root = yaml("spec:\n  refs:\n  - name: a\n  - name: b\n    weight: 5\n");
        assert!(apply(&mut root, &schema(), true));
        assert_eq!(
            root.to_json(),
            serde_json::json!({"spec": {"refs": [
                {"name": "a", "kind": "Service", "weight": 1},
                {"name": "b", "weight": 5, "kind": "Service"}],
                "mode": "fast"}})
        );
        let added: Vec<String> = defaulted_fields(&root)
            .into_iter()
            .map(|(p, _)| p)
            .collect();
        assert_eq!(
            added,
            [
                "spec.refs[0].kind",
                "spec.refs[0].weight",
                "spec.refs[1].kind",
                "spec.mode"
            ]
        );
        // Nothing left to default: the tree is not touched again.
        assert!(!apply(&mut root, &schema(), true));
    }

    #[test]
    fn a_subtree_shared_by_an_alias_gets_its_defaults_in_both_places() {
        let mut root = yaml("spec:\n  refs:\n  - &r {name: a}\n  - *r\n  mode: slow\n");
        let shared = root.get_path(&["spec", "refs"]).unwrap().as_seq().unwrap()[0].clone();
        assert!(apply(&mut root, &schema(), true));
        let refs = root.get_path(&["spec", "refs"]).unwrap().to_json();
        let one = serde_json::json!({"name": "a", "kind": "Service", "weight": 1});
        assert_eq!(refs, serde_json::json!([one.clone(), one]));
        // A holder of the shared subtree outside the object keeps what was written.
        assert_eq!(shared.to_json(), serde_json::json!({"name": "a"}));
    }
}
