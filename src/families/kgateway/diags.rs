//! kgateway's codes (DPL5xxx): TrafficPolicy attachments, annotations and merges whose
//! outcome in kgateway is not what the manifests suggest, each with the finding types that word
//! it.

use super::evaluate::PRIORITY_ANNOTATION;
use super::family::WEIGHT_ANNOTATION;
use super::{ScopeNote, Strategy};
use crate::diag::{Class, Code, CodeDef, Severity, Violation};
use crate::load::Object;
use crate::model::gateway::{Route, RouteRule};
use crate::policy::Policy;
use std::collections::BTreeSet;

/// The codes declared here, in catalogue order.
pub const CODES: &[Code] = &[
    // Route delegation's (`delegation_diags`).
    Code::DELEGATION_CHILD_DROPPED,
    Code::DELEGATION_NOT_SUPPORTED,
    Code::DELEGATION_MIXED_BACKENDS,
    Code::EXTENSION_REF_NOT_FOUND,
    Code::ROUTE_REPLACED,
    Code::INVALID_POLICY_WEIGHT,
    Code::UNKNOWN_INHERITED_PRIORITY,
    Code::INHERITED_PRIORITY_ON_GATEWAY,
    Code::DUPLICATE_ATTACHMENT,
    Code::SELECTOR_SELECTS_NOTHING,
    Code::GATEWAY_DISABLES_ROUTE_PROVIDER,
    Code::GATEWAY_HEADER_SET_WINS,
    Code::INVALID_POLICY,
    Code::DEEP_MERGE_PLAIN_FIELD,
    Code::DELEGATEE_CAN_DISABLE_AUTH,
    Code::BUILTIN_SHADOWS_POLICY,
    Code::MISSPELLED_ANNOTATION,
    Code::OLD_PRIORITY_VALUE,
    Code::SHARED_PORT_HOSTNAME_ISOLATION,
];

impl Code {
    /// DPL5001 `extension-ref-not-found`: A route rule's ExtensionRef filter names a TrafficPolicy that is not in the input; kgateway answers the rule with a 500.
    pub const EXTENSION_REF_NOT_FOUND: Code = Code::new(&CodeDef {
        id: "DPL5001",
        name: "extension-ref-not-found",
        severity: Severity::Error,
        class: Class::Finding,
        summary: "A route rule's ExtensionRef filter names a TrafficPolicy that is not in the input; kgateway answers the rule with a 500.",
        explanation: "A route rule filter `{type: ExtensionRef, extensionRef: {group: gateway.kgateway.dev, kind: TrafficPolicy, name: N}}` names a TrafficPolicy that is not in the route's namespace. kgateway records an error on the rule and answers it with a 500, so its paths have no effective TrafficPolicy.",
        fix: "Create the TrafficPolicy in the route's namespace, or fix the name in the filter.",
        example: "filters: [{type: ExtensionRef, extensionRef: {group: gateway.kgateway.dev, kind: TrafficPolicy, name: missing}}]",
    });
}

/// A route rule's ExtensionRef filter names a policy that is not in the input
/// (`extension-ref-not-found`).
pub struct ExtensionRefNotFound<'a> {
    /// The route whose rule has the filter.
    pub route: &'a Route,
    /// The rule.
    pub rule: &'a RouteRule,
    /// The policy kind the filter names (`TrafficPolicy`).
    pub kind: &'a str,
    /// The policy name the filter gives; kgateway looks for it in the route's namespace.
    pub name: &'a str,
}

impl Violation for ExtensionRefNotFound<'_> {
    fn code(&self) -> Code {
        Code::EXTENSION_REF_NOT_FOUND
    }
    fn message(&self) -> String {
        format!(
            "rule {} of {} names {} {}/{} in an ExtensionRef filter, which is not in the input; kgateway answers this rule with a 500",
            self.rule.name,
            self.route.display(),
            self.kind,
            self.route.namespace,
            self.name
        )
    }
}

