//! The merge engine: collects the policies on every path and hands them to their family's
//! fold (docs/semantics.md#4-the-fold; docs/families.md §1).
//!
//! [`Engine`] holds the model, its topology and one [`Evaluator`] per family. For one path and
//! one policy kind it lists the policies attached to each element of the path
//! ([`Engine::levels`]) and asks the kind's family to fold them. Evaluating every path
//! ([`Engine::effective_all`]) runs in parallel; paths whose elements carry the same lists share
//! one fold when the family says its folds depend on nothing else.

pub mod evaluator;
pub mod fold;
pub mod listeners;
pub mod observed;
pub mod outcomes;
pub mod owned;
pub mod trace;

use crate::diag::Diagnostic;
use crate::model::Model;
use crate::topology::targets::NO_LIST;
use crate::topology::{Path, Target, Topology};
use evaluator::{Evaluator, PathLevel, PathView};
use fold::{Effective, FoldObserver, Folded, NoObserver};
use outcomes::OutcomeRecorder;
use rayon::prelude::*;
use rustc_hash::FxHashMap;

/// Which fold gives the result of one path for one policy kind.
///
/// The kind is the fold's ([`SharedFolds::kind`], [`EffectiveSet::kind`]): a fold is of one
/// kind, and a big input has a million entries (3 per path on the 49 MB benchmark) but 61,000
/// folds, so the kind is kept per fold and an entry is 8 bytes, not 12.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EffectiveEntry {
    /// Index into `Topology::paths`.
    pub path: u32,
    /// Index into the shared results ([`EffectiveSet::folds`], [`SharedFolds::results`]).
    pub fold: u32,
}

/// Results computed once per distinct policy list, and which one each path and kind uses.
#[derive(Debug, Default)]
pub struct SharedFolds<T> {
    /// One result per distinct policy list.
    pub results: Vec<T>,
    /// Per result: the index of its kind in the model's registry.
    pub kinds: Vec<u32>,
    /// Every path and kind with policies, in path order then kind order.
    pub entries: Vec<EffectiveEntry>,
}

impl<T> SharedFolds<T> {
    /// The index of `entry`'s kind in the model's registry.
    pub fn kind(&self, entry: &EffectiveEntry) -> usize {
        self.kinds[entry.fold as usize] as usize
    }
}

/// One fold with the outcome of every rule it saw.
///
/// Its lists are boxed slices: a big input keeps one per distinct fold (61,000 on the 49 MB
/// benchmark), and they never grow once folded.
#[derive(Debug)]
pub struct PathOutcomes<'m> {
    /// The policies, least specific element first.
    pub policies: Box<[u32]>,
    /// The fold.
    pub folded: Folded<'m>,
    /// Every rule's outcome, sorted by rule.
    pub outcomes: Box<[(fold::RuleRef, outcomes::Outcome)]>,
}

/// The effective policies of every path: one fold per distinct policy list, shared by every
/// path with that list.
#[derive(Debug, Default)]
pub struct EffectiveSet<'m> {
    /// Distinct folds.
    pub folds: Vec<Folded<'m>>,
    /// Per fold: the index of its kind in the model's registry.
    pub kinds: Vec<u32>,
    /// Non-empty effective policies in path order, then kind order.
    pub entries: Vec<EffectiveEntry>,
}

impl<'m> EffectiveSet<'m> {
    /// The index of `entry`'s kind in the model's registry.
    pub fn kind(&self, entry: &EffectiveEntry) -> usize {
        self.kinds[entry.fold as usize] as usize
    }

    /// The rules of an entry.
    pub fn rules(&self, entry: &EffectiveEntry) -> &Effective<'m> {
        &self.folds[entry.fold as usize].effective
    }
}

/// What folds that record outcomes keep ([`Engine::outcomes_where`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FoldParts {
    /// Outcomes, policies, effective policies and failures.
    All,
    /// All but the effective policies.
    Outcomes,
    /// All but the outcomes, which are not recorded (`diff` compares effective policies and
    /// conditions, which no family reads from outcomes).
    Effective,
}

