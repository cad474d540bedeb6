//! Envoy Gateway's codes (DPL6xxx): policies replaced without merge, conflicts, pruned nulls
//! and targets dopol does not model.

use crate::diag::{Class, Code, CodeDef, Severity};

/// The codes declared here, in catalogue order.
pub const CODES: &[Code] = &[
    Code::AUTH_REPLACED_WITHOUT_MERGE,
    Code::CONFLICTED,
    Code::NULL_PRUNED,
    Code::DEPRECATED_TARGET_REF,
    Code::SELECTOR_SELECTS_ALL,
    Code::CROSS_NAMESPACE_SELECTOR,
    Code::IGNORED_TARGET_KIND,
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

    /// DPL6006 `cross-namespace-selector`: An Envoy Gateway targetSelector's `namespaces` field is not evaluated by dopol; the selector acts on the policy's namespace only.
    pub const CROSS_NAMESPACE_SELECTOR: Code = Code::new(&CodeDef {
        id: "DPL6006",
        name: "cross-namespace-selector",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "An Envoy Gateway targetSelector's `namespaces` field is not evaluated by dopol; the selector acts on the policy's namespace only.",
        explanation: "Envoy Gateway targetSelectors may select objects in other namespaces through `namespaces`. dopol does not evaluate that field: the selector acts on the policy's own namespace only, so objects selected elsewhere are missing from its results.",
        fix: "Keep in mind that results for other namespaces are missing, or use one policy per namespace.",
        example: "targetSelectors: [{kind: HTTPRoute, matchLabels: {app: a}, namespaces: {from: All}}]",
    });

    /// DPL6007 `ignored-target-kind`: An Envoy Gateway policy targets a TCPRoute, UDPRoute, TLSRoute or ListenerSet, which dopol does not model; the target is ignored.
    pub const IGNORED_TARGET_KIND: Code = Code::new(&CodeDef {
        id: "DPL6007",
        name: "ignored-target-kind",
        severity: Severity::Info,
        class: Class::Finding,
        summary: "An Envoy Gateway policy targets a TCPRoute, UDPRoute, TLSRoute or ListenerSet, which dopol does not model; the target is ignored.",
        explanation: "Envoy Gateway policies may target TCPRoutes, UDPRoutes, TLSRoutes and ListenerSets, which dopol does not model: such a target is ignored, and the policy takes part only through its other targets.",
        fix: "Nothing to fix in the policy; evaluate those targets with the controller.",
        example: "targetRefs: [{group: gateway.networking.k8s.io, kind: TCPRoute, name: db}]",
    });
}
