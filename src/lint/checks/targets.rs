//! Target checks (DPL3xxx): policies whose targetRef does not resolve or names a kind the
//! policy may not target. The logic lives in `topology::targets` and `policy::kuadrant`.

use crate::diag::Code;
use crate::lint::doc::CheckDoc;

/// Documentation of the target codes.
pub const DOCS: &[CheckDoc] = &[
    CheckDoc {
        code: Code::TargetNotFound,
        explanation: "The policy's targetRef names a Gateway or route that is not among the inputs in the policy's own namespace (targetRef has no namespace field). The policy is not accepted (TargetNotFound; the operator's condition message is `<policy kind> target <name>[#<section>] was not found`) and takes part in no effective policy. When an object of that name is in the input under another namespace, the message says where, and the help names the object to move (the one without `metadata.namespace`, if either lacks it).",
        fix: "Fix the name (the help suggests a close one), create the policy in the target's namespace, or add the target's manifest.",
        example: "targetRef: {group: gateway.networking.k8s.io, kind: HTTPRoute, name: shopp}",
    },
    CheckDoc {
        code: Code::SectionNotFound,
        explanation: "The target exists, but its sectionName names no listener (Gateway) or rule (route; unnamed rules are `rule-1`, `rule-2`, …). The policy is not accepted.",
        fix: "Use an existing listener or rule name.",
        example: "targetRef: {group: gateway.networking.k8s.io, kind: Gateway, name: gw, sectionName: htps}",
    },
    CheckDoc {
        code: Code::InvalidTargetKind,
        explanation: "The targetRef's group is not gateway.networking.k8s.io, or its kind is one this policy kind may not target (TokenRateLimitPolicy may target only Gateway and HTTPRoute). The API server rejects the policy.",
        fix: "Target a Gateway, HTTPRoute or GRPCRoute (as the kind allows) in group gateway.networking.k8s.io.",
        example: "kind: TokenRateLimitPolicy\nspec:\n  targetRef: {group: gateway.networking.k8s.io, kind: GRPCRoute, name: grpc}",
    },
];
