//! The codes of the hierarchy (DPL2xxx, DPL300x): parentRefs that attach nowhere and the Gateway
//! API reason why, routes attached to nothing, kgateway route delegation that drops a child, and
//! policy targets that name nothing.

use crate::diag::{Class, Code, CodeDef, Severity};

/// The codes declared here, in catalogue order.
pub const CODES: &[Code] = &[
    Code::PARENT_NOT_FOUND,
    Code::NO_MATCHING_PARENT,
    Code::NOT_ALLOWED_BY_LISTENERS,
    Code::NO_MATCHING_LISTENER_HOSTNAME,
    Code::ROUTE_NOT_ATTACHED,
    Code::SELECTOR_UNDECIDABLE,
    Code::DELEGATION_CHILD_DROPPED,
    Code::DELEGATION_NOT_SUPPORTED,
    Code::DELEGATION_MIXED_BACKENDS,
    Code::TARGET_NOT_FOUND,
    Code::SECTION_NOT_FOUND,
];

impl Code {
    /// DPL2001 `parent-not-found`: A route's parentRef names a Gateway that is not in the input.
    pub const PARENT_NOT_FOUND: Code = Code::new(&CodeDef {
        id: "DPL2001",
        name: "parent-not-found",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "A route's parentRef names a Gateway that is not in the input.",
        explanation: "A route's parentRef names a Gateway that is not among the inputs. The route gets no path through it, so no policy reaches it there. Application repositories often hold routes but not the platform's Gateway. The commonest cause in guides, though, is YAML without `metadata.namespace` meant for `kubectl apply -n X`: read without `-n`, it lands in `default`. When a Gateway of that name is in the input under another namespace, the message says where, and the help says which object to fix.",
        fix: "If the Gateway is in the input under another namespace: pass `-n X` or set `metadata.namespace` on the object without one, or set `parentRef.namespace` (a listener's `allowedRoutes` must then admit the route's namespace). Otherwise add the Gateway's manifest to the inputs, or run with --assume-gateways to evaluate against a stand-in.",
        example: "parentRefs:\n- name: kuadrant-ingressgateway\n  namespace: gateway-system",
    });

    /// DPL2002 `no-matching-parent`: A parentRef's sectionName or port matches no listener of the Gateway (NoMatchingParent).
    pub const NO_MATCHING_PARENT: Code = Code::new(&CodeDef {
        id: "DPL2002",
        name: "no-matching-parent",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "A parentRef's sectionName or port matches no listener of the Gateway (NoMatchingParent).",
        explanation: "The parentRef's sectionName or port matches no listener of the Gateway (Gateway API reason NoMatchingParent): the route is not attached there.",
        fix: "Use an existing listener name or port; the help lists them or suggests the closest name.",
        example: "parentRefs:\n- name: gw\n  sectionName: htps",
    });

    /// DPL2003 `not-allowed-by-listeners`: No listener allows the route's namespace or kind (NotAllowedByListeners).
    pub const NOT_ALLOWED_BY_LISTENERS: Code = Code::new(&CodeDef {
        id: "DPL2003",
        name: "not-allowed-by-listeners",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "No listener allows the route's namespace or kind (NotAllowedByListeners).",
        explanation: "Every candidate listener refuses the route: its allowedRoutes.namespaces does not admit the route's namespace (Same is the default), or its allowedRoutes.kinds (or protocol) does not admit the route's kind (Gateway API reason NotAllowedByListeners).",
        fix: "Widen the listener's allowedRoutes (from: All, or a Selector matching the namespace's labels), or attach to another listener.",
        example: "listeners:\n- name: http\n  protocol: HTTP\n  port: 80        # allowedRoutes defaults to from: Same",
    });

