//! Typed, located access to object fields.
//!
//! Decoders for Gateway API objects and policies read the spanned tree through [`Fields`],
//! which records a located `invalid-object` diagnostic for every missing or mistyped field
//! (what the API server would reject) and an `unknown-field` warning for keys outside a schema
//! dopol models completely. Field paths ([`FieldPath`]) are built on the stack and only
//! formatted when a message is needed.

use super::names::NameRule;
use crate::diag::Diagnostic;
use crate::yaml::{Entry, Key, Node, Value};
use std::fmt;

/// A field path such as `spec.listeners[1].port`, formatted lazily.
#[derive(Clone, Copy, Debug)]
pub struct FieldPath<'p> {
    parent: Option<&'p FieldPath<'p>>,
    segment: Segment<'p>,
}

#[derive(Clone, Copy, Debug)]
enum Segment<'p> {
    Root,
    Key(&'p str),
    Index(usize),
}

impl<'p> FieldPath<'p> {
    /// The object itself.
    pub const ROOT: FieldPath<'static> = FieldPath {
        parent: None,
        segment: Segment::Root,
    };

    /// The field `key` of this path.
    pub fn key(&'p self, key: &'p str) -> FieldPath<'p> {
        FieldPath {
            parent: Some(self),
            segment: Segment::Key(key),
        }
    }

    /// Item `index` of this path.
    pub fn index(&'p self, index: usize) -> FieldPath<'p> {
        FieldPath {
            parent: Some(self),
            segment: Segment::Index(index),
        }
    }
}

impl fmt::Display for FieldPath<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(parent) = self.parent {
            parent.fmt(f)?;
        }
        match self.segment {
            Segment::Root => Ok(()),
            Segment::Key(key) => {
                let is_first = self
                    .parent
                    .is_none_or(|p| matches!(p.segment, Segment::Root));
                let plain = key
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
                match (is_first, plain) {
                    (true, true) => f.write_str(key),
                    (false, true) => write!(f, ".{key}"),
                    (_, false) => write!(f, "[{key:?}]"),
                }
            }
            Segment::Index(i) => write!(f, "[{i}]"),
        }
    }
}

/// Reads fields of one object and collects its shape diagnostics.
#[derive(Debug)]
pub struct Fields<'o> {
    object: ObjectName<'o>,
    diagnostics: Vec<Diagnostic>,
    errors: usize,
    schema_checked: bool,
}

/// The object diagnostics are about, named only when a diagnostic needs it (decoding tens of
/// thousands of valid objects should not format tens of thousands of names).
#[derive(Debug)]
enum ObjectName<'o> {
    Object(&'o crate::load::Object),
    Text(String),
}

impl ObjectName<'_> {
    fn text(&self) -> String {
        match self {
            ObjectName::Object(object) => object.display(),
            ObjectName::Text(text) => text.clone(),
        }
    }
}

/// Article + type name for messages ("a mapping", "an integer").
fn a(type_name: &str) -> String {
    match type_name.as_bytes().first() {
        Some(b'a' | b'e' | b'i' | b'o' | b'u') => format!("an {type_name}"),
        _ => format!("a {type_name}"),
    }
}

impl<'o> Fields<'o> {
    /// Starts reading an object named like `HTTPRoute shop/cart`.
    pub fn new(object: impl Into<String>) -> Self {
        Fields {
            object: ObjectName::Text(object.into()),
            diagnostics: Vec::new(),
            errors: 0,
            schema_checked: false,
        }
    }

    /// Starts reading a loaded object.
    pub fn for_object(object: &'o crate::load::Object) -> Self {
        Fields {
            object: ObjectName::Object(object),
            diagnostics: Vec::new(),
            errors: 0,
            schema_checked: false,
        }
    }

    /// Marks the object as validated against its CRD: unknown fields were reported there, so the
    /// decoders' own lists of known fields (which only cover what dopol reads) stay silent.
    pub fn set_schema_checked(&mut self) {
        self.schema_checked = true;
    }

    /// Whether any error was recorded (the object must be left out).
    pub fn failed(&self) -> bool {
        self.errors > 0
    }

    /// How many errors were recorded.
    pub fn error_count(&self) -> usize {
        self.errors
    }

    /// Records an `invalid-object` error: the object will be left out.
    pub fn invalid(&mut self, node_span: crate::source::Span, message: String, label: &str) {
        let invalid = super::diags::InvalidObject { problem: message };
        self.push(Diagnostic::from(invalid).with_label(node_span, label));
    }

    /// Records a diagnostic about this object (the object name is filled in). An error-severity
    /// input diagnostic means the API server would reject the object: it will be left out.
    pub fn push(&mut self, diagnostic: Diagnostic) {
        if diagnostic.is_input_error() {
            self.errors += 1;
        }
        self.report(diagnostic);
    }

    /// Records a diagnostic without rejecting the object (for rules dopol reports but still
    /// evaluates through, such as the CRD's mutually exclusive blocks).
    pub fn report(&mut self, mut diagnostic: Diagnostic) {
        if diagnostic.object.is_none() {
            diagnostic.object = Some(self.object.text());
        }
        self.diagnostics.push(diagnostic);
    }

    /// Records an `unknown-field` warning for a key outside what dopol reads, for objects no CRD
    /// validated (a warning: dopol's list may be shorter than the real schema).
    pub fn unknown_field(&mut self, key: &Key, path: &FieldPath<'_>, known: &[&str]) {
        if self.schema_checked {
            return;
        }
        let unknown = super::diags::UnknownField {
            key: &key.text,
            path,
            known,
        };
        self.push(
            Diagnostic::from(unknown)
                .with_severity(crate::diag::Severity::Warning)
                .with_label(key.span, "not part of the schema"),
        );
    }

