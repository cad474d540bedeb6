//! DPL4005: the RFC 0009 "granularity problem". A merge override replaces a whole rule: when it
//! replaces a limit whose lower version had rates for other windows, those rates are lost
//! (a lower `100/min, 10000/day` overridden by `50/10s` leaves no daily limit).

use crate::diag::{Class, Code, CodeDef, Diagnostic, Severity, Violation};
use crate::engine::fold::{RuleEvent, RuleRef};
use crate::engine::observed::Observed;
use crate::name::Name;
use crate::policy::{BlockKind, Policy, Strategy};
use crate::yaml::Node;
use rustc_hash::FxHashSet;
use std::collections::{BTreeMap, BTreeSet};

/// A Gateway API duration (`1h30m`, `500ms`) in milliseconds.
fn duration_ms(text: &str) -> Option<u64> {
    if text.is_empty() {
        return None;
    }
    let (mut total, mut rest) = (0u64, text);
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        let number: u64 = rest[..digits].parse().ok()?;
        rest = &rest[digits..];
        let (unit, len) = if rest.starts_with("ms") {
            (1, 2)
        } else {
            match rest.as_bytes().first()? {
                b'h' => (3_600_000, 1),
                b'm' => (60_000, 1),
                b's' => (1_000, 1),
                _ => return None,
            }
        };
        total = total.checked_add(number.checked_mul(unit)?)?;
        rest = &rest[len..];
    }
    Some(total)
}

/// The windows of a limit's `rates`: duration → as written.
fn windows(value: &Node) -> BTreeMap<u64, &str> {
    value
        .get("rates")
        .and_then(Node::as_seq)
        .unwrap_or_default()
        .iter()
        .filter_map(|rate| rate.get("window").and_then(Node::as_str))
        .filter_map(|w| Some((duration_ms(w)?, w)))
        .collect()
}

/// Finds merge overrides that replaced limits with rates over other windows.
pub fn check(
    observed: &Observed<'_, '_>,
    owns: &(dyn Fn(&Policy) -> bool + Sync),
) -> Vec<Diagnostic> {
    let model = observed.engine.model;
    let mut seen: BTreeSet<(u32, u32, Name)> = BTreeSet::new();
    // A rule overridden by the same policy on many paths has the same finding on each (or
    // none): it is worked out once.
    let mut checked: FxHashSet<(u32, RuleRef)> = FxHashSet::default();
    let mut diagnostics = Vec::new();
    for fold in &observed.shared.results {
        for (lower, outcome) in &fold.outcomes {
            let RuleEvent::Overridden { by } = outcome else {
                continue;
            };
            if !checked.insert((*by, *lower)) {
                continue;
            }
            let lower_policy = &model.policies[lower.policy as usize];
            if !owns(lower_policy) {
                continue;
            }
            let lower_rule = &lower_policy.blocks[lower.block()].rules[lower.rule()];
            let overriding = &model.policies[*by as usize];
            let Some((block_index, block)) = overriding.blocks.iter().enumerate().find(|(_, b)| {
                b.kind == BlockKind::Overrides
                    && b.strategy == Strategy::Merge
                    && b.rule(&lower_rule.key).is_some()
            }) else {
                continue;
            };
            let rule_index = block.rule_index(&lower_rule.key).expect("found above");
            let rule = &block.rules[rule_index];
            // Read through the model: `lint` keeps no value evaluation does not read.
            let value = model.rule_value(*by, block_index, rule_index);
            let lower_value = model.rule_value(lower.policy, lower.block(), lower.rule());
            let kept = windows(value);
            let lost: Vec<&str> = windows(lower_value)
                .into_iter()
                .filter(|(ms, _)| !kept.contains_key(ms))
                .map(|(_, written)| written)
                .collect();
            if lost.is_empty() || !seen.insert((*by, lower.policy, lower_rule.key.clone())) {
                continue;
            }
            let finding = GranularityTrap {
                key: &lower_rule.key,
                overriding,
                lower: lower_policy,
                lost,
            };
            let lost_label = finding.lost_label();
            diagnostics.push(
                Diagnostic::from(finding)
                    .with_label(rule.key_span, "replaces the whole limit")
                    .with_label(lower_rule.key_span, lost_label)
                    .with_object(overriding.display()),
            );
        }
    }
    diagnostics
}

impl Code {
    /// DPL4005 `granularity-trap`: A merge override replaces a whole limit whose lower version had more rates (RFC 0009 granularity problem).
    pub const GRANULARITY_TRAP: Code = Code::new(&CodeDef {
        id: "DPL4005",
        name: "granularity-trap",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "A merge override replaces a whole limit whose lower version had more rates (RFC 0009 granularity problem).",
        explanation: "A merge override replaces a limit as a whole. If the lower limit it replaces had rates over windows the override does not set, those rates disappear — the override meant to tighten a limit loosens it elsewhere (RFC 0009's granularity problem).",
        fix: "Repeat the lower rates the override must keep in the override's `rates`, or override a limit under a different name.",
        example: "# Gateway: overrides: {strategy: merge, limits: {a: {rates: [{limit: 50, window: 10s}]}}}\n# Route:   limits: {a: {rates: [{limit: 100, window: 1m}, {limit: 10000, window: 24h}]}}",
    });
}

/// A merge override that replaces a limit whose rates over other windows are lost
/// (`granularity-trap`).
pub struct GranularityTrap<'a> {
    /// The limit's key.
    pub key: &'a str,
    /// The policy with the merge override.
    pub overriding: &'a Policy,
    /// The policy whose limit it replaces.
    pub lower: &'a Policy,
    /// The windows of the lower limit's rates that are lost, as written.
    pub lost: Vec<&'a str>,
}

impl GranularityTrap<'_> {
    /// The label of the lower limit: which of its rates are lost.
    pub fn lost_label(&self) -> String {
        format!("its rates over {} are lost", self.lost.join(", "))
    }
}

impl Violation for GranularityTrap<'_> {
    fn code(&self) -> Code {
        Code::GRANULARITY_TRAP
    }
    fn message(&self) -> String {
        let lost: Vec<String> = self.lost.iter().map(|w| format!("`{w}`")).collect();
        format!(
            "the merge override of limit `{}` in {} replaces the whole limit of {}, whose rates over {} are lost",
            self.key,
            self.overriding.display(),
            self.lower.display(),
            lost.join(", ")
        )
    }
    fn help(&self) -> Option<String> {
        Some(
            "repeat the rates to keep in the override, or override under another limit name".into(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::duration_ms;

    #[test]
    fn durations_compare_by_length_not_spelling() {
        assert_eq!(duration_ms("1m"), Some(60_000));
        assert_eq!(duration_ms("60s"), Some(60_000));
        assert_eq!(duration_ms("1h30m"), Some(5_400_000));
        assert_eq!(duration_ms("500ms"), Some(500));
        assert_eq!(duration_ms("2m500ms"), Some(120_500));
        assert_eq!(duration_ms(""), None);
        assert_eq!(duration_ms("1d"), None);
        assert_eq!(duration_ms("m"), None);
        assert_eq!(duration_ms("99999999999999999999h"), None);
    }
}
