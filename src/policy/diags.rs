//! The codes every family's decoding shares: a target kind the policy may not name, and a
//! request-time expression that is not valid CEL.

use crate::diag::{Class, Code, CodeDef, Severity};

/// The codes declared here, in catalogue order.
pub const CODES: &[Code] = &[Code::INVALID_TARGET_KIND, Code::PREDICATE_INVALID];

impl Code {
    /// DPL3003 `invalid-target-kind`: A policy targets a kind it may not target.
    pub const INVALID_TARGET_KIND: Code = Code::new(&CodeDef {
        id: "DPL3003",
        name: "invalid-target-kind",
        severity: Severity::Error,
        class: Class::Input,
        summary: "A policy targets a kind it may not target.",
        explanation: "The targetRef's group is not gateway.networking.k8s.io, or its kind is one this policy kind may not target (TokenRateLimitPolicy may target only Gateway and HTTPRoute). The API server rejects the policy.",
        fix: "Target a Gateway, HTTPRoute or GRPCRoute (as the kind allows) in group gateway.networking.k8s.io.",
        example: "kind: TokenRateLimitPolicy\nspec:\n  targetRef: {group: gateway.networking.k8s.io, kind: GRPCRoute, name: grpc}",
    });

    /// DPL4011 `predicate-invalid`: A Kuadrant request-time predicate or counter expression is not valid CEL.
    pub const PREDICATE_INVALID: Code = Code::new(&CodeDef {
        id: "DPL4011",
        name: "predicate-invalid",
        severity: Severity::Error,
        class: Class::Input,
        summary: "A Kuadrant request-time predicate or counter expression is not valid CEL.",
        explanation: "A Kuadrant request-time predicate (`when[].predicate`) or counter `expression` is not valid CEL. dopol never evaluates these (they need a request), but a syntax error would only surface in the gateway.",
        fix: "Fix the expression at the position shown.",
        example: "when:\n- predicate: \"request.method == 'GET' &&\"",
    });
}
