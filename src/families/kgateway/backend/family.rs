//! The BackendConfigPolicy family as dopol sees it: its kinds and how their objects decode
//! (docs/families.md §2.10). Its policies attach to no Gateway API element
//! (`attaches_to_routes` is `false`): their targets are backends, read by the evaluator from the
//! kept spec ([`super::subjects`]). BackendTLSPolicy is a kind of the family only so that the
//! `tls` it removes from a BackendConfigPolicy can be `superseded` by it: it has no rules and
//! its own status is not evaluated.

use super::evaluate::BcpEvaluator;
use crate::diag::Diagnostic;
use crate::families::kgateway::contribution::is_set;
use crate::families::kgateway::family::weight;
use crate::load::Object;
use crate::load::fields::{FieldPath, Fields};
use crate::model::Model;
use crate::name::Name;
use crate::policy::{
    Block, BlockKind, Evaluator, FamilyEvaluation, FamilyHierarchy, FamilyKinds, Policy,
    PolicyFamily, PolicyKind, Rule, Strategy,
};
use crate::topology::Topology;
use crate::yaml::Node;

/// kgateway's BackendConfigPolicy (and the BackendTLSPolicies that replace its `tls`).
#[derive(Clone, Copy, Debug, Default)]
pub struct BackendConfigPolicies;

/// BackendConfigPolicy, then BackendTLSPolicy.
pub(super) static KINDS: [PolicyKind; 2] = [
    PolicyKind {
        family: "kgateway",
        group: crate::families::kgateway::family::GROUP,
        kind: "BackendConfigPolicy",
        versions: &["v1alpha1"],
        unserved_versions: &[],
        target_kinds: &["Service", "Backend", "Hostname"],
        target_kind_message: "TargetRefs must reference either a Kubernetes Service, a Backend, or an Istio Hostname",
    },
    PolicyKind {
        family: "kgateway",
        group: crate::model::gateway::GATEWAY_GROUP,
        kind: "BackendTLSPolicy",
        versions: &["v1", "v1alpha3"],
        unserved_versions: &[],
        target_kinds: &["Service", "Backend", "Hostname"],
        target_kind_message: "targetRefs must name backends",
    },
];

/// Whether `kind` is BackendTLSPolicy.
pub(super) fn is_tls_policy(kind: &PolicyKind) -> bool {
    std::ptr::eq(kind, &KINDS[1])
}

impl FamilyKinds for BackendConfigPolicies {
    fn name(&self) -> &'static str {
        "kgateway"
    }

    fn kinds(&self) -> &'static [PolicyKind] {
        &KINDS
    }

    fn decode(
        &self,
        kind: &'static PolicyKind,
        object: &Object,
        fields: &mut Fields,
    ) -> Option<Policy> {
        let root = FieldPath::ROOT;
        let spec = fields.required(&object.root, "spec", &root)?;
        fields.map(spec, &root.key("spec"))?;
        if fields.failed() {
            return None;
        }
        let (priority, errors) = weight(object);
        let blocks = match is_tls_policy(kind) {
            true => Vec::new(),
            false => vec![Block {
                kind: BlockKind::Spec,
                strategy: Strategy::Merge,
                rules: rules(spec).into(),
                constraint: None,
                span: spec.span,
            }],
        };
        Some(Policy {
            priority,
            errors: errors.into(),
            spec: Some(Box::new(spec.clone())),
            ..Policy::new(kind, object, (Vec::new(), Vec::new()), blocks)
        })
    }

    fn positional_rule_names(&self) -> bool {
        false
    }
}

/// The rules of a BackendConfigPolicy `spec`, sorted by key: each top-level field but the
/// target fields, `dns` split into `dns.<field>` (kgateway merges `refreshRate`, `jitter` and
/// `respectTTL` separately). Null values are not rules.
pub fn rules(spec: &Node) -> Vec<Rule> {
    let mut rules = Vec::new();
    for entry in spec.as_map().unwrap_or(&[]) {
        let key = &*entry.key.text;
        if matches!(key, "targetRef" | "targetRefs" | "targetSelectors")
            || !is_set(Some(&entry.value))
        {
            continue;
        }
        match entry.value.as_map() {
            Some(subfields) if key == "dns" => rules.extend(
                (subfields.iter().filter(|s| is_set(Some(&s.value)))).map(|s| Rule {
                    key: Name::new(&format!("dns.{}", s.key.text)),
                    value: s.value.clone(),
                    key_span: s.key.span,
                }),
            ),
            _ => rules.push(Rule {
                key: Name::new(key),
                value: entry.value.clone(),
                key_span: entry.key.span,
            }),
        }
    }
    rules.sort_by(|x, y| x.key.cmp(&y.key));
    rules
}

impl FamilyHierarchy for BackendConfigPolicies {
    fn attaches_to_routes(&self) -> bool {
        false
    }
}

impl FamilyEvaluation for BackendConfigPolicies {
    fn evaluator<'m>(
        &self,
        model: &'m Model,
        _topology: &'m Topology,
    ) -> (Box<dyn Evaluator<'m> + 'm>, Vec<Diagnostic>) {
        (Box::new(BcpEvaluator::new(model)), Vec::new())
    }
}

impl PolicyFamily for BackendConfigPolicies {
    /// kgateway's AugmentedShallow per field; a BackendTLSPolicy (read only as the winner of
    /// `tls`) is a Direct policy: GEP-713 None.
    fn strategies(&self, policy: &Policy) -> Vec<crate::policy::NamedStrategy> {
        match policy.kind.kind {
            "BackendTLSPolicy" => vec![crate::policy::NamedStrategy::of_spec(
                "none",
                crate::policy::GepStrategy::None,
            )],
            _ => vec![crate::families::kgateway::Strategy::AugmentedShallow.named()],
        }
    }

    /// As a TrafficPolicy's: a dotted key (`dns.jitter`) is a field of its parent.
    fn spec_shape(&self, kind: &PolicyKind, rules: &[(&str, &Node)]) -> serde_json::Value {
        crate::families::kgateway::Kgateway::default().spec_shape(kind, rules)
    }

    fn codes(&self) -> &'static [crate::diag::Code] {
        super::diags::CODES
    }

    fn ordered_after_by_name(&self) -> &'static str {
        "comes after: lower priority"
    }
}