/// Where the lists of the folds a caller keeps go: their memory is either the run's until it
/// ends, or the rest of the run's once the caller drops them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Storage {
    /// Kept storage ([`crate::platform::kept`]): for folds held until the run ends (a report
    /// written from them).
    UntilExit,
    /// Ordinary allocations, for folds dropped before the run ends: `lint` renders its
    /// findings once its observation is dropped, in the memory the folds held (kept storage
    /// would have held both: 7 MiB more at its peak on the 49 MB benchmark).
    Scoped,
}

impl Storage {
    /// Drops `list`'s spare room, moving it where this storage says.
    pub fn fit<T>(self, list: &mut Vec<T>) {
        match self {
            Storage::UntilExit => crate::platform::kept::keep_list(list),
            Storage::Scoped => crate::platform::fit(list),
        }
    }
}

/// Model + topology + one evaluator per family: everything needed to evaluate paths.
pub struct Engine<'m> {
    /// The model.
    pub model: &'m Model,
    /// Its topology.
    pub topology: &'m Topology,
    /// One per family of the model's registry.
    evaluators: Vec<Box<dyn Evaluator<'m> + 'm>>,
    /// One per kind of the registry: what [`Engine::applies_to_route`] reads of its family,
    /// read once (it is asked for every path and kind, twice, when folds are shared out).
    scopes: Vec<RouteScope>,
}

/// The routes the family of a kind applies to: their kinds, and whether it follows paths
/// through ListenerSets' listeners.
struct RouteScope {
    route_kinds: &'static [crate::model::gateway::RouteKind],
    follows_listener_sets: bool,
}

/// Marks a fold that no other path shares.
const SHARED: u32 = u32::MAX;

/// Paths per chunk when finding the distinct folds.
const FOLD_CHUNK: usize = 4096;

/// What makes two folds one: the lists on a path's four elements, the path when the fold is
/// its own (else [`SHARED`], less the route kind for a route of a non-HTTP kind), and the kind.
/// A path with policies on a level [`Engine::elements`] adds (its ListenerSet, the Gateway's
/// listener named like its set listener) has a fold of its own: the four lists do not say them.
type FoldKey = ([u32; 4], u32, usize);

impl<'m> Engine<'m> {
    /// Prepares an engine: each family prepares its evaluation (compiling what it needs) and
    /// reports what it found on the way.
    pub fn new(model: &'m Model, topology: &'m Topology) -> (Engine<'m>, Vec<Diagnostic>) {
        let mut diagnostics = Vec::new();
        let evaluators = model
            .registry
            .evaluations()
            .map(|family| {
                let (evaluator, found) = family.evaluator(model, topology);
                diagnostics.extend(found);
                evaluator
            })
            .collect();
        let scopes = (0..model.registry.kind_count())
            .map(|kind| {
                let family = model.registry.evaluation_at(kind);
                RouteScope {
                    route_kinds: family.route_kinds(),
                    follows_listener_sets: family.follows_listener_sets(),
                }
            })
            .collect();
        let engine = Engine {
            model,
            topology,
            evaluators,
            scopes,
        };
        for evaluator in engine.evaluators() {
            diagnostics.extend(evaluator.engine_checks(&engine));
        }
        (engine, diagnostics)
    }