    /// Warns about every key of `map` not in `known`.
    pub fn check_known(&mut self, entries: &[Entry], path: &FieldPath<'_>, known: &[&str]) {
        for entry in entries {
            if !known.contains(&&*entry.key.text) {
                self.unknown_field(&entry.key, path, known);
            }
        }
    }

    /// Checks a name-like string against `rule` (an `invalid-name` error when it breaks it).
    /// Returns the value when valid.
    pub fn check_name<'n>(
        &mut self,
        node: &'n Node,
        path: &FieldPath<'_>,
        rule: NameRule,
    ) -> Option<&'n str> {
        let value = self.str(node, path)?;
        match name_violation(node, value, path, rule) {
            None => Some(value),
            Some(diagnostic) => {
                self.push(diagnostic);
                None
            }
        }
    }

    /// An optional name-like field (`None` when absent or null, or invalid).
    pub fn opt_name<'n>(
        &mut self,
        parent: &'n Node,
        key: &str,
        parent_path: &FieldPath<'_>,
        rule: NameRule,
    ) -> Option<&'n str> {
        let node = parent.get(key).filter(|n| !n.is_null())?;
        self.check_name(node, &parent_path.key(key), rule)
    }

    /// All diagnostics recorded so far.
    pub fn into_diagnostics(self) -> Vec<Diagnostic> {
        self.diagnostics
    }

    fn wrong_type(&mut self, node: &Node, path: &FieldPath<'_>, expected: &str) {
        self.invalid(
            node.span,
            format!(
                "`{path}` must be {}, found {}",
                a(expected),
                a(node.type_name())
            ),
            &format!("expected {}", a(expected)),
        );
    }

    /// The entries of a mapping (`null` reads as empty).
    pub fn map<'n>(&mut self, node: &'n Node, path: &FieldPath<'_>) -> Option<&'n [Entry]> {
        match &node.value {
            Value::Map(entries) => Some(entries),
            Value::Null => Some(&[]),
            _ => {
                self.wrong_type(node, path, "mapping");
                None
            }
        }
    }

    /// The items of a sequence (`null` reads as empty).
    pub fn seq<'n>(&mut self, node: &'n Node, path: &FieldPath<'_>) -> Option<&'n [Node]> {
        match &node.value {
            Value::Seq(items) => Some(items),
            Value::Null => Some(&[]),
            _ => {
                self.wrong_type(node, path, "sequence");
                None
            }
        }
    }

    /// A string.
    pub fn str<'n>(&mut self, node: &'n Node, path: &FieldPath<'_>) -> Option<&'n str> {
        match &node.value {
            Value::String(s) => Some(s),
            _ => {
                self.wrong_type(node, path, "string");
                None
            }
        }
    }

    /// A non-empty string.
    pub fn non_empty_str<'n>(&mut self, node: &'n Node, path: &FieldPath<'_>) -> Option<&'n str> {
        let s = self.str(node, path)?;
        if s.is_empty() {
            self.invalid(node.span, format!("`{path}` must not be empty"), "empty");
            return None;
        }
        Some(s)
    }

    /// An integer.
    pub fn int(&mut self, node: &Node, path: &FieldPath<'_>) -> Option<i64> {
        match &node.value {
            Value::Int(i) => Some(*i),
            _ => {
                self.wrong_type(node, path, "integer");
                None
            }
        }
    }

    /// A required field of a mapping node (absent or `null` is an error labelled on the parent).
    pub fn required<'n>(
        &mut self,
        parent: &'n Node,
        key: &str,
        parent_path: &FieldPath<'_>,
    ) -> Option<&'n Node> {
        match parent.get(key) {
            Some(node) if !node.is_null() => Some(node),
            _ => {
                let label = format!("missing `{key}`");
                let message = if matches!(parent_path.segment, Segment::Root) {
                    format!("`{key}` is required")
                } else {
                    format!("`{parent_path}.{key}` is required")
                };
                self.invalid(parent_span_for_missing(parent), message, &label);
                None
            }
        }
    }

    /// An optional string field (`None` when absent or null; errors on other types).
    pub fn opt_str<'n>(
        &mut self,
        parent: &'n Node,
        key: &str,
        parent_path: &FieldPath<'_>,
    ) -> Option<&'n str> {
        let node = parent.get(key).filter(|n| !n.is_null())?;
        self.str(node, &parent_path.key(key))
    }
}

/// The `invalid-name` error for `value` (written at `node`) when it breaks `rule`.
pub fn name_violation(
    node: &Node,
    value: &str,
    path: &FieldPath<'_>,
    rule: NameRule,
) -> Option<Diagnostic> {
    let why = rule.violation(value)?;
    let invalid = super::diags::InvalidName {
        path,
        value,
        rule,
        why: &why,
    };
    let label = invalid.label();
    Some(Diagnostic::from(invalid).with_label(node.span, label))
}

/// Where to point when a field is missing: the first key of the mapping (a block mapping's own
/// span can cover many lines), or the whole node when it is empty.
fn parent_span_for_missing(parent: &Node) -> crate::source::Span {
    match parent.as_map().and_then(|m| m.first()) {
        Some(first) => first.key.span,
        None => parent.span,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_format_like_kubectl() {
        let root = FieldPath::ROOT;
        let spec = root.key("spec");
        let listeners = spec.key("listeners");
        let first = listeners.index(0);
        let port = first.key("port");
        assert_eq!(port.to_string(), "spec.listeners[0].port");
        let odd = spec.key("kuadrant.io/x");
        assert_eq!(odd.to_string(), "spec[\"kuadrant.io/x\"]");
    }
}
