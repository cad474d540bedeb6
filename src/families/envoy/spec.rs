//! What distinguishes one Envoy Gateway kind from another, as data ([`EnvoyKindSpec`]).
//!
//! The four built-in kinds (docs/families.md §3.1) are instances of the spec, and so is every kind a
//! families file declares with `model: envoy-gateway` (§4.3): the evaluator never matches kind
//! names, it reads the spec — the plural of its messages, whether `mergeType` is honoured, which
//! lists StrategicMerge merges by key, how the spec is cut into rules, and which fields carry
//! authentication for `auth-replaced-without-merge`.

use crate::policy::decode::{SelectorFields, TargetFields};
use crate::policy::{PolicyKind, Rule};
use crate::yaml::Node;
use std::sync::Arc;

/// One Envoy Gateway policy kind's semantics.
#[derive(Clone)]
pub struct EnvoyKindSpec {
    /// The plural in status messages (`backendTrafficPolicies`).
    pub plural: String,
    /// The word of the route-rule Overridden message (BTP: `backendTrafficPolicy`
    /// \[controller\]; the plural elsewhere).
    pub rule_plural: String,
    /// Whether `spec.mergeType` is honoured (§3.4); otherwise it is a shape error.
    pub merge_type: bool,
    /// StrategicMerge's keyed lists: the field path under `spec` and the item's key field.
    pub list_merge_keys: Vec<(Vec<String>, String)>,
    /// Which spec fields name targets.
    pub targets: TargetFields,
    /// How the spec (possibly merged) is cut into rules.
    pub rules: RuleCut,
    /// Top-level fields that carry authentication (`auth-replaced-without-merge`); empty for
    /// kinds without any.
    pub auth_fields: Vec<String>,
    /// How listener conflicts and Overridden are worded.
    pub listener_style: ListenerStyle,
    /// The top-level fields Envoy Gateway applies on a TCPRoute (SecurityPolicy:
    /// `authorization`), when it restricts them ([`super::tcp`]); `None`: no restriction known.
    pub tcp_fields: Option<Vec<String>>,
    /// Whether its policies configure listeners, routes or not (CTP; docs/families.md
    /// "Listener-level settings").
    pub acts_on_listeners: bool,
    /// Top-level fields Envoy Gateway resolves through its precedence index instead of taking
    /// them from the path's winner (BTP `routingType`; §3.4).
    pub indexed_fields: Vec<String>,
    /// Top-level fields Envoy Gateway merges its own way when both sides of a `mergeType`
    /// merge set them (§3.4).
    pub field_merges: Vec<(String, FieldMerge)>,
}

/// A field Envoy Gateway merges outside the generic merge of two specs (§3.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldMerge {
    /// BackendTrafficPolicy `rateLimit`: both policies' rules are enforced
    /// ([`super::ratelimit::merge_rate_limit`]).
    RateLimitRules,
}

impl FieldMerge {
    /// What the merge keeps, in words (for `explain`).
    pub fn describe(self) -> &'static str {
        match self {
            FieldMerge::RateLimitRules => {
                "the rate-limit rules of both are enforced, the route policy's first"
            }
        }
    }

    /// The merged value of the field, or `None` when the generic merge stands.
    pub fn merge(self, merge_type: super::MergeType, parent: &Node, route: &Node) -> Option<Node> {
        match self {
            FieldMerge::RateLimitRules => {
                super::ratelimit::merge_rate_limit(merge_type, parent, route)
            }
        }
    }
}

impl std::fmt::Debug for EnvoyKindSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EnvoyKindSpec")
            .field("plural", &self.plural)
            .field("merge_type", &self.merge_type)
            .finish_non_exhaustive()
    }
}

/// The wording of a kind's listener-level status (§3.2, §3.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListenerStyle {
    /// `Unable to target Listener <ns>/<gw>/<listener>, ...`; Overridden lists listeners and
    /// routes (BTP, and kinds a families file declares).
    Listener,
    /// As [`ListenerStyle::Listener`], but the conflict names the listener without the
    /// Gateway's namespace: `Unable to target Listener <gw>/<listener>, ...` (SP, EEP:
    /// `securitypolicy.go`, `envoyextensionpolicy.go` resolve…GatewayTargetRef; field-2026 §2.2).
    GatewayListener,
    /// `Unable to target section of <gw>, ...`; a whole-Gateway policy is Overridden by the
    /// listener policies (`There are existing ... that are overriding these sections`) (CTP).
    Section,
}

/// How a spec is cut into rules.
#[derive(Clone)]
pub enum RuleCut {
    /// Every top-level field but the targeting ones, `mergeType` and `exclude`.
    TopLevel {
        /// Further fields that are not rules.
        exclude: Vec<String>,
    },
    /// A family's own cut of a (possibly merged) spec.
    Custom(CustomCut),
}

/// A family's own cut of a spec into rules.
pub type CustomCut = Arc<dyn Fn(&Node) -> Vec<Rule> + Send + Sync>;

/// Fields that are never rules.
pub const NOT_RULES: [&str; 4] = ["targetRef", "targetRefs", "targetSelectors", "mergeType"];

