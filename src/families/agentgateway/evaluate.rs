//! The agentgateway evaluator: what it reads of each policy (`strategy.inheritance`, the
//! `port` of Gateway targets), each path's ladder and fold, and the reports' hooks — status,
//! `explain`, lint.

use super::fold::{Fold, fold};
use super::ladder::{Step, ladder};
use crate::diag::Diagnostic;
use crate::engine::fold::{FoldFailure, FoldObserver, Folded};
use crate::engine::observed::Observed;
use crate::model::Model;
use crate::policy::{
    Evaluator, FamilyExplanation, GepStrategy, NamedStrategy, PathView, PolicyConditions,
};
use crate::topology::Topology;
use crate::yaml::Node;

/// What the evaluator reads of one policy of the family.
#[derive(Clone, Debug, Default)]
pub(super) struct Info {
    /// `strategy.inheritance: Override`.
    pub over: bool,
    /// The ports of a policy whose every Gateway target names a `port` (frontend only).
    pub ports: Option<Vec<i64>>,
}

/// `strategy.inheritance` (`over`: `Override`) by its name and GEP-713's: a more specific
/// policy's keys win (Patch defaults), unless a less specific one locks them (Patch overrides).
pub(super) fn inheritance(over: bool) -> NamedStrategy {
    let (strategy, gep) = match over {
        true => ("Override", GepStrategy::PatchOverrides),
        false => ("Default", GepStrategy::PatchDefaults),
    };
    NamedStrategy::of_spec(strategy, gep)
}

/// Whether a policy's spec has `strategy.inheritance: Override`.
pub(super) fn overrides(spec: &Node) -> bool {
    spec.get_path(&["strategy", "inheritance"])
        .and_then(Node::as_str)
        == Some("Override")
}

impl Info {
    /// What the evaluator reads of a policy's spec.
    fn of(spec: &Node) -> Info {
        let over = overrides(spec);
        let gateway_targets: Vec<&Node> = ["targetRefs", "targetSelectors"]
            .iter()
            .filter_map(|f| spec.get(f).and_then(Node::as_seq))
            .flatten()
            .filter(|t| t.get("kind").and_then(Node::as_str) == Some("Gateway"))
            .collect();
        let ports: Vec<i64> = gateway_targets
            .iter()
            .filter_map(|t| t.get("port").and_then(Node::as_i64))
            .collect();
        let every = !gateway_targets.is_empty() && ports.len() == gateway_targets.len();
        Info {
            over,
            ports: every.then_some(ports),
        }
    }
}

/// The family's evaluation of one model.
pub struct AgwEvaluator<'m> {
    pub(super) model: &'m Model,
    pub(super) topology: &'m Topology,
    info: Vec<Option<Info>>,
    /// Whether some policy targets a Gateway port: folds then depend on the listener's port.
    by_port: bool,
}

impl<'m> AgwEvaluator<'m> {
    /// Reads each policy of the family.
    pub fn new(model: &'m Model, topology: &'m Topology) -> AgwEvaluator<'m> {
        let info: Vec<Option<Info>> = model
            .policies
            .iter()
            .map(|p| {
                let ours = p.kind.family == "agentgateway";
                ours.then(|| p.spec.as_deref().map(Info::of).unwrap_or_default())
            })
            .collect();
        let by_port = info.iter().flatten().any(|i| i.ports.is_some());
        AgwEvaluator {
            model,
            topology,
            info,
            by_port,
        }
    }

    /// Whether `policy` belongs to the family.
    pub(super) fn owns(&self, policy: u32) -> bool {
        self.info[policy as usize].is_some()
    }

    /// Whether `policy` has `inheritance: Override`.
    pub(super) fn over(&self, policy: u32) -> bool {
        self.info[policy as usize].as_ref().is_some_and(|i| i.over)
    }

    /// The ladder of a path.
    pub(super) fn ladder(&self, view: &PathView<'_>) -> Vec<Step> {
        let ports = |p: u32| {
            self.info[p as usize]
                .as_ref()
                .and_then(|i| i.ports.as_deref())
        };
        let (model, topology) = (self.model, self.topology);
        let through_gateway =
            |policy: u32, target| super::leaks::through_gateway(model, topology, policy, target);
        ladder(self.model, view.levels, &ports, &through_gateway)
    }

    /// The fold of a path's ladder.
    pub(super) fn fold_steps(&self, steps: &[Step]) -> Fold<'m> {
        fold(self.model, steps, &|p| self.over(p))
    }
}

impl<'m> Evaluator<'m> for AgwEvaluator<'m> {
    fn shares_folds(&self) -> bool {
        !self.by_port
    }

    fn fold(&self, view: &PathView<'_>, observer: &mut dyn FoldObserver<'m>) -> Folded<'m> {
        let folded = self.fold_steps(&self.ladder(view));
        for (rule, event) in folded.events {
            observer.rule(rule, event);
        }
        Folded {
            effective: folded.effective,
            failures: thin_vec::ThinVec::new(),
        }
    }

    fn fold_warning(&self, path_id: &str, failure: &FoldFailure) -> Diagnostic {
        // agentgateway folds record no failures (no constraint is evaluated); kept total.
        Diagnostic::from(super::diags::FoldFailed {
            path: path_id,
            reason: &failure.reason,
        })
    }

    fn conditions(&self, observed: &Observed<'_, 'm>, policy: u32) -> PolicyConditions {
        super::status::conditions(self, observed, policy)
    }

    fn explain(&self, view: &PathView<'_>) -> Option<FamilyExplanation> {
        Some(super::explain::explain(self, view))
    }

    fn lint(&self, observed: &Observed<'_, 'm>) -> Vec<Diagnostic> {
        super::checks::check(self, observed)
    }
}
