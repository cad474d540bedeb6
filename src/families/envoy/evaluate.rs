//! Envoy Gateway's evaluation of one path (docs/families.md §3.3–3.4): the most specific slot holder
//! wins atomically; with `mergeType` on a route or rule slot it is merged into its parent
//! (the listener's, else the Gateway's holder), and each rule key says who contributed.

use super::diags::FoldFailed;
use super::merge::{MergeType, merge};
use super::slots::{Decision, Holders, Slot};
use super::spec::EnvoyKindSpec;
use crate::diag::Diagnostic;
use crate::engine::fold::{
    Effective, EffectiveRule, FoldFailure, FoldObserver, Folded, Merged, RuleEvent, RuleRef,
};
use crate::engine::observed::Observed;
use crate::model::Model;
use crate::policy::{Evaluator, PathView, PolicyConditions, PolicyKind};
use crate::topology::{NO_CHAIN, Target, Topology};
use crate::yaml::Node;
use crate::yaml::Shared;
use std::collections::BTreeSet;
use std::sync::{Arc, OnceLock};

/// What the evaluator keeps per policy of the family.
#[derive(Clone, Debug)]
pub(super) struct Info<'m> {
    /// Index into the family's specs.
    pub spec: usize,
    /// `spec.mergeType`.
    pub merge: Option<MergeType>,
    /// The spec as the API server stores it (nulls pruned): what a merge combines.
    pub node: &'m Node,
}

/// A route policy merged into a parent on one path (§3.4), for status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct MergeRecord {
    /// The path.
    pub path: u32,
    /// The route or rule policy.
    pub winner: u32,
    /// Its slot (the route or the rule).
    pub slot: Slot,
    /// The parent.
    pub parent: u32,
    /// The parent's slot.
    pub parent_slot: Slot,
}

/// The family's evaluation of one model.
pub struct EnvoyEvaluator<'m> {
    pub(super) model: &'m Model,
    pub(super) topology: &'m Topology,
    pub(super) specs: Arc<[EnvoyKindSpec]>,
    pub(super) kinds: &'static [PolicyKind],
    info: Vec<Option<Info<'m>>>,
    merges: OnceLock<Vec<MergeRecord>>,
    /// The GEP-713 strategy a families file declared the kind by, which `explain` names.
    pub(super) declared_strategy: Option<crate::policy::GepStrategy>,
}

