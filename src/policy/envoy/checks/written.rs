//! Documentation of the findings about how an Envoy Gateway policy is written, reported while
//! decoding (see `policy::envoy::decode`).

use crate::diag::Code;
use crate::lint::doc::CheckDoc;

/// Their documentation.
pub const DOCS: &[CheckDoc] = &[
    CheckDoc {
        code: Code::NullPruned,
        explanation: "Envoy Gateway's CRDs do not mark fields nullable, so the API server prunes a `null` before the controller sees it: the field is simply absent. In a route policy with `mergeType`, a `null` therefore does not delete the parent's field (RFC 7396 would), and the parent's value stays in the merged policy.",
        fix: "Remove the `null`; to change a parent's field, set the value you want instead.",
        example: "spec:\n  mergeType: JSONMerge\n  timeout: null   # pruned: the Gateway policy's timeout stays",
    },
    CheckDoc {
        code: Code::DeprecatedTargetRef,
        explanation: "`spec.targetRef` (singular) is deprecated in Envoy Gateway policies; the controller still reads it and reports Warning/DeprecatedField.",
        fix: "Move the reference into `spec.targetRefs`.",
        example: "targetRef: {group: gateway.networking.k8s.io, kind: Gateway, name: eg}",
    },
    CheckDoc {
        code: Code::SelectorSelectsAll,
        explanation: "A targetSelector with neither `matchLabels` nor `matchExpressions` is an empty Kubernetes label selector: it selects every object of its kind in the policy's namespace, including ones created later.",
        fix: "Name the labels to select, or use targetRefs.",
        example: "targetSelectors: [{kind: HTTPRoute}]",
    },
    CheckDoc {
        code: Code::CrossNamespaceSelector,
        explanation: "Envoy Gateway targetSelectors may select objects in other namespaces through `namespaces`. dopol does not evaluate that field: the selector acts on the policy's own namespace only, so objects selected elsewhere are missing from its results.",
        fix: "Keep in mind that results for other namespaces are missing, or use one policy per namespace.",
        example: "targetSelectors: [{kind: HTTPRoute, matchLabels: {app: a}, namespaces: {from: All}}]",
    },
    CheckDoc {
        code: Code::IgnoredTargetKind,
        explanation: "Envoy Gateway policies may target TCPRoutes, UDPRoutes, TLSRoutes and ListenerSets, which dopol does not model: such a target is ignored, and the policy takes part only through its other targets.",
        fix: "Nothing to fix in the policy; evaluate those targets with the controller.",
        example: "targetRefs: [{group: gateway.networking.k8s.io, kind: TCPRoute, name: db}]",
    },
];
