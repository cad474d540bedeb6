//! kgateway's evaluation of one path (docs/families.md §2.5) and its status (§2.7).
//!
//! A path's elements arrive least specific first: Gateway, listener, then per route of the
//! delegation chain (root first) its route and rule, the leaf last; each element's policies in
//! the order of [`super::family`] (highest priority first). They form three scopes, merged on
//! their own and then combined per key the way Envoy resolves what kgateway writes:
//! - route scope: one level per route of the chain (that route's rule policies, then its
//!   whole-route policies), folded leaf first up the chain with each parent route's
//!   `kgateway.dev/inherited-policy-priority`;
//! - listener scope (HTTP listeners): the listener's policies;
//! - Gateway scope: the whole-Gateway policies, after the listener's on an HTTPS listener.
//!
//! An invalid policy is skipped by every merge but turns the scope it takes part in into a 500:
//! a path with such a scope has no effective TrafficPolicy.

use super::diags::RouteReplaced;
use super::{Contribution, MergeSettings, Scope, ScopeNote, Strategy, combine_scopes, step};
use crate::diag::Diagnostic;
use crate::engine::fold::{
    Effective, EffectiveRule, FoldFailure, FoldObserver, Folded, Merged, RuleEvent, RuleRef,
};
use crate::engine::observed::Observed;
use crate::model::Model;
use crate::policy::{AncestorRef, Evaluator, PathLevel, PathView, PolicyConditions, PolicyKind};
use crate::topology::{Target, Topology};
use crate::yaml::Shared;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// The merge-table key of every rule of a declared kind: no TrafficPolicy field is named so.
const PLAIN_FIELD: &str = "";

/// The annotation on a parent HTTPRoute choosing how its policies merge with its children's.
pub const PRIORITY_ANNOTATION: &str = "kgateway.dev/inherited-policy-priority";

/// Merge settings and the model.
pub struct KgatewayEvaluator<'m> {
    model: &'m Model,
    topology: &'m Topology,
    settings: MergeSettings,
    /// The kind it evaluates.
    kind: &'static PolicyKind,
    /// Whether every rule is a plain field (a declared kind), not TrafficPolicy's own fields.
    plain: bool,
    /// Route rules with an ExtensionRef to a missing policy: kgateway answers them with a 500.
    broken: std::collections::HashSet<(u32, u32)>,
    /// Per route, the strategy its inheritance annotation names (read once, on first use).
    strategies: std::sync::OnceLock<Vec<Strategy>>,
}

/// One merged scope: key → value.
type ScopeValues = BTreeMap<String, Contribution>;

/// A scope's result: its values, and the invalid policy that turns it into a 500.
#[derive(Debug, Default)]
pub(super) struct ScopeResult {
    /// Key → merged value.
    pub values: ScopeValues,
    /// The first invalid policy that took part.
    pub invalid: Option<u32>,
}

/// One recorded merge step (for `explain` and lint).
#[derive(Clone, Debug)]
pub(super) struct StepNote {
    /// The incoming policy (a same-level step), or `None` for a step across route levels.
    pub policy: Option<u32>,
    /// For a step across route levels: the parent route whose annotation chose the strategy.
    pub parent: Option<u32>,
    /// The rule key.
    pub key: String,
    /// The strategy.
    pub strategy: Strategy,
    /// What the step did.
    pub how: super::How,
    /// The origins before and after.
    pub before: Option<Vec<u32>>,
    /// The origins after (`None`: no value).
    pub after: Option<Vec<u32>>,
    /// Whether the policy was skipped as invalid.
    pub skipped: bool,
}

impl StepNote {
    fn of(
        policy: Option<u32>,
        key: &str,
        strategy: Strategy,
        step: &super::Step,
        before: Option<Vec<u32>>,
    ) -> StepNote {
        StepNote {
            policy,
            parent: None,
            key: key.to_string(),
            strategy,
            how: step.how,
            before,
            after: step.result.as_ref().map(|c| c.origins.clone()),
            skipped: false,
        }
    }

    fn skipped(policy: u32) -> StepNote {
        StepNote {
            policy: Some(policy),
            parent: None,
            key: String::new(),
            strategy: Strategy::AugmentedShallow,
            how: super::How::Unset,
            before: None,
            after: None,
            skipped: true,
        }
    }

    fn across(mut self, parent: u32) -> StepNote {
        self.parent = Some(parent);
        self
    }
}

