//! Checks of the RFC 0009 extensions the Kuadrant operator does not implement: `unset` entries
//! that cannot work (they name an override, or no higher default at all), and a notice wherever
//! a policy relies on an extension.

use super::evaluate::owns;
use crate::diag::{Code, Diagnostic, Label};
use crate::engine::Engine;
use crate::policy::{BlockKind, PolicyKind};
use std::collections::{BTreeMap, BTreeSet};

/// A rule by position: (policy, block, rule).
type RulePosition = (u32, u16, u32);

/// What the less specific policies on a path offer for one `unset` entry.
#[derive(Clone, Debug, Default)]
struct Providers {
    /// Some higher default has a rule with the entry's key.
    default: bool,
    /// The higher override rules with the entry's key: (policy, block, rule).
    overrides: BTreeSet<RulePosition>,
}

/// For every accepted policy with `unset` entries: per entry, what the policies before it offer
/// on its paths. Each distinct policy list is scanned once, not each path.
fn unset_providers(engine: &Engine<'_>, kinds: &[PolicyKind]) -> BTreeMap<u32, Vec<Providers>> {
    let model = engine.model;
    // Every accepted policy with `unset` entries, whether or not it is on a path.
    let mut providers: BTreeMap<u32, Vec<Providers>> = model
        .policies
        .iter()
        .enumerate()
        .filter(|(i, p)| {
            owns(kinds, p)
                && !p.unset.is_empty()
                && !engine.topology.targets.of_policy[*i].is_empty()
        })
        .map(|(i, p)| (i as u32, vec![Providers::default(); p.unset.len()]))
        .collect();
    if providers.is_empty() {
        return providers;
    }
    // (policy, entry, Some(override) or None for a default) for every match in one list.
    let shared = engine.fold_distinct(|_, _, levels| {
        let ordered: Vec<u32> = levels.iter().flat_map(|(_, p)| p.iter().copied()).collect();
        let mut found: Vec<(u32, usize, Option<RulePosition>)> = Vec::new();
        for (position, &policy) in ordered.iter().enumerate() {
            let unset = &model.policies[policy as usize].unset;
            if unset.is_empty() {
                continue;
            }
            for &higher in &ordered[..position] {
                for (b, block) in model.policies[higher as usize].blocks.iter().enumerate() {
                    for (i, entry) in unset.iter().enumerate() {
                        let Some(r) = block.rule_index(&entry.key) else {
                            continue;
                        };
                        let rule = (block.kind == BlockKind::Overrides)
                            .then_some((higher, b as u16, r as u32));
                        found.push((policy, i, rule));
                    }
                }
            }
        }
        found
    });
    for (policy, entry, rule) in shared.results.into_iter().flatten() {
        let provider = &mut providers
            .get_mut(&policy)
            .expect("policies on a path are accepted")[entry];
        match rule {
            Some(rule) => {
                provider.overrides.insert(rule);
            }
            None => provider.default = true,
        }
    }
    providers
}

/// Diagnostics about `unset` entries and extension use.
pub fn check(engine: &Engine<'_>, kinds: &[PolicyKind]) -> Vec<Diagnostic> {
    let model = engine.model;
    let providers = unset_providers(engine, kinds);
    let mut diagnostics = Vec::new();
    for (index, policy) in model.policies.iter().enumerate() {
        let index = index as u32;
        if !owns(kinds, policy) || !policy.uses_rfc_extensions() {
            continue;
        }
        let mut features = Vec::new();
        let mut labels = Vec::new();
        for block in &policy.blocks {
            if let Some(constraint) = &block.constraint {
                features.push("constraints (`when` as CEL)");
                labels.push(Label {
                    span: constraint.span,
                    message: format!("constraint of the `{}` block", block.kind.as_str()),
                });
            }
        }
        if let Some(first) = policy.unset.first() {
            features.push("deactivation (`unset`)");
            labels.push(Label {
                span: first.span,
                message: "unset".into(),
            });
        }
        features.dedup();
        diagnostics.push(Diagnostic {
            labels,
            ..Diagnostic::new(
                Code::RFC_EXTENSION,
                format!(
                    "{} uses RFC 0009 {}, not enforced by the Kuadrant operator; dopol evaluates them as the RFC describes",
                    policy.display(),
                    features.join(" and ")
                ),
            )
            .with_object(policy.display())
        });
        let Some(providers) = providers.get(&index) else {
            continue;
        };
        for (entry, provider) in policy.unset.iter().zip(providers) {
            if let Some(&(higher, block, rule)) = provider.overrides.first() {
                let overriding = &model.policies[higher as usize];
                let rule = &overriding.blocks[block as usize].rules[rule as usize];
                diagnostics.push(
                    Diagnostic::new(
                        Code::UNSET_OF_OVERRIDE,
                        format!(
                            "`unset: {}` of {} names a rule that {} sets as an override; overrides cannot be deactivated, so this entry has no effect there",
                            entry.text,
                            policy.display(),
                            overriding.display()
                        ),
                    )
                    .with_label(entry.span, "has no effect on an override")
                    .with_label(rule.key_span, "the override")
                    .with_object(policy.display()),
                );
            } else if !provider.default {
                diagnostics.push(
                    Diagnostic::new(
                        Code::UNSET_UNMATCHED,
                        format!(
                            "`unset: {}` of {} names no rule (`{}`) of any higher default on any of its paths",
                            entry.text,
                            policy.display(),
                            entry.key
                        ),
                    )
                    .with_label(entry.span, "matches nothing")
                    .with_object(policy.display()),
                );
            }
        }
    }
    diagnostics
}