impl Code {
    /// DPL5002 `route-replaced`: An invalid TrafficPolicy takes part in a scope of the path, so kgateway replaces the scope with a 500 and the path has no effective TrafficPolicy.
    pub const ROUTE_REPLACED: Code = Code::new(&CodeDef {
        id: "DPL5002",
        name: "route-replaced",
        severity: Severity::Error,
        class: Class::Finding,
        summary: "An invalid TrafficPolicy takes part in a scope of the path, so kgateway replaces the scope with a 500 and the path has no effective TrafficPolicy.",
        explanation: "An invalid TrafficPolicy (an invalid weight, an ACL CIDR with host bits set) takes part in a scope of the path. kgateway skips it in the merge but carries its error into the scope, and with the default STANDARD route validation replaces the scope with a 500 direct response: a route scope the route, a listener scope its virtual hosts, a Gateway scope the whole route configuration.",
        fix: "Fix the invalid policy (see its own error) or detach it.",
        example: "metadata: {annotations: {kgateway.dev/policy-weight: high}}",
    });
}

/// A scope of a path kgateway replaces with a 500, because an invalid policy takes part in it
/// (`route-replaced`).
pub struct RouteReplaced<'a> {
    /// The path's identifier.
    pub path: &'a str,
    /// Which scope is replaced, and by whose error (the fold failure's reason).
    pub reason: &'a str,
}

impl Violation for RouteReplaced<'_> {
    fn code(&self) -> Code {
        Code::ROUTE_REPLACED
    }
    fn message(&self) -> String {
        format!("path {}: {}", self.path, self.reason)
    }
}

impl Code {
    /// DPL5003 `invalid-policy-weight`: `kgateway.dev/policy-weight` is not a base-10 int32: kgateway rejects the policy.
    pub const INVALID_POLICY_WEIGHT: Code = Code::new(&CodeDef {
        id: "DPL5003",
        name: "invalid-policy-weight",
        severity: Severity::Error,
        class: Class::Finding,
        summary: "`kgateway.dev/policy-weight` is not a base-10 int32: kgateway rejects the policy.",
        explanation: "`kgateway.dev/policy-weight` must be a base-10 int32 (it may be negative). Any other value does not count as 0: kgateway rejects the policy (Accepted=False, reason Invalid) and every scope it takes part in answers 500.",
        fix: "Write an integer, e.g. `kgateway.dev/policy-weight: \"10\"`, or remove the annotation.",
        example: "metadata: {annotations: {kgateway.dev/policy-weight: \"1.5\"}}",
    });
}

/// An error kgateway records on a policy, which rejects it: `invalid-policy-weight` for the
/// weight annotation's, `invalid-policy` for the others.
pub struct PolicyRejected<'a> {
    /// The rejected policy.
    pub policy: &'a Policy,
    /// The error, as kgateway words it.
    pub error: &'a str,
}

impl PolicyRejected<'_> {
    /// One finding per error kgateway records on `policy`, at its name.
    pub fn of(policy: &Policy) -> impl Iterator<Item = crate::diag::Diagnostic> + '_ {
        (policy.errors.iter()).map(move |error| {
            crate::diag::Diagnostic::from(PolicyRejected { policy, error })
                .with_label(policy.name_span, "rejected by kgateway")
                .with_object(policy.display())
        })
    }
}

impl Violation for PolicyRejected<'_> {
    fn code(&self) -> Code {
        match self.error.contains(WEIGHT_ANNOTATION) {
            true => Code::INVALID_POLICY_WEIGHT,
            false => Code::INVALID_POLICY,
        }
    }
    fn message(&self) -> String {
        format!("{}: {}", self.policy.display(), self.error)
    }
}

impl Code {
    /// DPL5004 `unknown-inherited-priority`: `kgateway.dev/inherited-policy-priority` has a value kgateway does not know; it means ShallowMergePreferChild.
    pub const UNKNOWN_INHERITED_PRIORITY: Code = Code::new(&CodeDef {
        id: "DPL5004",
        name: "unknown-inherited-priority",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "`kgateway.dev/inherited-policy-priority` has a value kgateway does not know; it means ShallowMergePreferChild.",
        explanation: "kgateway knows four values of `kgateway.dev/inherited-policy-priority` (ShallowMergePreferChild, ShallowMergePreferParent, DeepMergePreferChild, DeepMergePreferParent), exact case. Any other value silently means ShallowMergePreferChild: children's policies win over the parent's.",
        fix: "Use one of the four values, spelled exactly.",
        example: "metadata: {annotations: {kgateway.dev/inherited-policy-priority: ShallowMergePreferparent}}",
    });