/// A path's policies per level (§2.3).
#[derive(Debug, Default)]
pub(super) struct Split {
    /// Route levels, root first: the route and its rule's policies then its own.
    pub routes: Vec<(u32, Vec<u32>)>,
    /// The HTTP listener's policies.
    pub listener: Vec<u32>,
    /// The Gateway scope's policies (an HTTPS listener's first).
    pub gateway: Vec<u32>,
    /// Whether the listener is HTTPS.
    pub https: bool,
}

impl<'m> KgatewayEvaluator<'m> {
    /// An evaluator of the policies of `kind` with the given merge settings; `plain` when
    /// every rule is a plain field (a declared kind).
    pub fn new(
        model: &'m Model,
        topology: &'m Topology,
        settings: MergeSettings,
        kind: &'static PolicyKind,
        plain: bool,
    ) -> KgatewayEvaluator<'m> {
        let broken = super::family::scan_extension_refs(model, kind)
            .1
            .iter()
            .map(|m| (m.route, m.rule))
            .collect();
        KgatewayEvaluator {
            model,
            topology,
            settings,
            kind,
            plain,
            broken,
            strategies: std::sync::OnceLock::new(),
        }
    }

    /// The key the merge tables (strategies, deep merges, scope mechanisms) look `key` up by:
    /// itself, or for a declared kind a key no TrafficPolicy field has, which every table
    /// treats as a plain field.
    fn table_key<'k>(&self, key: &'k str) -> &'k str {
        if self.plain { PLAIN_FIELD } else { key }
    }

    /// The kind it evaluates.
    pub(super) fn kind(&self) -> &'static PolicyKind {
        self.kind
    }

    /// Whether every rule is a plain field (a declared kind).
    pub(super) fn plain(&self) -> bool {
        self.plain
    }

    /// Merges one level: its policies in priority order, each key with the same-level strategy.
    pub(super) fn level(&self, policies: &[u32]) -> ScopeResult {
        self.level_traced(policies, None)
    }

    /// [`Self::level`], recording every step in `notes`.
    pub(super) fn level_traced(
        &self,
        policies: &[u32],
        mut notes: Option<&mut Vec<StepNote>>,
    ) -> ScopeResult {
        let mut result = ScopeResult::default();
        for &p in policies {
            let policy = &self.model.policies[p as usize];
            if !policy.errors.is_empty() {
                result.invalid.get_or_insert(p);
                if let Some(notes) = notes.as_deref_mut() {
                    notes.push(StepNote::skipped(p));
                }
                continue;
            }
            for (_, rule) in policy.rules() {
                let incoming = Contribution::whole(rule.value.clone(), p, &policy.namespace);
                let strategy = self.settings.same_level(self.table_key(&rule.key));
                let before = result
                    .values
                    .get(rule.key.as_str())
                    .map(|c| c.origins.clone());
                let merged = step(
                    self.table_key(&rule.key),
                    result.values.get(rule.key.as_str()),
                    Some(&incoming),
                    strategy,
                );
                if let Some(notes) = notes.as_deref_mut() {
                    notes.push(StepNote::of(Some(p), &rule.key, strategy, &merged, before));
                }
                if let Some(value) = merged.result {
                    result.values.insert(rule.key.to_string(), value);
                }
            }
        }
        result
    }

    /// The strategy a route's annotation names (absent or unknown: ShallowMergePreferChild).
    pub(super) fn route_strategy(&self, route: u32) -> Strategy {
        self.strategies.get_or_init(|| {
            self.model
                .routes
                .iter()
                .map(|r| {
                    let object = &self.model.objects[r.object as usize];
                    Strategy::from_annotation(object.annotation(PRIORITY_ANNOTATION)).0
                })
                .collect()
        })[route as usize]
    }

    /// The policies of each level of a path: the route levels (root first, each its rule's
    /// policies then its own), the HTTP listener's, and the Gateway scope's.
    pub(super) fn split(&self, levels: &[PathLevel<'_>]) -> Split {
        let mut split = Split::default();
        // A path through a ListenerSet's listener `S#L` has the set `S` before its listener:
        // the listener level is `S#L` then `S` (field-2026 §3.1), each in its own order.
        let mut set: &[u32] = &[];
        for level in levels {
            match level.target {
                Target::Gateway(_) => split.gateway = level.policies.to_vec(),
                Target::ListenerSet(_) => set = level.policies,
                Target::Listener(g, l) => {
                    let gateway = &self.model.gateways[g as usize];
                    let listener = level.policies.iter().chain(set).copied();
                    if gateway.listeners[l as usize].protocol == "HTTPS" {
                        split.https = true;
                        split.gateway.splice(0..0, listener);
                    } else {
                        split.listener = listener.collect();
                    }
                }
                Target::Route(r) => split.routes.push((r, level.policies.to_vec())),
                Target::RouteRule(..) => {
                    if let Some((_, policies)) = split.routes.last_mut() {
                        policies.splice(0..0, level.policies.iter().copied());
                    }
                }
            }
        }
        split
    }

    /// The route scope: each route level merged, folded leaf first up the chain with the
    /// strategy of the parent route's annotation (§2.5 step 2).
    pub(super) fn route_scope(&self, routes: &[(u32, Vec<u32>)]) -> ScopeResult {
        self.route_scope_traced(routes, None)
    }

    /// [`Self::route_scope`], recording every step: per route level (leaf first) its own
    /// merge, then the step that folds it into what the levels below gave.
    pub(super) fn route_scope_traced(
        &self,
        routes: &[(u32, Vec<u32>)],
        mut notes: Option<&mut Vec<StepNote>>,
    ) -> ScopeResult {
        let mut out = ScopeResult::default();
        for (depth, (route, policies)) in routes.iter().rev().enumerate() {
            let level = self.level_traced(policies, notes.as_deref_mut());
            let strategy = self.route_strategy(*route);
            out.invalid = out.invalid.or(level.invalid);
            let keys: BTreeSet<String> = out
                .values
                .keys()
                .chain(level.values.keys())
                .cloned()
                .collect();
            for key in keys {
                let before = out.values.get(&key).map(|c| c.origins.clone());
                let (a, b) = (out.values.get(&key), level.values.get(&key));
                let merged = step(self.table_key(&key), a, b, strategy);
                if depth > 0
                    && let Some(notes) = notes.as_deref_mut()
                {
                    notes.push(StepNote::of(None, &key, strategy, &merged, before).across(*route));
                }
                match merged.result {
                    Some(value) => out.values.insert(key, value),
                    None => out.values.remove(&key),
                };
            }
        }
        out
    }

    /// The three scopes of a path: route, listener, Gateway.
    pub(super) fn scopes(&self, levels: &[PathLevel<'_>]) -> [ScopeResult; 3] {
        let split = self.split(levels);
        [
            self.route_scope(&split.routes),
            self.level(&split.listener),
            self.level(&split.gateway),
        ]
    }

    /// The effective rules of a path: the scopes combined per key, or nothing when a scope is
    /// replaced by a 500.
    pub(super) fn effective(&self, scopes: &[ScopeResult; 3]) -> BTreeMap<String, Contribution> {
        if scopes.iter().any(|s| s.invalid.is_some()) {
            return BTreeMap::new();
        }
        let keys: BTreeSet<&String> = scopes.iter().flat_map(|s| s.values.keys()).collect();
        keys.into_iter()
            .filter_map(|key| {
                let [route, listener, gateway] = scopes.each_ref().map(|s| s.values.get(key));
                combine_scopes(self.table_key(key), route, listener, gateway)
                    .result
                    .map(|c| (key.clone(), c))
            })
            .collect()
    }

    /// The rule of `policy` with `key`.
    fn rule_ref(&self, policy: u32, key: &str) -> Option<RuleRef> {
        let block = &self.model.policies[policy as usize].blocks[0];
        block
            .rule_index(key)
            .map(|rule| RuleRef::new(policy, 0, rule))
    }
}

impl<'m> Evaluator<'m> for KgatewayEvaluator<'m> {
    fn shares_folds(&self) -> bool {
        // The fold depends on the listener's protocol and the routes' annotations.
        false
    }

    fn fold(&self, view: &PathView<'_>, observer: &mut dyn FoldObserver<'m>) -> Folded<'m> {
        let scopes = self.scopes(view.levels);
        let broken = view.levels.iter().any(|l| match l.target {
            Target::RouteRule(r, k) => self.broken.contains(&(r, k)),
            _ => false,
        });
        let values = if broken {
            BTreeMap::new()
        } else {
            self.effective(&scopes)
        };
        let failures = replaced(self.model, &scopes);
        let mut effective = Effective::new();
        for (key, contribution) in &values {
            let source = contribution.origins[0];
            let Some(rule) = self.rule_ref(source, key) else {
                continue;
            };
            let policy = &self.model.policies[source as usize];
            let own = &policy.blocks[0].rules[rule.rule()];
            let merged = (contribution.origins.len() > 1
                || !own.value.same_value(&contribution.value))
            .then(|| {
                Arc::new(Merged {
                    value: contribution.value.clone(),
                    origins: contribution.origins.clone(),
                })
            });
            effective.insert(own.key.as_str(), EffectiveRule { rule, merged });
        }
        report_outcomes(self.model, view, &effective, observer);
        Folded {
            effective,
            failures: failures.into(),
        }
    }

    fn fold_warning(&self, path_id: &str, failure: &FoldFailure) -> Diagnostic {
        let policy = &self.model.policies[failure.policy as usize];
        Diagnostic::from(RouteReplaced {
            path: path_id,
            reason: &failure.reason,
        })
        .with_label(policy.name_span, "invalid policy")
        .with_object(policy.display())
    }

    fn explain(&self, view: &PathView<'_>) -> Option<crate::policy::FamilyExplanation> {
        Some(super::explain::explain(self, view))
    }

    fn conditions(&self, observed: &Observed<'_, 'm>, policy: u32) -> PolicyConditions {
        super::status::conditions(self, observed, policy)
    }

    fn lint(&self, observed: &Observed<'_, 'm>) -> Vec<Diagnostic> {
        let mut diagnostics = super::checks::check(self);
        diagnostics.extend(super::checks::scope_checks(self, observed));
        diagnostics.extend(super::chain_checks::check(self, observed));
        diagnostics.extend(super::isolation::check(self));
        diagnostics
    }
}

