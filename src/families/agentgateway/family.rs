//! The agentgateway family as dopol sees it: the AgentgatewayPolicy kind, how its objects decode
//! into rules (docs/families.md §5.1–4.2), and how they attach: `targetRefs` or `targetSelectors` in the
//! policy's namespace, every attachment taking part, in the common order on one element
//! (docs/families.md §1: older, then namespace/name); ListenerSet targets are resolved by the
//! topology (the family opts in). Targets dopol has no level for (Service, InferencePool,
//! AgentgatewayBackend) are left out with an info finding; a Gateway
//! target's `port` (frontend-only policies) is read by the evaluator from the spec kept here.

use super::diags::NotModelledTarget;
use super::evaluate::AgwEvaluator;
use crate::diag::Diagnostic;
use crate::load::Object;
use crate::load::fields::{FieldPath, Fields};
use crate::model::Model;
use crate::policy::{
    Block, BlockKind, Evaluator, FamilyEvaluation, FamilyHierarchy, FamilyKinds, NamedStrategy,
    Policy, PolicyFamily, PolicyKind, Strategy, decode,
};
use crate::topology::Topology;
use crate::topology::family::Attachment;
use crate::yaml::{Entry, Node, Shared, Value};

/// `agentgateway.dev`.
pub const GROUP: &str = "agentgateway.dev";

/// The agentgateway policy family (`AgentgatewayPolicy`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Agentgateway;

/// `targetRefs` and `targetSelectors` (`matchLabels`, `sectionName`); `port` is taken out
/// before they are read.
const TARGET_FIELDS: decode::TargetFields = decode::TargetFields {
    single: false,
    list: true,
    required: false,
    section_name: true,
    selectors: Some(decode::SelectorFields {
        match_expressions: false,
        section_name: true,
        empty_selects_nothing: false,
    }),
};

static KINDS: [PolicyKind; 1] = [PolicyKind {
    family: "agentgateway",
    group: GROUP,
    kind: "AgentgatewayPolicy",
    versions: &["v1alpha1"],
    unserved_versions: &[],
    target_kinds: &["Gateway", "HTTPRoute", "GRPCRoute", "ListenerSet"],
    target_kind_message: "targetRefs may only reference Gateway, HTTPRoute, GRPCRoute, ListenerSet, Service, AgentgatewayBackend, or InferencePool resources",
}];

/// Target kinds agentgateway accepts that dopol has no level for.
const NOT_MODELLED: &[&str] = &["Service", "InferencePool", "AgentgatewayBackend"];

impl FamilyKinds for Agentgateway {
    fn name(&self) -> &'static str {
        "agentgateway"
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
        let spec_path = root.key("spec");
        let written = fields.required(&object.root, "spec", &root)?;
        fields.map(written, &spec_path)?;
        let (modelled, unmodelled) = modelled_targets(written, fields);
        let targets = decode::targets(fields, kind, &modelled, &spec_path, &TARGET_FIELDS);
        let rules = super::keys::rules(written);
        if fields.failed() {
            return None;
        }
        let block = Block {
            kind: BlockKind::Spec,
            strategy: Strategy::Atomic,
            rules: rules.into(),
            constraint: None,
            span: written.span,
        };
        Some(Policy {
            spec: Some(Box::new(written.clone())),
            unmodelled_targets: unmodelled,
            ..Policy::new(kind, object, targets, vec![block])
        })
    }

    fn positional_rule_names(&self) -> bool {
        false
    }
}

/// `spec` with only the targets dopol models, each without `port`; the kinds of the targets
/// left out, each reported (info).
fn modelled_targets(spec: &Node, fields: &mut Fields) -> (Node, thin_vec::ThinVec<&'static str>) {
    let mut left_out = thin_vec::ThinVec::new();
    let Some(entries) = spec.as_map() else {
        return (spec.clone(), left_out);
    };
    let mut keep = |node: &Node, fields: &mut Fields| -> Option<Node> {
        let kind = node.get("kind").and_then(Node::as_str).unwrap_or_default();
        if let Some(&known) = NOT_MODELLED.iter().find(|k| **k == kind) {
            left_out.push(known);
            let finding = NotModelledTarget { kind: known };
            fields.report(Diagnostic::from(finding).with_label(node.span, "not evaluated"));
            return None;
        }
        Some(without_port(node))
    };
    let mut out = Vec::with_capacity(entries.len());
    for entry in entries {
        let value = match &*entry.key.text {
            "targetRefs" | "targetSelectors" => match entry.value.as_seq() {
                Some(items) => Node {
                    span: entry.value.span,
                    value: Value::Seq(items.iter().filter_map(|n| keep(n, fields)).collect()),
                },
                None => entry.value.clone(),
            },
            _ => entry.value.clone(),
        };
        out.push(Entry {
            key: entry.key.clone(),
            value,
        });
    }
    let node = Node {
        span: spec.span,
        value: Value::Map(Shared::from(out)),
    };
    (node, left_out)
}

