//! What a family decides once a model is loaded (the engine's half of the family contract): how
//! the policies on one path merge, which conditions each policy gets, and which checks are its
//! own.
//!
//! The engine knows no family: for each path it hands the family's [`Evaluator`] the policies
//! attached to every element of the path ([`PathView`], least specific element first, each
//! element's list in the order the family's [`crate::topology::family::FamilyHierarchy::order`]
//! gave it) and gets an effective policy back. It reads a family through [`FamilyEvaluation`]
//! ([`Registry::evaluation_at`]), never through `crate::policy::PolicyFamily`, which extends it
//! and lives above the engine (`crate::policy::evaluator` re-exports this module). Families differ on every one of these axes (one fold over four levels
//! for Kuadrant; three Envoy scopes, delegation chains and per-field deep merges for kgateway),
//! so none of it is written into the engine.

use crate::diag::Diagnostic;
use crate::engine::Engine;
use crate::engine::fold::{FoldFailure, FoldObserver, Folded};
use crate::engine::observed::Observed;
use crate::kinds::{PolicyKind, Registry};
use crate::model::Model;
use crate::topology::family::FamilyHierarchy;
use crate::topology::{Target, Topology};
use serde::Serialize;
use std::sync::Arc;

/// One element of a path with the policies of one kind attached to it, in the family's order.
#[derive(Clone, Copy, Debug)]
pub struct PathLevel<'a> {
    /// The element.
    pub target: Target,
    /// Its policies.
    pub policies: &'a [u32],
}

impl<'a> PathLevel<'a> {
    /// Views of owned `(element, policies)` levels, as `Engine::levels` returns them.
    pub fn borrow_all(levels: &'a [(Target, Vec<u32>)]) -> Vec<PathLevel<'a>> {
        levels
            .iter()
            .map(|(target, policies)| PathLevel {
                target: *target,
                policies,
            })
            .collect()
    }
}

/// What a family folds: one path's elements (least specific first) and their policies.
#[derive(Clone, Copy, Debug)]
pub struct PathView<'a> {
    /// Index into `Topology::paths` of a path with these lists (when the family shares folds,
    /// any of the paths whose elements carry the same lists).
    pub path: u32,
    /// The elements, least specific first, including those without policies.
    pub levels: &'a [PathLevel<'a>],
}

impl PathView<'_> {
    /// Every attached policy, least specific element first, in each element's order.
    pub fn policies(&self) -> Vec<u32> {
        self.levels
            .iter()
            .flat_map(|l| l.policies.iter().copied())
            .collect()
    }
}

/// A status condition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Condition {
    /// `Accepted`, `Enforced`, `Attached`, ...
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// `True` or `False`.
    pub status: &'static str,
    /// CamelCase reason.
    pub reason: &'static str,
    /// Human message.
    pub message: String,
}

impl Condition {
    /// A condition row (`Accepted`, `True`, `Valid`, `Policy accepted`).
    pub fn new(
        kind: &'static str,
        status: &'static str,
        reason: &'static str,
        message: impl Into<String>,
    ) -> Condition {
        Condition {
            kind,
            status,
            reason,
            message: message.into(),
        }
    }
}

/// The Gateway (and listener) a per-ancestor status is about.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AncestorRef {
    /// `gateway.networking.k8s.io` (a pseudo-ancestor's own group otherwise).
    pub group: &'static str,
    /// `Gateway` (empty for a controller's pseudo-ancestor, agentgateway's `StatusSummary`,
    /// which has no kind).
    #[serde(skip_serializing_if = "str::is_empty")]
    pub kind: &'static str,
    /// Namespace (empty for a pseudo-ancestor).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    /// Name.
    pub name: String,
    /// Listener.
    #[serde(rename = "sectionName", skip_serializing_if = "Option::is_none")]
    pub section_name: Option<String>,
}

/// The conditions a controller writes for one ancestor.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AncestorStatus {
    /// The ancestor.
    #[serde(rename = "ancestorRef")]
    pub ancestor_ref: AncestorRef,
    /// Its conditions.
    pub conditions: Vec<Condition>,
    /// The slots of this ancestor the policy lost to another (families that resolve same-target
    /// conflicts): not part of the controller's status, but what a reader needs to know.
    #[serde(rename = "conflictedBy", skip_serializing_if = "Vec::is_empty")]
    pub conflicted_by: Vec<ConflictNote>,
}

/// Who holds a target a policy also claimed, and why it came first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ConflictNote {
    /// The target (`HTTPRoute shop/cart`).
    pub target: String,
    /// The winner's locator.
    pub winner: String,
    /// Why it came first.
    pub why: String,
}

/// A policy's status as its controller writes it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PolicyConditions {
    /// Top-level conditions.
    pub conditions: Vec<Condition>,
    /// Per-ancestor conditions, for families whose controllers write them.
    pub ancestors: Option<Vec<AncestorStatus>>,
}

impl PolicyConditions {
    /// Every condition, the top-level ones first, then each ancestor's.
    pub fn all(&self) -> impl Iterator<Item = &Condition> {
        let ancestors = self.ancestors.iter().flatten();
        (self.conditions.iter()).chain(ancestors.flat_map(|a| &a.conditions))
    }
}

