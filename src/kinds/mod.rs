//! The kinds half of the family contract: what a policy is once decoded ([`Policy`], its
//! [`PolicyKind`], targets, selectors, blocks and rules), what the loader and the model need of
//! a family ([`FamilyKinds`]) and the [`Registry`] of a run's families. It names only the floors
//! below the model (load, yaml, name, source), so that the model can hold decoded policies
//! without knowing how a family evaluates them. `crate::policy`, the rest of the contract,
//! re-exports every item (`crate::policy::Policy`), which is where families name them.

pub mod diags;
pub mod expressions;
pub mod gep;
pub mod registry;

use crate::diag::Diagnostic;
use crate::load::fields::Fields;
use crate::load::{KindSpec, Object, Timestamp};
use crate::name::Name;
use crate::source::Span;
use crate::yaml::Node;
pub use registry::Registry;
use std::fmt;
use thin_vec::ThinVec;

/// How specific a target is, least specific first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// A Gateway.
    Gateway,
    /// A listener of a Gateway (`sectionName` on a Gateway target).
    Listener,
    /// An HTTPRoute or GRPCRoute.
    Route,
    /// A rule of a route (`sectionName` on a route target).
    RouteRule,
}

impl Level {
    /// Lower-case name for output.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Gateway => "gateway",
            Level::Listener => "listener",
            Level::Route => "route",
            Level::RouteRule => "route rule",
        }
    }
}

/// A kind of policy: its API identity and what it may target.
#[derive(Debug)]
pub struct PolicyKind {
    /// The family's name (`kuadrant`).
    pub family: &'static str,
    /// API group.
    pub group: &'static str,
    /// Kind.
    pub kind: &'static str,
    /// Current API versions.
    pub versions: &'static [&'static str],
    /// Older versions current releases no longer serve (the API server rejects them): still
    /// read with the current shape, so that a migration can be checked, and reported as errors.
    pub unserved_versions: &'static [&'static str],
    /// Target kinds (`Gateway`, `HTTPRoute`, `GRPCRoute`).
    pub target_kinds: &'static [&'static str],
    /// The API server's message when the target kind is not allowed.
    pub target_kind_message: &'static str,
}

impl PolicyKind {
    /// `authpolicy.kuadrant.io`, the prefix of locators.
    pub fn locator_prefix(&self) -> String {
        format!("{}.{}", self.kind.to_ascii_lowercase(), self.group)
    }

    /// As a loader kind spec.
    pub fn kind_spec(&self) -> KindSpec {
        KindSpec {
            group: self.group,
            kind: self.kind,
            cluster_scoped: false,
        }
    }
}

/// The `ns/name` part of a policy locator (`authpolicy.kuadrant.io:ns/name` → `ns/name`).
pub fn locator_name(locator: &str) -> &str {
    locator.split_once(':').map_or(locator, |(_, name)| name)
}

impl fmt::Display for PolicyKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kind)
    }
}

/// Which block of a policy a rule comes from. Blocks are processed in this order (RFC 0009).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum BlockKind {
    /// `spec.defaults`.
    Defaults,
    /// Rules directly under `spec` (implicit atomic defaults).
    Bare,
    /// `spec.overrides`.
    Overrides,
    /// The spec's fields, for families without defaults and overrides (kgateway, Envoy
    /// Gateway): merged by the family's own rules.
    Spec,
}

impl BlockKind {
    /// Whether rules of this block are overrides.
    pub fn is_override(self) -> bool {
        self == BlockKind::Overrides
    }

    /// Name for output (`defaults`, `bare`, `overrides`).
    pub fn as_str(self) -> &'static str {
        match self {
            BlockKind::Defaults => "defaults",
            BlockKind::Bare => "bare",
            BlockKind::Spec => "spec",
            BlockKind::Overrides => "overrides",
        }
    }
}

/// How a block merges with what is below it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// The block's rules apply as a whole, or not at all.
    Atomic,
    /// The block's rules merge with the lower ones, rule by rule.
    Merge,
}

impl Strategy {
    /// `atomic` or `merge`.
    pub fn as_str(self) -> &'static str {
        match self {
            Strategy::Atomic => "atomic",
            Strategy::Merge => "merge",
        }
    }
}

/// A named rule: the unit of merging. Its value is atomic (never merged deeper).
#[derive(Clone, Debug)]
pub struct Rule {
    /// The rule key (`authentication#jwt`, a limit name, `conditions#`, ...).
    pub key: Name,
    /// The rule's value, as written.
    pub value: Node,
    /// Where the rule's name is written.
    pub key_span: Span,
}