    /// DPL2004 `no-matching-listener-hostname`: The route's hostnames intersect no listener hostname (NoMatchingListenerHostname).
    pub const NO_MATCHING_LISTENER_HOSTNAME: Code = Code::new(&CodeDef {
        id: "DPL2004",
        name: "no-matching-listener-hostname",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "The route's hostnames intersect no listener hostname (NoMatchingListenerHostname).",
        explanation: "The route's hostnames intersect none of the allowed listeners' hostnames (Gateway API reason NoMatchingListenerHostname). Note that `*.example.com` matches `a.example.com` but never `example.com`.",
        fix: "Align the route's hostnames with the listener's hostname, or remove the listener hostname.",
        example: "hostnames: [shop.example.org]   # listener hostname: \"*.example.com\"",
    });

    /// DPL2005 `route-not-attached`: A route is attached to no listener at all, so no policy reaches it.
    pub const ROUTE_NOT_ATTACHED: Code = Code::new(&CodeDef {
        id: "DPL2005",
        name: "route-not-attached",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "A route is attached to no listener at all, so no policy reaches it.",
        explanation: "A route has no Gateway parentRef at all, so it is attached to nothing and no Gateway policy can reach it. A route that a kgateway parent route delegates to (a backendRef naming it, `*` in its namespace, or its `delegation.kgateway.dev/label`) is not reported: its paths go through the parent, or delegation-child-dropped says why it has none.",
        fix: "Add a parentRef to the Gateway that should serve the route.",
        example: "spec:\n  rules:\n  - backendRefs: [{name: app, port: 80}]",
    });

    /// DPL2008 `selector-undecidable`: An allowedRoutes namespace selector cannot be decided offline; the route is assumed accepted.
    pub const SELECTOR_UNDECIDABLE: Code = Code::new(&CodeDef {
        id: "DPL2008",
        name: "selector-undecidable",
        severity: Severity::Info,
        class: Class::Finding,
        summary: "An allowedRoutes namespace selector cannot be decided offline; the route is assumed accepted.",
        explanation: "A listener admits routes from namespaces selected by label, but the route's Namespace object is not among the inputs, so dopol cannot know its labels. It assumes the route is accepted.",
        fix: "Add the Namespace manifests to the inputs to decide offline (a selector on kubernetes.io/metadata.name alone is decided without them).",
        example: "allowedRoutes:\n  namespaces:\n    from: Selector\n    selector: {matchLabels: {shared-gateway-access: \"true\"}}",
    });

    /// DPL2010 `delegation-child-dropped`: A route delegated to by a kgateway parent rule is dropped there (hostnames set, parentRefs not naming the parent, a cycle), or some of its rules are (no match valid for the parent's).
    pub const DELEGATION_CHILD_DROPPED: Code = Code::new(&CodeDef {
        id: "DPL2010",
        name: "delegation-child-dropped",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "A route delegated to by a kgateway parent rule is dropped there (hostnames set, parentRefs not naming the parent, a cycle), or some of its rules are (no match valid for the parent's).",
        explanation: "kgateway route delegation: a parent HTTPRoute rule whose backendRefs name HTTPRoutes (by name, `*` for a whole namespace, or `{group: delegation.kgateway.dev, kind: label}`) hands its traffic to those child routes, and each child rule gets a path under the parent rule. kgateway drops a child for that parent — no path, no policy through it — when the child sets `spec.hostnames` (a delegatee inherits the parent's), when its `parentRefs` are set but none is `{group: gateway.networking.k8s.io, kind: HTTPRoute}` naming the parent (namespace defaulting to the child's), or when it is already in the delegation chain (a cycle); the first reason in that order is reported. Without the child annotation `delegation.kgateway.dev/inherit-parent-matcher: \"true\"`, a child rule is also dropped when none of its matches is valid for the delegating rule's: the parent's path must be a PathPrefix that the child's path value starts with (a string prefix), and the child must repeat the parent's headers, query parameters and method. Such rules are reported once per child route and delegating rule, naming every dropped rule (the whole route when none is left). The same child can still be kept under another parent.",
        fix: "Remove the child's hostnames; name the parent in its parentRefs (or remove its parentRefs); break the cycle; narrow the child's matches to the parent's, or set the inherit-parent-matcher annotation on the child.",
        example: "# parent rule: matches [{path: {type: PathPrefix, value: /api}}], backendRefs [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: api, namespace: shop}]\n# child shop/api:\nrules:\n- matches:\n  - path: {type: PathPrefix, value: /v2}   # does not start with /api: dropped",
    });

