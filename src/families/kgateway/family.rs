//! The kgateway family as dopol sees it: the TrafficPolicy kind, how its objects decode into
//! rules (docs/families.md §2.1), how they attach (§2.2: `targetRefs`, `targetSelectors` and ExtensionRef
//! route filters — every attachment takes part), and their order inside one element (§2.3).

use super::diags::ExtensionRefNotFound;
use super::evaluate::KgatewayEvaluator;
use crate::diag::Diagnostic;
use crate::load::Object;
use crate::load::fields::{FieldPath, Fields};
use crate::model::Model;
use crate::policy::FamilyEvaluation;
use crate::policy::FamilyHierarchy;
use crate::policy::{
    Attachment, Block, BlockKind, Evaluator, FamilyKinds, NamedStrategy, Policy, PolicyFamily,
    PolicyKind, Rule, Strategy, Via, decode,
};
use crate::topology::{Target, Topology};
use crate::yaml::Node;
use rayon::prelude::*;

/// The kgateway policy family, with the controller settings that change its semantics: the
/// TrafficPolicy kind, or a kind declared with the `kgateway` model (docs/families.md §4.3).
#[derive(Clone, Debug)]
pub struct Kgateway {
    /// `KGW_POLICY_MERGE`.
    pub settings: super::MergeSettings,
    /// `KGW_GLOBAL_POLICY_NAMESPACE`: selectors of policies in it select in every namespace.
    pub global_namespace: Option<String>,
    /// Its one kind.
    kinds: &'static [PolicyKind],
    /// The spec fields naming targets.
    targets: decode::TargetFields,
    /// How a spec becomes rules.
    fields: FieldRules,
}

impl Default for Kgateway {
    fn default() -> Self {
        Kgateway {
            settings: super::MergeSettings::default(),
            global_namespace: None,
            kinds: &KINDS,
            targets: TARGET_FIELDS,
            fields: FieldRules::TrafficPolicy,
        }
    }
}

/// How a kind's spec becomes rules, and how each rule merges.
#[derive(Clone, Debug)]
pub enum FieldRules {
    /// TrafficPolicy's fields (§2.1), each with its own merge strategies (§2.4, §2.5).
    TrafficPolicy,
    /// A declared cut; every rule is a plain field (§2.4 first table, §2.5 "most specific").
    Plain(std::sync::Arc<dyn PlainFields>),
}

/// A declared kind's rule cut, for a kind whose every rule is a plain field.
pub trait PlainFields: Send + Sync + std::fmt::Debug {
    /// The rules of a `spec` (shape errors go to `fields`), in any order.
    fn rules(&self, fields: &mut Fields<'_>, spec: &Node, spec_path: &FieldPath<'_>) -> Vec<Rule>;
    /// Rules rendered back into the spec shape.
    fn spec_shape(&self, rules: &[(&str, &Node)]) -> serde_json::Value;
}

impl Kgateway {
    /// A declared kind of the `kgateway` model: its kind (a leaked one-element slice), target
    /// fields and rule cut, with the controller's default settings.
    pub fn declared(
        kinds: &'static [PolicyKind],
        targets: decode::TargetFields,
        fields: std::sync::Arc<dyn PlainFields>,
    ) -> Kgateway {
        Kgateway {
            kinds,
            targets,
            fields: FieldRules::Plain(fields),
            ..Kgateway::default()
        }
    }

    fn kind(&self) -> &'static PolicyKind {
        &self.kinds[0]
    }
}

/// `gateway.kgateway.dev`.
pub const GROUP: &str = "gateway.kgateway.dev";
/// The weight annotation (a base-10 int32; higher first).
pub const WEIGHT_ANNOTATION: &str = "kgateway.dev/policy-weight";

/// `targetRefs` and `targetSelectors` (`matchLabels` and `sectionName`; an empty selector selects
/// nothing, docs/families.md §1).
pub(super) const TARGET_FIELDS: decode::TargetFields = decode::TargetFields {
    single: false,
    list: true,
    required: false,
    section_name: true,
    selectors: Some(decode::SelectorFields {
        match_expressions: false,
        section_name: true,
        empty_selects_nothing: true,
    }),
};

static KINDS: [PolicyKind; 1] = [PolicyKind {
    family: "kgateway",
    group: GROUP,
    kind: "TrafficPolicy",
    versions: &["v1alpha1"],
    unserved_versions: &[],
    // CEL: `r.kind.endsWith('ListenerSet')`, of which the API has ListenerSet and XListenerSet.
    target_kinds: &[
        "Gateway",
        "HTTPRoute",
        "GRPCRoute",
        "ListenerSet",
        "XListenerSet",
    ],
    target_kind_message: "Unsupported value: the only supported target kinds are 'Gateway', 'HTTPRoute' and 'GRPCRoute'",
}];

