//! Envoy Gateway's codes (DPL6xxx): policies replaced without merge, conflicts, pruned nulls,
//! selectors and ListenerSet quirks, each with the finding types that word it (retired codes
//! stay, never reported); then the family's wording of codes declared elsewhere.

use super::slots::why_first;
use crate::diag::{Class, Code, CodeDef, Severity, Violation};
use crate::load::Object;
use crate::policy::Policy;
use std::collections::BTreeSet;

/// The codes declared here, in catalogue order.
pub const CODES: &[Code] = &[
    Code::AUTH_REPLACED_WITHOUT_MERGE,
    Code::CONFLICTED,
    Code::NULL_PRUNED,
    Code::DEPRECATED_TARGET_REF,
    Code::SELECTOR_SELECTS_ALL,
    Code::CROSS_NAMESPACE_SELECTOR,
    Code::IGNORED_TARGET_KIND,
    Code::SELECTOR_TARGET_NOT_GRANTED,
    Code::CTP_GATEWAY_SECTION_IN_LISTENERSET,
];

impl Code {
    /// DPL6001 `auth-replaced-without-merge`: An Envoy Gateway route SecurityPolicy without mergeType replaces a Gateway SecurityPolicy whose authentication it does not repeat (envoyproxy/gateway#8781).
    pub const AUTH_REPLACED_WITHOUT_MERGE: Code = Code::new(&CodeDef {
        id: "DPL6001",
        name: "auth-replaced-without-merge",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "An Envoy Gateway route SecurityPolicy without mergeType replaces a Gateway SecurityPolicy whose authentication it does not repeat (envoyproxy/gateway#8781).",
        explanation: "Envoy Gateway applies only the most specific SecurityPolicy of a route: a route (or rule) policy replaces the listener's or Gateway's as a whole. When the Gateway policy sets authentication (`jwt`, `oidc`, `basicAuth`, `apiKeyAuth`, `extAuth`, `authorization`) and the route policy does not set the same field, that authentication is off for the route (envoyproxy/gateway#8781). With `mergeType` the route policy is merged into the Gateway's instead.",
        fix: "Set `mergeType: StrategicMerge` (or `JSONMerge`) on the route policy, or repeat the Gateway's authentication in it.",
        example: "# Gateway SecurityPolicy: jwt: {providers: [...]}\n# route SecurityPolicy:\nspec:\n  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: app}]\n  cors: {allowOrigins: [\"https://a.example\"]}",
    });
}

/// A route policy without `mergeType` that switches off the authentication of the listener or
/// Gateway policy it replaces (`auth-replaced-without-merge`).
pub struct AuthReplacedWithoutMerge<'a> {
    /// The route policy that wins.
    pub policy: &'a Policy,
    /// The listener or Gateway policy it replaces.
    pub replaced: &'a Policy,
    /// The authentication fields only the replaced policy sets.
    pub fields: &'a BTreeSet<String>,
    /// On how many paths.
    pub paths: usize,
}

impl Violation for AuthReplacedWithoutMerge<'_> {
    fn code(&self) -> Code {
        Code::AUTH_REPLACED_WITHOUT_MERGE
    }
    fn message(&self) -> String {
        let fields: Vec<String> = self.fields.iter().map(|f| format!("`{f}`")).collect();
        format!(
            "{} replaces {} on {} without mergeType: its {} {} off there",
            self.policy.display(),
            self.replaced.display(),
            crate::words::counted(self.paths, "path"),
            fields.join(", "),
            if fields.len() == 1 { "is" } else { "are" }
        )
    }
    fn help(&self) -> Option<String> {
        Some("set `mergeType: StrategicMerge` to merge into the Gateway policy, or repeat its authentication here".to_string())
    }
}

