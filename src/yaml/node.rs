//! The spanned YAML tree.
//!
//! A [`Node`] is a JSON-compatible value (what the Kubernetes API server would see after its
//! YAML-to-JSON conversion) plus the byte span it came from. Rule values are kept as nodes all
//! the way to the output, so any value can be blamed on its exact place in a file.
//! Collections are reference-counted, so taking a rule value out of a policy copies nothing.

use super::shared::{Shared, SharedStr};
use crate::source::Span;
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};

/// A YAML node with its location.
#[derive(Clone, Debug)]
pub struct Node {
    /// Where the node is written (for collections: from the first to the last byte).
    pub span: Span,
    /// The value.
    pub value: Value,
}

/// A JSON-compatible YAML value.
#[derive(Clone, Debug)]
pub enum Value {
    /// `null`, `~` or empty.
    Null,
    /// A boolean (`true`, and the YAML 1.1 forms Kubernetes accepts: `yes`, `on`, ...).
    Bool(bool),
    /// An integer that fits in i64.
    Int(i64),
    /// Any other number.
    Float(f64),
    /// A string (shared: one word, see [`super::shared`]).
    String(SharedStr),
    /// A sequence. Subtrees are shared: cloning a node is O(1).
    Seq(Shared<Node>),
    /// A mapping, keys in source order, no duplicates. Shared like sequences.
    Map(Shared<Entry>),
}

/// A mapping key with its location.
#[derive(Clone, Debug)]
pub struct Key {
    /// The key as a string (scalar keys are converted, as the Kubernetes YAML loader does),
    /// shared through the interner ([`crate::yaml::intern`]). A [`crate::name::Name`], one
    /// pointer: an entry is 64 bytes, not 72, and a model keeps half a million of them on the
    /// 49 MB benchmark (`effective`'s peak: 172 to 165 MiB).
    pub text: crate::name::Name,
    /// Where the key is written.
    pub span: Span,
}

/// One `key: value` pair.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The key.
    pub key: Key,
    /// The value.
    pub value: Node,
}

impl Node {
    /// A node without a meaningful location (for synthesized values).
    pub fn synthetic(value: Value) -> Node {
        Node {
            span: Span::default(),
            value,
        }
    }

    /// A copy in which each collection nothing else holds is allocated anew (one still shared
    /// stays shared, so nothing is held twice): run inside
    /// [`crate::platform::kept::keep`], it moves a value read from a document that is then
    /// freed into kept storage.
    pub fn copied_apart(&self) -> Node {
        let value = match &self.value {
            Value::String(text) if SharedStr::strong_count(text) == 1 => {
                Value::String(SharedStr::from(&**text))
            }
            Value::Seq(items) if Shared::strong_count(items) == 1 => {
                Value::Seq(Shared::from_exact(items.iter().map(Node::copied_apart)))
            }
            Value::Map(entries) if Shared::strong_count(entries) == 1 => {
                Value::Map(Shared::from_exact(entries.iter().map(|entry| Entry {
                    key: entry.key.clone(),
                    value: entry.value.copied_apart(),
                })))
            }
            other => other.clone(),
        };
        Node {
            span: self.span,
            value,
        }
    }

    /// The mapping entries, if this is a mapping.
    pub fn as_map(&self) -> Option<&[Entry]> {
        match &self.value {
            Value::Map(entries) => Some(entries),
            _ => None,
        }
    }

    /// The items, if this is a sequence.
    pub fn as_seq(&self) -> Option<&[Node]> {
        match &self.value {
            Value::Seq(items) => Some(items),
            _ => None,
        }
    }

    /// The string, if this is a string.
    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The integer, if this is an integer.
    pub fn as_i64(&self) -> Option<i64> {
        match &self.value {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// Whether this is `null`.
    pub fn is_null(&self) -> bool {
        matches!(self.value, Value::Null)
    }

    /// The entry for `key`, if this is a mapping that has it.
    pub fn entry(&self, key: &str) -> Option<&Entry> {
        self.as_map()?.iter().find(|e| &*e.key.text == key)
    }

    /// The value under `key`, if this is a mapping that has it.
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.entry(key).map(|e| &e.value)
    }

    /// A copy of this mapping with the value of `key` replaced (the key keeps its place).
    pub fn with_entry(&self, key: &str, value: Node) -> Node {
        let entries: Vec<Entry> = self
            .as_map()
            .unwrap_or_default()
            .iter()
            .map(|e| {
                if &*e.key.text == key {
                    Entry {
                        key: e.key.clone(),
                        value: value.clone(),
                    }
                } else {
                    e.clone()
                }
            })
            .collect();
        Node {
            span: self.span,
            value: Value::Map(entries.into()),
        }
    }

    /// Follows a path of mapping keys.
    pub fn get_path(&self, path: &[&str]) -> Option<&Node> {
        path.iter().try_fold(self, |node, key| node.get(key))
    }

    /// The JSON type name, for messages ("expected a mapping, found a string").
    pub fn type_name(&self) -> &'static str {
        self.value.type_name()
    }

    /// Structural equality, ignoring spans and mapping key order.
    pub fn same_value(&self, other: &Node) -> bool {
        self.value.same_value(&other.value)
    }