impl FamilyKinds for Kgateway {
    fn name(&self) -> &'static str {
        "kgateway"
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
        let mut policy = decode_policy(kind, object, fields, &self.targets, &self.fields)?;
        if self.global_namespace.as_deref() == Some(policy.namespace.as_str()) {
            for selector in &mut policy.selectors {
                selector.all_namespaces = true;
            }
        }
        Some(policy)
    }

    fn positional_rule_names(&self) -> bool {
        false
    }
}

impl FamilyHierarchy for Kgateway {
    fn route_link(&self) -> Option<&'static dyn crate::topology::links::RouteLink> {
        Some(&super::delegation::ROUTE_DELEGATION)
    }

    fn follows_delegation(&self) -> bool {
        true
    }

    /// TrafficPolicy targets ListenerSets and their listeners (field-2026 §3.1); a declared
    /// kind of the kgateway model reaches them when its `targetKinds` list `ListenerSet`.
    fn resolves_listener_sets(&self) -> bool {
        true
    }

    fn extra_attachments(&self, model: &Model) -> (Vec<Attachment>, Vec<Diagnostic>) {
        extension_refs(model, self.kind())
    }

    fn order(&self, model: &Model, attachments: &mut Vec<Attachment>) -> Vec<(u32, u32)> {
        order(model, attachments)
    }
}

impl FamilyEvaluation for Kgateway {
    fn attaches_once(&self) -> bool {
        false
    }

    fn evaluator<'m>(
        &self,
        model: &'m Model,
        topology: &'m Topology,
    ) -> (Box<dyn Evaluator<'m> + 'm>, Vec<Diagnostic>) {
        let plain = matches!(self.fields, FieldRules::Plain(_));
        let evaluator =
            KgatewayEvaluator::new(model, topology, self.settings.clone(), self.kind(), plain);
        (Box::new(evaluator), Vec::new())
    }
}

impl PolicyFamily for Kgateway {
    /// kgateway's default `controllerName` (a declared kind on this model: unknown).
    fn controllers(&self, kind: &PolicyKind) -> &'static [&'static str] {
        match kind.group == GROUP {
            true => &["kgateway.dev/kgateway"],
            false => &[],
        }
    }

    /// Attached/`Merged`: "Merged with other policies in target(s)" — some field came from
    /// another policy, or lost to one.
    fn status_admits_loss(&self, conditions: &crate::policy::PolicyConditions) -> bool {
        conditions.all().any(|c| c.reason == "Merged")
    }

    /// kgateway's default: within a level the policy first in order keeps a field, across
    /// levels the most specific scope's (a child route's annotation may pick another strategy
    /// for its level, which `explain` names step by step).
    fn strategies(&self, _policy: &Policy) -> Vec<NamedStrategy> {
        vec![super::strategy::Strategy::AugmentedShallow.named()]
    }

    fn provides(
        &self,
        _kind: &PolicyKind,
        key: &str,
        value: &Node,
        capability: crate::policy::gate::Capability,
    ) -> crate::policy::gate::Provides {
        match &self.fields {
            FieldRules::Plain(_) => crate::policy::gate::Provides::CannotSay,
            _ => super::gate::provides(key, value, capability),
        }
    }

    fn weakened(
        &self,
        _kind: &PolicyKind,
        key: &str,
        old: &Node,
        new: Option<&Node>,
    ) -> crate::policy::gate::Strength {
        match &self.fields {
            FieldRules::Plain(_) => crate::policy::gate::cannot_rank(key, new),
            _ => super::gate::weakened(key, old, new),
        }
    }

    fn spec_shape(&self, _kind: &PolicyKind, rules: &[(&str, &Node)]) -> serde_json::Value {
        if let FieldRules::Plain(plain) = &self.fields {
            return plain.spec_shape(rules);
        }
        let mut spec = serde_json::Map::new();
        for (key, value) in rules {
            match key.split_once('.') {
                Some((field, sub)) => {
                    let entry = spec
                        .entry(field.to_string())
                        .or_insert_with(|| serde_json::Value::Object(Default::default()));
                    if let serde_json::Value::Object(map) = entry {
                        map.insert(sub.to_string(), value.to_json());
                    }
                }
                None => {
                    spec.insert(key.to_string(), value.to_json());
                }
            }
        }
        serde_json::Value::Object(spec)
    }

    fn codes(&self) -> &'static [crate::diag::Code] {
        super::diags::CODES
    }

    fn ordered_after_by_name(&self) -> &'static str {
        "comes after: lower priority"
    }
}