impl Code {
    /// DPL6002 `conflicted`: An Envoy Gateway policy targets an element another policy of its kind already claimed; it is not accepted there (Conflicted).
    pub const CONFLICTED: Code = Code::new(&CodeDef {
        id: "DPL6002",
        name: "conflicted",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "An Envoy Gateway policy targets an element another policy of its kind already claimed; it is not accepted there (Conflicted).",
        explanation: "Envoy Gateway lets one policy of a kind attach to each target (a Gateway, a listener, a route, a route rule). Policies are processed oldest first (then by namespace/name); the first one holds the target and every later one is Conflicted there (Accepted=False on that ancestor) and does nothing for it. Its other targets are unaffected. Nothing merges them: the later policy's fields are simply lost there.",
        fix: "Merge the two policies into one, or target different elements (a rule or listener is more specific than its route or Gateway).",
        example: "# two BackendTrafficPolicies with targetRefs [{kind: HTTPRoute, name: app}]: the newer one is Conflicted",
    });
}

/// A policy that targets an element another policy of its kind holds (`conflicted`).
pub struct Conflicted<'a> {
    /// The policy not accepted there.
    pub policy: &'a Policy,
    /// The element, described.
    pub target: String,
    /// The policy holding it.
    pub holder: &'a Policy,
}

impl Violation for Conflicted<'_> {
    fn code(&self) -> Code {
        Code::CONFLICTED
    }
    fn message(&self) -> String {
        format!(
            "{} is Conflicted on {}: {} holds it because {}; this policy does nothing there",
            self.policy.display(),
            self.target,
            self.holder.display(),
            why_first(self.holder, self.policy)
        )
    }
}

/// A fold failure, which Envoy Gateway folds never record (the evaluator's answer is kept total
/// for the trait).
pub struct FoldFailed<'a> {
    /// The path's identifier.
    pub path: &'a str,
    /// The failure's reason.
    pub reason: &'a str,
}

impl Violation for FoldFailed<'_> {
    fn code(&self) -> Code {
        Code::CONFLICTED
    }
    fn message(&self) -> String {
        format!("path {}: {}", self.path, self.reason)
    }
}

impl Code {
    /// DPL6003 `null-pruned`: A `null` in an Envoy Gateway policy is pruned by the API server: the field is absent, and cannot delete a parent's field.
    pub const NULL_PRUNED: Code = Code::new(&CodeDef {
        id: "DPL6003",
        name: "null-pruned",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "A `null` in an Envoy Gateway policy is pruned by the API server: the field is absent, and cannot delete a parent's field.",
        explanation: "Envoy Gateway's CRDs do not mark fields nullable, so the API server prunes a `null` before the controller sees it: the field is simply absent. In a route policy with `mergeType`, a `null` therefore does not delete the parent's field (RFC 7396 would), and the parent's value stays in the merged policy.",
        fix: "Remove the `null`; to change a parent's field, set the value you want instead.",
        example: "spec:\n  mergeType: JSONMerge\n  timeout: null   # pruned: the Gateway policy's timeout stays",
    });
}

/// A `null` the API server prunes from a policy (`null-pruned`).
pub struct NullPruned<'a> {
    /// The policy's object.
    pub object: &'a Object,
}

impl Violation for NullPruned<'_> {
    fn code(&self) -> Code {
        Code::NULL_PRUNED
    }
    fn message(&self) -> String {
        format!(
            "{}: the API server prunes this `null`, so the field is absent (it cannot delete a parent policy's field)",
            self.object.display()
        )
    }
}

impl Code {
    /// DPL6004 `deprecated-target-ref`: The singular `spec.targetRef` of an Envoy Gateway policy is deprecated; use `targetRefs`.
    pub const DEPRECATED_TARGET_REF: Code = Code::new(&CodeDef {
        id: "DPL6004",
        name: "deprecated-target-ref",
        severity: Severity::Info,
        class: Class::Finding,
        summary: "The singular `spec.targetRef` of an Envoy Gateway policy is deprecated; use `targetRefs`.",
        explanation: "`spec.targetRef` (singular) is deprecated in Envoy Gateway policies; the controller still reads it and reports Warning/DeprecatedField.",
        fix: "Move the reference into `spec.targetRefs`.",
        example: "targetRef: {group: gateway.networking.k8s.io, kind: Gateway, name: eg}",
    });
}

/// A policy's singular `spec.targetRef` (`deprecated-target-ref`).
pub struct DeprecatedTargetRef<'a> {
    /// The policy's object.
    pub object: &'a Object,
}