/// A target entry without its `port` (read from the kept spec by the evaluator).
fn without_port(node: &Node) -> Node {
    match node.as_map() {
        Some(entries) if node.get("port").is_some() => Node {
            span: node.span,
            value: Value::Map(
                entries
                    .iter()
                    .filter(|e| &*e.key.text != "port")
                    .cloned()
                    .collect(),
            ),
        },
        _ => node.clone(),
    }
}

impl FamilyHierarchy for Agentgateway {
    fn route_link(&self) -> Option<&'static dyn crate::topology::links::RouteLink> {
        Some(&crate::families::kgateway::delegation::ROUTE_DELEGATION)
    }

    fn follows_delegation(&self) -> bool {
        true
    }

    /// The proxy looks a ListenerSet's listener up also as the Gateway's listener of that name
    /// (docs/families.md, agentgateway; [controller]): a `G#L` policy is not said to skip the sets' `L`.
    fn listener_policy_reaches_listener_sets(&self) -> bool {
        true
    }

    /// `traffic` and `backend` sections target ListenerSets (+ `sectionName`), §5.3.
    fn resolves_listener_sets(&self) -> bool {
        true
    }

    /// A `G#x` target whose `x` only ListenerSets have still reaches their `x` [controller].
    fn extra_attachments(&self, model: &Model) -> (Vec<Attachment>, Vec<Diagnostic>) {
        let ours = |p: &Policy| p.kind.family == "agentgateway";
        (super::leaks::attachments(model, &ours), Vec::new())
    }
}

impl FamilyEvaluation for Agentgateway {
    fn attaches_once(&self) -> bool {
        // Every attachment takes part (§5.1).
        false
    }

    fn evaluator<'m>(
        &self,
        model: &'m Model,
        topology: &'m Topology,
    ) -> (Box<dyn Evaluator<'m> + 'm>, Vec<Diagnostic>) {
        (Box::new(AgwEvaluator::new(model, topology)), Vec::new())
    }
}

impl PolicyFamily for Agentgateway {
    /// agentgateway's default `controllerName`.
    fn controllers(&self, _kind: &PolicyKind) -> &'static [&'static str] {
        &["agentgateway.dev/agentgateway"]
    }

    /// `agw-attached-but-ineffective` (DPL8007) says it, with agentgateway's own causes.
    fn reports_ineffective(&self) -> bool {
        true
    }

    fn strategies(&self, policy: &Policy) -> Vec<NamedStrategy> {
        let over = (policy.spec.as_deref()).is_some_and(super::evaluate::overrides);
        vec![super::evaluate::inheritance(over)]
    }

    fn spec_shape(&self, _kind: &PolicyKind, rules: &[(&str, &Node)]) -> serde_json::Value {
        let mut spec = serde_json::Map::new();
        for (key, value) in rules {
            let mut parts = key.splitn(3, '.');
            let (Some(section), Some(field)) = (parts.next(), parts.next()) else {
                continue;
            };
            let section = if section == "preRouting" {
                "traffic"
            } else {
                section
            };
            let entry = spec
                .entry(section.to_string())
                .or_insert_with(|| serde_json::json!({}));
            match parts.next() {
                Some(sub) => entry[field][sub] = value.to_json(),
                None => entry[field] = value.to_json(),
            }
        }
        serde_json::Value::Object(spec)
    }

    fn codes(&self) -> &'static [crate::diag::Code] {
        super::diags::CODES
    }

    fn ordered_after_by_name(&self) -> &'static str {
        "comes after: dopol's pick in an equal-specificity tie goes to the first"
    }
}
