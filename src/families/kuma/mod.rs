//! Kuma's targetRef policies (docs/families.md, "Kuma"; contract `kuma.md`): a family that owns
//! its hierarchy. A Kuma policy configures proxies (Dataplanes) per destination and per
//! inbound, so its paths are proxy × key — `<mesh>|<ns>/<dp>|outbound|<KRI>`,
//! `...|inbound|<ns>/<dp>#<section>`, `...|proxy` — not Gateway → listener → route. The family
//! computes the meta Kuma matches on, selects, orders and merges, and hands the reports
//! [`crate::policy::owned::OwnedPaths`].

pub mod admission;
pub mod diags;
pub mod duration;
pub mod evaluate;
pub mod index;
pub mod item;
pub mod kinds;
pub mod lint;
pub mod lint_routes;
pub mod lookup;
pub mod merge;
pub mod meta;
pub mod order;
pub mod paths;
pub mod resolve;
pub mod role;
pub mod select;
pub mod settings;
pub mod spec;
pub mod status;

#[cfg(test)]
mod tests;

use crate::diag::Diagnostic;
use crate::load::fields::Fields;
use crate::load::{KindSpec, Object};
use crate::model::Model;
use crate::policy::FamilyEvaluation;
use crate::policy::FamilyHierarchy;
use crate::policy::{Evaluator, FamilyKinds, NamedStrategy, Policy, PolicyFamily, PolicyKind};
use crate::topology::Topology;
use crate::yaml::Node;
use settings::KumaSettings;

/// Kuma's policy kinds, evaluated for a control plane with these settings.
#[derive(Clone, Debug, Default)]
pub struct Kuma {
    settings: KumaSettings,
}

impl Kuma {
    /// The family for a control plane with `settings`.
    pub fn new(settings: KumaSettings) -> Kuma {
        Kuma { settings }
    }

    /// Its settings.
    pub fn settings(&self) -> &KumaSettings {
        &self.settings
    }
}

impl Kuma {
    /// The §K11 violations of the object (`admission::check` applies them to local objects
    /// and takes synced copies as stored).
    fn admission_errors(
        &self,
        kind: &PolicyKind,
        object: &Object,
        spec: &Node,
    ) -> Vec<(String, crate::source::Span)> {
        let mut labels: Vec<(String, String)> = (object.labels())
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        labels.sort();
        admission::check(&admission::Admission {
            kind: kind.kind,
            namespace: object.namespace_str(),
            labels: &labels,
            spec,
            settings: &self.settings,
        })
    }
}

impl FamilyKinds for Kuma {
    fn name(&self) -> &'static str {
        "kuma"
    }

    fn kinds(&self) -> &'static [PolicyKind] {
        &kinds::KINDS
    }

    fn object_kinds(&self) -> &'static [KindSpec] {
        &kinds::OBJECT_KINDS
    }

    fn decode(
        &self,
        kind: &'static PolicyKind,
        object: &Object,
        fields: &mut Fields,
    ) -> Option<Policy> {
        let spec = (object.root.get("spec").cloned())
            .unwrap_or_else(|| Node::synthetic(crate::yaml::Value::Null));
        for (message, span) in self.admission_errors(kind, object, &spec) {
            let display = format!("{} {}", kind.kind, object.namespaced_name());
            let finding = diags::Finding::Invalid(message);
            fields.push(
                Diagnostic::from(diags::About {
                    object: &display,
                    finding,
                })
                .with_label(span, "rejected"),
            );
        }
        if fields.failed() {
            return None;
        }
        let mut policy = Policy::new(kind, object, (Vec::new(), Vec::new()), Vec::new());
        policy.spec = Some(Box::new(spec));
        Some(policy)
    }

    fn positional_rule_names(&self) -> bool {
        // No route rules: nothing named by position.
        false
    }
}

impl FamilyHierarchy for Kuma {
    fn attaches_to_routes(&self) -> bool {
        false
    }
}

impl FamilyEvaluation for Kuma {
    fn evaluator<'m>(
        &self,
        model: &'m Model,
        _topology: &'m Topology,
    ) -> (Box<dyn Evaluator<'m> + 'm>, Vec<Diagnostic>) {
        let evaluator = evaluate::KumaEvaluator::new(model, &self.settings);
        (Box::new(evaluator), Vec::new())
    }
}

impl PolicyFamily for Kuma {
    /// A more specific policy's conf replaces the keys a less specific one set.
    fn strategies(&self, _policy: &Policy) -> Vec<NamedStrategy> {
        vec![NamedStrategy::of_spec(
            "merge",
            crate::policy::GepStrategy::PatchDefaults,
        )]
    }

    fn spec_shape(&self, _kind: &PolicyKind, _rules: &[(&str, &Node)]) -> serde_json::Value {
        // Kuma policies have no rules in blocks (their values are owned paths' leaves).
        serde_json::Value::Object(serde_json::Map::new())
    }

    fn codes(&self) -> &'static [crate::diag::Code] {
        diags::CODES
    }
}