pub(super) fn decode_policy(
    kind: &'static PolicyKind,
    object: &Object,
    fields: &mut Fields,
    target_fields: &decode::TargetFields,
    rule_fields: &FieldRules,
) -> Option<Policy> {
    let root = FieldPath::ROOT;
    let spec_path = root.key("spec");
    let spec = fields.required(&object.root, "spec", &root)?;
    fields.map(spec, &spec_path)?;
    let targets = decode::targets(fields, kind, spec, &spec_path, target_fields);
    let (priority, mut errors) = weight(object);
    let rules = match rule_fields {
        FieldRules::TrafficPolicy => {
            errors.extend(acl_errors(spec));
            super::keys::rules(spec)
        }
        FieldRules::Plain(plain) => {
            let mut rules = plain.rules(fields, spec, &spec_path);
            rules.sort_by(|x, y| x.key.cmp(&y.key));
            rules
        }
    };
    if fields.failed() {
        return None;
    }
    let block = Block {
        kind: BlockKind::Spec,
        strategy: Strategy::Merge,
        rules: rules.into(),
        constraint: None,
        span: spec.span,
    };
    Some(Policy {
        priority,
        errors: errors.into(),
        ..Policy::new(kind, object, targets, vec![block])
    })
}

/// `kgateway.dev/policy-weight`: the weight, or 0 and the error that makes the policy invalid.
pub(super) fn weight(object: &Object) -> (i32, Vec<String>) {
    match object.annotation(WEIGHT_ANNOTATION) {
        None => (0, Vec::new()),
        Some(text) => match text.parse::<i32>() {
            Ok(weight) => (weight, Vec::new()),
            Err(_) => (
                0,
                vec![format!(
                    "invalid value for annotation {WEIGHT_ANNOTATION}: {text}; must be a valid integer"
                )],
            ),
        },
    }
}

/// kgateway's validation of `acl` CIDRs: a prefix with host bits set is an error that rejects
/// the policy (`validateACLCIDRs`).
fn acl_errors(spec: &Node) -> Vec<String> {
    let rules = spec
        .get_path(&["acl", "rules"])
        .and_then(Node::as_seq)
        .unwrap_or_default();
    rules
        .iter()
        .flat_map(|rule| rule.get("cidrs").and_then(Node::as_seq).unwrap_or_default())
        .filter_map(|cidr| cidr.as_str())
        .filter_map(|cidr| cidr_error(cidr).map(|why| format!("acl: invalid CIDR {cidr}: {why}")))
        .collect()
}

/// Why `text` is not a network prefix (`10.0.0.0/8`), if it is not.
fn cidr_error(text: &str) -> Option<String> {
    let Some((address, length)) = text.split_once('/') else {
        return Some("not in address/prefix-length form".into());
    };
    let (Ok(address), Ok(length)) = (address.parse::<std::net::IpAddr>(), length.parse::<u32>())
    else {
        return Some("not a valid address and prefix length".into());
    };
    let (bits, value) = match address {
        std::net::IpAddr::V4(a) => (32, u128::from(u32::from(a)) << 96),
        std::net::IpAddr::V6(a) => (128, u128::from(a)),
    };
    if length > bits {
        return Some(format!("prefix length {length} is longer than {bits}"));
    }
    let host = if length == 0 {
        u128::MAX
    } else {
        u128::MAX >> length
    };
    (value & host != 0).then(|| "host bits are set".into())
}

/// An ExtensionRef filter naming a TrafficPolicy that is not in the route's namespace.
pub struct MissingRef<'m> {
    /// The route.
    pub route: u32,
    /// The rule.
    pub rule: u32,
    /// The policy name as written.
    pub name: &'m Node,
}