    /// DPL5005 `inherited-priority-on-gateway`: `kgateway.dev/inherited-policy-priority` on a Gateway has no effect in kgateway, although its API doc says so.
    pub const INHERITED_PRIORITY_ON_GATEWAY: Code = Code::new(&CodeDef {
        id: "DPL5005",
        name: "inherited-priority-on-gateway",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "`kgateway.dev/inherited-policy-priority` on a Gateway has no effect in kgateway, although its API doc says so.",
        explanation: "kgateway reads `kgateway.dev/inherited-policy-priority` from HTTPRoutes only (where a route delegates). Its API doc mentions Gateways, but Gateway and listener policies never enter the route fold, so the annotation on a Gateway does nothing.",
        fix: "Move the annotation to the parent HTTPRoute that delegates, or remove it.",
        example: "kind: Gateway\nmetadata: {annotations: {kgateway.dev/inherited-policy-priority: ShallowMergePreferParent}}",
    });
}

/// Why kgateway does not apply `kgateway.dev/inherited-policy-priority` as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PriorityIgnored {
    /// A value kgateway does not know, which means ShallowMergePreferChild
    /// (`unknown-inherited-priority`).
    Unknown,
    /// On a Gateway, where kgateway never reads it (`inherited-priority-on-gateway`).
    OnGateway,
}

/// `kgateway.dev/inherited-policy-priority` that does not do what it says
/// (`unknown-inherited-priority`, `inherited-priority-on-gateway`).
pub struct InheritedPriority<'a> {
    /// The annotated object.
    pub object: &'a Object,
    /// The annotation's value.
    pub value: &'a str,
    /// Why it does not apply.
    pub ignored: PriorityIgnored,
}

impl InheritedPriority<'_> {
    /// The label on the annotation.
    pub fn label(&self) -> &'static str {
        match self.ignored {
            PriorityIgnored::Unknown => "unknown value",
            PriorityIgnored::OnGateway => "no effect on a Gateway",
        }
    }
}

impl Violation for InheritedPriority<'_> {
    fn code(&self) -> Code {
        match self.ignored {
            PriorityIgnored::Unknown => Code::UNKNOWN_INHERITED_PRIORITY,
            PriorityIgnored::OnGateway => Code::INHERITED_PRIORITY_ON_GATEWAY,
        }
    }
    fn message(&self) -> String {
        let effect = match self.ignored {
            PriorityIgnored::Unknown => "kgateway does not know; it means ShallowMergePreferChild",
            PriorityIgnored::OnGateway => "kgateway ignores on a Gateway",
        };
        format!(
            "{} has `{PRIORITY_ANNOTATION}: {}`, which {effect}",
            self.object.display(),
            self.value
        )
    }
    fn help(&self) -> Option<String> {
        (self.ignored == PriorityIgnored::Unknown).then(|| {
            "use ShallowMergePreferChild, ShallowMergePreferParent, DeepMergePreferChild or DeepMergePreferParent (exact case)".to_string()
        })
    }
}

impl Code {
    /// DPL5006 `duplicate-attachment`: A TrafficPolicy reaches one element through several attachments; kgateway merges it once per attachment.
    pub const DUPLICATE_ATTACHMENT: Code = Code::new(&CodeDef {
        id: "DPL5006",
        name: "duplicate-attachment",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "A TrafficPolicy reaches one element through several attachments; kgateway merges it once per attachment.",
        explanation: "A TrafficPolicy reaches one element several times (a targetRef and a selector to the same route, an ExtensionRef and a targetRef). kgateway does not de-duplicate: it merges the policy once per attachment, which repeats list items in deep merges (`acl.rules` twice).",
        fix: "Attach the policy one way only.",
        example: "targetRefs: [{kind: HTTPRoute, name: r}]\ntargetSelectors: [{kind: HTTPRoute, matchLabels: {app: r}}]",
    });
}

