//! `self` as the API server builds it: a YAML node typed by its schema.
//!
//! Follows `UnstructuredToVal` (`k8s.io/apiserver/pkg/cel/common/values.go`) and the property
//! name escaping of `k8s.io/apiserver/pkg/cel/escaping.go`:
//!
//! - `x-kubernetes-int-or-string`: an int or a string, as written.
//! - `type: object` with `properties` (or `x-kubernetes-embedded-resource`): a map of the
//!   *declared* properties present in the value, under their escaped names. Fields the schema
//!   does not declare are invisible (even with `x-kubernetes-preserve-unknown-fields`), so
//!   `has(self.x)` is false and `self.x` fails with `no such key: x` for an absent field.
//!   An embedded resource also shows `apiVersion`, `kind` and `metadata.name` /
//!   `metadata.generateName` (`WithTypeAndObjectMeta`).
//! - `type: object` with an `additionalProperties` schema: a map under the keys as written.
//! - `type: object` with only `x-kubernetes-preserve-unknown-fields`: an *empty* map (so the
//!   API server: "treated as an empty object").
//! - `type: array`: a list (`x-kubernetes-list-type` `set`/`map` lists compare in order here;
//!   the API server ignores order for them — no bundled rule compares lists).
//! - `type: string`: a string; `format: byte` → bytes (base64), `duration` → duration,
//!   `date` / `date-time` → timestamp. A value that does not parse stays a string (the API
//!   server makes it an error value; such a value already fails its `format` check).
//! - `type: integer` → int; `type: number` → double, even when written as an integer.
//! - `type: boolean` → bool; no type with `x-kubernetes-preserve-unknown-fields` → the value
//!   as JSON (integers as int).
//! - `null`: null where `nullable: true`. A null field that is not nullable is left out of its
//!   object: the API server prunes such nulls before validating (structural schema pruning).
//!
//! Values that do not fit their schema (the schema check reports them) are converted by their
//! YAML type.

use super::super::schema::{Additional, Schema, Type};
use super::library::{ParseAs, parse_with_cel};
use crate::expr::RESERVED_WORDS;
use crate::yaml::{Entry, Node, Value as Yaml};
use ::cel::Value;
use ::cel::objects::{Key, Map};
use std::collections::HashMap;
use std::sync::Arc;

/// Nesting beyond which a schemaless value is cut (YAML input is bounded already; this is a
/// guard against unbounded recursion).
const MAX_VALUE_DEPTH: usize = 512;

/// Whether `name` is its own CEL name (`cel.Escape` leaves it as it is).
pub fn is_plain(name: &str) -> bool {
    !name.is_empty()
        && !name.as_bytes()[0].is_ascii_digit()
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        && !name.contains("__")
        && !RESERVED_WORDS.contains(&name)
}

/// The property a CEL field name stands for, when the name is a plain name or an escaped
/// reserved word (`__namespace__`); `None` for the other escapes (`__dash__`, ...).
pub fn plain_key(name: &str) -> Option<&str> {
    if is_plain(name) {
        return Some(name);
    }
    let inner = name.strip_prefix("__")?.strip_suffix("__")?;
    RESERVED_WORDS.contains(&inner).then_some(inner)
}

/// `cel.Escape`: the CEL name of an object property, or `None` when the name cannot be
/// escaped (empty, or starting with a digit, or with a character outside
/// `[a-zA-Z0-9_.\-/]`): such a property is not accessible from CEL.
pub fn escape(name: &str) -> Option<String> {
    if name.is_empty() || name.as_bytes()[0].is_ascii_digit() {
        return None;
    }
    if RESERVED_WORDS.contains(&name) {
        return Some(format!("__{name}__"));
    }
    let simple = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    if name.bytes().all(simple) && !name.contains("__") {
        return Some(name.to_string());
    }
    let mut out = String::with_capacity(name.len() + 16);
    let mut rest = name;
    while let Some(c) = rest.chars().next() {
        if rest.starts_with("__") {
            out.push_str("__underscores__");
            rest = &rest[2..];
            continue;
        }
        match c {
            '.' => out.push_str("__dot__"),
            '-' => out.push_str("__dash__"),
            '/' => out.push_str("__slash__"),
            c if c.is_ascii_alphanumeric() || c == '_' => out.push(c),
            _ => return None,
        }
        rest = &rest[c.len_utf8()..];
    }
    Some(out)
}

/// `node` as a CEL value typed by `schema`.
pub fn to_cel(node: &Node, schema: &Schema) -> Value {
    convert(node, schema, 0)
}

