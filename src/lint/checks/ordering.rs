//! DPL4004: two policies on one element whose order was decided by name only.
//!
//! Within one element the older policy is the less specific one. Manifests in a repository
//! usually have no creationTimestamp, so dopol falls back to `namespace/name`; in a cluster the
//! order in which they were created decides instead. When swapping the two changes the effective
//! policy of some path, the result depends on apply order: a warning. Otherwise, an info.

use crate::diag::{Class, Code, CodeDef, Diagnostic, Severity, Violation};
use crate::engine::fold::NoObserver;
use crate::engine::observed::Observed;
use crate::policy::Policy;
use std::collections::BTreeMap;

/// Checks every same-element pair ordered by name. The as-is folds are the ones `observed`
/// already holds; only the swapped order is folded, once per distinct policy list.
pub fn check(observed: &Observed<'_, '_>) -> Vec<Diagnostic> {
    let engine = observed.engine;
    let model = engine.model;
    let targets = &engine.topology.targets;
    let mut diagnostics = Vec::new();
    for &(older, newer) in &targets.name_ties {
        let Some(&target) = targets.of_policy[older as usize].first() else {
            continue;
        };
        // Distinct folds holding the pair → a path using it, and how many paths do.
        let mut paths_per_fold: BTreeMap<u32, (u32, usize, usize)> = BTreeMap::new();
        for &index in &observed.entries_of_policy[older as usize] {
            let (entry, _) = observed.entry(index);
            paths_per_fold
                .entry(entry.fold)
                .or_insert((entry.path, observed.shared.kind(entry), 0))
                .2 += 1;
        }
        let mut changed_paths = 0usize;
        for (fold, (path, kind, paths)) in paths_per_fold {
            let as_is = &observed.shared.results[fold as usize];
            let mut levels = engine.levels(&engine.topology.paths[path as usize], kind);
            for (_, policies) in &mut levels {
                if let (Some(i), Some(j)) = (
                    policies.iter().position(|&p| p == older),
                    policies.iter().position(|&p| p == newer),
                ) {
                    policies.swap(i, j);
                }
            }
            let other = engine
                .fold_levels(path, kind, &levels, &mut NoObserver)
                .1
                .effective;
            if as_is.folded.effective != other {
                changed_paths += paths;
            }
        }
        let (a, b) = (
            &model.policies[older as usize],
            &model.policies[newer as usize],
        );
        let finding = OrderedByName {
            before: a,
            after: b,
            target: &target.describe(model),
            after_by_name: model.registry.family_of(b.kind).ordered_after_by_name(),
            changed_paths,
        };
        let severity = if changed_paths > 0 {
            Severity::Warning
        } else {
            Severity::Info
        };
        diagnostics.push(
            Diagnostic::from(finding)
                .with_severity(severity)
                .with_label(b.name_span, "ordered after by name")
                .with_label(a.name_span, "ordered before by name")
                .with_object(b.display()),
        );
    }
    diagnostics
}

/// The codes declared here, in catalogue order.
pub const CODES: &[Code] = &[Code::ORDERED_BY_NAME];

impl Code {
    /// DPL4004 `ordered-by-name`: Two policies on one target are ordered by name only (same or missing creationTimestamp).
    pub const ORDERED_BY_NAME: Code = Code::new(&CodeDef {
        id: "DPL4004",
        name: "ordered-by-name",
        severity: Severity::Info,
        class: Class::Finding,
        summary: "Two policies on one target are ordered by name only (same or missing creationTimestamp).",
        explanation: "Two policies of one kind target the same element and have the same creationTimestamp (usually none, in a repository). Kuadrant orders them by age — among defaults the newest wins, among overrides the oldest — so offline dopol can only order them by namespace/name. In a cluster the apply order decides. When swapping the two changes the effective policy of some path this is a warning, otherwise an info.",
        fix: "Merge the two policies into one, or make their rules disjoint (different keys, or merge strategies) so their order does not matter.",
        example: "# two bare AuthPolicies targeting HTTPRoute shop, both without creationTimestamp",
    });
}

/// Two policies on one element ordered by name only (`ordered-by-name`).
pub struct OrderedByName<'a> {
    /// The policy ordered first by name.
    pub before: &'a Policy,
    /// The policy ordered after it by name.
    pub after: &'a Policy,
    /// The element both target, as `Gateway infra/gw`.
    pub target: &'a str,
    /// What being ordered after by name means in the family (e.g. `counts as newer`).
    pub after_by_name: &'a str,
    /// How many paths' effective policy swapping the two changes.
    pub changed_paths: usize,
}

impl Violation for OrderedByName<'_> {
    fn code(&self) -> Code {
        Code::ORDERED_BY_NAME
    }
    fn message(&self) -> String {
        let consequence = if self.changed_paths > 0 {
            format!(
                "their order changes the effective policy of {}",
                crate::words::counted(self.changed_paths, "path")
            )
        } else {
            "their order does not change any effective policy".to_string()
        };
        format!(
            "{} and {} both target {} with the same (or no) creationTimestamp, so they are ordered by name ({} {}); in a cluster, the order they were created in decides, and {consequence}",
            self.before.display(),
            self.after.display(),
            self.target,
            self.after.namespaced_name(),
            self.after_by_name
        )
    }
}
