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

use crate::render::json::{push_joined, push_str};
use crate::report::effective::{EffectiveItem, EffectiveReport, EffectiveRule, sources_of};
use rayon::prelude::*;
use std::io::{self, Write};

/// Indentation of an item's fields.
const FIELD_INDENT: &str = "      ";

/// The `"rules": {...},\n "sources": [...]` part of an item, indented as inside `items`.
fn render_body(rules: &[EffectiveRule<'_>]) -> io::Result<Vec<u8>> {
    let mut out = Vec::with_capacity(512);
    out.extend_from_slice(FIELD_INDENT.as_bytes());
    out.extend_from_slice(b"\"rules\": {\n");
    for (i, rule) in rules.iter().enumerate() {
        out.extend_from_slice(b"        ");
        push_str(&mut out, rule.key);
        out.extend_from_slice(b": {\n          \"value\": ");
        crate::render::json::push_pretty(&mut out, rule.value, 5)?;
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

/// Items written per batch (the bodies a batch needs first are rendered in parallel). The
/// batch's text is held until written: an item is about 1.35 KB on the 49 MB benchmark, so
/// 1,024 held about 1.4 MB at `effective`'s peak.
const BATCH_ITEMS: usize = 512;

/// Writes one item: its opening, its body (`rules`, `sources`) and its closing.
fn push_item(
    out: &mut Vec<u8>,
    report: &EffectiveReport<'_, '_>,
    item: &EffectiveItem,
    body: &[u8],
    last: bool,
) {
    out.extend_from_slice(b"    {\n      \"policyKind\": ");
    push_str(out, item.kind.kind);
    out.extend_from_slice(b",\n      \"policyGroup\": ");
    push_str(out, item.kind.group);
    out.extend_from_slice(b",\n      \"pathId\": ");
    push_joined(out, &report.path_id(item).parts());
    let parts = report.parts(item);
    let (gateway, route) = (parts.gateway, parts.route);
    out.extend_from_slice(b",\n      \"gateway\": ");
    push_joined(out, &[&gateway.namespace, "/", &gateway.name]);
    out.extend_from_slice(b",\n      \"listener\": ");
    push_str(out, parts.listener);
    out.extend_from_slice(b",\n      \"route\": ");
    push_joined(out, &[&route.namespace, "/", &route.name]);
    out.extend_from_slice(b",\n      \"rule\": ");
    push_str(out, parts.rule);
    out.extend_from_slice(b",\n");
    out.extend_from_slice(body);
    out.extend_from_slice(if last { b"\n    }\n" } else { b"\n    },\n" });
}

/// Items a writing task renders into one buffer.
const ITEMS_PER_BUFFER: usize = 128;

/// Writes the report as pretty JSON (docs/json.md `EffectivePolicyList`).
pub fn write(out: &mut dyn Write, report: &EffectiveReport<'_, '_>) -> io::Result<()> {
    let owned = crate::report::owned::count(&report.owned);
    if report.items.is_empty() {
        if !report.listeners.is_empty() || owned > 0 {
            return crate::render::write_json(out, report);
        }
        let empty: [(); 0] = [];
        return crate::render::json::write_items(out, "EffectivePolicyList", &empty);
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
    let total = report.items.len();
    for start in (0..total).step_by(BATCH_ITEMS) {
        let batch = start..(start + BATCH_ITEMS).min(total);
        // The bodies this batch uses first, rendered in parallel.
        let firsts: Vec<usize> = batch
            .clone()
            .filter(|&index| first[report.items.get(index).fold as usize] == index as u32)
            .collect();
        let rendered: Vec<Vec<u8>> = firsts
            .par_iter()
            .map(|&index| render_body(&report.rules(&report.items.get(index))))
            .collect::<io::Result<_>>()?;
        for (index, mut body) in firsts.into_iter().zip(rendered) {
            // Held until the fold's last item, which may be far: without its growth room.
            crate::platform::fit(&mut body);
            bodies[report.items.get(index).fold as usize] = Some(body);
        }
        // The items themselves, rendered in parallel and written in order.
        let buffers: Vec<Vec<u8>> = batch
            .clone()
            .step_by(ITEMS_PER_BUFFER)
            .collect::<Vec<usize>>()
            .into_par_iter()
            .map(|from| {
                let to = (from + ITEMS_PER_BUFFER).min(batch.end);
                let mut buffer = Vec::with_capacity((to - from) * 1024);
                for index in from..to {
                    let item = report.items.get(index);
                    let body = bodies[item.fold as usize].as_deref().unwrap_or_default();
                    let last = index + 1 == total && owned == 0;
                    push_item(&mut buffer, report, &item, body, last);
                }
                buffer
            })
            .collect();
        for buffer in buffers {
            out.write_all(&buffer)?;
        }
        for index in batch {
            let fold = report.items.get(index).fold as usize;
            if last[fold] == index as u32 {
                bodies[fold] = None;
            }
        }
    }
    write_owned(out, report)?;
    out.write_all(b"  ]")?;
    write_listeners(out, report)?;
    out.write_all(b"\n}\n")
}

/// The items of the hierarchies families build themselves (few: one per proxy, key and kind),
/// after the Gateway API items, as the pretty printer indents them inside `items`.
fn write_owned(out: &mut dyn Write, report: &EffectiveReport<'_, '_>) -> io::Result<()> {
    let items: Vec<_> = report.owned.iter().flat_map(|o| &o.items).collect();
    for (index, item) in items.iter().enumerate() {
        let view = crate::report::owned::OwnedItemView(report.model(), item);
        let text = serde_json::to_string_pretty(&view).map_err(io::Error::other)?;
        out.write_all(b"    ")?;
        out.write_all(text.replace('\n', "\n    ").as_bytes())?;
        out.write_all(if index + 1 == items.len() {
            b"\n"
        } else {
            b",\n"
        })?;
    }
    Ok(())
}

/// `,\n  "listeners": [...]` when the report has listener items (few: one per listener no
/// route is attached to), as the pretty printer indents it inside the document.
fn write_listeners(out: &mut dyn Write, report: &EffectiveReport<'_, '_>) -> io::Result<()> {
    if report.listeners.is_empty() {
        return Ok(());
    }
    let list = serde_json::to_string_pretty(&crate::report::effective::ListenerItems(report))
        .map_err(io::Error::other)?;
    out.write_all(b",\n  \"listeners\": ")?;
    out.write_all(list.replace('\n', "\n  ").as_bytes())
}
