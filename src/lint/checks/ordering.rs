//! DPL4004: two policies on one element whose order was decided by name only.
//!
//! Within one element the older policy is the less specific one. Manifests in a repository
//! usually have no creationTimestamp, so dopol falls back to `namespace/name`; in a cluster the
//! order in which they were created decides instead. When swapping the two changes the effective
//! policy of some path, the result depends on apply order: a warning. Otherwise, an info.

use crate::diag::{Code, Diagnostic, Severity};
use crate::engine::fold::{self, NoObserver};
use crate::engine::{Engine, path_elements};
use crate::lint::doc::CheckDoc;
use crate::topology::targets::kind_index;

/// Documentation of DPL4004.
pub const DOCS: &[CheckDoc] = &[CheckDoc {
    code: Code::OrderedByName,
    explanation: "Two policies of one kind target the same element and have the same creationTimestamp (usually none, in a repository). Kuadrant orders them by age — among defaults the newest wins, among overrides the oldest — so offline dopol can only order them by namespace/name. In a cluster the apply order decides. When swapping the two changes the effective policy of some path this is a warning, otherwise an info.",
    fix: "Merge the two policies into one, or make their rules disjoint (different keys, or merge strategies) so their order does not matter.",
    example: "# two bare AuthPolicies targeting HTTPRoute shop, both without creationTimestamp",
}];

/// Checks every same-element pair ordered by name.
pub fn check(engine: &Engine<'_>) -> Vec<Diagnostic> {
    let model = engine.model;
    let targets = &engine.topology.targets;
    let mut diagnostics = Vec::new();
    for &(older, newer) in &targets.name_ties {
        let Some(target) = targets.of_policy[older as usize] else {
            continue;
        };
        let kind = kind_index(model.policies[older as usize].kind);
        let mut changed_paths = 0usize;
        for path in engine
            .topology
            .paths
            .iter()
            .filter(|p| path_elements(p).contains(&target))
        {
            let ordered = engine.path_policies(path, kind);
            let mut swapped = ordered.clone();
            if let (Some(i), Some(j)) = (
                swapped.iter().position(|&p| p == older),
                swapped.iter().position(|&p| p == newer),
            ) {
                swapped.swap(i, j);
            }
            let as_is = fold::fold(model, &ordered, &engine.constraints, &mut NoObserver).effective;
            let other = fold::fold(model, &swapped, &engine.constraints, &mut NoObserver).effective;
            if as_is != other {
                changed_paths += 1;
            }
        }
        let (a, b) = (
            &model.policies[older as usize],
            &model.policies[newer as usize],
        );
        let consequence = if changed_paths > 0 {
            format!(
                "their order changes the effective policy of {}",
                crate::words::counted(changed_paths, "path")
            )
        } else {
            "their order does not change any effective policy".to_string()
        };
        diagnostics.push(
            Diagnostic::new(
                Code::OrderedByName,
                format!(
                    "{} and {} both target {} with the same (or no) creationTimestamp, so they are ordered by name ({} counts as newer); in a cluster, the order they were created in decides, and {consequence}",
                    a.display(),
                    b.display(),
                    target.describe(model),
                    b.namespaced_name()
                ),
            )
            .with_severity(if changed_paths > 0 { Severity::Warning } else { Severity::Info })
            .with_label(b.name_span, "ordered after by name")
            .with_label(a.name_span, "ordered before by name")
            .with_object(b.display()),
        );
    }
    diagnostics
}