/// A policy that reaches one element through several attachments (`duplicate-attachment`).
pub struct DuplicateAttachment<'a> {
    /// The policy.
    pub policy: &'a Policy,
    /// The element it reaches more than once, described.
    pub target: String,
}

impl Violation for DuplicateAttachment<'_> {
    fn code(&self) -> Code {
        Code::DUPLICATE_ATTACHMENT
    }
    fn message(&self) -> String {
        format!(
            "{} attaches to {} more than once; kgateway merges it once per attachment",
            self.policy.display(),
            self.target
        )
    }
}

impl Code {
    /// DPL5007 `selector-selects-nothing`: A targetSelector with empty matchLabels selects nothing in kgateway.
    pub const SELECTOR_SELECTS_NOTHING: Code = Code::new(&CodeDef {
        id: "DPL5007",
        name: "selector-selects-nothing",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "A targetSelector with empty matchLabels selects nothing in kgateway.",
        explanation: "kgateway matches targetSelectors with istio's label matcher, which is false for an empty selector: `matchLabels: {}` selects nothing (in Kubernetes it would select everything).",
        fix: "Name the labels to select, or use targetRefs.",
        example: "targetSelectors: [{group: gateway.networking.k8s.io, kind: HTTPRoute, matchLabels: {}}]",
    });
}

/// A targetSelector without labels, which selects nothing in kgateway
/// (`selector-selects-nothing`).
pub struct SelectorSelectsNothing<'a> {
    /// The policy with the selector.
    pub policy: &'a Policy,
}

impl Violation for SelectorSelectsNothing<'_> {
    fn code(&self) -> Code {
        Code::SELECTOR_SELECTS_NOTHING
    }
    fn message(&self) -> String {
        format!(
            "a targetSelector of {} has no labels: kgateway selects nothing with it",
            self.policy.display()
        )
    }
}

impl Code {
    /// DPL5008 `gateway-disables-route-provider`: A listener or Gateway TrafficPolicy disables extAuth/extProc/jwtAuth, switching off the providers a route policy names.
    pub const GATEWAY_DISABLES_ROUTE_PROVIDER: Code = Code::new(&CodeDef {
        id: "DPL5008",
        name: "gateway-disables-route-provider",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "A listener or Gateway TrafficPolicy disables extAuth/extProc/jwtAuth, switching off the providers a route policy names.",
        explanation: "kgateway installs one filter per extAuth/extProc/jwtAuth provider and enables it from every scope that names it; a `disable` value at any scope enables a global-disable filter that every provider of the field honours. A listener or Gateway policy with `disable` therefore switches off the providers a route policy names, although the route is more specific.",
        fix: "Remove the `disable` from the listener or Gateway policy, or disable providers per route instead.",
        example: "# Gateway policy: extAuth: {disable: {}}; route policy: extAuth: {extensionRef: {name: authz}}",
    });

    /// DPL5009 `gateway-header-set-wins`: A header set by a route TrafficPolicy and by a listener or Gateway one ends with the less specific value (Envoy applies header mutations of every level, least specific last).
    pub const GATEWAY_HEADER_SET_WINS: Code = Code::new(&CodeDef {
        id: "DPL5009",
        name: "gateway-header-set-wins",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "A header set by a route TrafficPolicy and by a listener or Gateway one ends with the less specific value (Envoy applies header mutations of every level, least specific last).",
        explanation: "Envoy's header_mutation applies the mutations of every level, most specific first; later ones may override earlier ones, and kgateway never sets `most_specific_header_mutations_wins`. A header `set` by a route policy and by a listener or Gateway policy ends with the less specific value.",
        fix: "Set the header at one level only, or use `add` at the route.",
        example: "# route policy: headerModifiers.request.set [{name: x-env, value: route}]; Gateway policy: the same header, value gw",
    });
}

/// A listener or Gateway scope of a policy that overrides what the route scope asks
/// (`gateway-disables-route-provider`, `gateway-header-set-wins`, by the note).
pub struct ScopeOverride<'a> {
    /// The policy whose scope decides it.
    pub policy: &'a Policy,
    /// What the scopes did.
    pub note: &'a ScopeNote,
    /// On how many paths.
    pub paths: usize,
}