/// An RFC 0009 constraint: a CEL expression over the lower effective policy.
#[derive(Clone, Debug)]
pub struct Constraint {
    /// The expression text.
    pub expression: String,
    /// The YAML scalar holding it.
    pub span: Span,
}

/// A set of rules with one strategy.
#[derive(Clone, Debug)]
pub struct Block {
    /// Which block.
    pub kind: BlockKind,
    /// Its strategy (bare rules are atomic).
    pub strategy: Strategy,
    /// Rules sorted by key, keys unique.
    pub rules: ThinVec<Rule>,
    /// The block's `when` constraint (RFC 0009 extension), if any.
    pub constraint: Option<Box<Constraint>>,
    /// Where the block is written (`defaults:` key, or the spec for bare rules).
    pub span: Span,
}

impl Block {
    /// The rule with `key`, if any.
    pub fn rule(&self, key: &str) -> Option<&Rule> {
        self.rule_index(key).map(|i| &self.rules[i])
    }

    /// The index of the rule with `key` (rules are sorted by key).
    pub fn rule_index(&self, key: &str) -> Option<usize> {
        self.rules
            .binary_search_by(|r| r.key.as_str().cmp(key))
            .ok()
    }
}

/// A deactivation entry (`spec.unset`, RFC 0009 extension).
#[derive(Clone, Debug)]
pub struct UnsetEntry {
    /// As written.
    pub text: String,
    /// The rule key it names.
    pub key: String,
    /// Where it is written.
    pub span: Span,
}

/// A policy's reference to its target (in the policy's namespace).
#[derive(Clone, Debug)]
pub struct TargetRef {
    /// Group.
    pub group: Name,
    /// Kind.
    pub kind: Name,
    /// Name.
    pub name: Name,
    /// `sectionName`: a listener (Gateway) or a rule (route).
    pub section_name: Option<Name>,
    /// The whole `targetRef`.
    pub span: Span,
    /// Where `name` is written.
    pub name_span: Span,
    /// Where `sectionName` is written.
    pub section_span: Option<Span>,
}

impl fmt::Display for TargetRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.kind, self.name)?;
        if let Some(section) = &self.section_name {
            write!(f, "#{section}")?;
        }
        Ok(())
    }
}

/// A label selector over targets of one kind in the policy's namespace (`targetSelectors`).
#[derive(Clone, Debug)]
pub struct TargetSelector {
    /// Group of the selected kind.
    pub group: String,
    /// The selected kind.
    pub kind: String,
    /// `matchLabels`, sorted by key.
    pub match_labels: Vec<(String, String)>,
    /// `matchExpressions`.
    pub match_expressions: Vec<LabelRequirement>,
    /// `sectionName`: a listener or rule of each selected object.
    pub section_name: Option<String>,
    /// Whether an empty selector selects nothing (kgateway) rather than everything (Kubernetes).
    pub empty_selects_nothing: bool,
    /// Whether it selects in every namespace rather than the policy's (kgateway's global
    /// policy namespace).
    pub all_namespaces: bool,
    /// Other namespaces it may select in, each match there permitted by a ReferenceGrant
    /// (Envoy Gateway's `namespaces`; `None`: the policy's namespace only).
    pub cross_namespace: Option<Box<CrossNamespace>>,
    /// The whole entry.
    pub span: Span,
}

/// The namespaces beyond its own a selector looks in, and the ReferenceGrant a match there
/// needs: one in the target's namespace whose `from` names `(grant_group, the policy's kind, the
/// policy's namespace)` and whose `to` names the target's group and kind (and no name, or its
/// name).
#[derive(Clone, Debug)]
pub struct CrossNamespace {
    /// Which namespaces.
    pub from: NamespacesFrom,
    /// The group of the policy in the ReferenceGrant's `from`.
    pub grant_group: &'static str,
}

/// Which namespaces a [`CrossNamespace`] selector looks in.
#[derive(Clone, Debug)]
pub enum NamespacesFrom {
    /// Every namespace.
    All,
    /// Namespaces whose Namespace object's labels match (`matchLabels`, sorted, and
    /// `matchExpressions`); a Namespace absent from the input matches nothing.
    Selector(Vec<(String, String)>, Vec<LabelRequirement>),
}

