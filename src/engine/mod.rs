//! The merge engine: orders the policies on a path and folds them (SPEC §4, §4.1).
//!
//! [`Engine`] holds the model, its topology and the compiled constraints. For one path and one
//! policy kind it lists the accepted policies attached to any element of the path, least
//! specific first ([`Engine::path_policies`]), and folds them ([`fold::fold`]). Evaluating every
//! path ([`Engine::effective_all`]) runs in parallel; paths with the same policy list share one
//! fold.

pub mod constraint;
pub mod extensions;
pub mod fold;
pub mod outcomes;
pub mod trace;

use crate::diag::{Code, Diagnostic};
use crate::model::Model;
use crate::topology::targets::NO_LIST;
use crate::topology::{Path, Target, Topology};
use constraint::Constraints;
use fold::{Effective, Folded, NoObserver};
use outcomes::OutcomeRecorder;
use rayon::prelude::*;
use rustc_hash::FxHashMap;

/// Which fold gives the result of one path for one policy kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EffectiveEntry {
    /// Index into `Topology::paths`.
    pub path: u32,
    /// Index into [`crate::policy::all_kinds`].
    pub kind: usize,
    /// Index into the shared results ([`EffectiveSet::folds`], [`SharedFolds::results`]).
    pub fold: u32,
}

/// Results computed once per distinct policy list, and which one each path and kind uses.
#[derive(Debug, Default)]
pub struct SharedFolds<T> {
    /// One result per distinct policy list.
    pub results: Vec<T>,
    /// Every path and kind with policies, in path order then kind order.
    pub entries: Vec<EffectiveEntry>,
}

/// One fold with the outcome of every rule it saw.
#[derive(Debug)]
pub struct PathOutcomes<'m> {
    /// The policies, least specific first.
    pub policies: Vec<u32>,
    /// The fold.
    pub folded: Folded<'m>,
    /// Every rule's outcome, sorted by rule.
    pub outcomes: Vec<(fold::RuleRef, outcomes::Outcome)>,
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
    /// Also checks the RFC 0009 extensions (`unset` entries that cannot work, extension use).
    pub fn new(model: &'m Model, topology: &'m Topology) -> (Engine<'m>, Vec<Diagnostic>) {
        let (constraints, mut diagnostics) = Constraints::compile(model);
        let engine = Engine {
            model,
            topology,
            constraints,
        };
        diagnostics.extend(extensions::check(&engine));
        (engine, diagnostics)
    }

    /// Accepted policies of `kind` on the path, least specific first (SPEC §4 step 2).
    pub fn path_policies(&self, path: &Path, kind: usize) -> Vec<u32> {
        let targets = &self.topology.targets;
        path_elements(path)
            .iter()
            .flat_map(|t| targets.on(*t, kind).iter().copied())
            .collect()
    }

    /// Runs `run` once per distinct policy list (in parallel) and says which list each path and
    /// kind with policies uses: paths whose four elements carry the same lists share one fold.
    pub fn fold_distinct<T: Send>(&self, run: impl Fn(&[u32]) -> T + Sync) -> SharedFolds<T> {
        let kinds = crate::policy::all_kinds().count();
        let targets = &self.topology.targets;
        let mut distinct: FxHashMap<[u32; 4], u32> = FxHashMap::default();
        let mut keys: Vec<[u32; 4]> = Vec::new();
        let mut entries: Vec<EffectiveEntry> = Vec::new();
        for (index, path) in self.topology.paths.iter().enumerate() {
            let elements = path_elements(path);
            for kind in 0..kinds {
                let key = elements.map(|t| targets.list_id(t, kind));
                if key.iter().all(|&id| id == NO_LIST) {
                    continue;
                }
                let next = keys.len() as u32;
                let fold = *distinct.entry(key).or_insert_with(|| {
                    keys.push(key);
                    next
                });
                entries.push(EffectiveEntry {
                    path: index as u32,
                    kind,
                    fold,
                });
            }
        }
        let results = keys
            .par_iter()
            .map(|key| {
                let ordered: Vec<u32> = key
                    .iter()
                    .filter(|&&id| id != NO_LIST)
                    .flat_map(|&id| targets.lists[id as usize].iter().copied())
                    .collect();
                run(&ordered)
            })
            .collect();
        SharedFolds { results, entries }
    }

    /// The effective policy of every path and kind (empty ones left out), in path order then
    /// kind order, plus warnings for constraints that failed to evaluate.
    pub fn effective_all(&self) -> (EffectiveSet<'m>, Vec<Diagnostic>) {
        let shared = self.fold_distinct(|ordered| {
            fold::fold(self.model, ordered, &self.constraints, &mut NoObserver)
        });
        let diagnostics = self.constraint_warnings(&shared, |folded| &folded.failures);
        let entries = shared
            .entries
            .into_iter()
            .filter(|e| !shared.results[e.fold as usize].effective.is_empty())
            .collect();
        (
            EffectiveSet {
                folds: shared.results,
                entries,
            },
            diagnostics,
        )
    }

    /// Every rule's outcome on every path with policies (SPEC §5), plus constraint warnings.
    pub fn outcomes_all(&self) -> (SharedFolds<PathOutcomes<'m>>, Vec<Diagnostic>) {
        let shared = self.fold_distinct(|ordered| {
            let mut recorder = OutcomeRecorder::default();
            let folded = fold::fold(self.model, ordered, &self.constraints, &mut recorder);
            PathOutcomes {
                policies: ordered.to_vec(),
                outcomes: recorder.finish(&folded.effective),
                folded,
            }
        });
        let diagnostics = self.constraint_warnings(&shared, |outcomes| &outcomes.folded.failures);
        (shared, diagnostics)
    }

    fn constraint_warnings<T>(
        &self,
        shared: &SharedFolds<T>,
        failures: impl Fn(&T) -> &Vec<fold::ConstraintFailure>,
    ) -> Vec<Diagnostic> {
        let mut diagnostics = Vec::new();
        for entry in &shared.entries {
            for failure in failures(&shared.results[entry.fold as usize]) {
                diagnostics.push(self.constraint_warning(entry.path, failure));
            }
        }
        diagnostics
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
