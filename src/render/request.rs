//! `dopol request` as text: the request, the listener and why, the match and the step that
//! decided, up to five losing candidates, then per policy kind which rules apply and why.

use super::table::{Column, Layout, Table, finish_indented};
use crate::policy::locator_name as short;
use crate::report::request::backends::Resolution;
use crate::report::request::{CandidateView, KindView, RequestTrace};
use std::fmt::Write;

/// Losing candidates shown in the table (JSON has them all).
const SHOWN_CANDIDATES: usize = 5;

/// The trace as text.
pub fn text(trace: &RequestTrace, layout: Layout) -> String {
    let mut out = String::new();
    let r = &trace.request;
    let target = match &r.grpc {
        Some(g) => format!("gRPC {}/{} at {}:{}", g.service, g.method, r.host, r.port),
        None => {
            let query = r.query.as_ref().map_or(String::new(), |q| format!("?{q}"));
            format!(
                "{} {}://{}:{}{}{query}",
                r.method,
                r.scheme.as_str(),
                r.host,
                r.port,
                r.path
            )
        }
    };
    let _ = writeln!(out, "Request   {target}");
    match &trace.listener {
        Some(l) => {
            let _ = writeln!(
                out,
                "Listener  {} ({}): {}",
                l.listener,
                l.reason.as_str(),
                l.message
            );
        }
        None => out.push_str("Listener  none\n"),
    }
    match (&trace.matched, &trace.not_found) {
        (Some(m), _) => {
            let decided = m
                .decided_by
                .map_or("no other rule matched".to_string(), |s| {
                    format!("decided by {}", s.as_str())
                });
            let _ = writeln!(
                out,
                "Match     {} (matches[{}]; {decided})",
                m.rule, m.match_index
            );
            let _ = writeln!(out, "Path      {}", m.path_id);
            backends(&mut out, trace);
        }
        (None, Some(nf)) => {
            let status = nf
                .status
                .as_str()
                .map_or(nf.status.to_string(), str::to_string);
            let _ = writeln!(
                out,
                "Match     none: {status} ({}): {}",
                nf.reason, nf.message
            );
        }
        (None, None) => {}
    }
    candidates(&mut out, &trace.candidates, layout);
    for kind in &trace.policies {
        policy_kind(&mut out, kind, layout);
    }
    if !trace.notes.is_empty() {
        out.push_str("\nNotes:\n");
        for note in &trace.notes {
            let _ = writeln!(out, "  - {note}");
        }
    }
    out
}

/// The 500 of unresolvable backends and the backends dopol could not resolve (nothing when
/// no backend is known to fail or be unknown).
fn backends(out: &mut String, trace: &RequestTrace) {
    if let Some(failure) = &trace.backend_failure {
        let _ = writeln!(out, "Response  {}", failure.message);
    }
    let doubtful = trace
        .backends
        .iter()
        .filter(|b| b.resolution != Resolution::NotChecked);
    for b in doubtful {
        let _ = writeln!(
            out,
            "Backend   {} (weight {}): {}",
            b.backend, b.weight, b.message
        );
    }
}

fn candidates(out: &mut String, candidates: &[CandidateView], layout: Layout) {
    if candidates.is_empty() {
        return;
    }
    let _ = writeln!(out, "\nOther candidates ({}):", candidates.len());
    let mut table = Table::new(vec![
        Column::Id("PATH"),
        Column::Id("MATCHED"),
        Column::Id("LOST AT"),
        Column::Text("WHY"),
    ]);
    for c in candidates.iter().take(SHOWN_CANDIDATES) {
        table.add_row(vec![
            c.path_id.clone(),
            if c.matched { "yes" } else { "no" }.to_string(),
            c.lost_because.to_string(),
            c.message.clone(),
        ]);
    }
    out.push_str(&finish_indented(&table, layout.width, "  "));
    if candidates.len() > SHOWN_CANDIDATES {
        let _ = writeln!(
            out,
            "  … and {} more (-o json lists them all)",
            candidates.len() - SHOWN_CANDIDATES
        );
    }
}

fn policy_kind(out: &mut String, kind: &KindView, layout: Layout) {
    let _ = writeln!(out, "\n{}:", kind.policy_kind);
    let mut table = Table::new(vec![
        Column::Id("RULE KEY"),
        Column::Id("APPLIES"),
        Column::Text("WHY"),
        Column::Id("SOURCE"),
    ]);
    let mut counters = Vec::new();
    for (key, rule) in &kind.rules {
        table.add_row(vec![
            key.clone(),
            rule.verdict.applies.as_str().to_string(),
            rule.verdict.why.clone(),
            short(&rule.source).to_string(),
        ]);
        if let Some(counter) = &rule.verdict.counter {
            let values: Vec<String> = counter
                .counters
                .iter()
                .map(|c| format!("{}={}", c.expression, c.value.as_deref().unwrap_or("?")))
                .collect();
            counters.push(format!(
                "{key}: {} in {}{}",
                counter.limit,
                counter.namespace,
                if values.is_empty() {
                    String::new()
                } else {
                    format!(" [{}]", values.join(", "))
                }
            ));
        }
    }
    out.push_str(&finish_indented(&table, layout.width, "  "));
    if !counters.is_empty() {
        out.push_str("  Counted as:\n");
        for line in counters {
            let _ = writeln!(out, "    {line}");
        }
    }
}