/// ExtensionRef filters of every route rule naming a policy of `kind` (§2.2): the attachments,
/// and the filters naming a policy that is not in the input.
pub fn scan_extension_refs<'m>(
    model: &'m Model,
    kind: &'static PolicyKind,
) -> (Vec<Attachment>, Vec<MissingRef<'m>>) {
    // Routes are read in parallel; what each yields keeps route order.
    let per_route: Vec<(Vec<Attachment>, Vec<MissingRef<'m>>)> = (0..model.routes.len())
        .into_par_iter()
        .map(|r| route_extension_refs(model, kind, r))
        .collect();
    let mut found = Vec::new();
    let mut missing = Vec::new();
    for (f, m) in per_route {
        found.extend(f);
        missing.extend(m);
    }
    (found, missing)
}

/// [`scan_extension_refs`] of route `r`.
fn route_extension_refs<'m>(
    model: &'m Model,
    kind: &'static PolicyKind,
    r: usize,
) -> (Vec<Attachment>, Vec<MissingRef<'m>>) {
    let mut found = Vec::new();
    let mut missing = Vec::new();
    let route = &model.routes[r];
    if !route.has_filters {
        return (found, missing);
    }
    let object = &model.objects[route.object as usize];
    let rules = model
        .tree(object)
        .get_path(&["spec", "rules"])
        .and_then(Node::as_seq);
    for (k, rule) in rules.unwrap_or_default().iter().enumerate() {
        let filters = rule
            .get("filters")
            .and_then(Node::as_seq)
            .unwrap_or_default();
        for (position, filter) in filters.iter().enumerate() {
            let Some(name) = extension_ref(filter, kind) else {
                continue;
            };
            let name_text = name.as_str().unwrap_or_default();
            match policy_named(model, kind, &route.namespace, name_text) {
                Some(policy) => found.push(Attachment {
                    policy,
                    target: Target::RouteRule(r as u32, k as u32),
                    via: Via::Extension(position as u16),
                }),
                None => missing.push(MissingRef {
                    route: r as u32,
                    rule: k as u32,
                    name,
                }),
            }
        }
    }
    (found, missing)
}

/// The attachments through ExtensionRef filters, and an error for each filter that names a
/// policy not in the input (kgateway answers that rule with a 500).
fn extension_refs(model: &Model, kind: &'static PolicyKind) -> (Vec<Attachment>, Vec<Diagnostic>) {
    let (found, missing) = scan_extension_refs(model, kind);
    let diagnostics = missing
        .iter()
        .map(|m| {
            let route = &model.routes[m.route as usize];
            Diagnostic::from(ExtensionRefNotFound {
                route,
                rule: &route.rules[m.rule as usize],
                kind: kind.kind,
                name: m.name.as_str().unwrap_or_default(),
            })
            .with_label(m.name.span, "not found")
            .with_object(route.display())
        })
        .collect();
    (found, diagnostics)
}

/// The `name` node of an ExtensionRef filter naming a policy of `kind`.
fn extension_ref<'n>(filter: &'n Node, kind: &PolicyKind) -> Option<&'n Node> {
    if filter.get("type").and_then(Node::as_str) != Some("ExtensionRef") {
        return None;
    }
    let reference = filter.get("extensionRef")?;
    let is_policy = reference.get("group").and_then(Node::as_str) == Some(kind.group)
        && reference.get("kind").and_then(Node::as_str) == Some(kind.kind);
    is_policy.then(|| reference.get("name")).flatten()
}

fn policy_named(model: &Model, kind: &PolicyKind, namespace: &str, name: &str) -> Option<u32> {
    model
        .policies
        .iter()
        .position(|p| std::ptr::eq(p.kind, kind) && p.namespace == namespace && p.name == name)
        .map(|i| i as u32)
}

/// §2.3: ExtensionRef attachments first, in filter order; then the others by weight (higher
/// first), age (a missing timestamp is Go's zero time: the oldest), and
/// `group/kind/namespace/name`. Returns the neighbours ordered by name only.
pub(super) fn order(model: &Model, attachments: &mut [Attachment]) -> Vec<(u32, u32)> {
    let key = |a: &Attachment| {
        let p = &model.policies[a.policy as usize];
        let extension = match a.via {
            Via::Extension(position) => (0u8, position),
            _ => (1u8, 0),
        };
        (
            extension,
            std::cmp::Reverse(p.priority),
            p.creation_timestamp,
            format!("{}/{}/{}", p.kind.group, p.kind.kind, p.namespaced_name()),
        )
    };
    attachments.sort_by_cached_key(key);
    // ExtensionRef attachments are ordered by filter position, never by name; they sort first,
    // so the by-name pairs are among the others.
    let others = attachments
        .iter()
        .position(|a| !matches!(a.via, Via::Extension(_)))
        .unwrap_or(attachments.len());
    crate::policy::evaluator::name_ties(model, &attachments[others..], |a, b| {
        !std::ptr::eq(a, b)
            && a.priority == b.priority
            && a.creation_timestamp == b.creation_timestamp
    })
}