/// The whole object (rules on the `openAPIV3Schema` root): as [`to_cel`], with `apiVersion`,
/// `kind` and `metadata.name` / `metadata.generateName` typed as the API server does for the
/// resource root (`model.WithTypeAndObjectMeta`); other metadata is invisible.
pub fn to_cel_root(node: &Node, schema: &Schema) -> Value {
    match &node.value {
        Yaml::Map(entries) => object(entries, schema, 0, true),
        _ => convert(node, schema, 0),
    }
}

fn string(s: &str) -> Value {
    Value::String(Arc::new(s.to_string()))
}

/// What CEL value a node becomes under its schema: the one decision [`to_cel`] and the fast
/// path (`direct.rs`) share, so that both read a value the same way.
pub(super) enum Shape<'a> {
    Null,
    Bool(bool),
    Int(i64),
    Double(f64),
    Str(&'a str),
    /// A string the schema's `format` makes bytes, a duration or a timestamp.
    Formatted(&'a str, &'a str),
    /// An object: its entries, and whether it is a resource (root or embedded).
    Object(&'a [Entry]),
    /// A list and its items' schema.
    List(&'a [Node], &'a Schema),
    /// A list or map without a usable schema: converted by its YAML type.
    Untyped,
}

pub(super) fn shape<'a>(node: &'a Node, schema: &'a Schema) -> Shape<'a> {
    match (&node.value, schema.ty) {
        (Yaml::Null, _) => Shape::Null,
        (Yaml::Int(i), _) if schema.int_or_string => Shape::Int(*i),
        (Yaml::String(s), _) if schema.int_or_string => Shape::Str(s),
        (Yaml::Map(entries), Some(Type::Object)) => Shape::Object(entries),
        (Yaml::Seq(items), Some(Type::Array)) => match &schema.items {
            Some(item) => Shape::List(items, item),
            None => Shape::Untyped,
        },
        (Yaml::String(s), Some(Type::String)) => match schema.format.as_deref() {
            Some(f @ ("byte" | "duration" | "date" | "date-time")) => Shape::Formatted(s, f),
            _ => Shape::Str(s),
        },
        (Yaml::Float(f), Some(Type::Integer)) if f.fract() == 0.0 && f.abs() < 9.2e18 => {
            Shape::Int(*f as i64)
        }
        (Yaml::Int(i), Some(Type::Number)) => Shape::Double(*i as f64),
        (Yaml::Bool(b), _) => Shape::Bool(*b),
        (Yaml::Int(i), _) => Shape::Int(*i),
        (Yaml::Float(f), _) => Shape::Double(*f),
        (Yaml::String(s), _) => Shape::Str(s),
        (Yaml::Seq(_) | Yaml::Map(_), _) => Shape::Untyped,
    }
}

/// What an entry of a typed object contributes to the converted map.
pub(super) enum Member<'a> {
    /// Nothing: an undeclared field, or a pruned null.
    Absent,
    /// A resource's `apiVersion` or `kind`.
    TypeMeta(&'a str),
    /// A resource's `metadata` (only `name` and `generateName` are visible).
    ObjectMeta,
    /// A value under its schema.
    Value(&'a Node, &'a Schema),
}

/// Whether a converted object is keyed by escaped property names (else by the keys as
/// written, for a map with an `additionalProperties` schema).
pub(super) fn escaped_keys(schema: &Schema, resource: bool) -> bool {
    resource || !schema.properties.is_empty()
}

pub(super) fn member<'a>(entry: &'a Entry, schema: &'a Schema, resource: bool) -> Member<'a> {
    let name = &*entry.key.text;
    let values = match (escaped_keys(schema, resource), &schema.additional) {
        (true, _) => match (name, schema.property(name)) {
            ("apiVersion" | "kind", _) if resource => {
                return match &entry.value.value {
                    Yaml::String(s) => Member::TypeMeta(s),
                    _ => Member::Absent,
                };
            }
            ("metadata", _) if resource => return Member::ObjectMeta,
            (_, property) => property,
        },
        (false, Additional::Schema(values)) => Some(&**values),
        (false, _) => None,
    };
    match values {
        Some(s) if entry.value.is_null() && !s.nullable => Member::Absent,
        Some(s) => Member::Value(&entry.value, s),
        None => Member::Absent,
    }
}

fn convert(node: &Node, schema: &Schema, depth: usize) -> Value {
    if depth > MAX_VALUE_DEPTH {
        return Value::Null;
    }
    match shape(node, schema) {
        Shape::Null => Value::Null,
        Shape::Bool(b) => Value::Bool(b),
        Shape::Int(i) => Value::Int(i),
        Shape::Double(f) => Value::Float(f),
        Shape::Str(s) => string(s),
        Shape::Formatted(s, format) => formatted(s, format),
        Shape::Object(entries) => object(entries, schema, depth, schema.embedded_resource),
        Shape::List(items, item) => Value::List(Arc::new(
            items.iter().map(|n| convert(n, item, depth + 1)).collect(),
        )),
        Shape::Untyped => untyped(node, depth),
    }
}

/// An object; `resource` adds the type and object meta of a resource (root or embedded).
fn object(entries: &[Entry], schema: &Schema, depth: usize, resource: bool) -> Value {
    let escaped = escaped_keys(schema, resource);
    let mut map: HashMap<Key, Value> = HashMap::with_capacity(entries.len());
    for entry in entries {
        let value = match member(entry, schema, resource) {
            Member::Absent => continue,
            Member::TypeMeta(s) => string(s),
            Member::ObjectMeta => object_meta(&entry.value),
            Member::Value(node, s) => convert(node, s, depth + 1),
        };
        let key = if escaped {
            let Some(name) = escape(&entry.key.text) else {
                continue;
            };
            name
        } else {
            entry.key.text.to_string()
        };
        map.insert(Key::String(Arc::new(key)), value);
    }
    Value::Map(Map { map: Arc::new(map) })
}

/// The part of an embedded resource's `metadata` the API server exposes.
fn object_meta(node: &Node) -> Value {
    let mut map = HashMap::new();
    for key in ["name", "generateName"] {
        if let Some(Yaml::String(s)) = node.get(key).map(|n| &n.value) {
            map.insert(Key::String(Arc::new(key.to_string())), string(s));
        }
    }
    Value::Map(Map { map: Arc::new(map) })
}

fn formatted(s: &str, format: &str) -> Value {
    let parsed = match format {
        "byte" => decode_base64(s).map(|b| Value::Bytes(Arc::new(b))),
        "duration" => parse_with_cel(ParseAs::Duration, s),
        "date" => parse_with_cel(ParseAs::Timestamp, &format!("{s}T00:00:00Z")),
        "date-time" => parse_with_cel(ParseAs::Timestamp, s),
        _ => None,
    };
    parsed.unwrap_or_else(|| string(s))
}

/// A value without a usable schema: by its YAML type.
fn untyped(node: &Node, depth: usize) -> Value {
    if depth > MAX_VALUE_DEPTH {
        return Value::Null;
    }
    match &node.value {
        Yaml::Null => Value::Null,
        Yaml::Bool(b) => Value::Bool(*b),
        Yaml::Int(i) => Value::Int(*i),
        Yaml::Float(f) => Value::Float(*f),
        Yaml::String(s) => string(s),
        Yaml::Seq(items) => Value::List(Arc::new(
            items.iter().map(|n| untyped(n, depth + 1)).collect(),
        )),
        Yaml::Map(entries) => Value::Map(Map {
            map: Arc::new(
                entries
                    .iter()
                    .map(|e| {
                        (
                            Key::String(Arc::new(e.key.text.to_string())),
                            untyped(&e.value, depth + 1),
                        )
                    })
                    .collect(),
            ),
        }),
    }
}

/// Standard base64 with padding (Go's `base64.StdEncoding`, which `strfmt.Base64` uses).
fn decode_base64(text: &str) -> Option<Vec<u8>> {
    let bytes = text.as_bytes();
    if bytes.len() % 4 != 0 {
        return None;
    }
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let mut out = Vec::with_capacity(bytes.len() / 4 * 3);
    for (i, chunk) in bytes.chunks(4).enumerate() {
        let last = i + 1 == bytes.len() / 4;
        let pad = chunk.iter().rev().take_while(|&&c| c == b'=').count();
        if pad > 2 || (pad > 0 && !last) {
            return None;
        }
        let mut n = 0u32;
        for &c in &chunk[..4 - pad] {
            n = (n << 6) | value(c)?;
        }
        n <<= 6 * pad as u32;
        let decoded = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&decoded[..3 - pad]);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_property_names_as_kubernetes_does() {
        assert_eq!(escape("namespace").as_deref(), Some("__namespace__"));
        assert_eq!(escape("if").as_deref(), Some("__if__"));
        assert_eq!(
            escape("a-b.c/d").as_deref(),
            Some("a__dash__b__dot__c__slash__d")
        );
        assert_eq!(escape("a__b").as_deref(), Some("a__underscores__b"));
        assert_eq!(escape("_x").as_deref(), Some("_x"));
        assert_eq!(escape("plain").as_deref(), Some("plain"));
        assert_eq!(escape("1a"), None);
        assert_eq!(escape("a b"), None);
        assert_eq!(escape(""), None);
    }

    #[test]
    fn decodes_base64() {
        assert_eq!(decode_base64("aGk=").as_deref(), Some(&b"hi"[..]));
        assert_eq!(decode_base64("aGVsbG8h").as_deref(), Some(&b"hello!"[..]));
        assert_eq!(decode_base64("a"), None);
        assert_eq!(decode_base64("a=bc"), None);
    }
}
