//! The ListenerPolicy evaluator: what it reads of each policy (its `perPort` ports), the fold of
//! a path or a listener without routes (both from the Gateway and listener elements), and the
//! reports' hooks — status, `explain`, lint.

use super::fold::{Fold, Listener, Lists, fold};
use crate::diag::Diagnostic;
use crate::engine::fold::{FoldFailure, FoldObserver, Folded, RuleEvent, RuleRef};
use crate::engine::observed::Observed;
use crate::families::kgateway::Strategy;
use crate::model::Model;
use crate::policy::{
    Evaluator, ExplainedMerge, ExplainedPolicy, FamilyExplanation, MergeChange, PathLevel,
    PathView, PolicyConditions, PolicyKind,
};
use crate::topology::{Target, Topology};

/// The family's evaluation of one model.
pub struct LpEvaluator<'m> {
    pub(super) model: &'m Model,
    pub(super) topology: &'m Topology,
    pub(super) kind: &'static PolicyKind,
    /// Per policy of the kind: the ports of its `perPort` entries.
    ports: Vec<Option<Vec<i64>>>,
}

impl<'m> LpEvaluator<'m> {
    /// Reads each ListenerPolicy.
    pub fn new(
        model: &'m Model,
        topology: &'m Topology,
        kind: &'static PolicyKind,
    ) -> LpEvaluator<'m> {
        let ports = (model.policies.iter())
            .map(|p| {
                std::ptr::eq(p.kind, kind).then(|| {
                    p.spec
                        .as_deref()
                        .map(super::keys::ports)
                        .unwrap_or_default()
                })
            })
            .collect();
        LpEvaluator {
            model,
            topology,
            kind,
            ports,
        }
    }

    /// Whether `policy` is a ListenerPolicy.
    pub(super) fn owns(&self, policy: u32) -> bool {
        self.ports[policy as usize].is_some()
    }

    /// What the fold needs of listener `l` of Gateway `g`.
    pub(super) fn listener(&self, g: u32, l: u32) -> Listener {
        let listener = &self.model.gateways[g as usize].listeners[l as usize];
        Listener {
            port: listener.port,
            https: listener.protocol == "HTTPS",
        }
    }

    /// The fold of listener `(g, l)` with these policy lists.
    pub(super) fn fold_listener(&self, g: u32, l: u32, lists: Lists<'_>) -> Fold<'m> {
        let ports = |p: u32| self.ports[p as usize].as_deref().unwrap_or_default();
        fold(self.model, self.listener(g, l), lists, &ports)
    }

    /// The listener of a view and its two lists (a path's other elements take no ListenerPolicy).
    pub(super) fn split<'v>(levels: &'v [PathLevel<'v>]) -> Option<(u32, u32, Lists<'v>)> {
        let mut whole: &[u32] = &[];
        for level in levels {
            match level.target {
                Target::Gateway(_) => whole = level.policies,
                Target::Listener(g, l) => {
                    let section = level.policies;
                    return Some((g, l, Lists { whole, section }));
                }
                _ => {}
            }
        }
        None
    }
}

impl LpEvaluator<'_> {
    /// One step per policy in merge order: what each of its rules became on this listener.
    fn steps(&self, policies: &[ExplainedPolicy], folded: Fold<'_>) -> Vec<ExplainedMerge> {
        let mut steps = Vec::new();
        for explained in policies {
            let policy = explained.policy;
            let rules = &self.model.policies[policy as usize].blocks[0].rules;
            let mut changes = Vec::new();
            let mut unread = Vec::new();
            for (rule, event) in folded.events.range(RuleRef::new(policy, 0, 0)..) {
                if rule.policy != policy {
                    break;
                }
                let key = rules[rule.rule()].key.to_string();
                let action = match event {
                    RuleEvent::Added => "added",
                    RuleEvent::Merged { .. } => "merged",
                    RuleEvent::NotApplied { .. } => {
                        unread.push(key);
                        continue;
                    }
                    _ => "superseded",
                };
                let by = event.by().to_vec();
                changes.push(MergeChange {
                    key,
                    action,
                    source: policy,
                    by,
                });
            }
            let summary = match unread.is_empty() {
                true if changes.len() == 1 => "1 key".to_string(),
                true => format!("{} keys", changes.len()),
                false => format!("not read here: {}", unread.join(", ")),
            };
            steps.push(ExplainedMerge {
                policy: Some(policy),
                subject: String::new(),
                scope: explained.level,
                strategy: Strategy::AugmentedShallow.as_str(),
                gep: Strategy::AugmentedShallow.gep(),
                summary,
                skipped: None,
                changes,
            });
        }
        steps
    }
}

impl<'m> Evaluator<'m> for LpEvaluator<'m> {
    fn shares_folds(&self) -> bool {
        // The result depends on the listener's port and protocol, not only on the lists.
        false
    }

    fn fold(&self, view: &PathView<'_>, observer: &mut dyn FoldObserver<'m>) -> Folded<'m> {
        let Some((g, l, lists)) = Self::split(view.levels) else {
            return Folded::default();
        };
        let folded = self.fold_listener(g, l, lists);
        for (rule, event) in folded.events {
            observer.rule(rule, event);
        }
        Folded {
            effective: folded.effective,
            failures: thin_vec::ThinVec::new(),
        }
    }

    fn fold_warning(&self, path_id: &str, failure: &FoldFailure) -> Diagnostic {
        // ListenerPolicy folds record no failures (no constraint is evaluated); kept total.
        Diagnostic::from(crate::families::kgateway::diags::RouteReplaced {
            path: path_id,
            reason: &failure.reason,
        })
    }

    fn conditions(&self, observed: &Observed<'_, 'm>, policy: u32) -> PolicyConditions {
        super::status::conditions(self, observed, policy)
    }

    fn explain(&self, view: &PathView<'_>) -> Option<FamilyExplanation> {
        let (g, l, lists) = Self::split(view.levels)?;
        let https = self.listener(g, l).https;
        let mut policies = Vec::new();
        for (target, list, level, why) in [
            (
                Target::Listener(g, l),
                lists.section,
                "listener",
                "sectionName: this listener",
            ),
            (
                Target::Gateway(g),
                lists.whole,
                "Gateway",
                "the whole Gateway",
            ),
        ] {
            policies.extend(list.iter().map(|&policy| ExplainedPolicy {
                policy,
                target,
                level,
                why: why.to_string(),
            }));
        }
        let order = if https {
            "in merge order: this HTTPS listener's policies, then the whole Gateway's (listener keys: the Gateway's only); a port entry replaces default"
        } else {
            "in merge order: the whole Gateway's policies (sectionName policies are not read here); a port entry replaces default"
        };
        let steps = self.steps(&policies, self.fold_listener(g, l, lists));
        Some(FamilyExplanation {
            order,
            policies,
            steps,
        })
    }

    fn lint(&self, _observed: &Observed<'_, 'm>) -> Vec<Diagnostic> {
        super::checks::check(self)
    }
}
