//! DPL4016 `family-ignores-listenerset`: the Kuadrant operator and policy-machinery read no
//! ListenerSet (no reference in either at the contract's commits), so a Kuadrant policy on a
//! Gateway, or on a route attached through a ListenerSet's listener, does not apply on the paths
//! through such listeners (the family says so: `FamilyHierarchy::follows_listener_sets`). dopol
//! leaves those paths without the policy and says which ListenerSets it skips — never silence.

use crate::diag::{Class, Code, CodeDef, Diagnostic, Severity, Violation};
use crate::engine::observed::Observed;
use crate::model::Model;
use crate::policy::Policy;
use crate::topology::Topology;
use crate::topology::targets::Target;

impl Code {
    /// DPL4016 `family-ignores-listenerset`: A policy reaches paths through a ListenerSet's listeners, and its family's controller ignores ListenerSets: it does not apply there.
    pub const FAMILY_IGNORES_LISTENERSET: Code = Code::new(&CodeDef {
        id: "DPL4016",
        name: "family-ignores-listenerset",
        severity: Severity::Info,
        class: Class::Finding,
        summary: "A policy reaches paths through a ListenerSet's listeners, and its family's controller ignores ListenerSets: it does not apply there.",
        explanation: "The policy targets a Gateway that admits ListenerSets, or a route attached through a ListenerSet's listener. Kuadrant's operator knows nothing of ListenerSets, so its policies are not enforced on the listeners they add: dopol gives the paths through them no Kuadrant policy, and names the ListenerSets here.",
        fix: "Nothing to fix in the policy; protect the ListenerSet's routes with a route-level policy through a Gateway listener, or with a family that honours ListenerSets.",
        example: "kind: AuthPolicy\nspec:\n  targetRef: {group: gateway.networking.k8s.io, kind: Gateway, name: gw}\n# Gateway gw admits ListenerSet team/ext",
    });
}

/// A policy whose family ignores the ListenerSets it would reach (`family-ignores-listenerset`).
pub struct IgnoresListenerSets<'a> {
    /// The policy.
    pub policy: &'a Policy,
    /// The family.
    pub family: &'static str,
    /// The ListenerSets skipped, as `ns/name`, sorted.
    pub sets: Vec<String>,
}

impl Violation for IgnoresListenerSets<'_> {
    fn code(&self) -> Code {
        Code::FAMILY_IGNORES_LISTENERSET
    }
    fn message(&self) -> String {
        format!(
            "{} reaches the listeners of ListenerSet {}, which {} ignores: it does not apply on the paths through them",
            self.policy.display(),
            self.sets.join(", "),
            self.family
        )
    }
}

/// The ListenerSets (`ns/name`) whose listeners carry a path that `target` is on.
fn sets_reached(model: &Model, topology: &Topology, target: Target) -> Vec<String> {
    let pairs: Vec<(u32, u32)> = match target {
        Target::Gateway(g) => (topology.paths.iter())
            .filter(|p| p.gateway == g)
            .map(|p| (p.gateway, p.listener))
            .collect(),
        Target::Route(r) | Target::RouteRule(r, _) => topology.route_listeners[r as usize].clone(),
        Target::Listener(..) | Target::ListenerSet(_) => Vec::new(),
    };
    let mut sets: Vec<String> = (pairs.into_iter())
        .filter_map(|(g, l)| crate::topology::listener_sets::set_of(model, g, l))
        .map(|s| {
            let set = &model.listener_sets[s as usize];
            format!("{}/{}", set.namespace, set.name)
        })
        .collect();
    sets.sort();
    sets.dedup();
    sets
}

/// DPL4016 for every policy `owns` picks whose targets reach a ListenerSet's listeners.
pub fn check(observed: &Observed<'_, '_>, owns: &dyn Fn(&Policy) -> bool) -> Vec<Diagnostic> {
    let (model, topology) = (observed.engine.model, observed.engine.topology);
    if model.listener_sets.is_empty() {
        return Vec::new();
    }
    let reached = |index: usize| -> Vec<String> {
        let mut sets: Vec<String> = (topology.targets.of_policy[index].iter())
            .flat_map(|&t| sets_reached(model, topology, t))
            .collect();
        sets.sort();
        sets.dedup();
        sets
    };
    (model.policies.iter().enumerate())
        .filter(|(_, policy)| owns(policy))
        .map(|(index, policy)| (policy, reached(index)))
        .filter(|(_, sets)| !sets.is_empty())
        .map(|(policy, sets)| {
            let family = model.registry.hierarchy_of(policy.kind).name();
            let object = policy.display();
            let finding = IgnoresListenerSets {
                policy,
                family,
                sets,
            };
            let diagnostic = Diagnostic::from(finding).with_object(object);
            diagnostic.with_label(policy.name_span, "this policy")
        })
        .collect()
}
