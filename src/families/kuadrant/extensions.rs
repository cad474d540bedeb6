//! Checks of the RFC 0009 extensions the Kuadrant operator does not implement: `unset` entries
//! that cannot work (they name an override, or no higher default at all), and a notice wherever
//! a policy relies on an extension.

use super::diags::{RfcExtension, UnsetOfOverride, UnsetUnmatched};
use super::evaluate::owns;
use crate::diag::Diagnostic;
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
        let finding = RfcExtension { policy };
        let mut labels = Vec::new();
        for block in &policy.blocks {
            if let Some(constraint) = &block.constraint {
                labels.push((constraint.span, finding.constraint_label(block)));
            }
        }
        if let Some(first) = policy.unset.first() {
            labels.push((first.span, "unset".into()));
        }
        let mut diagnostic = Diagnostic::from(finding).with_object(policy.display());
        for (span, text) in labels {
            diagnostic = diagnostic.with_label(span, text);
        }
        diagnostics.push(diagnostic);
        let Some(providers) = providers.get(&index) else {
            continue;
        };
        for (entry, provider) in policy.unset.iter().zip(providers) {
            if let Some(&(higher, block, rule)) = provider.overrides.first() {
                let overriding = &model.policies[higher as usize];
                let rule = &overriding.blocks[block as usize].rules[rule as usize];
                let finding = UnsetOfOverride {
                    policy,
                    entry,
                    overriding,
                };
                diagnostics.push(
                    Diagnostic::from(finding)
                        .with_label(entry.span, "has no effect on an override")
                        .with_label(rule.key_span, "the override")
                        .with_object(policy.display()),
                );
            } else if !provider.default {
                diagnostics.push(
                    Diagnostic::from(UnsetUnmatched { policy, entry })
                        .with_label(entry.span, "matches nothing")
                        .with_object(policy.display()),
                );
            }
        }
    }
    diagnostics
}