/// One `matchExpressions` entry.
#[derive(Clone, Debug)]
pub struct LabelRequirement {
    /// The label key.
    pub key: String,
    /// The operator.
    pub operator: LabelOperator,
    /// The values (`In`, `NotIn`).
    pub values: Vec<String>,
}

/// A label selector operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabelOperator {
    /// The label's value is one of the values.
    In,
    /// The label is absent or its value is none of the values.
    NotIn,
    /// The label is present.
    Exists,
    /// The label is absent.
    DoesNotExist,
}

impl TargetSelector {
    /// Whether an object with `labels` is selected.
    pub fn selects(&self, labels: &[(String, String)]) -> bool {
        if self.match_labels.is_empty() && self.match_expressions.is_empty() {
            return !self.empty_selects_nothing;
        }
        label_selector_matches(&self.match_labels, &self.match_expressions, labels)
    }
}

/// Whether `labels` satisfy every `matchLabels` pair and every `matchExpressions` requirement
/// (a selector with neither matches everything).
pub fn label_selector_matches(
    match_labels: &[(String, String)],
    match_expressions: &[LabelRequirement],
    labels: &[(String, String)],
) -> bool {
    let get = |key: &str| labels.iter().find(|(k, _)| k == key).map(|(_, v)| v);
    match_labels.iter().all(|(k, v)| get(k) == Some(v))
        && match_expressions.iter().all(|r| match r.operator {
            LabelOperator::In => get(&r.key).is_some_and(|v| r.values.contains(v)),
            LabelOperator::NotIn => get(&r.key).is_none_or(|v| !r.values.contains(v)),
            LabelOperator::Exists => get(&r.key).is_some(),
            LabelOperator::DoesNotExist => get(&r.key).is_none(),
        })
}

/// A decoded policy.
#[derive(Clone, Debug)]
pub struct Policy {
    /// Its kind.
    pub kind: &'static PolicyKind,
    /// Namespace.
    pub namespace: Name,
    /// Whether the namespace was not written (it came from `-n` or `default`).
    pub namespace_defaulted: bool,
    /// Name.
    pub name: String,
    /// `metadata.creationTimestamp`.
    pub creation_timestamp: Option<Timestamp>,
    /// `<kind>.<group>:<ns>/<name>`.
    pub locator: String,
    /// What it targets, by name (`targetRef`, then `targetRefs`; duplicates dropped).
    pub targets: ThinVec<TargetRef>,
    /// What it targets by labels (`targetSelectors`).
    pub selectors: ThinVec<TargetSelector>,
    /// A family-defined priority among policies on one attachment point (kgateway's
    /// `kgateway.dev/policy-weight`); 0 when the family has none.
    pub priority: i32,
    /// Errors the controller records on the policy (an invalid policy keeps its place but
    /// takes no part in merges); empty for a valid policy.
    pub errors: ThinVec<String>,
    /// The kinds of the targets the family took out of the generic resolution to resolve them
    /// itself (Envoy Gateway's ListenerSet targets, attached through its own slots), one per
    /// target: a policy with only such targets is not "without targets".
    pub unmodelled_targets: ThinVec<&'static str>,
    /// Blocks in processing order: defaults, bare, overrides.
    pub blocks: ThinVec<Block>,
    /// `spec.unset` entries.
    pub unset: ThinVec<UnsetEntry>,
    /// The spec as the API server stores it, for families whose merges combine whole specs
    /// (Envoy Gateway's `mergeType`); `None` for the others.
    pub spec: Option<Box<Node>>,
    /// Where the name is written.
    pub name_span: Span,
}

impl Policy {
    /// Replaces each rule value by a copy of its own ([`crate::yaml::Node::copied_apart`]):
    /// inside [`crate::platform::kept::keep`], the values move to kept storage (a clone of
    /// the policy shares its strings and collections).
    pub fn copy_rule_values_apart(&mut self) {
        for block in &mut self.blocks {
            for rule in &mut block.rules {
                rule.value = rule.value.copied_apart();
            }
        }
    }

    /// Replaces each rule value by `null` (where the value was written stays): what a run that
    /// shows no value keeps of a family that reads none ([`FamilyKinds::values_droppable`]).
    pub fn drop_rule_values(&mut self) {
        for block in &mut self.blocks {
            for rule in &mut block.rules {
                rule.value = Node {
                    span: rule.value.span,
                    value: crate::yaml::Value::Null,
                };
            }
        }
    }

