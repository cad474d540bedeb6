//! DPL4022 `class-not-family-controller`: a policy whose every path runs through Gateways of a
//! GatewayClass another controller programs. Each controller reconciles only the Gateways of
//! its own classes (`spec.controllerName`), so such a policy is never applied — while dopol, which
//! evaluates what the manifests say, shows it on those paths, and a user reading dopol's status
//! would believe it took effect. The input must hold the GatewayClass with its `controllerName`:
//! a class dopol cannot see is not judged. A family says which controllers it speaks for
//! (`PolicyFamily::controllers`); a declared kind, whose controller dopol does not know, is left
//! out, as are families with a hierarchy of their own (the Kuma mesh has no GatewayClass).

use crate::diag::{Class, Code, CodeDef, Diagnostic, Severity, Violation};
use crate::engine::observed::Observed;
use crate::model::gateway::GatewayClass;
use crate::policy::Policy;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The codes declared here, in catalogue order.
pub const CODES: &[Code] = &[Code::CLASS_NOT_FAMILY_CONTROLLER];

impl Code {
    /// DPL4022 `class-not-family-controller`: Every Gateway the policy reaches belongs to a GatewayClass that another controller programs; the policy is never applied.
    pub const CLASS_NOT_FAMILY_CONTROLLER: Code = Code::new(&CodeDef {
        id: "DPL4022",
        name: "class-not-family-controller",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "Every Gateway the policy reaches belongs to a GatewayClass that another controller programs; the policy is never applied.",
        explanation: "A controller reconciles the Gateways of the GatewayClasses whose `spec.controllerName` is its own and ignores every other Gateway, with the policies attached to it. dopol evaluates the manifests as written and shows the policy on those paths, but no controller enforces it there: a kgateway TrafficPolicy on an Istio Gateway, an Envoy Gateway policy on a kgateway Gateway. dopol knows each built-in family's default controller names (docs/lint.md lists them); a controller started with another name gives this finding too: suppress the code there (see Controls in docs/lint.md).",
        fix: "Attach the policy to Gateways of its family's GatewayClass, or use the policy kind of the controller that programs these Gateways.",
        example: "kind: GatewayClass\nmetadata: {name: istio}\nspec: {controllerName: istio.io/gateway-controller}\n# a kgateway TrafficPolicy on a Gateway of class istio",
    });
}

/// A policy that reaches only Gateways of other controllers' classes.
pub struct ForeignClasses<'a> {
    policy: &'a Policy,
    /// The family's name.
    family: &'static str,
    /// The controllers the family speaks for.
    ours: &'static [&'static str],
    /// The classes of the Gateways it reaches, by name, with their Gateways (`ns/name`).
    classes: BTreeMap<&'a str, (&'a GatewayClass, BTreeSet<String>)>,
}

impl ForeignClasses<'_> {
    fn diagnostic(&self) -> Diagnostic {
        let mut diagnostic = Diagnostic::from(self)
            .with_label(
                self.policy.name_span,
                "reaches only Gateways of other controllers",
            )
            .with_object(self.policy.display());
        for (class, _) in self.classes.values() {
            if let Some((_, span)) = &class.controller {
                let label = format!("the controller of GatewayClass `{}`", class.name);
                diagnostic = diagnostic.with_label(*span, label);
            }
        }
        diagnostic
    }
}

impl Violation for &ForeignClasses<'_> {
    fn code(&self) -> Code {
        Code::CLASS_NOT_FAMILY_CONTROLLER
    }
    fn message(&self) -> String {
        let classes: Vec<String> = (self.classes.iter())
            .map(|(name, (class, gateways))| {
                let controller = class.controller.as_ref().map_or("", |(c, _)| c.as_str());
                let gateways: Vec<&str> = gateways.iter().map(String::as_str).collect();
                format!(
                    "GatewayClass `{name}` (controller {controller}; Gateway {})",
                    gateways.join(", ")
                )
            })
            .collect();
        format!(
            "{} is never applied: every Gateway it reaches belongs to {}, not to {} ({})",
            self.policy.display(),
            classes.join(", "),
            self.family,
            self.ours.join(", ")
        )
    }
}

/// The classes in the input that name their controller.
fn classes<'m>(observed: &Observed<'_, 'm>) -> HashMap<&'m str, &'m GatewayClass> {
    (observed.engine.model.classes.iter())
        .filter(|c| c.controller.is_some())
        .map(|c| (c.name.as_str(), c))
        .collect()
}

/// The classes of the Gateways `policy` (index `p`) reaches, when every one is foreign.
fn foreign<'m>(
    observed: &Observed<'_, 'm>,
    classes: &HashMap<&'m str, &'m GatewayClass>,
    p: u32,
    ours: &[&str],
) -> Option<BTreeMap<&'m str, (&'m GatewayClass, BTreeSet<String>)>> {
    let engine = &observed.engine;
    let gateways: BTreeSet<u32> = (observed.each_observation(p))
        .map(|seen| engine.topology.paths[seen.path as usize].gateway)
        .collect();
    let mut found: BTreeMap<&'m str, (&'m GatewayClass, BTreeSet<String>)> = BTreeMap::new();
    for g in gateways {
        let gateway = &engine.model.gateways[g as usize];
        let class = classes.get(gateway.class_name.as_str())?;
        let (controller, _) = class.controller.as_ref()?;
        if ours.contains(&controller.as_str()) {
            return None;
        }
        let entry = found
            .entry(class.name.as_str())
            .or_insert((class, BTreeSet::new()));
        entry
            .1
            .insert(format!("{}/{}", gateway.namespace, gateway.name));
    }
    Some(found).filter(|f| !f.is_empty())
}

/// DPL4022 over every policy.
pub fn check(observed: &Observed<'_, '_>) -> Vec<Diagnostic> {
    let classes = classes(observed);
    if classes.is_empty() {
        return Vec::new();
    }
    let model = observed.engine.model;
    let registry = &model.registry;
    let mut found = Vec::new();
    for (p, policy) in model.policies.iter().enumerate() {
        let family = registry.family_of(policy.kind);
        let ours = family.controllers(policy.kind);
        let index = registry.kind_index(policy.kind);
        if ours.is_empty() || observed.engine.evaluator(index).owned_paths().is_some() {
            continue;
        }
        if let Some(foreign) = foreign(observed, &classes, p as u32, ours) {
            let finding = ForeignClasses {
                policy,
                family: family.name(),
                ours,
                classes: foreign,
            };
            found.push(finding.diagnostic());
        }
    }
    found
}