impl Violation for ScopeOverride<'_> {
    fn code(&self) -> Code {
        match self.note {
            ScopeNote::DisablesRouteProviders { .. } => Code::GATEWAY_DISABLES_ROUTE_PROVIDER,
            ScopeNote::HeaderSetWins { .. } => Code::GATEWAY_HEADER_SET_WINS,
        }
    }
    fn message(&self) -> String {
        format!(
            "{}: {}, on {}",
            self.policy.display(),
            scope_note(self.note),
            crate::words::counted(self.paths, "path")
        )
    }
}

/// What a scope note says the policy's scope does.
fn scope_note(note: &ScopeNote) -> String {
    match note {
        ScopeNote::DisablesRouteProviders { scope, providers } => format!(
            "its {} scope `disable` switches off the route's providers ({})",
            scope.as_str(),
            providers
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        ScopeNote::HeaderSetWins {
            direction,
            header,
            winner,
            over,
        } => format!(
            "its {} scope sets {} header `{header}`, which the {} scope also sets; the {} value is the one that stays",
            winner.as_str(),
            direction.as_str(),
            over.as_str(),
            winner.as_str()
        ),
    }
}

impl Code {
    /// DPL5010 `invalid-policy`: kgateway records an error on the TrafficPolicy (e.g. an acl CIDR with host bits set): it is rejected and its scopes answer 500.
    pub const INVALID_POLICY: Code = Code::new(&CodeDef {
        id: "DPL5010",
        name: "invalid-policy",
        severity: Severity::Error,
        class: Class::Finding,
        summary: "kgateway records an error on the TrafficPolicy (e.g. an acl CIDR with host bits set): it is rejected and its scopes answer 500.",
        explanation: "kgateway validates parts of a TrafficPolicy itself (an `acl` CIDR must be a network prefix, without host bits). A policy it rejects keeps its place in the order but takes part in no merge, and every scope it takes part in answers 500.",
        fix: "Fix the value the message names, e.g. `10.0.0.0/8` instead of `10.0.0.1/8`.",
        example: "acl: {defaultAction: deny, rules: [{cidrs: [10.0.0.1/8], action: allow}]}",
    });

    /// DPL5011 `deep-merge-plain-field`: Under DeepMergePreferParent kgateway keeps the child's value of a plain field, not the parent's (kgateway#14724).
    pub const DEEP_MERGE_PLAIN_FIELD: Code = Code::new(&CodeDef {
        id: "DPL5011",
        name: "deep-merge-plain-field",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "Under DeepMergePreferParent kgateway keeps the child's value of a plain field, not the parent's (kgateway#14724).",
        explanation: "`kgateway.dev/inherited-policy-priority: DeepMergePreferParent` promises that the parent route's policies win, but for every field kgateway cannot merge deeply it keeps the child's value (kgateway#14724): the parent's value of that field is lost wherever the child sets it.",
        fix: "Use ShallowMergePreferParent when the parent's values must win, or do not set the field in the child.",
        example: "# parent HTTPRoute: DeepMergePreferParent, parent policy timeouts: {request: 10s}; child policy timeouts: {request: 60s} → 60s",
    });
}

/// A DeepMergePreferParent route whose child's plain field kgateway keeps over its own
/// (`deep-merge-plain-field`, kgateway#14724).
pub struct DeepMergePlainField<'a> {
    /// The parent route asking DeepMergePreferParent.
    pub route: &'a Route,
    /// The plain field.
    pub key: &'a str,
    /// On how many paths.
    pub paths: usize,
}

impl Violation for DeepMergePlainField<'_> {
    fn code(&self) -> Code {
        Code::DEEP_MERGE_PLAIN_FIELD
    }
    fn message(&self) -> String {
        format!(
            "{} asks DeepMergePreferParent, but kgateway keeps the child's `{}` over its own on {} (kgateway#14724)",
            self.route.display(),
            self.key,
            crate::words::counted(self.paths, "path")
        )
    }
    fn help(&self) -> Option<String> {
        Some("use ShallowMergePreferParent if the parent's value must win".to_string())
    }
}

