//! The ListenerPolicy family as dopol sees it: the kind, how its objects decode into rules
//! (docs/families.md §2.9), and how they attach: `targetRefs` and `targetSelectors` naming
//! Gateways (+`sectionName`) in the policy's namespace, every attachment taking part, in
//! kgateway's order on one element (§2.3: weight, age, `group/kind/namespace/name`). The
//! HTTPListenerPolicy objects of the input are kept only to say they are not modelled.

use super::evaluate::LpEvaluator;
use crate::diag::Diagnostic;
use crate::families::kgateway::family::{
    FieldRules, PlainFields, TARGET_FIELDS, decode_policy, order,
};
use crate::load::fields::Fields;
use crate::load::{KindSpec, Object};
use crate::model::Model;
use crate::model::gateway::RouteKind;
use crate::policy::{
    Attachment, Evaluator, FamilyEvaluation, FamilyHierarchy, FamilyKinds, Policy, PolicyFamily,
    PolicyKind,
};
use crate::topology::Topology;
use crate::yaml::Node;

/// kgateway's ListenerPolicy.
#[derive(Clone, Copy, Debug, Default)]
pub struct ListenerPolicies;

static KINDS: [PolicyKind; 1] = [PolicyKind {
    family: "kgateway",
    group: crate::families::kgateway::family::GROUP,
    kind: "ListenerPolicy",
    versions: &["v1alpha1"],
    unserved_versions: &[],
    target_kinds: &["Gateway"],
    target_kind_message: "targetRefs may only reference Gateway resource",
}];

/// HTTPListenerPolicy, the kind ListenerPolicy replaces: read only to be reported.
pub const HTTP_LISTENER_POLICY: KindSpec = KindSpec {
    group: crate::families::kgateway::family::GROUP,
    kind: "HTTPListenerPolicy",
    cluster_scoped: false,
};

impl FamilyKinds for ListenerPolicies {
    fn name(&self) -> &'static str {
        "kgateway"
    }

    fn kinds(&self) -> &'static [PolicyKind] {
        &KINDS
    }

    fn object_kinds(&self) -> &'static [KindSpec] {
        std::slice::from_ref(&HTTP_LISTENER_POLICY)
    }

    fn decode(
        &self,
        kind: &'static PolicyKind,
        object: &Object,
        fields: &mut Fields,
    ) -> Option<Policy> {
        let cut = FieldRules::Plain(std::sync::Arc::new(super::keys::ListenerFields));
        let policy = decode_policy(kind, object, fields, &TARGET_FIELDS, &cut)?;
        // The evaluator reads the `perPort` ports from the spec: an entry replaces `default`
        // on its port even when it sets nothing.
        let spec = object.root.get("spec").map(|spec| Box::new(spec.clone()));
        Some(Policy { spec, ..policy })
    }

    fn positional_rule_names(&self) -> bool {
        false
    }
}

impl FamilyHierarchy for ListenerPolicies {
    /// Listener settings reach every route kind's paths through the listener.
    fn route_kinds(&self) -> &'static [RouteKind] {
        &RouteKind::ALL
    }

    fn route_link(&self) -> Option<&'static dyn crate::topology::links::RouteLink> {
        Some(&crate::families::kgateway::delegation::ROUTE_DELEGATION)
    }

    fn follows_delegation(&self) -> bool {
        true
    }

    fn order(&self, model: &Model, attachments: &mut Vec<Attachment>) -> Vec<(u32, u32)> {
        order(model, attachments)
    }
}

impl FamilyEvaluation for ListenerPolicies {
    fn attaches_once(&self) -> bool {
        // kgateway concatenates every attachment (docs/families.md §2.2); a policy targeting the
        // Gateway and one of its listeners takes part at both levels.
        false
    }

    fn acts_on_listeners(&self, _kind: &PolicyKind) -> bool {
        true
    }

    fn evaluator<'m>(
        &self,
        model: &'m Model,
        topology: &'m Topology,
    ) -> (Box<dyn Evaluator<'m> + 'm>, Vec<Diagnostic>) {
        (
            Box::new(LpEvaluator::new(model, topology, &KINDS[0])),
            Vec::new(),
        )
    }
}

impl PolicyFamily for ListenerPolicies {
    /// kgateway's AugmentedShallow, per field of `default`, `httpSettings` and each port.
    fn strategies(&self, _policy: &Policy) -> Vec<crate::policy::NamedStrategy> {
        vec![crate::families::kgateway::Strategy::AugmentedShallow.named()]
    }

    fn spec_shape(&self, _kind: &PolicyKind, rules: &[(&str, &Node)]) -> serde_json::Value {
        super::keys::ListenerFields.spec_shape(rules)
    }

    fn codes(&self) -> &'static [crate::diag::Code] {
        super::diags::CODES
    }

    fn ordered_after_by_name(&self) -> &'static str {
        "comes after: lower priority"
    }
}
