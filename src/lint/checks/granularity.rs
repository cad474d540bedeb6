//! DPL4005: the RFC 0009 "granularity problem". A merge override replaces a whole rule: when it
//! replaces a limit whose lower version had rates for other windows, those rates are lost
//! (a lower `100/min, 10000/day` overridden by `50/10s` leaves no daily limit).

use crate::diag::{Code, Diagnostic};
use crate::engine::fold::RuleEvent;
use crate::lint::doc::CheckDoc;
use crate::policy::{BlockKind, Strategy};
use crate::report::observed::Observed;
use crate::yaml::Node;
use std::collections::BTreeSet;

/// Documentation of DPL4005.
pub const DOCS: &[CheckDoc] = &[CheckDoc {
    code: Code::GranularityTrap,
    explanation: "A merge override replaces a limit as a whole. If the lower limit it replaces had rates over windows the override does not set, those rates disappear — the override meant to tighten a limit loosens it elsewhere (RFC 0009's granularity problem).",
    fix: "Repeat the lower rates the override must keep in the override's `rates`, or override a limit under a different name.",
    example: "# Gateway: overrides: {strategy: merge, limits: {a: {rates: [{limit: 50, window: 10s}]}}}\n# Route:   limits: {a: {rates: [{limit: 100, window: 1m}, {limit: 10000, window: 24h}]}}",
}];

/// The windows of a limit's `rates`.
fn windows(value: &Node) -> BTreeSet<&str> {
    value
        .get("rates")
        .and_then(Node::as_seq)
        .unwrap_or_default()
        .iter()
        .filter_map(|rate| rate.get("window").and_then(Node::as_str))
        .collect()
}

/// Finds merge overrides that replaced limits with rates over other windows.
pub fn check(observed: &Observed<'_, '_>) -> Vec<Diagnostic> {
    let model = observed.engine.model;
    let mut seen: BTreeSet<(u32, u32, String)> = BTreeSet::new();
    let mut diagnostics = Vec::new();
    for fold in &observed.shared.results {
        for (lower, outcome) in &fold.outcomes {
            let RuleEvent::Overridden { by } = outcome else {
                continue;
            };
            let lower_policy = &model.policies[lower.policy as usize];
            let lower_rule = &lower_policy.blocks[lower.block as usize].rules[lower.rule as usize];
            let overriding = &model.policies[*by as usize];
            let Some(block) = overriding.blocks.iter().find(|b| {
                b.kind == BlockKind::Overrides
                    && b.strategy == Strategy::Merge
                    && b.rule(&lower_rule.key).is_some()
            }) else {
                continue;
            };
            let rule = block.rule(&lower_rule.key).expect("found above");
            let lost: Vec<&str> = windows(&lower_rule.value)
                .difference(&windows(&rule.value))
                .copied()
                .collect();
            if lost.is_empty() || !seen.insert((*by, lower.policy, lower_rule.key.clone())) {
                continue;
            }
            diagnostics.push(
                Diagnostic::new(
                    Code::GranularityTrap,
                    format!(
                        "the merge override of limit `{}` in {} replaces the whole limit of {}, whose rates over {} are lost",
                        lower_rule.key,
                        overriding.display(),
                        lower_policy.display(),
                        lost.iter().map(|w| format!("`{w}`")).collect::<Vec<_>>().join(", ")
                    ),
                )
                .with_label(rule.key_span, "replaces the whole limit")
                .with_label(lower_rule.key_span, format!("its rates over {} are lost", lost.join(", ")))
                .with_object(overriding.display())
                .with_help("repeat the rates to keep in the override, or override under another limit name"),
            );
        }
    }
    diagnostics
}
