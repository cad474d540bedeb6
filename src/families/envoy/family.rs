//! The Envoy Gateway family as dopol sees it: its kinds, each with an [`EnvoyKindSpec`], and
//! the decoding and evaluation every kind shares. The built-in kinds (docs/families.md §3) and kinds a
//! families file declares with `model: envoy-gateway` (§4) are the same type.

use super::evaluate::EnvoyEvaluator;
use super::spec::{BUILTIN_KINDS, EnvoyKindSpec, builtin_specs};
use crate::diag::Diagnostic;
use crate::load::Object;
use crate::load::fields::Fields;
use crate::model::Model;
use crate::policy::FamilyEvaluation;
use crate::policy::FamilyHierarchy;
use crate::policy::{
    Evaluator, FamilyKinds, GepStrategy, NamedStrategy, Policy, PolicyFamily, PolicyKind,
};
use crate::topology::Topology;
use crate::yaml::Node;
use std::sync::Arc;

/// Envoy Gateway policy kinds, each with its semantics.
#[derive(Clone)]
pub struct EnvoyGateway {
    kinds: &'static [PolicyKind],
    /// Parallel to `kinds`.
    specs: Arc<[EnvoyKindSpec]>,
    /// The GEP-713 strategy a families file declared the kind by (None runs on this model).
    declared_strategy: Option<GepStrategy>,
}

impl std::fmt::Debug for EnvoyGateway {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.kinds.iter().map(|k| k.kind))
            .finish()
    }
}

impl EnvoyGateway {
    /// BackendTrafficPolicy, ClientTrafficPolicy, SecurityPolicy, EnvoyExtensionPolicy.
    pub fn builtin() -> EnvoyGateway {
        EnvoyGateway {
            kinds: &BUILTIN_KINDS,
            specs: builtin_specs().into(),
            declared_strategy: None,
        }
    }

    /// One declared kind with the Envoy Gateway model (docs/families.md §4.3).
    pub fn declared(kind: &'static PolicyKind, spec: EnvoyKindSpec) -> EnvoyGateway {
        EnvoyGateway {
            kinds: std::slice::from_ref(kind),
            specs: vec![spec].into(),
            declared_strategy: None,
        }
    }

    /// The kind as declared by a GEP-713 strategy, which status names instead of the model's.
    pub fn by_strategy(self, strategy: Option<GepStrategy>) -> EnvoyGateway {
        EnvoyGateway {
            declared_strategy: strategy,
            ..self
        }
    }

    fn spec(&self, kind: &PolicyKind) -> Option<&EnvoyKindSpec> {
        let index = self.kinds.iter().position(|k| std::ptr::eq(k, kind))?;
        self.specs.get(index)
    }
}

impl FamilyKinds for EnvoyGateway {
    fn name(&self) -> &'static str {
        "envoy-gateway"
    }

    fn kinds(&self) -> &'static [PolicyKind] {
        self.kinds
    }

    fn decode(
        &self,
        kind: &'static PolicyKind,
        object: &Object,
        fields: &mut Fields,
    ) -> Option<Policy> {
        super::decode::decode_policy(kind, self.spec(kind)?, object, fields)
    }

    fn positional_rule_names(&self) -> bool {
        false
    }
}

impl FamilyHierarchy for EnvoyGateway {
    /// ClientTrafficPolicy's `G#x` quirk ([`super::sets::quirks`]).
    fn gateway_section_reaches_set_listener(&self, kind: &PolicyKind) -> bool {
        (self.spec(kind)).is_some_and(|s| s.listener_style == super::ListenerStyle::Section)
    }

    fn route_kinds(&self) -> &'static [crate::model::gateway::RouteKind] {
        &crate::model::gateway::RouteKind::ALL
    }

    fn extra_attachments(
        &self,
        model: &Model,
    ) -> (
        Vec<crate::topology::family::Attachment>,
        Vec<crate::diag::Diagnostic>,
    ) {
        // ListenerSet targets (`S#L`, `S`) and CTP's `G#x` quirk.
        let owns = |p: &Policy| self.kinds.iter().any(|k| std::ptr::eq(k, p.kind));
        let quirky = |p: &Policy| self.gateway_section_reaches_set_listener(p.kind);
        (super::sets::attachments(model, owns, quirky), Vec::new())
    }
}

impl FamilyEvaluation for EnvoyGateway {
    fn attaches_once(&self) -> bool {
        // Every slot a policy holds counts (the path's winner is its most specific one).
        false
    }

    fn acts_on_listeners(&self, kind: &PolicyKind) -> bool {
        self.spec(kind).is_some_and(|s| s.acts_on_listeners)
    }

    fn evaluator<'m>(
        &self,
        model: &'m Model,
        topology: &'m Topology,
    ) -> (Box<dyn Evaluator<'m> + 'm>, Vec<Diagnostic>) {
        let mut evaluator = EnvoyEvaluator::new(model, topology, self.specs.clone(), self.kinds);
        evaluator.declared_strategy = self.declared_strategy;
        (Box::new(evaluator), Vec::new())
    }
}

impl PolicyFamily for EnvoyGateway {
    /// Envoy Gateway's default `controllerName` (a declared kind on this model: unknown).
    fn controllers(&self, kind: &PolicyKind) -> &'static [&'static str] {
        match kind.group == super::spec::GROUP {
            true => &["gateway.envoyproxy.io/gatewayclass-controller"],
            false => &[],
        }
    }

    /// A `Merged` condition (a `mergeType` merge) says other policies' values are in play.
    fn status_admits_loss(&self, conditions: &crate::policy::PolicyConditions) -> bool {
        conditions.all().any(|c| c.kind == "Merged")
    }

    fn strategies(&self, policy: &Policy) -> Vec<NamedStrategy> {
        if let Some(gep) = self.declared_strategy {
            return vec![NamedStrategy::of_spec(gep.keyword(), gep)];
        }
        let merge = (policy.spec.as_deref()).and_then(super::decode::read_merge_type);
        vec![super::merge::named_strategy(merge)]
    }

    fn provides(
        &self,
        kind: &PolicyKind,
        key: &str,
        value: &Node,
        capability: crate::policy::gate::Capability,
    ) -> crate::policy::gate::Provides {
        super::gate::provides(kind, key, value, capability)
    }

    fn weakened(
        &self,
        kind: &PolicyKind,
        key: &str,
        old: &Node,
        new: Option<&Node>,
    ) -> crate::policy::gate::Strength {
        super::gate::weakened(kind, key, old, new)
    }

    fn routing_caveat(
        &self,
        caveat: crate::policy::request::RoutingCaveat,
    ) -> Option<&'static str> {
        match caveat {
            crate::policy::request::RoutingCaveat::HostFallback => Some(
                "Envoy-based data planes group routes by virtual host and answer 404 here instead (envoyproxy/gateway#5500)",
            ),
        }
    }

    fn spec_shape(&self, _kind: &PolicyKind, rules: &[(&str, &Node)]) -> serde_json::Value {
        serde_json::Value::Object(
            rules
                .iter()
                .map(|(key, value)| (key.to_string(), value.to_json()))
                .collect(),
        )
    }

    fn ordered_after_by_name(&self) -> &'static str {
        "comes after: it is Conflicted where both target one element"
    }

    fn codes(&self) -> &'static [crate::diag::Code] {
        super::diags::CODES
    }
}
