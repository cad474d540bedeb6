//! Checks of the RFC 0009 extensions the Kuadrant operator does not implement: `unset` entries
//! that cannot work (they name an override, or no higher default at all), and a notice wherever
//! a policy relies on an extension.

use super::Engine;
use crate::diag::{Code, Diagnostic, Label};
use crate::policy::BlockKind;
use crate::topology::targets::kind_index;
use std::collections::BTreeSet;

/// Diagnostics about `unset` entries and extension use.
pub fn check(engine: &Engine<'_>) -> Vec<Diagnostic> {
    let model = engine.model;
    let mut diagnostics = Vec::new();
    for (index, policy) in model.policies.iter().enumerate() {
        let index = index as u32;
        if !policy.uses_rfc_extensions() {
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
                Code::RfcExtension,
                format!(
                    "{} uses RFC 0009 {}, not enforced by the Kuadrant operator; dopol evaluates them as the RFC describes",
                    policy.display(),
                    features.join(" and ")
                ),
            )
            .with_object(policy.display())
        });
        if policy.unset.is_empty() || engine.topology.targets.of_policy[index as usize].is_none() {
            continue;
        }

        // Which higher policies provide each unset key, as a default or as an override.
        let kind = kind_index(policy.kind);
        let mut defaults: Vec<bool> = vec![false; policy.unset.len()];
        let mut overrides: Vec<BTreeSet<(u32, u16, u32)>> =
            vec![BTreeSet::new(); policy.unset.len()];
        for path in &engine.topology.paths {
            let ordered = engine.path_policies(path, kind);
            let Some(position) = ordered.iter().position(|&p| p == index) else {
                continue;
            };
            for &higher in &ordered[..position] {
                for (b, block) in model.policies[higher as usize].blocks.iter().enumerate() {
                    for (i, entry) in policy.unset.iter().enumerate() {
                        let Ok(r) = block
                            .rules
                            .binary_search_by(|rule| rule.key.as_str().cmp(&entry.key))
                        else {
                            continue;
                        };
                        if block.kind == BlockKind::Overrides {
                            overrides[i].insert((higher, b as u16, r as u32));
                        } else {
                            defaults[i] = true;
                        }
                    }
                }
            }
        }
        for (i, entry) in policy.unset.iter().enumerate() {
            if let Some(&(higher, block, rule)) = overrides[i].iter().next() {
                let overriding = &model.policies[higher as usize];
                let rule = &overriding.blocks[block as usize].rules[rule as usize];
                diagnostics.push(
                    Diagnostic::new(
                        Code::UnsetOfOverride,
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
            } else if !defaults[i] {
                diagnostics.push(
                    Diagnostic::new(
                        Code::UnsetUnmatched,
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