    /// DPL2011 `delegation-not-supported`: A policy whose controller does not implement route delegation targets a route only delegation reaches, so it takes part in no path.
    pub const DELEGATION_NOT_SUPPORTED: Code = Code::new(&CodeDef {
        id: "DPL2011",
        name: "delegation-not-supported",
        severity: Severity::Info,
        class: Class::Finding,
        summary: "A policy whose controller does not implement route delegation targets a route only delegation reaches, so it takes part in no path.",
        explanation: "Route delegation is a kgateway feature. Paths through it exist only for families whose controller implements it (kgateway TrafficPolicy); Kuadrant and Envoy Gateway policies attach to no delegated path. A policy of such a family that targets a route (or rule) reachable only through delegation — no listener accepts it itself — therefore takes part in no path.",
        fix: "Target the parent route or the Gateway instead, or use a kgateway TrafficPolicy on the child route.",
        example: "kind: AuthPolicy\nspec:\n  targetRef: {group: gateway.networking.k8s.io, kind: HTTPRoute, name: child}   # child is only delegated to",
    });

    /// DPL2012 `delegation-mixed-backends`: A rule delegates to HTTPRoutes and also names other backends, which kgateway ignores.
    pub const DELEGATION_MIXED_BACKENDS: Code = Code::new(&CodeDef {
        id: "DPL2012",
        name: "delegation-mixed-backends",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "A rule delegates to HTTPRoutes and also names other backends, which kgateway ignores.",
        explanation: "A kgateway route rule whose backendRefs name HTTPRoutes (or a delegation label) delegates: its requests go to the child routes, and the other backendRefs beside them (Services, ...) are ignored. A reader of the route may expect traffic to reach them.",
        fix: "Move the other backends into a child route, or into a rule of their own.",
        example: "backendRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: child}, {name: svc, port: 80}]",
    });

    /// DPL3001 `target-not-found`: A policy's targetRef names an object that is not in the input; the policy is not accepted.
    pub const TARGET_NOT_FOUND: Code = Code::new(&CodeDef {
        id: "DPL3001",
        name: "target-not-found",
        severity: Severity::Error,
        class: Class::Finding,
        summary: "A policy's targetRef names an object that is not in the input; the policy is not accepted.",
        explanation: "The policy's targetRef names a Gateway or route that is not among the inputs in the policy's own namespace (targetRef has no namespace field). The policy is not accepted (TargetNotFound; the operator's condition message is `<policy kind> target <name>[#<section>] was not found`) and takes part in no effective policy. When an object of that name is in the input under another namespace, the message says where, and the help names the object to move (the one without `metadata.namespace`, if either lacks it).",
        fix: "Fix the name (the help suggests a close one), create the policy in the target's namespace, or add the target's manifest.",
        example: "targetRef: {group: gateway.networking.k8s.io, kind: HTTPRoute, name: shopp}",
    });

    /// DPL3002 `section-not-found`: A policy's targetRef sectionName names no listener or route rule; the policy is not accepted.
    pub const SECTION_NOT_FOUND: Code = Code::new(&CodeDef {
        id: "DPL3002",
        name: "section-not-found",
        severity: Severity::Error,
        class: Class::Finding,
        summary: "A policy's targetRef sectionName names no listener or route rule; the policy is not accepted.",
        explanation: "The target exists, but its sectionName names no listener (Gateway) or rule (route; unnamed rules are `rule-1`, `rule-2`, …). The policy is not accepted.",
        fix: "Use an existing listener or rule name.",
        example: "targetRef: {group: gateway.networking.k8s.io, kind: Gateway, name: gw, sectionName: htps}",
    });
}
