//! The merge engine: orders the policies on a path and folds them (SPEC §4, §4.1).
//!
//! [`Engine`] holds the model, its topology and the compiled constraints. For one path and one
//! policy kind it lists the accepted policies attached to any element of the path, least
//! specific first ([`Engine::path_policies`]), and folds them ([`fold::fold`]). Evaluating every
//! path ([`Engine::effective_all`]) runs in parallel; paths with the same policy list share one
//! fold.

pub mod constraint;
pub mod fold;

use crate::diag::{Code, Diagnostic};
use crate::model::Model;
use crate::topology::targets::NO_LIST;
use crate::topology::{Path, Target, Topology};
use constraint::Constraints;
use fold::{Effective, FoldObserver, Folded, NoObserver};
use rayon::prelude::*;
use rustc_hash::FxHashMap;

/// Which fold gives the effective policy of one path for one policy kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EffectiveEntry {
    /// Index into `Topology::paths`.
    pub path: u32,
    /// Index into [`crate::policy::all_kinds`].
    pub kind: usize,
    /// Index into [`EffectiveSet::folds`].
    pub fold: u32,
}

/// The effective policies of every path: one fold per distinct policy list, shared by every
/// path with that list.
#[derive(Debug, Default)]
pub struct EffectiveSet<'m> {
    /// Distinct folds.
    pub folds: Vec<Folded<'m>>,
    /// Non-empty effective policies in path order, then kind order.
    pub entries: Vec<EffectiveEntry>,
}

impl<'m> EffectiveSet<'m> {
    /// The rules of an entry.
    pub fn rules(&self, entry: &EffectiveEntry) -> &Effective<'m> {
        &self.folds[entry.fold as usize].effective
    }
}

/// Model + topology + compiled constraints: everything needed to evaluate paths.
pub struct Engine<'m> {
    /// The model.
    pub model: &'m Model,
    /// Its topology.
    pub topology: &'m Topology,
    /// Compiled constraints.
    pub constraints: Constraints,
}

/// The elements of a path, least specific first.
pub fn path_elements(path: &Path) -> [Target; 4] {
    [
        Target::Gateway(path.gateway),
        Target::Listener(path.gateway, path.listener),
        Target::Route(path.route),
        Target::RouteRule(path.route, path.rule),
    ]
}

impl<'m> Engine<'m> {
    /// Prepares an engine (compiling every constraint); returns compile diagnostics too.
    pub fn new(model: &'m Model, topology: &'m Topology) -> (Engine<'m>, Vec<Diagnostic>) {
        let (constraints, diagnostics) = Constraints::compile(model);
        (
            Engine {
                model,
                topology,
                constraints,
            },
            diagnostics,
        )
    }

    /// Accepted policies of `kind` on the path, least specific first (SPEC §4 step 2).
    pub fn path_policies(&self, path: &Path, kind: usize) -> Vec<u32> {
        let targets = &self.topology.targets;
        path_elements(path)
            .iter()
            .flat_map(|t| targets.on(*t, kind).iter().copied())
            .collect()
    }

    /// Folds one path for one kind, reporting every decision to `observer`.
    pub fn fold_path(
        &self,
        path: &Path,
        kind: usize,
        observer: &mut dyn FoldObserver<'m>,
    ) -> Folded<'m> {
        let ordered = self.path_policies(path, kind);
        fold::fold(self.model, &ordered, &self.constraints, observer)
    }

    /// The effective policy of every path and kind (empty ones left out), in path order then
    /// kind order, plus warnings for constraints that failed to evaluate.
    pub fn effective_all(&self) -> (EffectiveSet<'m>, Vec<Diagnostic>) {
        let kinds = crate::policy::all_kinds().count();
        let targets = &self.topology.targets;
        // Paths whose four elements carry the same policy lists share one fold.
        let mut distinct: FxHashMap<[u32; 4], u32> = FxHashMap::default();
        let mut keys: Vec<(usize, [u32; 4])> = Vec::new();
        let mut work: Vec<(u32, usize, u32)> = Vec::new();
        for (index, path) in self.topology.paths.iter().enumerate() {
            let elements = path_elements(path);
            for kind in 0..kinds {
                let key = elements.map(|t| targets.list_id(t, kind));
                if key.iter().all(|&id| id == NO_LIST) {
                    continue;
                }
                let next = keys.len() as u32;
                let fold = *distinct.entry(key).or_insert_with(|| {
                    keys.push((kind, key));
                    next
                });
                work.push((index as u32, kind, fold));
            }
        }
        let folds: Vec<Folded<'m>> = keys
            .par_iter()
            .map(|(_, key)| {
                let ordered: Vec<u32> = key
                    .iter()
                    .filter(|&&id| id != NO_LIST)
                    .flat_map(|&id| targets.lists[id as usize].iter().copied())
                    .collect();
                fold::fold(self.model, &ordered, &self.constraints, &mut NoObserver)
            })
            .collect();
        let mut diagnostics = Vec::new();
        let mut entries = Vec::with_capacity(work.len());
        for (path, kind, fold) in work {
            let result = &folds[fold as usize];
            for failure in &result.failures {
                diagnostics.push(self.constraint_warning(path, failure));
            }
            if !result.effective.is_empty() {
                entries.push(EffectiveEntry { path, kind, fold });
            }
        }
        (EffectiveSet { folds, entries }, diagnostics)
    }

    /// The warning for a constraint that failed on one path.
    pub fn constraint_warning(&self, path: u32, failure: &fold::ConstraintFailure) -> Diagnostic {
        let policy = &self.model.policies[failure.policy as usize];
        let block = &policy.blocks[failure.block as usize];
        let span = block.constraint.as_ref().map_or(block.span, |c| c.span);
        Diagnostic::new(
            Code::ConstraintEvaluation,
            format!(
                "the `{}` block of {} was not applied on path {}: {}",
                block.kind.as_str(),
                policy.display(),
                self.topology.path_id(path as usize),
                failure.reason
            ),
        )
        .with_label(span, "this constraint")
        .with_object(policy.display())
    }
}