    /// The evaluator of the family of kind number `kind`.
    pub fn evaluator(&self, kind: usize) -> &dyn Evaluator<'m> {
        self.evaluators[self.model.registry.family_index(kind)].as_ref()
    }

    /// Every family's evaluator.
    pub fn evaluators(&self) -> impl Iterator<Item = &dyn Evaluator<'m>> {
        self.evaluators.iter().map(|e| e.as_ref())
    }

    /// The hierarchies families build themselves, with their effective policies, in registry
    /// order ([`crate::policy::owned`]).
    pub fn owned(&self) -> impl Iterator<Item = &owned::OwnedPaths> {
        self.evaluators().filter_map(|e| e.owned_paths())
    }

    /// The policies of `kind` on each element of `path`, least specific element first; empty
    /// when the kind's family does not follow the delegation the path goes through. A family
    /// whose policies take part once keeps each at its most specific element.
    pub fn levels(&self, path: &Path, kind: usize) -> Vec<(Target, Vec<u32>)> {
        let family = self.model.registry.evaluation_at(kind);
        if !self.folds_path(path, kind) {
            return Vec::new();
        }
        let targets = &self.topology.targets;
        let mut levels: Vec<(Target, Vec<u32>)> = self
            .elements(path, kind)
            .into_iter()
            .map(|t| (t, targets.on(t, kind).to_vec()))
            .collect();
        if family.attaches_once() {
            let mut seen: Vec<u32> = Vec::new();
            for (_, policies) in levels.iter_mut().rev() {
                policies.retain(|p| !seen.contains(p));
                seen.extend(policies.iter().copied());
            }
        }
        levels
    }

    /// The elements of `path` as the family of `kind` sees them, least specific first: the
    /// topology's ([`Topology::elements`]); on a path through a set's listener `S#L`, for a
    /// family that resolves ListenerSet targets
    /// ([`crate::topology::family::FamilyHierarchy::resolves_listener_sets`]) the whole set `S`
    /// before that listener, and for one whose Gateway-listener policies reach set listeners
    /// ([`crate::topology::family::FamilyHierarchy::listener_policy_reaches_listener_sets`])
    /// the Gateway's own listener `L` after it.
    pub fn elements(&self, path: &Path, kind: usize) -> Vec<Target> {
        let mut elements = self.topology.elements(path);
        let (set, namesake) = self.set_levels(path, kind);
        if let Some(namesake) = namesake {
            elements.insert(2, Target::Listener(path.gateway, namesake));
        }
        if let Some(set) = set {
            elements.insert(1, Target::ListenerSet(set));
        }
        elements
    }

    /// Whether a level [`Self::elements`] adds to `path` for `kind` carries policies.
    fn added_lists(&self, path: &Path, kind: usize) -> bool {
        let targets = &self.topology.targets;
        let (set, namesake) = self.set_levels(path, kind);
        let set = set.map(Target::ListenerSet);
        let namesake = namesake.map(|n| Target::Listener(path.gateway, n));
        (set.into_iter().chain(namesake)).any(|t| targets.list_id(t, kind) != NO_LIST)
    }

    /// On a path through a ListenerSet's listener, as the family of `kind` reads it: the set
    /// (when the family resolves set targets) and the Gateway's own listener of the same name
    /// (when the family's Gateway-listener policies reach set listeners). `(None, None)`
    /// without a word when no ListenerSet is in the input.
    fn set_levels(&self, path: &Path, kind: usize) -> (Option<u32>, Option<u32>) {
        if self.model.listener_sets.is_empty() {
            return (None, None);
        }
        let Some(set) =
            crate::topology::listener_sets::set_of(self.model, path.gateway, path.listener)
        else {
            return (None, None);
        };
        let family = self.model.registry.evaluation_at(kind);
        let namesake = family.listener_policy_reaches_listener_sets().then(|| {
            let listeners = &self.model.gateways[path.gateway as usize].listeners;
            let name = &listeners[path.listener as usize].name;
            (listeners.iter()).position(|l| l.set.is_none() && &l.name == name)
        });
        (
            family.resolves_listener_sets().then_some(set),
            namesake.flatten().map(|l| l as u32),
        )
    }

    /// Whether `kind`'s policies take part in the path at all: its family follows the
    /// delegation the path goes through, and applies to the kind of its route.
    pub fn folds_path(&self, path: &Path, kind: usize) -> bool {
        let family = self.model.registry.evaluation_at(kind);
        (path.chain == crate::topology::NO_CHAIN || family.follows_delegation())
            && self.applies_to_route(path, kind)
    }

    /// Whether the family of `kind` applies to the kind of the path's route
    /// ([`crate::topology::family::FamilyHierarchy::route_kinds`]) and, for a path through a
    /// ListenerSet's listener, to ListenerSets
    /// ([`crate::topology::family::FamilyHierarchy::follows_listener_sets`]).
    pub fn applies_to_route(&self, path: &Path, kind: usize) -> bool {
        let route = self.model.routes[path.route as usize].kind;
        let scope = &self.scopes[kind];
        scope.route_kinds.contains(&route)
            && (self.model.listener_sets.is_empty()
                || scope.follows_listener_sets
                || crate::topology::listener_sets::set_of(self.model, path.gateway, path.listener)
                    .is_none())
    }

    /// Every policy of `kind` on the path, least specific element first.
    pub fn path_policies(&self, path: &Path, kind: usize) -> Vec<u32> {
        self.levels(path, kind)
            .into_iter()
            .flat_map(|(_, p)| p)
            .collect()
    }

    /// Folds path number `path` for `kind`.
    pub fn fold_path(
        &self,
        path: u32,
        kind: usize,
        observer: &mut dyn FoldObserver<'m>,
    ) -> (Vec<u32>, Folded<'m>) {
        let levels = self.levels(&self.topology.paths[path as usize], kind);
        self.fold_levels(path, kind, &levels, observer)
    }

    /// Folds given levels (a path's, possibly reordered).
    pub fn fold_levels(
        &self,
        path: u32,
        kind: usize,
        levels: &[(Target, Vec<u32>)],
        observer: &mut dyn FoldObserver<'m>,
    ) -> (Vec<u32>, Folded<'m>) {
        let levels = PathLevel::borrow_all(levels);
        let view = PathView {
            path,
            levels: &levels,
        };
        let folded = self.evaluator(kind).fold(&view, observer);
        (view.policies(), folded)
    }

    /// Runs `run` once per distinct fold (in parallel) and says which one each path and kind
    /// with policies uses: paths whose four elements carry the same lists share one fold when
    /// their family allows it and no delegation chain is involved.
    ///
    /// Chunks of paths find their entries and distinct folds on both cores, each writing its
    /// entries straight into its own stretch of the one list (counted first, so no chunk's
    /// entries are copied: the copy was 13 MB on the 49 MB benchmark);
    /// the folds are then numbered across chunks in place, in order of first use, as a single
    /// pass in path order would.
    pub fn fold_distinct<T: Send>(
        &self,
        run: impl Fn(u32, usize, &[(Target, Vec<u32>)]) -> T + Sync,
    ) -> SharedFolds<T> {
        let kinds = self.model.registry.kind_count();
        let shares: Vec<bool> = (0..kinds)
            .map(|k| self.evaluator(k).shares_folds())
            .collect();
        let paths = &self.topology.paths;
        let counts: Vec<usize> = paths
            .par_chunks(FOLD_CHUNK)
            .enumerate()
            .map(|(chunk, paths)| {
                let mut count = 0;
                self.each_fold_key(chunk * FOLD_CHUNK, paths, &shares, |_, _, _| count += 1);
                count
            })
            .collect();
        let mut entries = vec![EffectiveEntry::default(); counts.iter().sum()];
        let mut stretches = Vec::with_capacity(counts.len());
        let mut rest = entries.as_mut_slice();
        for &count in &counts {
            let (stretch, tail) = rest.split_at_mut(count);
            stretches.push(stretch);
            rest = tail;
        }
        let chunk_keys: Vec<Vec<(FoldKey, (u32, usize))>> = paths
            .par_chunks(FOLD_CHUNK)
            .zip(stretches)
            .enumerate()
            .map(|(chunk, (paths, stretch))| {
                self.chunk_folds(chunk * FOLD_CHUNK, paths, &shares, stretch)
            })
            .collect();
        let mut distinct: FxHashMap<FoldKey, u32> = FxHashMap::default();
        let mut keys: Vec<(u32, usize)> = Vec::new();
        let mut start = 0;
        for (local_keys, count) in chunk_keys.into_iter().zip(counts) {
            let global: Vec<u32> = local_keys
                .into_iter()
                .map(|(key, first)| {
                    let next = keys.len() as u32;
                    *distinct.entry(key).or_insert_with(|| {
                        keys.push(first);
                        next
                    })
                })
                .collect();
            for entry in &mut entries[start..start + count] {
                entry.fold = global[entry.fold as usize];
            }
            start += count;
        }
        drop(distinct);
        let kinds = keys.iter().map(|&(_, kind)| kind as u32).collect();
        let results = keys
            .par_iter()
            .map(|&(path, kind)| {
                let levels = self.levels(&self.topology.paths[path as usize], kind);
                run(path, kind, &levels)
            })
            .collect();
        SharedFolds {
            results,
            kinds,
            entries,
        }
    }

    /// Calls `each` with the path index, kind and fold key of every entry of paths `start..`
    /// (paths in order, kinds in order): one walk for counting the entries and for writing them.
    fn each_fold_key(
        &self,
        start: usize,
        paths: &[Path],
        shares: &[bool],
        mut each: impl FnMut(u32, usize, FoldKey),
    ) {
        let targets = &self.topology.targets;
        let sets = !self.model.listener_sets.is_empty();
        for (offset, path) in paths.iter().enumerate() {
            let index = (start + offset) as u32;
            let elements = self.topology.leaf_elements(path);
            let chained = path.chain != crate::topology::NO_CHAIN;
            let route_kind = match self.model.routes[path.route as usize].kind {
                kind if kind.is_http() => 0,
                kind => kind as u32,
            };
            for (kind, &shared) in shares.iter().enumerate() {
                // A kind no policy has gives a path an entry only through a delegation chain
                // (no list, and no level added for a ListenerSet, can carry it).
                if (!chained && !targets.has_kind(kind)) || !self.applies_to_route(path, kind) {
                    continue;
                }
                let lists = elements.map(|t| targets.list_id(t, kind));
                let added = sets && self.added_lists(path, kind);
                if !chained && !added && lists.iter().all(|&id| id == NO_LIST) {
                    continue;
                }
                // A family may apply other fields on a route of another kind (a TCPRoute, say):
                // paths of such routes share folds among themselves only.
                let own = if shared && !chained && !added {
                    SHARED - route_kind
                } else {
                    index
                };
                each(index, kind, (lists, own, kind));
            }
        }
    }

    /// Writes the entries of paths `start..` into `stretch` (which has room for exactly them),
    /// their folds numbered in order of first use within the chunk; returns the chunk's
    /// distinct folds, each with the first path and kind that uses it.
    fn chunk_folds(
        &self,
        start: usize,
        paths: &[Path],
        shares: &[bool],
        stretch: &mut [EffectiveEntry],
    ) -> Vec<(FoldKey, (u32, usize))> {
        let mut local: FxHashMap<FoldKey, u32> = FxHashMap::default();
        let mut keys = Vec::new();
        let mut slots = stretch.iter_mut();
        self.each_fold_key(start, paths, shares, |path, kind, key| {
            let next = keys.len() as u32;
            let fold = *local.entry(key).or_insert_with(|| {
                keys.push((key, (path, kind)));
                next
            });
            let slot = slots.next();
            debug_assert!(slot.is_some(), "a chunk wrote more entries than it counted");
            if let Some(slot) = slot {
                *slot = EffectiveEntry { path, fold };
            }
        });
        debug_assert!(
            slots.next().is_none(),
            "a chunk wrote fewer entries than it counted"
        );
        keys
    }

    /// The effective policy of every path and kind (empty ones left out), in path order then
    /// kind order, plus warnings for conditions that failed to evaluate.
    pub fn effective_all(&self) -> (EffectiveSet<'m>, Vec<Diagnostic>) {
        let shared = self.fold_distinct(|path, kind, levels| {
            let mut folded = self.fold_levels(path, kind, levels, &mut NoObserver).1;
            folded.effective.fit(Storage::UntilExit);
            folded
        });
        let diagnostics = self.fold_warnings(&shared, |folded| folded);
        let entries = shared
            .entries
            .into_iter()
            .filter(|e| !shared.results[e.fold as usize].effective.is_empty())
            .collect();
        (
            EffectiveSet {
                folds: shared.results,
                kinds: shared.kinds,
                entries,
            },
            diagnostics,
        )
    }

    /// Every rule's outcome on every path with policies (docs/semantics.md#5-outcomes-status-and-reach), plus fold warnings.
    pub fn outcomes_all(&self) -> (SharedFolds<PathOutcomes<'m>>, Vec<Diagnostic>) {
        self.outcomes_where(|_| true, FoldParts::All, Storage::UntilExit)
    }

    /// [`Engine::outcomes_all`] with the outcomes of only the folds whose levels `keep`
    /// accepts (`reach` asks about the paths of one policy). Every other fold is still folded,
    /// for its warnings, and keeps nothing else: no policies, rules or outcomes (24 MiB of
    /// `reach`'s peak on the 49 MB benchmark, for the folds of policies it does not show).
    ///
    /// With [`FoldParts::Outcomes`], the kept folds keep their outcomes and policies but not
    /// their effective policies (`overridden` reads only outcomes: 6 MB of its peak on the 49 MB
    /// benchmark); with [`FoldParts::Effective`], no outcome is recorded (`diff`: 8 MB a side).
    /// Their lists go to `storage`.
    ///
    /// When `keep` leaves a fold out, the entries of folds without policies are dropped too,
    /// once their warnings are gathered: what is left are the paths of the kept folds (every
    /// entry is 8 bytes, 8.6 MB on the 49 MB benchmark, where `reach` of a Gateway's policy
    /// keeps a twentieth of them).
    pub fn outcomes_where(
        &self,
        keep: impl Fn(&[(Target, Vec<u32>)]) -> bool + Sync,
        parts: FoldParts,
        storage: Storage,
    ) -> (SharedFolds<PathOutcomes<'m>>, Vec<Diagnostic>) {
        let left_out = std::sync::atomic::AtomicBool::new(false);
        let mut shared = self.fold_distinct(|path, kind, levels| {
            if !keep(levels) {
                left_out.store(true, std::sync::atomic::Ordering::Relaxed);
                let (_, folded) = self.fold_levels(path, kind, levels, &mut NoObserver);
                return PathOutcomes {
                    policies: Box::default(),
                    folded: Folded {
                        effective: Default::default(),
                        failures: folded.failures,
                    },
                    outcomes: Box::default(),
                };
            }
            let (mut policies, mut folded, mut outcomes) = if parts == FoldParts::Effective {
                let (policies, folded) = self.fold_levels(path, kind, levels, &mut NoObserver);
                (policies, folded, Vec::new())
            } else {
                let mut recorder = OutcomeRecorder::default();
                let (policies, folded) = self.fold_levels(path, kind, levels, &mut recorder);
                let outcomes = recorder.finish(&folded.effective);
                (policies, folded, outcomes)
            };
            storage.fit(&mut policies);
            storage.fit(&mut outcomes);
            match parts {
                FoldParts::All | FoldParts::Effective => folded.effective.fit(storage),
                FoldParts::Outcomes => folded.effective = Default::default(),
            }
            PathOutcomes {
                policies: policies.into(),
                outcomes: outcomes.into(),
                folded,
            }
        });
        let diagnostics = self.fold_warnings(&shared, |outcomes| &outcomes.folded);
        if left_out.into_inner() {
            // A fold left out keeps no policies; a kept one without policies (a delegation
            // chain's path with none of its kind) has no rules or outcomes to read either.
            let results = &shared.results;
            shared
                .entries
                .retain(|entry| !results[entry.fold as usize].policies.is_empty());
            crate::platform::fit(&mut shared.entries);
        }
        (shared, diagnostics)
    }

    fn fold_warnings<T>(
        &self,
        shared: &SharedFolds<T>,
        folded: impl Fn(&T) -> &Folded<'m>,
    ) -> Vec<Diagnostic> {
        let mut diagnostics = Vec::new();
        for entry in &shared.entries {
            for failure in &folded(&shared.results[entry.fold as usize]).failures {
                diagnostics.push(self.fold_warning(entry.path, shared.kind(entry), failure));
            }
        }
        diagnostics
    }

    /// The warning for a fold failure on one path.
    pub fn fold_warning(&self, path: u32, kind: usize, failure: &fold::FoldFailure) -> Diagnostic {
        self.evaluator(kind)
            .fold_warning(&self.topology.path_id(path as usize).to_string(), failure)
    }
}