impl Code {
    /// DPL5012 `delegatee-can-disable-auth`: A child route in another namespace can replace or disable the parent route's authentication, because the parent does not prefer its own policies.
    pub const DELEGATEE_CAN_DISABLE_AUTH: Code = Code::new(&CodeDef {
        id: "DPL5012",
        name: "delegatee-can-disable-auth",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "A child route in another namespace can replace or disable the parent route's authentication, because the parent does not prefer its own policies.",
        explanation: "A route that delegates to routes in other namespaces without a *PreferParent inheritance priority lets each child's TrafficPolicy replace the parent's extAuth, jwtAuth, basicAuth, apiKeyAuth or oauth2 — or disable it. The parent's owner cannot enforce authentication on the delegated paths.",
        fix: "Set `kgateway.dev/inherited-policy-priority: ShallowMergePreferParent` (or DeepMergePreferParent) on the parent route, or keep the children in the parent's namespace.",
        example: "# parent infra/api delegates to shop/*; infra policy extAuth; shop policy extAuth: {disable: {}}",
    });
}

/// A route delegating to other namespaces whose authentication the children's policies can
/// replace or disable (`delegatee-can-disable-auth`).
pub struct DelegateeCanDisableAuth<'a> {
    /// The delegating route.
    pub route: &'a Route,
    /// Its inheritance strategy (one that does not prefer the parent).
    pub strategy: Strategy,
    /// The children's namespaces.
    pub namespaces: &'a BTreeSet<String>,
    /// The authentication keys of its policies the children can replace.
    pub keys: &'a BTreeSet<String>,
}

impl Violation for DelegateeCanDisableAuth<'_> {
    fn code(&self) -> Code {
        Code::DELEGATEE_CAN_DISABLE_AUTH
    }
    fn message(&self) -> String {
        let join = |set: &BTreeSet<String>| set.iter().cloned().collect::<Vec<_>>().join(", ");
        format!(
            "{} delegates to routes in namespace{} {} with {}: their TrafficPolicies can replace or disable its {}",
            self.route.display(),
            if self.namespaces.len() == 1 { "" } else { "s" },
            join(self.namespaces),
            self.strategy,
            join(self.keys)
        )
    }
    fn help(&self) -> Option<String> {
        Some(format!(
            "set `{PRIORITY_ANNOTATION}: ShallowMergePreferParent` on this route to keep its authentication"
        ))
    }
}

impl Code {
    /// DPL5013 `builtin-shadows-policy`: A route rule sets a built-in field or filter with the same meaning as an effective TrafficPolicy field.
    pub const BUILTIN_SHADOWS_POLICY: Code = Code::new(&CodeDef {
        id: "DPL5013",
        name: "builtin-shadows-policy",
        severity: Severity::Info,
        class: Class::Finding,
        summary: "A route rule sets a built-in field or filter with the same meaning as an effective TrafficPolicy field.",
        explanation: "The route rule sets a Gateway API built-in (rule `timeouts` or `retry`, a URLRewrite, RequestHeaderModifier, ResponseHeaderModifier or CORS filter) with the same meaning as a field of its effective TrafficPolicy. kgateway applies both, and the built-in usually wins; dopol does not model the built-ins, so the effective TrafficPolicy value may not be what the route does.",
        fix: "Keep the setting in one place: the route rule or the TrafficPolicy.",
        example: "rules: [{timeouts: {request: 5s}}]  # and a TrafficPolicy with timeouts on the route",
    });
}

/// A route rule built-in with the same meaning as a field of its effective TrafficPolicy
/// (`builtin-shadows-policy`).
pub struct BuiltinShadowsPolicy<'a> {
    /// The route.
    pub route: &'a Route,
    /// The rule setting the built-in.
    pub rule: &'a RouteRule,
    /// The built-in (a rule field or a filter type).
    pub builtin: &'a str,
    /// The TrafficPolicy field of the same meaning.
    pub field: &'a str,
}

