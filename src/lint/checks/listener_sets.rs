//! DPL2021 `gateway-listener-policy-skips-listenerset`: a policy on a Gateway's listener `G#L`
//! does not reach the listeners named `L` that the Gateway's ListenerSets add (Envoy Gateway
//! `gatewayPolicyTargetListeners`, kgateway `GatewaysForEnvoyTransformationFunc`: a ListenerSet's
//! listener is its own target). Users who name their set listeners like the Gateway's expect
//! otherwise; an info says where. A family whose controller lets such a policy through
//! (agentgateway, `FamilyHierarchy::listener_policy_reaches_listener_sets`) and one that ignores
//! ListenerSets altogether (`follows_listener_sets`, with its own finding) are left out.

use crate::diag::{Class, Code, CodeDef, Diagnostic, Severity, Violation};
use crate::model::Model;
use crate::policy::Policy;
use crate::topology::Topology;
use crate::topology::targets::Target;

/// The codes declared here, in catalogue order.
pub const CODES: &[Code] = &[Code::GATEWAY_LISTENER_POLICY_SKIPS_LISTENERSET];

impl Code {
    /// DPL2021 `gateway-listener-policy-skips-listenerset`: A policy on a Gateway listener does not reach the listeners of the same name that the Gateway's ListenerSets add.
    pub const GATEWAY_LISTENER_POLICY_SKIPS_LISTENERSET: Code = Code::new(&CodeDef {
        id: "DPL2021",
        name: "gateway-listener-policy-skips-listenerset",
        severity: Severity::Info,
        class: Class::Finding,
        summary: "A policy on a Gateway listener does not reach the listeners of the same name that the Gateway's ListenerSets add.",
        explanation: "A policy targeting a Gateway with `sectionName: L` applies to the Gateway's own listener `L`. A ListenerSet of that Gateway may have a listener named `L` too (names need not be unique across a Gateway and its ListenerSets), and Envoy Gateway and kgateway treat it as a target of its own: the Gateway listener's policy does not apply there. agentgateway differs: its proxy lets such a policy through to the ListenerSet listeners of the name, and this finding leaves agentgateway policies out.",
        fix: "Target the ListenerSet's listener as well (`kind: ListenerSet`, `sectionName: L`), where the family accepts ListenerSet targets, or target the whole Gateway.",
        example: "targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw, sectionName: http}]\n# ListenerSet team/ext of gw also has a listener `http`",
    });
}

/// A `G#L` policy beside ListenerSet listeners named `L` (`gateway-listener-policy-skips-listenerset`).
pub struct SkipsListenerSets<'a> {
    /// The policy.
    pub policy: &'a Policy,
    /// The Gateway listener, `ns/gw#L`.
    pub listener: String,
    /// The ListenerSet listeners named alike, `ns/set#L`.
    pub skipped: Vec<String>,
}

impl Violation for SkipsListenerSets<'_> {
    fn code(&self) -> Code {
        Code::GATEWAY_LISTENER_POLICY_SKIPS_LISTENERSET
    }
    fn message(&self) -> String {
        format!(
            "{} targets listener {}, which does not reach ListenerSet listener {} of the same name",
            self.policy.display(),
            self.listener,
            self.skipped.join(", ")
        )
    }
}

/// DPL2021 for every policy on a Gateway listener whose name a ListenerSet listener of the
/// Gateway shares.
pub fn check(model: &Model, topology: &Topology) -> Vec<Diagnostic> {
    if model.listener_sets.is_empty() {
        return Vec::new();
    }
    let mut found = Vec::new();
    for (index, policy) in model.policies.iter().enumerate() {
        let family = model.registry.hierarchy_of(policy.kind);
        if family.listener_policy_reaches_listener_sets() || !family.follows_listener_sets() {
            continue;
        }
        for &target in &topology.targets.of_policy[index] {
            let Target::Listener(g, l) = target else {
                continue;
            };
            let gateway = &model.gateways[g as usize];
            // A family that resolves a ListenerSet listener target (`S#L`, Envoy Gateway)
            // attaches to the set's listener: that is no Gateway listener policy.
            if gateway.listeners[l as usize].set.is_some() {
                continue;
            }
            let name = &gateway.listeners[l as usize].name;
            let skipped: Vec<String> =
                (crate::topology::listener_sets::namesakes_in_sets(model, g, name).into_iter())
                    .map(|s| gateway.listeners[s as usize].qualified_name().to_string())
                    .collect();
            if skipped.is_empty() {
                continue;
            }
            let listener = gateway.listener_key(&gateway.listeners[l as usize]);
            let finding = SkipsListenerSets {
                policy,
                listener,
                skipped,
            };
            found.push(
                Diagnostic::from(finding)
                    .with_label(policy.name_span, "this policy")
                    .with_object(policy.display()),
            );
        }
    }
    found
}