impl Violation for DeprecatedTargetRef<'_> {
    fn code(&self) -> Code {
        Code::DEPRECATED_TARGET_REF
    }
    fn message(&self) -> String {
        format!(
            "{}: `spec.targetRef` is deprecated (Envoy Gateway: Warning/DeprecatedField); use `targetRefs`",
            self.object.display()
        )
    }
}

impl Code {
    /// DPL6005 `selector-selects-all`: A targetSelector with neither matchLabels nor matchExpressions selects every object of its kind in the policy's namespace.
    pub const SELECTOR_SELECTS_ALL: Code = Code::new(&CodeDef {
        id: "DPL6005",
        name: "selector-selects-all",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "A targetSelector with neither matchLabels nor matchExpressions selects every object of its kind in the policy's namespace.",
        explanation: "A targetSelector with neither `matchLabels` nor `matchExpressions` is an empty Kubernetes label selector: it selects every object of its kind in the policy's namespace, including ones created later.",
        fix: "Name the labels to select, or use targetRefs.",
        example: "targetSelectors: [{kind: HTTPRoute}]",
    });
}

/// A targetSelector with neither matchLabels nor matchExpressions (`selector-selects-all`).
pub struct SelectorSelectsAll<'a> {
    /// Its position in `spec.targetSelectors`.
    pub index: usize,
    /// The kind it selects.
    pub kind: &'a str,
}

impl Violation for SelectorSelectsAll<'_> {
    fn code(&self) -> Code {
        Code::SELECTOR_SELECTS_ALL
    }
    fn message(&self) -> String {
        format!(
            "`spec.targetSelectors[{}]` has neither matchLabels nor matchExpressions: it selects every {} in the policy's namespace",
            self.index, self.kind
        )
    }
}

impl Code {
    /// DPL6006 `cross-namespace-selector`: Retired: dopol evaluates an Envoy Gateway targetSelector's `namespaces` (see `selector-target-not-granted`); never reported.
    ///
    /// Kept in the catalogue, never reported and never reused, so that `--ignore` and
    /// `dopol.io/ignore` entries naming it stay valid.
    pub const CROSS_NAMESPACE_SELECTOR: Code = Code::new(&CodeDef {
        id: "DPL6006",
        name: "cross-namespace-selector",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "Retired: dopol evaluates an Envoy Gateway targetSelector's `namespaces` (see `selector-target-not-granted`); never reported.",
        explanation: "Until dopol evaluated `targetSelectors[].namespaces` (Envoy Gateway v1.8), this warning said the field was ignored and the selector acted on the policy's namespace only. The field is now evaluated: `from: All` and `from: Selector` select in other namespaces, each match there counting only with a ReferenceGrant (`selector-target-not-granted` names the matches without one). The code is kept so that suppressions naming it stay valid; it is never reported and never reused.",
        fix: "Nothing: remove suppressions naming it when convenient.",
        example: "targetSelectors: [{kind: HTTPRoute, matchLabels: {app: a}, namespaces: {from: All}}]",
    });
}

impl Code {
    /// DPL6007 `ignored-target-kind`: Retired: dopol models Envoy Gateway's whole-ListenerSet targets and ListenerSet selectors; never reported.
    ///
    /// Kept in the catalogue, never reported and never reused, so that `--ignore` and
    /// `dopol.io/ignore` entries naming it stay valid.
    pub const IGNORED_TARGET_KIND: Code = Code::new(&CodeDef {
        id: "DPL6007",
        name: "ignored-target-kind",
        severity: Severity::Info,
        class: Class::Finding,
        summary: "Retired: dopol models Envoy Gateway's whole-ListenerSet targets and ListenerSet selectors; never reported.",
        explanation: "Until dopol modelled the whole-ListenerSet slot (field-2026 §2.2), this info said that an Envoy Gateway policy's target of a whole ListenerSet (no sectionName), or a targetSelectors entry of kind ListenerSet, was ignored. Both are now evaluated (the `S` slot: its conflicts, its place in the precedence, its status ancestor). The code is kept so that suppressions naming it stay valid; it is never reported and never reused.",
        fix: "Nothing: remove suppressions naming it when convenient.",
        example: "targetRefs: [{group: gateway.networking.k8s.io, kind: ListenerSet, name: extra}]",
    });
}