impl<'m> EnvoyEvaluator<'m> {
    /// Notes each policy's kind spec and `mergeType`.
    pub fn new(
        model: &'m Model,
        topology: &'m Topology,
        specs: Arc<[EnvoyKindSpec]>,
        kinds: &'static [PolicyKind],
    ) -> EnvoyEvaluator<'m> {
        let info = model
            .policies
            .iter()
            .map(|p| {
                let spec = kinds.iter().position(|k| std::ptr::eq(k, p.kind))?;
                let node = p.spec.as_ref()?;
                Some(Info {
                    spec,
                    merge: super::decode::read_merge_type(node),
                    node,
                })
            })
            .collect();
        EnvoyEvaluator {
            model,
            topology,
            specs,
            kinds,
            info,
            merges: OnceLock::new(),
            declared_strategy: None,
        }
    }

    /// The spec of `policy`'s kind (a policy of this family).
    pub(super) fn spec(&self, policy: u32) -> &EnvoyKindSpec {
        let index = self.info[policy as usize].as_ref().map_or(0, |i| i.spec);
        &self.specs[index]
    }

    /// Whether `policy` belongs to this family.
    pub(super) fn owns(&self, policy: u32) -> bool {
        self.info[policy as usize].is_some()
    }

    /// `policy`'s `mergeType`.
    pub(super) fn merge_type(&self, policy: u32) -> Option<MergeType> {
        self.info[policy as usize].as_ref().and_then(|i| i.merge)
    }

    /// The registry index of `policy`'s kind.
    pub(super) fn kind_index(&self, policy: u32) -> usize {
        self.model
            .registry
            .kind_index(self.model.policies[policy as usize].kind)
    }

    /// The slot holders of the path with `elements` for `kind`, most specific first.
    pub(super) fn holders(&self, elements: &[Target], kind: usize) -> Holders {
        let targets = &self.topology.targets;
        let levels: Vec<(Target, &[u32])> = (elements.iter())
            .map(|&t| (t, targets.on(t, kind)))
            .collect();
        self.holders_of(kind, &levels)
    }

    /// The slot holders of a path's `levels` (least specific first), most specific first,
    /// without a whole-ListenerSet holder the controller refuses on the path's listener (a
    /// ClientTrafficPolicy on a shared plain-HTTP port, field-2026 §2.2: it neither applies
    /// there nor claims it).
    pub(super) fn holders_of(&self, kind: usize, levels: &[(Target, &[u32])]) -> Holders {
        let mut holders = Holders::of(self.model, self.topology, kind, levels);
        if let Some(listener) = (levels.iter()).find(|(t, _)| matches!(t, Target::Listener(..))) {
            let listener = listener.0;
            holders.slots.retain(|&(slot, policy)| {
                !matches!(slot, Slot::Set(_))
                    || super::ports::refused_set(self, policy, listener).is_none()
            });
        }
        holders
    }

    /// The winner (and merge parent) of a path.
    pub(super) fn decide(&self, holders: &Holders) -> Option<Decision> {
        Decision::of(holders, |p| self.merge_type(p))
    }

    /// The effective rules of a path with `holders` (§3.3–3.4): the decision's, then each
    /// indexed field resolved as Envoy Gateway's precedence index does.
    pub(super) fn effective(&self, holders: &Holders, decision: Option<Decision>) -> Effective<'m> {
        let mut effective = self.decided(decision);
        if let Some(decision) = decision {
            for field in &self.spec(decision.winner).indexed_fields {
                self.resolve_indexed(holders, field, &mut effective);
            }
        }
        effective
    }

    /// Sets `field` of `effective` from the holder Envoy Gateway's precedence index
    /// (`policyindex.go`) takes it from (§3.4, BTP `routingType`): a route-rule or route holder
    /// (the most specific) decides when it sets the field or has no `mergeType` — its value, or
    /// none; otherwise the listener holder when it sets the field, else the Gateway holder when
    /// it does. The field is then a whole rule of that policy.
    fn resolve_indexed(&self, holders: &Holders, field: &str, effective: &mut Effective<'m>) {
        let model: &'m Model = self.model;
        let sets = |p: u32| model.policies[p as usize].blocks[0].rule_index(field);
        let is_route = |t: &Slot| t.is_route();
        let route_holder = holders.slots.iter().find(|(t, _)| is_route(t));
        let source = match route_holder {
            Some(&(_, p)) if sets(p).is_some() || self.merge_type(p).is_none() => {
                sets(p).map(|i| (p, i))
            }
            _ => holders
                .slots
                .iter()
                .filter(|(t, _)| !is_route(t))
                .find_map(|&(_, p)| sets(p).map(|i| (p, i))),
        };
        match source {
            Some((policy, i)) => {
                let rule = &model.policies[policy as usize].blocks[0].rules[i];
                if effective
                    .get(field)
                    .is_some_and(|e| e.rule.policy == policy && e.merged.is_none())
                {
                    return;
                }
                effective.insert(
                    rule.key.as_str(),
                    EffectiveRule::whole(RuleRef::new(policy, 0, i)),
                );
            }
            None => {
                effective.remove(field);
            }
        }
    }

    /// The effective rules a decision gives: the winner's whole, or merged into its parent.
    pub(super) fn decided(&self, decision: Option<Decision>) -> Effective<'m> {
        let Some(decision) = decision else {
            return Effective::new();
        };
        let model: &'m Model = self.model;
        let rules_of = |p: u32| &model.policies[p as usize].blocks[0].rules;
        let rule_ref = |policy: u32, rule: usize| RuleRef::new(policy, 0, rule);
        let winner = decision.winner;
        let Some((parent, _, merge_type)) = decision.parent else {
            return rules_of(winner)
                .iter()
                .enumerate()
                .map(|(i, r)| (r.key.as_str(), EffectiveRule::whole(rule_ref(winner, i))))
                .collect();
        };
        let (Some(w), Some(p)) = (
            self.info[winner as usize].as_ref(),
            self.info[parent as usize].as_ref(),
        ) else {
            return Effective::new();
        };
        let spec = &self.specs[w.spec];
        let merged = merge_with_fields(spec, merge_type, p.node, w.node);
        let index = |policy: u32, key: &str| {
            let block = &model.policies[policy as usize].blocks[0];
            block.rule_index(key)
        };
        let mut effective = Effective::new();
        for rule in spec.rules.cut(&merged) {
            let (source, origins) = match (index(winner, &rule.key), index(parent, &rule.key)) {
                (Some(i), None) => (rule_ref(winner, i), vec![winner]),
                (None, Some(i)) => (rule_ref(parent, i), vec![parent]),
                (Some(i), Some(_)) => {
                    let own = &rules_of(winner)[i].value;
                    let origins = if own.same_value(&rule.value) {
                        vec![winner]
                    } else {
                        vec![winner, parent]
                    };
                    (rule_ref(winner, i), origins)
                }
                (None, None) => continue,
            };
            let own = &rules_of(source.policy)[source.rule()];
            let whole = origins.len() == 1 && own.value.same_value(&rule.value);
            let merged = (!whole).then(|| {
                Arc::new(Merged {
                    value: rule.value.clone(),
                    origins,
                })
            });
            effective.insert(
                own.key.as_str(),
                EffectiveRule {
                    rule: source,
                    merged,
                },
            );
        }
        effective
    }

    /// Every merge of a route policy into a parent, over every path and kind (§3.5).
    pub(super) fn merges(&self) -> &[MergeRecord] {
        self.merges.get_or_init(|| {
            let kinds: Vec<usize> = self
                .kinds
                .iter()
                .map(|k| self.model.registry.kind_index(k))
                .collect();
            let mut records = Vec::new();
            for (index, path) in self.topology.paths.iter().enumerate() {
                if path.chain != NO_CHAIN {
                    continue;
                }
                let elements = self.topology.elements(path);
                for &kind in &kinds {
                    let holders = self.holders(&elements, kind);
                    let Some(decision) = self.decide(&holders) else {
                        continue;
                    };
                    // An Invalid route policy merges into nothing (§3.7).
                    let invalid = super::tcp::invalid_decision(self, index as u32, &decision);
                    if let Some((parent, parent_slot, _)) = decision.parent.filter(|_| !invalid) {
                        records.push(MergeRecord {
                            path: index as u32,
                            winner: decision.winner,
                            slot: decision.slot,
                            parent,
                            parent_slot,
                        });
                    }
                }
            }
            records
        })
    }
}