    /// Converts to a `serde_json::Value` (mapping order preserved).
    pub fn to_json(&self) -> serde_json::Value {
        match &self.value {
            Value::Null => serde_json::Value::Null,
            Value::Bool(b) => serde_json::Value::Bool(*b),
            Value::Int(i) => serde_json::Value::from(*i),
            Value::Float(f) => serde_json::Number::from_f64(*f)
                .map(serde_json::Value::Number)
                .unwrap_or_else(|| serde_json::Value::String(non_finite_text(*f).into())),
            Value::String(s) => serde_json::Value::String(s.to_string()),
            Value::Seq(items) => {
                serde_json::Value::Array(items.iter().map(Node::to_json).collect())
            }
            Value::Map(entries) => serde_json::Value::Object(
                entries
                    .iter()
                    .map(|e| (e.key.text.to_string(), e.value.to_json()))
                    .collect(),
            ),
        }
    }

    /// Counts the nodes of this subtree (itself included).
    pub fn count_nodes(&self) -> usize {
        1 + match &self.value {
            Value::Seq(items) => items.iter().map(Node::count_nodes).sum(),
            Value::Map(entries) => entries.iter().map(|e| e.value.count_nodes()).sum(),
            _ => 0,
        }
    }
}

impl Value {
    /// The JSON type name.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Int(_) => "integer",
            Value::Float(_) => "number",
            Value::String(_) => "string",
            Value::Seq(_) => "sequence",
            Value::Map(_) => "mapping",
        }
    }

    /// Structural equality, ignoring spans and mapping key order. `1` equals `1.0`, as in JSON.
    pub fn same_value(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Null, Value::Null) => true,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Int(a), Value::Int(b)) => a == b,
            (Value::Float(a), Value::Float(b)) => a == b || (a.is_nan() && b.is_nan()),
            (Value::Int(a), Value::Float(b)) | (Value::Float(b), Value::Int(a)) => *a as f64 == *b,
            (Value::String(a), Value::String(b)) => a == b,
            (Value::Seq(a), Value::Seq(b)) => {
                a.len() == b.len() && a.iter().zip(b.iter()).all(|(x, y)| x.same_value(y))
            }
            (Value::Map(a), Value::Map(b)) => {
                a.len() == b.len()
                    && a.iter().all(|ea| {
                        b.iter()
                            .find(|eb| eb.key.text == ea.key.text)
                            .is_some_and(|eb| ea.value.same_value(&eb.value))
                    })
            }
            _ => false,
        }
    }
}

fn non_finite_text(f: f64) -> &'static str {
    if f.is_nan() {
        ".nan"
    } else if f > 0.0 {
        ".inf"
    } else {
        "-.inf"
    }
}

impl Serialize for Node {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.value.serialize(serializer)
    }
}

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Null => serializer.serialize_unit(),
            Value::Bool(b) => serializer.serialize_bool(*b),
            Value::Int(i) => serializer.serialize_i64(*i),
            Value::Float(f) if f.is_finite() => serializer.serialize_f64(*f),
            Value::Float(f) => serializer.serialize_str(non_finite_text(*f)),
            Value::String(s) => serializer.serialize_str(s),
            Value::Seq(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items.iter() {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Value::Map(entries) => {
                let mut map = serializer.serialize_map(Some(entries.len()))?;
                for entry in entries.iter() {
                    map.serialize_entry(&*entry.key.text, &entry.value)?;
                }
                map.end()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A model keeps every rule value's nodes and entries to the end of the run: their sizes
    /// are its memory (see [`Key::text`]).
    #[test]
    #[cfg(target_pointer_width = "64")]
    fn nodes_and_entries_stay_small() {
        assert_eq!(std::mem::size_of::<Value>(), 16);
        assert_eq!(std::mem::size_of::<Node>(), 32);
        assert_eq!(std::mem::size_of::<Key>(), 24);
        assert_eq!(std::mem::size_of::<Entry>(), 56);
    }

    fn s(text: &str) -> Node {
        Node::synthetic(Value::String(text.into()))
    }

    fn map(entries: Vec<(&str, Node)>) -> Node {
        Node::synthetic(Value::Map(
            entries
                .into_iter()
                .map(|(k, v)| Entry {
                    key: Key {
                        text: k.into(),
                        span: Span::default(),
                    },
                    value: v,
                })
                .collect(),
        ))
    }

    #[test]
    fn same_value_ignores_key_order_and_spans() {
        let a = map(vec![("x", s("1")), ("y", Node::synthetic(Value::Int(2)))]);
        let b = map(vec![
            ("y", Node::synthetic(Value::Float(2.0))),
            ("x", s("1")),
        ]);
        assert!(a.same_value(&b));
        let c = map(vec![("x", s("1"))]);
        assert!(!a.same_value(&c));
    }

    #[test]
    fn serializes_as_json() {
        let a = map(vec![("x", s("1")), ("n", Node::synthetic(Value::Null))]);
        assert_eq!(serde_json::to_string(&a).unwrap(), r#"{"x":"1","n":null}"#);
        assert_eq!(a.to_json(), serde_json::json!({"x": "1", "n": null}));
    }
}
