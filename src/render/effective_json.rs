//! Fast JSON rendering of `EffectivePolicyList`.
//!
//! Big manifest sets produce effective-policy documents far larger than their input (every
//! path repeats its rules). Paths with the same policy list share one fold, so the `rules` and
//! `sources` of an item depend only on its fold: each distinct body is rendered once, in
//! parallel, and spliced into every item that shares it. Items are written in batches: a body is
//! rendered with the batch that first needs it and dropped after the last item using it, so the
//! bodies held are those of the folds in use at one point of the document, not all of them.
//! The bytes are exactly what `serde_json::to_writer_pretty` prints for the report (a test checks
//! it).

use crate::report::effective::{EffectiveItem, EffectiveReport, EffectiveRule, sources_of};
use rayon::prelude::*;
use std::io::{self, Write};

/// Indentation of an item's fields.
const FIELD_INDENT: &str = "      ";

/// Writes a JSON string literal.
fn push_str(out: &mut Vec<u8>, s: &str) {
    let needs_escape = s.bytes().any(|b| b == b'"' || b == b'\\' || b < 0x20);
    if needs_escape {
        // serde_json's escaping, for the rare strings that need it.
        out.extend_from_slice(serde_json::to_string(s).unwrap_or_default().as_bytes());
    } else {
        out.push(b'"');
        out.extend_from_slice(s.as_bytes());
        out.push(b'"');
    }
}

/// Appends pretty JSON of `value` whose first line continues the current line and whose other
/// lines are indented by `indent` more spaces.
fn push_pretty<T: serde::Serialize>(out: &mut Vec<u8>, value: &T, indent: &str) -> io::Result<()> {
    let mut buffer = Vec::with_capacity(256);
    serde_json::to_writer_pretty(&mut buffer, value).map_err(io::Error::other)?;
    let mut lines = buffer.split(|&b| b == b'\n');
    if let Some(first) = lines.next() {
        out.extend_from_slice(first);
    }
    for line in lines {
        out.push(b'\n');
        out.extend_from_slice(indent.as_bytes());
        out.extend_from_slice(line);
    }
    Ok(())
}

/// The `"rules": {...},\n "sources": [...]` part of an item, indented as inside `items`.
fn render_body(rules: &[EffectiveRule<'_>]) -> io::Result<Vec<u8>> {
    let mut out = Vec::with_capacity(512);
    out.extend_from_slice(FIELD_INDENT.as_bytes());
    out.extend_from_slice(b"\"rules\": {\n");
    for (i, rule) in rules.iter().enumerate() {
        out.extend_from_slice(b"        ");
        push_str(&mut out, rule.key);
        out.extend_from_slice(b": {\n          \"value\": ");
        push_pretty(&mut out, rule.value, "          ")?;
        out.extend_from_slice(b",\n          \"source\": ");
        push_str(&mut out, rule.source);
        out.extend_from_slice(b",\n          \"origins\": [");
        for (j, origin) in rule.origins.iter().enumerate() {
            out.extend_from_slice(if j == 0 { b"\n" } else { b",\n" });
            out.extend_from_slice(b"            ");
            push_str(&mut out, origin);
        }
        out.extend_from_slice(if rule.origins.is_empty() {
            b"]"
        } else {
            b"\n          ]"
        });
        out.extend_from_slice(if i + 1 == rules.len() {
            b"\n        }\n"
        } else {
            b"\n        },\n"
        });
    }
    out.extend_from_slice(FIELD_INDENT.as_bytes());
    out.extend_from_slice(b"},\n");
    out.extend_from_slice(FIELD_INDENT.as_bytes());
    out.extend_from_slice(b"\"sources\": [\n");
    let sources = sources_of(rules);
    for (i, source) in sources.iter().enumerate() {
        out.extend_from_slice(b"        ");
        push_str(&mut out, source);
        out.extend_from_slice(if i + 1 == sources.len() {
            b"\n"
        } else {
            b",\n"
        });
    }
    out.extend_from_slice(FIELD_INDENT.as_bytes());
    out.push(b']');
    Ok(out)
}

/// Items written per batch (the bodies a batch needs first are rendered in parallel).
const BATCH_ITEMS: usize = 4096;

/// Writes the opening of an item, up to its body.
fn write_item(
    out: &mut dyn Write,
    report: &EffectiveReport<'_, '_>,
    item: &EffectiveItem<'_>,
    head: &mut Vec<u8>,
) -> io::Result<()> {
    head.clear();
    head.extend_from_slice(b"    {\n      \"policyKind\": ");
    push_str(head, item.policy_kind);
    head.extend_from_slice(b",\n      \"policyGroup\": ");
    push_str(head, item.policy_group);
    head.extend_from_slice(b",\n      \"pathId\": ");
    push_str(head, item.path_id);
    let fields = report.fields(item);
    head.extend_from_slice(b",\n      \"gateway\": ");
    push_str(head, &fields.gateway);
    head.extend_from_slice(b",\n      \"listener\": ");
    push_str(head, fields.listener);
    head.extend_from_slice(b",\n      \"route\": ");
    push_str(head, &fields.route);
    head.extend_from_slice(b",\n      \"rule\": ");
    push_str(head, fields.rule);
    head.extend_from_slice(b",\n");
    out.write_all(head)
}

/// Writes the report as pretty JSON (docs/json.md `EffectivePolicyList`).
pub fn write(out: &mut dyn Write, report: &EffectiveReport<'_, '_>) -> io::Result<()> {
    if report.items.is_empty() {
        let empty: [(); 0] = [];
        return crate::render::write_json_list(out, "EffectivePolicyList", &empty);
    }
    // The first and the last item of each fold.
    let mut first = vec![u32::MAX; report.fold_count()];
    let mut last = vec![0u32; report.fold_count()];
    for (index, item) in report.items.iter().enumerate() {
        let fold = item.fold as usize;
        first[fold] = first[fold].min(index as u32);
        last[fold] = index as u32;
    }
    let mut bodies: Vec<Option<Vec<u8>>> = (0..report.fold_count()).map(|_| None).collect();
    write!(
        out,
        "{{\n  \"apiVersion\": \"{}\",\n  \"kind\": \"EffectivePolicyList\",\n  \"items\": [\n",
        crate::report::API_VERSION
    )?;
    let mut head = Vec::with_capacity(256);
    for (batch, items) in report.items.chunks(BATCH_ITEMS).enumerate() {
        let start = batch * BATCH_ITEMS;
        // The bodies this batch uses first, rendered in parallel.
        let firsts: Vec<usize> = (start..start + items.len())
            .filter(|&index| first[report.items[index].fold as usize] == index as u32)
            .collect();
        let rendered: Vec<Vec<u8>> = firsts
            .par_iter()
            .map(|&index| render_body(&report.rules(&report.items[index])))
            .collect::<io::Result<_>>()?;
        for (index, body) in firsts.into_iter().zip(rendered) {
            bodies[report.items[index].fold as usize] = Some(body);
        }
        for (offset, item) in items.iter().enumerate() {
            let index = start + offset;
            write_item(out, report, item, &mut head)?;
            let fold = item.fold as usize;
            out.write_all(bodies[fold].as_deref().unwrap_or_default())?;
            if last[fold] == index as u32 {
                bodies[fold] = None;
            }
            out.write_all(if index + 1 == report.items.len() {
                b"\n    }\n"
            } else {
                b"\n    },\n"
            })?;
        }
    }
    out.write_all(b"  ]\n}\n")
}