impl EnvoyEvaluator<'_> {
    /// The slot holders of a path's view (its policies in the view's order).
    pub(super) fn view_holders(&self, view: &PathView<'_>) -> Holders {
        let Some(&first) = view.policies().first() else {
            return Holders::default();
        };
        let levels: Vec<(Target, &[u32])> = (view.levels.iter())
            .map(|l| (l.target, l.policies))
            .collect();
        self.holders_of(self.kind_index(first), &levels)
    }
}

impl<'m> Evaluator<'m> for EnvoyEvaluator<'m> {
    fn fold(&self, view: &PathView<'_>, observer: &mut dyn FoldObserver<'m>) -> Folded<'m> {
        let holders = self.view_holders(view);
        let decision = self.decide(&holders);
        // Whether the winner is Invalid on a TCPRoute, found once for the fold and its outcomes.
        let invalid = decision.is_some_and(|d| super::tcp::invalid_decision(self, view.path, &d));
        // A listener winner the controller refuses on a shared plain-HTTP port: the listener
        // gets nothing (its claim still keeps the Gateway's policy out).
        let refused = decision.and_then(|d| super::ports::refused(self, d.winner, d.slot));
        let effective = match refused {
            Some(_) => Effective::new(),
            None => super::tcp::applied(
                self,
                view.path,
                &holders,
                (decision, invalid),
                self.effective(&holders, decision),
            ),
        };
        if let Some(decision) = decision {
            let not_applied = |policy: u32, key: &str| match &refused {
                Some(message) if policy == decision.winner => {
                    Some(crate::name::Name::new(&format!("Invalid: {message}")))
                }
                _ => super::tcp::not_applied(self, view.path, (&decision, invalid), policy, key),
            };
            let outcome = Outcome {
                winner: decision.winner,
                effective: &effective,
                not_applied: &not_applied,
            };
            report_outcomes(self.model, &holders, &outcome, observer);
        }
        Folded {
            effective,
            failures: thin_vec::ThinVec::new(),
        }
    }

    fn fold_warning(&self, path_id: &str, failure: &FoldFailure) -> Diagnostic {
        // Envoy Gateway folds record no failures; kept total for the trait.
        Diagnostic::from(FoldFailed {
            path: path_id,
            reason: &failure.reason,
        })
    }

    fn conditions(&self, observed: &Observed<'_, 'm>, policy: u32) -> PolicyConditions {
        super::status::conditions(self, observed, policy)
    }

    fn explain(&self, view: &PathView<'_>) -> Option<crate::policy::FamilyExplanation> {
        Some(super::explain::explain(self, view))
    }

    fn lint(&self, observed: &Observed<'_, 'm>) -> Vec<Diagnostic> {
        super::checks::check(self, observed)
    }
}

