//! Policies, independent of the product that defines them.
//!
//! A *policy family* (Kuadrant today; kgateway and Envoy Gateway next, see docs/families.md) turns its
//! objects into the generic [`Policy`]: a target, and ordered [`Block`]s of keyed [`Rule`]s, each
//! block with the merge [`Strategy`] that governs it. The engine only sees this shape, so a new
//! family is a new decoder, not a change to the engine.

pub mod decode;
pub mod evaluator;
pub mod gate;
pub mod options;
pub mod outcomes;
pub mod registry;
pub mod request;

pub use crate::engine::evaluator::FamilyEvaluation;
pub use crate::engine::owned;
pub use crate::kinds::gep::{GepStrategy, NamedStrategy};
pub use crate::kinds::{
    Block, BlockKind, Constraint, LabelOperator, LabelRequirement, Level, Policy, PolicyKind, Rule,
    Strategy, TargetRef, TargetSelector, UnsetEntry, locator_name,
};
pub use crate::kinds::{FamilyKinds, Registry, diags, expressions};
pub use crate::topology::family::FamilyHierarchy;
use crate::yaml::Node;
pub use evaluator::{
    AncestorRef, AncestorStatus, Attachment, Condition, ConflictNote, Evaluator, ExplainedMerge,
    ExplainedPolicy, FamilyExplanation, MergeChange, PathLevel, PathView, PolicyConditions, Via,
};

/// A product's policies: how its objects decode into [`Policy`] values ([`FamilyKinds`], the
/// half the model holds), how they attach to the hierarchy ([`FamilyHierarchy`], the half the
/// topology reads), how they are evaluated ([`FamilyEvaluation`], the engine's half) and what
/// the reports and checks ask of it besides (this trait).
pub trait PolicyFamily: FamilyEvaluation {
    /// Renders rules back into the kind's spec shape (the `spec` a CEL constraint sees).
    fn spec_shape(&self, kind: &PolicyKind, rules: &[(&str, &Node)]) -> serde_json::Value;
    /// The strategies `policy` merges by, in the family's words and GEP-713's (`status -o
    /// json`'s `strategies`). The default reads a defaults/overrides family's blocks; a family
    /// whose blocks are one `spec` says what its merge is.
    fn strategies(&self, policy: &Policy) -> Vec<NamedStrategy> {
        (policy.blocks.iter())
            .map(|b| NamedStrategy::of_block(b.kind, b.strategy))
            .collect()
    }
    /// Whether the family reports a policy its status calls effective but whose rules are
    /// effective nowhere with a code of its own (agentgateway), so that lint's generic
    /// `reported-but-ineffective` leaves its policies alone.
    fn reports_ineffective(&self) -> bool {
        false
    }
    /// The `controllerName`s of the GatewayClasses whose Gateways the controller of `kind`
    /// programs by default; empty when dopol does not know them (a declared kind), which means
    /// any. Lint's `class-not-family-controller` reads it.
    fn controllers(&self, _kind: &PolicyKind) -> &'static [&'static str] {
        &[]
    }
    /// Whether `conditions`, as the family's controller writes them, already say that some rule
    /// of the policy takes no effect (Kuadrant's "partially enforced"), so that lint's generic
    /// `rule-effective-nowhere` does not repeat it.
    fn status_admits_loss(&self, _conditions: &PolicyConditions) -> bool {
        false
    }
    /// What being ordered after another policy by name means, for messages (Kuadrant: the
    /// later one counts as newer).
    fn ordered_after_by_name(&self) -> &'static str {
        "counts as newer"
    }
    /// What its data plane does differently in a routing situation `request` notes, if anything.
    fn routing_caveat(&self, _caveat: request::RoutingCaveat) -> Option<&'static str> {
        None
    }
    /// The codes only this family reports, declared in its folder (`diags.rs`); the catalogue
    /// (`cli::catalogue`) collects them.
    fn codes(&self) -> &'static [crate::diag::Code] {
        &[]
    }
    /// Whether each rule of `kind`'s effective policy on the matched path applies to a request
    /// (`dopol request`). `path` holds the effective policy of every kind on that path (a
    /// RateLimitPolicy's `auth.*` counters depend on what the AuthPolicy exports). Families
    /// without request-time conditions keep the default: every rule applies.
    fn request_verdicts(
        &self,
        kind: &request::KindRules<'_>,
        _path: &[request::KindRules<'_>],
        _context: &request::RequestContext<'_>,
    ) -> request::KindVerdicts {
        request::KindVerdicts::unconditional(kind)
    }
    /// Whether rule `key` of `kind` gives `capability` (`dopol test`'s family-neutral checks,
    /// such as "has authentication"). The default: the family cannot say.
    fn provides(
        &self,
        _kind: &PolicyKind,
        _key: &str,
        _value: &Node,
        _capability: gate::Capability,
    ) -> gate::Provides {
        gate::Provides::CannotSay
    }
    /// Whether rule `key` of `kind` changing from `old` to `new` (`None`: gone from the path)
    /// weakens the path (`dopol test --against`). The default: the family cannot say.
    fn weakened(
        &self,
        _kind: &PolicyKind,
        key: &str,
        _old: &Node,
        new: Option<&Node>,
    ) -> gate::Strength {
        gate::cannot_rank(key, new)
    }
}