impl Violation for BuiltinShadowsPolicy<'_> {
    fn code(&self) -> Code {
        Code::BUILTIN_SHADOWS_POLICY
    }
    fn message(&self) -> String {
        format!(
            "rule {} of {} sets `{}`, and its effective TrafficPolicy sets `{}`; kgateway applies both, so the TrafficPolicy value shown may not be what the route does",
            self.rule.name,
            self.route.display(),
            self.builtin,
            self.field
        )
    }
}

impl Code {
    /// DPL5014 `misspelled-kgateway-annotation`: An annotation key is a near miss of a kgateway annotation (a typo, or kgateway 2.0's `delegation.kgateway.dev/inherited-policy-priority`); kgateway does not read it.
    pub const MISSPELLED_ANNOTATION: Code = Code::new(&CodeDef {
        id: "DPL5014",
        name: "misspelled-kgateway-annotation",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "An annotation key is a near miss of a kgateway annotation (a typo, or kgateway 2.0's `delegation.kgateway.dev/inherited-policy-priority`); kgateway does not read it.",
        explanation: "kgateway reads `kgateway.dev/inherited-policy-priority`, `kgateway.dev/policy-weight` and `delegation.kgateway.dev/inherit-parent-matcher` by their exact keys. A key with the same last segment under another prefix, or a kgateway key a typo away, is not read: the object behaves as if the annotation were absent (the default strategy, weight 0, no matcher inheritance). kgateway 2.1 renamed `delegation.kgateway.dev/inherited-policy-priority` to `kgateway.dev/inherited-policy-priority`, and kgateway's own delegation guide still writes the old key.",
        fix: "Write the key kgateway reads (the help names it); for the old priority key, use the 2.1 values too.",
        example: "kind: HTTPRoute\nmetadata: {annotations: {delegation.kgateway.dev/inherited-policy-priority: PreferChild}}",
    });

    /// DPL5015 `kgateway-2-0-priority-value`: `kgateway.dev/inherited-policy-priority` has a kgateway 2.0 value (`PreferParent`, `PreferChild`); kgateway 2.1 and later read it as ShallowMergePreferChild.
    pub const OLD_PRIORITY_VALUE: Code = Code::new(&CodeDef {
        id: "DPL5015",
        name: "kgateway-2-0-priority-value",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "`kgateway.dev/inherited-policy-priority` has a kgateway 2.0 value (`PreferParent`, `PreferChild`); kgateway 2.1 and later read it as ShallowMergePreferChild.",
        explanation: "kgateway 2.0 took `PreferParent` and `PreferChild`. Since 2.1 the annotation takes ShallowMergePreferChild, ShallowMergePreferParent, DeepMergePreferChild or DeepMergePreferParent, and any other value means ShallowMergePreferChild: a 2.0 `PreferParent` silently lets children's policies win.",
        fix: "Write the 2.1 value with the same meaning: `PreferParent` is `ShallowMergePreferParent`, `PreferChild` is `ShallowMergePreferChild`.",
        example: "metadata: {annotations: {kgateway.dev/inherited-policy-priority: PreferParent}}",
    });

    /// DPL5016 `shared-port-hostname-isolation`: A route claims, through a less specific listener, a hostname that a ListenerSet listener with TrafficPolicies serves on the same port: kgateway does not serve it there, and the listener's policies never reach it.
    pub const SHARED_PORT_HOSTNAME_ISOLATION: Code = Code::new(&CodeDef {
        id: "DPL5016",
        name: "shared-port-hostname-isolation",
        severity: Severity::Info,
        class: Class::Finding,
        summary: "A route claims, through a less specific listener, a hostname that a ListenerSet listener with TrafficPolicies serves on the same port: kgateway does not serve it there, and the listener's policies never reach it.",
        explanation: "kgateway builds one Envoy listener per port and a virtual host per listener hostname; a request for a precise hostname goes to the listener that names it, so a route attached through a wildcard (or hostname-less) listener on the same port that claims that hostname is not served for it (kgateway golden `listener-sets/shared-port-policy-isolation`). dopol does not model this isolation in kgateway's terms: it keeps the route's path through the wildcard listener, which carries none of the specific listener's TrafficPolicies. Where both listeners are the Gateway's own, `shadowed-by-listener` says the same for every family.",
        fix: "Attach the route to the specific listener too (a parentRef to its ListenerSet with `sectionName`), or drop the hostname from the route.",
        example: "# ListenerSet wildcard: http-9090 *.example.com; ListenerSet specific: http-9090 specific.example.com + a TrafficPolicy\n# HTTPRoute through wildcard with hostnames: [specific.example.com]",
    });
}