/// `route` merged into `parent` with `merge_type`: the generic merge, then each field the kind
/// merges its own way where both set it (§3.4).
pub(super) fn merge_with_fields(
    spec: &EnvoyKindSpec,
    merge_type: MergeType,
    parent: &Node,
    route: &Node,
) -> Node {
    let merged = merge(merge_type, parent, route, &spec.list_merge_keys);
    let Some(entries) = merged.as_map() else {
        return merged;
    };
    let mut entries = entries.to_vec();
    for (field, how) in &spec.field_merges {
        let (Some(p), Some(r)) = (parent.get(field), route.get(field)) else {
            continue;
        };
        let (Some(value), Some(entry)) = (
            how.merge(merge_type, p, r),
            entries.iter_mut().find(|e| *e.key.text == **field),
        ) else {
            continue;
        };
        entry.value = value;
    }
    Node {
        span: merged.span,
        value: crate::yaml::Value::Map(Shared::from(entries)),
    }
}

/// What a path's fold gave, for [`report_outcomes`].
struct Outcome<'a, 'm> {
    /// The most specific slot holder.
    winner: u32,
    /// The effective policy.
    effective: &'a Effective<'m>,
    /// Why a policy's rule is not applied on the path, when it is not for a reason of the route
    /// (Envoy Gateway on a TCPRoute, §3.7).
    not_applied: &'a dyn Fn(u32, &str) -> Option<crate::name::Name>,
}

/// Each rule of each slot holder on the path: effective, merged into the winner's value,
/// superseded (by the rule's origins, or by the winner when the key is absent), or not applied
/// (§3.7).
fn report_outcomes<'m>(
    model: &'m Model,
    holders: &Holders,
    outcome: &Outcome<'_, 'm>,
    observer: &mut dyn FoldObserver<'m>,
) {
    let policies: BTreeSet<u32> = holders.slots.iter().map(|&(_, p)| p).collect();
    let by_winner = Shared::copied(&[outcome.winner]);
    for policy in policies {
        for (i, rule) in model.policies[policy as usize].blocks[0]
            .rules
            .iter()
            .enumerate()
        {
            let key = rule.key.as_str();
            let event = match outcome.effective.get(key) {
                Some(e) if e.policy == policy => RuleEvent::Added,
                Some(e) if e.origins().contains(&policy) => RuleEvent::Merged { by: e.policy },
                Some(e) => RuleEvent::Superseded {
                    by: e.origins().into(),
                },
                None => match (outcome.not_applied)(policy, key) {
                    Some(reason) => RuleEvent::NotApplied { reason },
                    None => RuleEvent::Superseded {
                        by: by_winner.clone(),
                    },
                },
            };
            let rule = RuleRef::new(policy, 0, i);
            observer.rule(rule, event);
        }
    }
}