impl RuleCut {
    /// The rules of `spec` (a mapping whose `null`s are already pruned), sorted by key.
    pub fn cut(&self, spec: &Node) -> Vec<Rule> {
        let mut rules = match self {
            RuleCut::TopLevel { exclude } => spec
                .as_map()
                .unwrap_or_default()
                .iter()
                .filter(|e| {
                    !NOT_RULES.contains(&&*e.key.text)
                        && !exclude.iter().any(|x| **x == *e.key.text)
                })
                .map(|e| Rule {
                    key: crate::name::Name::new(&e.key.text),
                    value: e.value.clone(),
                    key_span: e.key.span,
                })
                .collect(),
            RuleCut::Custom(cut) => cut(spec),
        };
        rules.sort_by(|a, b| a.key.cmp(&b.key));
        rules.dedup_by(|a, b| a.key == b.key);
        rules
    }
}

/// `spec.targetRef`, `spec.targetRefs`, `spec.targetSelectors` with `matchLabels` and
/// `matchExpressions` (no `sectionName`; an empty selector selects everything).
pub const TARGET_FIELDS: TargetFields = TargetFields {
    single: true,
    list: true,
    required: false,
    section_name: true,
    selectors: Some(SelectorFields {
        match_expressions: true,
        section_name: false,
        empty_selects_nothing: false,
    }),
};

/// `gateway.envoyproxy.io`.
pub const GROUP: &str = "gateway.envoyproxy.io";

const XROUTE_KINDS: &[&str] = &[
    "Gateway",
    "HTTPRoute",
    "GRPCRoute",
    "TCPRoute",
    "UDPRoute",
    "TLSRoute",
    "ListenerSet",
];
const XROUTE_MESSAGE: &str = "Unsupported value: the only supported target kinds are 'Gateway', 'HTTPRoute', 'GRPCRoute', 'TCPRoute', 'UDPRoute', 'TLSRoute' and 'ListenerSet'";

const fn kind(
    kind: &'static str,
    targets: &'static [&'static str],
    message: &'static str,
) -> PolicyKind {
    PolicyKind {
        family: "envoy-gateway",
        group: GROUP,
        kind,
        versions: &["v1alpha1"],
        unserved_versions: &[],
        target_kinds: targets,
        target_kind_message: message,
    }
}

/// The built-in kinds, in the order of [`builtin_specs`].
pub static BUILTIN_KINDS: [PolicyKind; 4] = [
    kind("BackendTrafficPolicy", XROUTE_KINDS, XROUTE_MESSAGE),
    kind(
        "ClientTrafficPolicy",
        &["Gateway", "ListenerSet"],
        "Unsupported value: a ClientTrafficPolicy may target only a Gateway or a ListenerSet",
    ),
    kind("SecurityPolicy", XROUTE_KINDS, XROUTE_MESSAGE),
    kind("EnvoyExtensionPolicy", XROUTE_KINDS, XROUTE_MESSAGE),
];

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

fn keyed(path: &[&str], key: &str) -> (Vec<String>, String) {
    (strings(path), key.to_string())
}

/// The specs of [`BUILTIN_KINDS`], in order.
pub fn builtin_specs() -> Vec<EnvoyKindSpec> {
    let base = |plural: &str| EnvoyKindSpec {
        plural: plural.to_string(),
        rule_plural: plural.to_string(),
        merge_type: true,
        list_merge_keys: Vec::new(),
        targets: TARGET_FIELDS,
        rules: RuleCut::TopLevel {
            exclude: Vec::new(),
        },
        auth_fields: Vec::new(),
        listener_style: ListenerStyle::Listener,
        tcp_fields: None,
        acts_on_listeners: false,
        indexed_fields: Vec::new(),
        field_merges: Vec::new(),
    };
    vec![
        EnvoyKindSpec {
            rule_plural: "backendTrafficPolicy".into(),
            list_merge_keys: vec![
                keyed(&["compression"], "type"),
                keyed(&["compressor"], "type"),
                keyed(&["httpUpgrade"], "type"),
            ],
            field_merges: vec![("rateLimit".to_string(), FieldMerge::RateLimitRules)],
            indexed_fields: strings(&["routingType"]),
            ..base("backendTrafficPolicies")
        },
        EnvoyKindSpec {
            merge_type: false,
            listener_style: ListenerStyle::Section,
            acts_on_listeners: true,
            ..base("clientTrafficPolicies")
        },
        EnvoyKindSpec {
            list_merge_keys: vec![keyed(&["extAuth", "contextExtensions"], "name")],
            auth_fields: strings(&[
                "jwt",
                "oidc",
                "basicAuth",
                "apiKeyAuth",
                "extAuth",
                "authorization",
            ]),
            tcp_fields: Some(strings(&["authorization"])),
            listener_style: ListenerStyle::GatewayListener,
            ..base("securityPolicies")
        },
        EnvoyKindSpec {
            listener_style: ListenerStyle::GatewayListener,
            ..base("envoyExtensionPolicies")
        },
    ]
}