/// The scopes an invalid policy turns into a 500 (§2.5 step 5), as fold failures.
fn replaced(model: &Model, scopes: &[ScopeResult; 3]) -> Vec<FoldFailure> {
    ["route", "listener", "Gateway"]
        .iter()
        .zip(scopes)
        .filter_map(|(name, scope)| {
            let policy = scope.invalid?;
            let p = &model.policies[policy as usize];
            Some(FoldFailure {
                policy,
                block: 0,
                reason: format!(
                    "kgateway answers 500: the {name} scope includes {}, which is invalid ({}); the path has no effective TrafficPolicy",
                    p.display(),
                    p.errors.join("; ")
                ),
            })
        })
        .collect()
}

/// Each rule of each policy on the path: effective, merged into another's value, or superseded.
fn report_outcomes<'m>(
    model: &'m Model,
    view: &PathView<'_>,
    effective: &crate::engine::fold::Effective<'m>,
    observer: &mut dyn FoldObserver<'m>,
) {
    let mut seen: BTreeSet<u32> = BTreeSet::new();
    let by_none = Shared::copied(&[]);
    for policy in view.policies() {
        if !seen.insert(policy) {
            continue;
        }
        for (i, rule) in model.policies[policy as usize].blocks[0]
            .rules
            .iter()
            .enumerate()
        {
            let rule_ref = RuleRef::new(policy, 0, i);
            let event = match effective.get(rule.key.as_str()) {
                Some(e) if e.policy == policy => RuleEvent::Added,
                Some(e) if e.origins().contains(&policy) => RuleEvent::Merged { by: e.policy },
                Some(e) => RuleEvent::Superseded {
                    by: e.origins().into(),
                },
                None => RuleEvent::Superseded {
                    by: by_none.clone(),
                },
            };
            observer.rule(rule_ref, event);
        }
    }
}