/// A route's hostname that a more specific listener with TrafficPolicies serves on the same port
/// (`shared-port-hostname-isolation`).
pub struct SharedPortIsolation<'a> {
    /// The route (`HTTPRoute ns/name`).
    pub route: String,
    /// The hostname.
    pub hostname: &'a str,
    /// The listener the route is attached through, with its hostname.
    pub through: String,
    /// The listener that serves the hostname, with its hostname.
    pub served_by: String,
    /// The port.
    pub port: i64,
    /// The served-by listener's TrafficPolicies (`ns/name`).
    pub policies: Vec<String>,
}

impl Violation for SharedPortIsolation<'_> {
    fn code(&self) -> Code {
        Code::SHARED_PORT_HOSTNAME_ISOLATION
    }
    fn message(&self) -> String {
        format!(
            "{} claims {} through listener {}, which shares port {} with {}: kgateway serves that hostname on the latter only, so the route is not served for it; dopol keeps its path, which carries none of that listener's TrafficPolicies ({})",
            self.route,
            self.hostname,
            self.through,
            self.port,
            self.served_by,
            self.policies.join(", ")
        )
    }
}

/// An annotation kgateway does not read as written: a near-miss key
/// (`misspelled-kgateway-annotation`) or a kgateway 2.0 priority value
/// (`kgateway-2-0-priority-value`).
pub struct AnnotationNearMiss<'a> {
    /// The annotated object.
    pub object: &'a Object,
    /// The key as written.
    pub key: &'a str,
    /// The value as written.
    pub value: &'a str,
    /// What kgateway reads instead.
    pub miss: Miss,
}

/// What is nearly right.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Miss {
    /// The key: the known key it nearly is.
    Key(&'static str),
    /// The value of the priority annotation: the 2.1 value with the 2.0 value's meaning.
    OldValue(&'static str),
}

impl AnnotationNearMiss<'_> {
    /// The label on the key or value.
    pub fn label(&self) -> &'static str {
        match self.miss {
            Miss::Key(_) => "not read by kgateway",
            Miss::OldValue(_) => "a kgateway 2.0 value",
        }
    }

    /// The 2.1 value for a 2.0 priority value under the old key, if any.
    fn value_hint(&self) -> String {
        match super::annotations::current_priority_value(self.value) {
            Some(new) if self.miss == Miss::Key(PRIORITY_ANNOTATION) => {
                format!(" (with the 2.1 value `{new}` for `{}`)", self.value)
            }
            _ => String::new(),
        }
    }
}

impl Violation for AnnotationNearMiss<'_> {
    fn code(&self) -> Code {
        match self.miss {
            Miss::Key(_) => Code::MISSPELLED_ANNOTATION,
            Miss::OldValue(_) => Code::OLD_PRIORITY_VALUE,
        }
    }
    fn message(&self) -> String {
        let object = self.object.display();
        match self.miss {
            Miss::Key(known) => format!(
                "{object} has annotation `{}`, which kgateway does not read: it reads `{known}`, so the annotation is as good as absent",
                self.key
            ),
            Miss::OldValue(new) => format!(
                "{object} has `{PRIORITY_ANNOTATION}: {}`, a kgateway 2.0 value: since 2.1 it means ShallowMergePreferChild, not {new}",
                self.value
            ),
        }
    }
    fn help(&self) -> Option<String> {
        let (wrong, right) = match self.miss {
            Miss::Key(known) => (self.key, known),
            Miss::OldValue(new) => (self.value, new),
        };
        let help = crate::suggest::did_you_mean_help(wrong, [right])
            .unwrap_or_else(|| crate::suggest::did_you_mean_text(right));
        Some(format!("{help}{}", self.value_hint()))
    }
}
