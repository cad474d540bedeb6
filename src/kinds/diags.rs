//! The codes every family's decoding shares: a target kind the policy may not name, and a
//! request-time expression that is not valid CEL — and the finding types that word them.

use super::{Policy, PolicyKind};
use crate::diag::{Class, Code, CodeDef, Severity, Violation};
use crate::expr::ExprError;

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
        fix: "Fix the expression at the position shown. A backslash in a string literal starts an escape: a regular expression's `\\.` is written `\\\\.`, or the string is made raw (`r'^api\\.example\\.com$'`); the help says so when the parser stopped there.",
        example: "when:\n- predicate: \"request.method == 'GET' &&\"",
    });
}

/// A targetRef the API server rejects: a group other than Gateway API's, or a kind the policy
/// may not target (`invalid-target-kind`).
pub enum InvalidTargetKind<'a> {
    /// `targetRef.group` is not `gateway.networking.k8s.io`.
    Group {
        /// The group written.
        group: &'a str,
    },
    /// `targetRef.kind` is not one the policy's kind may target.
    Kind {
        /// The policy's kind.
        policy_kind: &'a PolicyKind,
        /// The kind written.
        kind: &'a str,
    },
    /// A `targetSelectors` entry selects a kind the policy's kind may not target.
    Selected {
        /// The policy's kind.
        policy_kind: &'a PolicyKind,
        /// The kind the selector selects.
        kind: &'a str,
    },
}

impl InvalidTargetKind<'_> {
    /// The label of the group or kind written.
    pub fn label(&self) -> String {
        match self {
            InvalidTargetKind::Group { group } => format!("`{group}` is not allowed"),
            InvalidTargetKind::Kind { policy_kind, kind } => {
                format!("{} may not target a {kind}", policy_kind.kind)
            }
            InvalidTargetKind::Selected { policy_kind, kind } => {
                format!("{} may not select a {kind}", policy_kind.kind)
            }
        }
    }
}

impl Violation for InvalidTargetKind<'_> {
    fn code(&self) -> Code {
        Code::INVALID_TARGET_KIND
    }
    fn message(&self) -> String {
        match self {
            InvalidTargetKind::Group { .. } => {
                "Invalid targetRef.group. The only supported value is 'gateway.networking.k8s.io'"
                    .to_string()
            }
            InvalidTargetKind::Kind { policy_kind, .. }
            | InvalidTargetKind::Selected { policy_kind, .. } => {
                policy_kind.target_kind_message.to_string()
            }
        }
    }
}

/// A request-time expression of a policy that is not valid CEL (`predicate-invalid`).
pub struct PredicateInvalid<'a> {
    /// The policy.
    pub policy: &'a Policy,
    /// The syntax error.
    pub error: &'a ExprError,
    /// How to write it, when the parser stopped at a string escape CEL does not know.
    pub help: Option<String>,
}

impl Violation for PredicateInvalid<'_> {
    fn code(&self) -> Code {
        Code::PREDICATE_INVALID
    }
    fn message(&self) -> String {
        format!(
            "invalid CEL in a request-time expression of {}: {}",
            self.policy.display(),
            self.error.message
        )
    }

    fn help(&self) -> Option<String> {
        self.help.clone()
    }
}