impl KgatewayEvaluator<'_> {
    /// The scope facts lint reports for one path: each note with the policy at the scope
    /// that decides it.
    pub(super) fn scope_notes(&self, levels: &[PathLevel<'_>]) -> Vec<(ScopeNote, u32)> {
        let scopes = self.scopes(levels);
        let keys: BTreeSet<&String> = scopes.iter().flat_map(|s| s.values.keys()).collect();
        let mut notes = Vec::new();
        for key in keys {
            let [route, listener, gateway] = scopes.each_ref().map(|s| s.values.get(key));
            for note in combine_scopes(self.table_key(key), route, listener, gateway).notes {
                let scope = match &note {
                    ScopeNote::DisablesRouteProviders { scope, .. } => *scope,
                    ScopeNote::HeaderSetWins { winner, .. } => *winner,
                };
                let at = match scope {
                    Scope::Route => route,
                    Scope::Listener => listener,
                    Scope::Gateway => gateway,
                };
                if let Some(policy) = at.and_then(|c| c.origins.first()) {
                    notes.push((note, *policy));
                }
            }
        }
        notes
    }

    /// The model.
    pub(super) fn model(&self) -> &Model {
        self.model
    }

    /// The topology.
    pub(super) fn topology(&self) -> &Topology {
        self.topology
    }
}

/// An ancestor reference to a Gateway.
pub(super) fn ancestor(model: &Model, gateway: u32, section: Option<String>) -> AncestorRef {
    let g = &model.gateways[gateway as usize];
    AncestorRef {
        group: crate::model::gateway::GATEWAY_GROUP,
        kind: "Gateway",
        namespace: g.namespace.clone(),
        name: g.name.clone(),
        section_name: section,
    }
}