impl Code {
    /// DPL6009 `ctp-gateway-section-in-listenerset`: A ClientTrafficPolicy targets a Gateway with a sectionName that only a ListenerSet listener has; Envoy Gateway applies it to that listener anyway.
    pub const CTP_GATEWAY_SECTION_IN_LISTENERSET: Code = Code::new(&CodeDef {
        id: "DPL6009",
        name: "ctp-gateway-section-in-listenerset",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "A ClientTrafficPolicy targets a Gateway with a sectionName that only a ListenerSet listener has; Envoy Gateway applies it to that listener anyway.",
        explanation: "In Gateway API a Gateway `sectionName` names one of the Gateway's own listeners, never a ListenerSet's (GEP-1713), and Envoy Gateway's other policy kinds report such a target TargetNotFound. A ClientTrafficPolicy is looked up in the Gateway's merged listener list instead (field-2026 §2.2, `clienttrafficpolicy.go`): when only a ListenerSet has a listener of that name, the policy is Accepted on the Gateway ancestor and configures the first such listener. It claims the listener under the bare name, not under the ListenerSet's, so a whole-ListenerSet ClientTrafficPolicy, else a Gateway-wide one, still overwrites it there, and a ClientTrafficPolicy on the ListenerSet's listener (`kind: ListenerSet` with `sectionName`) runs beside it, the later one's values standing. dopol follows the controller and says so here.",
        fix: "Target the ListenerSet's listener instead: `{kind: ListenerSet, name: <set>, sectionName: <listener>}`.",
        example: "targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw, sectionName: team-http}]   # team-http is a listener of a ListenerSet",
    });
}

/// CTP's `G#x` quirk (`ctp-gateway-section-in-listenerset`).
pub struct GatewaySectionInListenerSet<'a> {
    /// The policy.
    pub policy: &'a Policy,
    /// The Gateway (`ns/name`).
    pub gateway: String,
    /// The section.
    pub section: &'a str,
    /// The ListenerSet whose listener it lands on (`ListenerSet ns/name`).
    pub set: String,
}

impl Violation for GatewaySectionInListenerSet<'_> {
    fn code(&self) -> Code {
        Code::CTP_GATEWAY_SECTION_IN_LISTENERSET
    }
    fn message(&self) -> String {
        format!(
            "{} targets Gateway {} with sectionName {}, which only a ListenerSet listener has: Envoy Gateway applies it to listener {} of {} (Gateway API says a Gateway sectionName names the Gateway's own listeners); a whole-ListenerSet or Gateway-wide {} still overwrites it there",
            self.policy.display(),
            self.gateway,
            self.section,
            self.section,
            self.set,
            self.policy.kind.kind,
        )
    }
    fn help(&self) -> Option<String> {
        Some(format!(
            "target the ListenerSet's listener instead: `{{kind: ListenerSet, name: <set>, sectionName: {}}}`",
            self.section
        ))
    }
}

// Codes declared elsewhere (the topology's and lint's), in Envoy Gateway's words.

/// A policy that names no target at all (`target-not-found`, declared with the topology's
/// codes): Envoy Gateway does not accept it.
pub struct NoTargets<'a> {
    /// The policy.
    pub policy: &'a Policy,
}

impl Violation for NoTargets<'_> {
    fn code(&self) -> Code {
        Code::TARGET_NOT_FOUND
    }
    fn message(&self) -> String {
        format!(
            "{} has no targets (no targetRef, targetRefs or targetSelectors); it is not accepted (TargetNotFound)",
            self.policy.display()
        )
    }
}

/// A ListenerSet listener target whose set lacks the section (`section-not-found`, declared
/// with the topology's codes): Envoy Gateway reports TargetNotFound on the ListenerSet.
pub struct SetSectionNotFound<'a> {
    /// The policy.
    pub policy: &'a Policy,
    /// The ListenerSet.
    pub set: &'a crate::model::gateway::ListenerSet,
    /// The `sectionName`.
    pub section: &'a str,
}

