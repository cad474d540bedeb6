//! Compact one-line rendering of rule values for tables: flow-style YAML
//! (`{rates: [{limit: 10, window: 1m}]}`), strings quoted only when needed.

use crate::yaml::{Node, Value};
use std::fmt::Write;

/// Renders a value on one line.
pub fn compact(node: &Node) -> String {
    let mut out = String::new();
    write_value(&mut out, &node.value);
    out
}

/// Renders a JSON value on one line, as [`compact`] renders the same value read from YAML.
pub fn compact_json(json: &serde_json::Value) -> String {
    compact(&crate::crd::defaults::from_json(
        json,
        crate::source::Span::default(),
    ))
}

fn write_value(out: &mut String, value: &Value) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Value::Float(f) => {
            let _ = write!(out, "{f}");
        }
        Value::String(s) => write_string(out, s),
        Value::Seq(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_value(out, &item.value);
            }
            out.push(']');
        }
        Value::Map(entries) => {
            out.push('{');
            for (i, entry) in entries.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_string(out, &entry.key.text);
                out.push_str(": ");
                write_value(out, &entry.value.value);
            }
            out.push('}');
        }
    }
}

/// Writes a string plain when a YAML reader would read it back as the same string.
fn write_string(out: &mut String, s: &str) {
    let plain = !s.is_empty()
        && !s.starts_with([
            ' ', '-', '?', ':', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%',
            '@', '`', ',',
        ])
        && !s.ends_with(' ')
        && !s.contains(": ")
        && !s.contains(" #")
        && !s.contains([',', '[', ']', '{', '}', '\n', '\t', '"'])
        && matches!(crate::yaml::scalar::resolve_plain(s), Value::String(_));
    if plain {
        out.push_str(s);
    } else {
        out.push_str(&serde_json::to_string(s).unwrap_or_default());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceId;

    fn parse(text: &str) -> Node {
        let mut diagnostics = Vec::new();
        crate::yaml::parse_chunk(SourceId(0), text, 0..text.len(), &mut diagnostics)
            .remove(0)
            .root
    }

    #[test]
    fn flow_style_with_minimal_quoting() {
        let node = parse(
            "v:\n  rates:\n  - limit: 10\n    window: 1m\n  s: 'yes'\n  p: \"a: b\"\n  e: ''\n  h: '*.x'\n",
        );
        assert_eq!(
            compact(node.get("v").unwrap()),
            r#"{rates: [{limit: 10, window: 1m}], s: "yes", p: "a: b", e: "", h: "*.x"}"#
        );
    }
}