/// A family's own account of one path's fold, for `dopol explain` (families whose fold is not
/// the blocks-and-strategies fold give one).
#[derive(Clone, Debug, Default)]
pub struct FamilyExplanation {
    /// How the policy list is ordered, for the heading (`in merge order: ...`).
    pub order: &'static str,
    /// The policies in merge order.
    pub policies: Vec<ExplainedPolicy>,
    /// Every merge step, in order.
    pub steps: Vec<ExplainedMerge>,
}

/// A policy in a family's merge order.
#[derive(Clone, Debug)]
pub struct ExplainedPolicy {
    /// Index into `Model::policies`.
    pub policy: u32,
    /// The element it is attached to.
    pub target: Target,
    /// The level or scope it is merged in.
    pub level: &'static str,
    /// Why it sits here.
    pub why: String,
}

/// One merge step of a family's fold.
#[derive(Clone, Debug)]
pub struct ExplainedMerge {
    /// The incoming policy, or `None` for a step that combines levels.
    pub policy: Option<u32>,
    /// What the step combines, when not one policy (e.g. `HTTPRoute infra/parent`).
    pub subject: String,
    /// The scope or level (`route`, `listener`, `Gateway`).
    pub scope: &'static str,
    /// The strategy, in the family's words.
    pub strategy: &'static str,
    /// The strategy, in GEP-713's.
    pub gep: crate::kinds::gep::GepStrategy,
    /// What it did, in words.
    pub summary: String,
    /// Why it was skipped, when it was.
    pub skipped: Option<String>,
    /// The changes per key.
    pub changes: Vec<MergeChange>,
}

/// What one step did to one key.
#[derive(Clone, Debug)]
pub struct MergeChange {
    /// The rule key.
    pub key: String,
    /// `added`, `merged`, `replaced`, `superseded`.
    pub action: &'static str,
    /// The policy whose value the action is about.
    pub source: u32,
    /// The policies that decided it.
    pub by: Vec<u32>,
}

/// A family's evaluation of one model.
pub trait Evaluator<'m>: Sync {
    /// Whether two paths whose elements carry the same policy lists always fold the same, so
    /// that one fold can serve both.
    fn shares_folds(&self) -> bool {
        true
    }
    /// Diagnostics that need the whole engine (e.g. a scan of every path), shown by every
    /// command.
    fn engine_checks(&self, _engine: &Engine<'m>) -> Vec<Diagnostic> {
        Vec::new()
    }
    /// The effective policy of one path.
    fn fold(&self, view: &PathView<'_>, observer: &mut dyn FoldObserver<'m>) -> Folded<'m>;
    /// The warning for a failure recorded by a fold on the path `path_id`.
    fn fold_warning(&self, path_id: &str, failure: &FoldFailure) -> Diagnostic;
    /// The status of `policy`.
    fn conditions(&self, observed: &Observed<'_, 'm>, policy: u32) -> PolicyConditions;
    /// The family's own account of a path's fold, when it is not the blocks-and-strategies
    /// fold `explain` describes by default.
    fn explain(&self, _view: &PathView<'_>) -> Option<FamilyExplanation> {
        None
    }
    /// The family's own lint findings.
    fn lint(&self, _observed: &Observed<'_, 'm>) -> Vec<Diagnostic> {
        Vec::new()
    }
    /// The paths of the family's own hierarchy with their effective policies, for a family
    /// whose policies do not attach to the Gateway API hierarchy (`super::owned`).
    fn owned_paths(&self) -> Option<&super::owned::OwnedPaths> {
        None
    }
}

/// A family as the engine sees it.
pub trait FamilyEvaluation: FamilyHierarchy {
    /// Whether a policy that reaches one path through several of its attachments takes part
    /// once, at the most specific of them (`true`, the common rule), or once per attachment.
    fn attaches_once(&self) -> bool {
        true
    }
    /// Whether policies of `kind` configure the listeners they reach themselves, routes or
    /// not (Envoy Gateway's ClientTrafficPolicy): a listener no route is attached to then has
    /// an effective policy of that kind, folded over its Gateway and itself
    /// (`Engine::listener_folds`), which `effective` and `reach` show and `lint` counts.
    fn acts_on_listeners(&self, _kind: &PolicyKind) -> bool {
        false
    }
    /// Prepares the evaluation of its policies over one model: the merger, status and checks.
    fn evaluator<'m>(
        &self,
        model: &'m Model,
        topology: &'m Topology,
    ) -> (Box<dyn Evaluator<'m> + 'm>, Vec<Diagnostic>);
}

impl Registry {
    /// The family of the kind at `index`, as the engine sees it.
    pub fn evaluation_at(&self, index: usize) -> &dyn FamilyEvaluation {
        self.evaluation(self.family_index(index))
    }

    /// Every family as the engine sees it, in registration order.
    pub fn evaluations(&self) -> impl Iterator<Item = &dyn FamilyEvaluation> {
        (0..self.family_count()).map(|f| self.evaluation(f))
    }

    fn evaluation(&self, family: usize) -> &dyn FamilyEvaluation {
        self.face::<Arc<dyn FamilyEvaluation>>(family).as_ref()
    }
}