impl Violation for SetSectionNotFound<'_> {
    fn code(&self) -> Code {
        Code::SECTION_NOT_FOUND
    }
    fn message(&self) -> String {
        let names: Vec<&str> = self.set.listeners.iter().map(|l| l.name.as_str()).collect();
        format!(
            "{} targets listener `{}` of {}, which has no such listener (it has: {}); it is not accepted there (TargetNotFound)",
            self.policy.display(),
            self.section,
            self.set.display(),
            names.join(", ")
        )
    }
}

/// A policy holding slots on paths where none of its fields is effective (`policy-overridden`,
/// declared with lint's outcome codes).
pub struct OverriddenEverywhere<'a> {
    /// The policy.
    pub policy: &'a Policy,
    /// When no more specific policy is the cause, but none of its fields is applied where it
    /// holds a slot: why (a field Envoy Gateway does not apply on a TCPRoute).
    pub not_applied: Option<&'a str>,
}

impl Violation for OverriddenEverywhere<'_> {
    fn code(&self) -> Code {
        Code::POLICY_OVERRIDDEN
    }
    fn message(&self) -> String {
        match self.not_applied {
            Some(why) => format!(
                "{}: none of its fields is effective on any path: none is applied where it holds a slot ({why})",
                self.policy.display(),
            ),
            None => format!(
                "{}: none of its fields is effective on any path: a more specific {} wins everywhere",
                self.policy.display(),
                self.policy.kind.kind
            ),
        }
    }
    fn help(&self) -> Option<String> {
        Some(crate::diag::see_command(format_args!(
            "reach {}",
            self.policy.namespaced_name()
        )))
    }
}

impl Code {
    /// DPL6008 `selector-target-not-granted`: An Envoy Gateway targetSelector matches an object in another namespace that no ReferenceGrant lets the policy reference; Envoy Gateway ignores it.
    pub const SELECTOR_TARGET_NOT_GRANTED: Code = Code::new(&CodeDef {
        id: "DPL6008",
        name: "selector-target-not-granted",
        severity: Severity::Info,
        class: Class::Finding,
        summary: "An Envoy Gateway targetSelector matches an object in another namespace that no ReferenceGrant lets the policy reference; Envoy Gateway ignores it.",
        explanation: "A targetSelector with `namespaces.from: All` or `Selector` (Envoy Gateway v1.8) selects objects in other namespaces, but a match there counts only when a ReferenceGrant in the target's namespace has, in `from`, the policy's group (`gateway.envoyproxy.io`), kind and namespace and, in `to`, the target's group and kind (and no name, or the target's name). Without one Envoy Gateway ignores the match silently (v1.8 removed the status condition that said so): the policy does not apply there, and dopol leaves it out too.",
        fix: "Add a ReferenceGrant in the target's namespace, or narrow the selector's `namespaces` so that it does not match there.",
        example: "# in namespace team-a:\napiVersion: gateway.networking.k8s.io/v1beta1\nkind: ReferenceGrant\nspec:\n  from: [{group: gateway.envoyproxy.io, kind: BackendTrafficPolicy, namespace: infra}]\n  to: [{group: gateway.networking.k8s.io, kind: HTTPRoute}]",
    });
}

/// A selector's match in another namespace that no ReferenceGrant permits
/// (`selector-target-not-granted`).
pub struct SelectorTargetNotGranted<'a> {
    /// The policy.
    pub policy: &'a Policy,
    /// The selector's index.
    pub index: usize,
    /// The matched object (`HTTPRoute team-a/app`).
    pub target: String,
    /// Its namespace.
    pub namespace: &'a str,
}

impl Violation for SelectorTargetNotGranted<'_> {
    fn code(&self) -> Code {
        Code::SELECTOR_TARGET_NOT_GRANTED
    }
    fn message(&self) -> String {
        format!(
            "targetSelectors[{}] of {} matches {}, but no ReferenceGrant in namespace {} lets a {} of namespace {} reference it: Envoy Gateway ignores it",
            self.index,
            self.policy.display(),
            self.target,
            self.namespace,
            self.policy.kind.kind,
            self.policy.namespace,
        )
    }
    fn help(&self) -> Option<String> {
        Some(format!(
            "add a ReferenceGrant in namespace {} whose `from` names group gateway.envoyproxy.io, kind {}, namespace {}",
            self.namespace, self.policy.kind.kind, self.policy.namespace
        ))
    }
}
