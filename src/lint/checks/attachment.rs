//! Attachment checks (DPL2xxx): parentRefs that attach nowhere and why (the Gateway API
//! reasons), routes attached to nothing, duplicate listener and rule names, kgateway route
//! delegation that drops a child, and policies on routes only delegation reaches. The logic
//! lives in `topology::attach`, `topology::delegation` and `model::gateway`; this module
//! documents the codes.

use crate::diag::Code;
use crate::lint::doc::CheckDoc;

/// Documentation of the attachment codes.
pub const DOCS: &[CheckDoc] = &[
    CheckDoc {
        code: Code::ParentNotFound,
        explanation: "A route's parentRef names a Gateway that is not among the inputs. The route gets no path through it, so no policy reaches it there. Application repositories often hold routes but not the platform's Gateway. The commonest cause in guides, though, is YAML without `metadata.namespace` meant for `kubectl apply -n X`: read without `-n`, it lands in `default`. When a Gateway of that name is in the input under another namespace, the message says where, and the help says which object to fix.",
        fix: "If the Gateway is in the input under another namespace: pass `-n X` or set `metadata.namespace` on the object without one, or set `parentRef.namespace` (a listener's `allowedRoutes` must then admit the route's namespace). Otherwise add the Gateway's manifest to the inputs, or run with --assume-gateways to evaluate against a stand-in.",
        example: "parentRefs:\n- name: kuadrant-ingressgateway\n  namespace: gateway-system",
    },
    CheckDoc {
        code: Code::NoMatchingParent,
        explanation: "The parentRef's sectionName or port matches no listener of the Gateway (Gateway API reason NoMatchingParent): the route is not attached there.",
        fix: "Use an existing listener name or port; the help lists them or suggests the closest name.",
        example: "parentRefs:\n- name: gw\n  sectionName: htps",
    },
    CheckDoc {
        code: Code::NotAllowedByListeners,
        explanation: "Every candidate listener refuses the route: its allowedRoutes.namespaces does not admit the route's namespace (Same is the default), or its allowedRoutes.kinds (or protocol) does not admit the route's kind (Gateway API reason NotAllowedByListeners).",
        fix: "Widen the listener's allowedRoutes (from: All, or a Selector matching the namespace's labels), or attach to another listener.",
        example: "listeners:\n- name: http\n  protocol: HTTP\n  port: 80        # allowedRoutes defaults to from: Same",
    },
    CheckDoc {
        code: Code::NoMatchingListenerHostname,
        explanation: "The route's hostnames intersect none of the allowed listeners' hostnames (Gateway API reason NoMatchingListenerHostname). Note that `*.example.com` matches `a.example.com` but never `example.com`.",
        fix: "Align the route's hostnames with the listener's hostname, or remove the listener hostname.",
        example: "hostnames: [shop.example.org]   # listener hostname: \"*.example.com\"",
    },
    CheckDoc {
        code: Code::RouteNotAttached,
        explanation: "A route has no Gateway parentRef at all, so it is attached to nothing and no Gateway policy can reach it. A route that a kgateway parent route delegates to (a backendRef naming it, `*` in its namespace, or its `delegation.kgateway.dev/label`) is not reported: its paths go through the parent, or delegation-child-dropped says why it has none.",
        fix: "Add a parentRef to the Gateway that should serve the route.",
        example: "spec:\n  rules:\n  - backendRefs: [{name: app, port: 80}]",
    },
    CheckDoc {
        code: Code::DuplicateListenerName,
        explanation: "Two listeners of one Gateway have the same name. The API server rejects the Gateway, so dopol leaves it out.",
        fix: "Give every listener a unique name.",
        example: "listeners:\n- {name: http, protocol: HTTP, port: 80}\n- {name: http, protocol: HTTP, port: 8080}",
    },
    CheckDoc {
        code: Code::DuplicateRuleName,
        explanation: "Two rules of one route share a name. Two explicit names are rejected by the API server (error). An explicit name equal to the positional name of an unnamed rule (`rule-2`) is legal, but makes a policy's sectionName ambiguous (warning).",
        fix: "Name rules uniquely, and avoid the `rule-N` pattern for explicit names.",
        example: "rules:\n- name: rule-2\n- matches: [{path: {value: /}}]   # positional name rule-2",
    },
    CheckDoc {
        code: Code::SelectorUndecidable,
        explanation: "A listener admits routes from namespaces selected by label, but the route's Namespace object is not among the inputs, so dopol cannot know its labels. It assumes the route is accepted.",
        fix: "Add the Namespace manifests to the inputs to decide offline (a selector on kubernetes.io/metadata.name alone is decided without them).",
        example: "allowedRoutes:\n  namespaces:\n    from: Selector\n    selector: {matchLabels: {shared-gateway-access: \"true\"}}",
    },
    CheckDoc {
        code: Code::AssumedGateway,
        explanation: "With --assume-gateways, a Gateway that routes reference but the inputs lack was replaced by a stand-in (class `unknown`, one listener per sectionName used, accepting every route that names it). Results for its paths are only as good as that assumption. When a Gateway of that name is in the input under another namespace, the stand-in most likely hides a namespace mistake: the diagnostic is then a warning and says where the Gateway is.",
        fix: "Add the real Gateway's manifest when you can; fix the namespace when the Gateway is in the input elsewhere.",
        example: "",
    },
    CheckDoc {
        code: Code::DelegationChildDropped,
        explanation: "kgateway route delegation: a parent HTTPRoute rule whose backendRefs name HTTPRoutes (by name, `*` for a whole namespace, or `{group: delegation.kgateway.dev, kind: label}`) hands its traffic to those child routes, and each child rule gets a path under the parent rule. kgateway drops a child for that parent — no path, no policy through it — when the child sets `spec.hostnames` (a delegatee inherits the parent's), when its `parentRefs` are set but none is `{group: gateway.networking.k8s.io, kind: HTTPRoute}` naming the parent (namespace defaulting to the child's), or when it is already in the delegation chain (a cycle); the first reason in that order is reported. Without the child annotation `delegation.kgateway.dev/inherit-parent-matcher: \"true\"`, a child rule is also dropped when none of its matches is valid for the delegating rule's: the parent's path must be a PathPrefix that the child's path value starts with (a string prefix), and the child must repeat the parent's headers, query parameters and method. Such rules are reported once per child route and delegating rule, naming every dropped rule (the whole route when none is left). The same child can still be kept under another parent.",
        fix: "Remove the child's hostnames; name the parent in its parentRefs (or remove its parentRefs); break the cycle; narrow the child's matches to the parent's, or set the inherit-parent-matcher annotation on the child.",
        example: "# parent rule: matches [{path: {type: PathPrefix, value: /api}}], backendRefs [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: api, namespace: shop}]\n# child shop/api:\nrules:\n- matches:\n  - path: {type: PathPrefix, value: /v2}   # does not start with /api: dropped",
    },
    CheckDoc {
        code: Code::DelegationMixedBackends,
        explanation: "A kgateway route rule whose backendRefs name HTTPRoutes (or a delegation label) delegates: its requests go to the child routes, and the other backendRefs beside them (Services, ...) are ignored. A reader of the route may expect traffic to reach them.",
        fix: "Move the other backends into a child route, or into a rule of their own.",
        example: "backendRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: child}, {name: svc, port: 80}]",
    },
    CheckDoc {
        code: Code::DelegationNotSupported,
        explanation: "Route delegation is a kgateway feature. Paths through it exist only for families whose controller implements it (kgateway TrafficPolicy); Kuadrant and Envoy Gateway policies attach to no delegated path. A policy of such a family that targets a route (or rule) reachable only through delegation — no listener accepts it itself — therefore takes part in no path.",
        fix: "Target the parent route or the Gateway instead, or use a kgateway TrafficPolicy on the child route.",
        example: "kind: AuthPolicy\nspec:\n  targetRef: {group: gateway.networking.k8s.io, kind: HTTPRoute, name: child}   # child is only delegated to",
    },
];
