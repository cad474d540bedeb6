//! Listener-level folds (docs/families.md, "Listener-level settings"): a family whose policies
//! of a kind configure listeners themselves (`PolicyFamily::acts_on_listeners`, e.g. a
//! client traffic policy) has an effective policy on a listener even when no route is attached to
//! it, so no path goes through it. Such a listener is folded over its two elements, the Gateway
//! and the listener, with the family's own fold. Listeners that paths of the kind go through are
//! not folded again: their paths already carry the policy (a path the kind does not fold — through
//! delegation its family does not follow, or a route kind it does not apply to — does not count).

use super::Engine;
use super::fold::{Folded, RuleRef};
use super::outcomes::{Outcome, OutcomeRecorder};
use crate::topology::Target;

/// The view's `path` of a listener fold, which has no path (families that act on listeners
/// fold from the levels alone).
pub const NO_PATH: u32 = u32::MAX;

/// The effective policy of one kind on a listener no path goes through.
pub struct ListenerFold<'m> {
    /// Index into `Model::gateways`.
    pub gateway: u32,
    /// Index into the Gateway's listeners.
    pub listener: u32,
    /// Index of the kind in the registry.
    pub kind: usize,
    /// The policies on the Gateway, then on the listener.
    pub policies: Vec<u32>,
    /// The fold's result (never empty).
    pub folded: Folded<'m>,
    /// The outcome of each rule of the policies on the listener (`status` counts them).
    pub outcomes: Vec<(RuleRef, Outcome)>,
}

impl<'m> Engine<'m> {
    /// Every listener no path goes through, for each kind whose family acts on listeners, with
    /// a non-empty effective policy; in path order (Gateways by namespace and name, then
    /// listener order), then kind order.
    pub fn listener_folds(&self) -> Vec<ListenerFold<'m>> {
        let registry = &self.model.registry;
        let kinds: Vec<usize> = (0..registry.kind_count())
            .filter(|&k| {
                registry
                    .evaluation_at(k)
                    .acts_on_listeners(registry.kind(k))
            })
            .collect();
        if kinds.is_empty() {
            return Vec::new();
        }
        // Per kind, the listeners of the paths it folds (a path through delegation a family
        // does not follow, or through a route kind it does not apply to, gives it nothing).
        let on_paths: Vec<Vec<(u32, u32)>> = (kinds.iter())
            .map(|&kind| {
                let mut on: Vec<(u32, u32)> = (self.topology.paths.iter())
                    .filter(|p| self.folds_path(p, kind))
                    .map(|p| (p.gateway, p.listener))
                    .collect();
                on.sort_unstable();
                on.dedup();
                on
            })
            .collect();
        let gateways = &self.model.gateways;
        // In path order: Gateways by namespace and name.
        let mut order: Vec<u32> = (0..gateways.len() as u32).collect();
        order.sort_by_key(|&g| {
            let gateway = &gateways[g as usize];
            (gateway.namespace.as_str(), gateway.name.as_str())
        });
        let mut folds = Vec::new();
        for g in order {
            for l in 0..gateways[g as usize].listeners.len() as u32 {
                folds.extend(
                    (kinds.iter().zip(&on_paths))
                        .filter(|(_, on)| on.binary_search(&(g, l)).is_err())
                        .filter_map(|(&kind, _)| self.listener_fold(g, l, kind)),
                );
            }
        }
        folds
    }

    /// Listener `l` of Gateway `g` folded for `kind`, when any policy of the kind is on them
    /// and the result is not empty.
    fn listener_fold(&self, g: u32, l: u32, kind: usize) -> Option<ListenerFold<'m>> {
        let targets = &self.topology.targets;
        let levels: Vec<(Target, Vec<u32>)> = [Target::Gateway(g), Target::Listener(g, l)]
            .into_iter()
            .map(|t| (t, targets.on(t, kind).to_vec()))
            .collect();
        if levels.iter().all(|(_, p)| p.is_empty()) {
            return None;
        }
        let mut recorder = OutcomeRecorder::default();
        let (policies, folded) = self.fold_levels(NO_PATH, kind, &levels, &mut recorder);
        if folded.effective.is_empty() {
            return None;
        }
        Some(ListenerFold {
            gateway: g,
            listener: l,
            kind,
            policies,
            outcomes: recorder.finish(&folded.effective),
            folded,
        })
    }
}