    /// A policy decoded from `object`, with its targets and blocks; no priority, errors or
    /// `unset` entries (a family sets those it has).
    pub fn new(
        kind: &'static PolicyKind,
        object: &Object,
        (targets, selectors): (Vec<TargetRef>, Vec<TargetSelector>),
        blocks: Vec<Block>,
    ) -> Policy {
        Policy {
            kind,
            namespace: object.namespace_name(),
            namespace_defaulted: object.namespace_defaulted,
            name: object.name.to_string(),
            creation_timestamp: object.creation_timestamp,
            locator: format!(
                "{}:{}/{}",
                kind.locator_prefix(),
                object.namespace_str(),
                object.name
            ),
            targets: targets.into(),
            selectors: selectors.into(),
            priority: 0,
            errors: ThinVec::new(),
            unmodelled_targets: ThinVec::new(),
            blocks: blocks.into(),
            unset: ThinVec::new(),
            spec: None,
            name_span: object.name_span(),
        }
    }

    /// `ns/name`.
    pub fn namespaced_name(&self) -> String {
        format!("{}/{}", self.namespace, self.name)
    }

    /// `Kind ns/name`, for messages.
    pub fn display(&self) -> String {
        format!("{} {}/{}", self.kind.kind, self.namespace, self.name)
    }

    /// All rules of all blocks.
    pub fn rules(&self) -> impl Iterator<Item = (&Block, &Rule)> {
        self.blocks
            .iter()
            .flat_map(|b| b.rules.iter().map(move |r| (b, r)))
    }

    /// Whether any block uses RFC 0009 features the Kuadrant operator does not enforce.
    pub fn uses_rfc_extensions(&self) -> bool {
        !self.unset.is_empty() || self.blocks.iter().any(|b| b.constraint.is_some())
    }
}

/// What the loader and the model need of a family (the kinds half of the contract): its kinds
/// and how their objects decode into [`Policy`] values. What it decides once the hierarchy is
/// built (order, merge, status) is `crate::policy::PolicyFamily`, which extends this trait.
pub trait FamilyKinds: Send + Sync {
    /// The family's name.
    fn name(&self) -> &'static str;
    /// The policy kinds it defines.
    fn kinds(&self) -> &'static [PolicyKind];
    /// The other kinds its evaluation reads (Kuma's Mesh, Dataplane, MeshService): the loader
    /// keeps their objects in `Model::objects`, CRD-validated, for the family to read.
    fn object_kinds(&self) -> &'static [KindSpec] {
        &[]
    }
    /// Decodes an object of one of its kinds; `None` (with errors in `fields`) when the API
    /// server would reject it.
    fn decode(
        &self,
        kind: &'static PolicyKind,
        object: &Object,
        fields: &mut Fields,
    ) -> Option<Policy>;
    /// The object as its CRD sees it, when the family reads fields beyond the CRD (documented
    /// extensions, such as Kuadrant's RFC 0009 `unset` and block `when` constraints): those
    /// fields removed, so that CRD validation judges the rest. `None`: the object as written.
    fn crd_view(&self, _object: &Node) -> Option<Node> {
        None
    }
    /// Whether a run whose reports show no rule value ([`crate::model::RuleValues::Evaluation`])
    /// may drop this family's rule values once decoded: `true` when its evaluation reads them
    /// only in cases [`FamilyKinds::evaluation_reads_values`] tells from the decoded policies
    /// (the model then reads them again from the input). A family that merges or compares values
    /// keeps them: `false`.
    fn values_droppable(&self) -> bool {
        false
    }
    /// Whether evaluating `policies` (this family's, decoded, values dropped) reads their rule
    /// values. Asked only of a family whose [`FamilyKinds::values_droppable`] is `true`.
    fn evaluation_reads_values(&self, _policies: &[&Policy]) -> bool {
        true
    }
    /// Request-time CEL expressions (predicates, counters) in the policy's rules, to be
    /// syntax-checked: the text and the scalar holding it.
    fn request_expressions<'p>(&self, _policy: &'p Policy) -> Vec<(&'p str, Span)> {
        Vec::new()
    }
    /// Whether a rule `sectionName` may name an unnamed rule by its positional `rule-<i>` name
    /// (Kuadrant), or only a rule's own `name` (kgateway, Envoy Gateway).
    fn positional_rule_names(&self) -> bool {
        true
    }
    /// The finding for an object of `kind` in one of its `unserved_versions` (which it still
    /// evaluates as the current version): the family's controller's words for it.
    fn unserved_version(&self, _kind: &'static PolicyKind, _object: &Object) -> Option<Diagnostic> {
        None
    }
}
