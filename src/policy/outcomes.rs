//! The outcome findings every family may report: a policy none of whose rules is effective on
//! any path (DPL4001) and a policy in the path to nothing (DPL4002). Which policies they concern
//! is the family's question (Kuadrant's `Enforced` condition, Envoy Gateway's slots); their codes,
//! wording and the unreached target's cause are shared, so they are declared in the contract.

use super::{Level, Policy};
use crate::diag::{Class, Code, CodeDef, Diagnostic, Severity, Violation};
use crate::model::Model;
use crate::source::Span;
use crate::topology::Topology;
use crate::topology::diags::Unreached;
use crate::topology::targets::Target;
use std::fmt;

/// DPL4002 for a policy on no path, labelled at `label`: the target's own cause (see
/// [`Topology::unreached`]), shared by every family that reports unreached policies.
pub fn in_path_to_nothing(
    model: &Model,
    topology: &Topology,
    policy: &Policy,
    target: Target,
    label: Span,
) -> Diagnostic {
    let family = model.registry.family_of(policy.kind);
    let (target, root) = topology.unreached(model, target, family);
    let why = Unreachable::InPathToNothing(target);
    Diagnostic::from(PolicyUnreachable { policy, why })
        .with_label(label, "in the path to nothing")
        .with_object(policy.display())
        .with_follows(root)
}

/// The codes declared here, in catalogue order.
pub const CODES: &[Code] = &[Code::POLICY_OVERRIDDEN, Code::POLICY_UNREACHABLE];

impl Code {
    /// DPL4001 `policy-overridden`: The policy is accepted but overridden on every path it reaches.
    pub const POLICY_OVERRIDDEN: Code = Code::new(&CodeDef {
        id: "DPL4001",
        name: "policy-overridden",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "The policy is accepted but overridden on every path it reaches.",
        explanation: "The policy is accepted and on the path to routes, but none of its rules is effective anywhere: more specific defaults or less specific overrides win every time. The operator reports Enforced=False, reason Overridden. For an override, or a policy on a route or route rule, it is dead configuration or a sign the hierarchy is not what its author thinks (warning). A Gateway- or listener-level policy of defaults that every route replaces is the documented pattern — a deny-all default each route replaces with its own policy — and is reported as info, so `--fail-on warning` does not fail the recommended setup.",
        fix: "Check `dopol reach` for the policy; delete it, or change the strategy (merge instead of atomic) or the level it targets.",
        example: "# route policy with bare rules under a Gateway policy with atomic overrides",
    });

    /// DPL4002 `policy-unreachable`: The policy's target has no route beneath it, so it is in the path to nothing.
    pub const POLICY_UNREACHABLE: Code = Code::new(&CodeDef {
        id: "DPL4002",
        name: "policy-unreachable",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "The policy's target has no route beneath it, so it is in the path to nothing.",
        explanation: "The policy's target exists, but no route is attached beneath it (a listener without routes, a route attached nowhere), so the policy is in the path to nothing. The operator reports Enforced=False, reason Unknown.",
        fix: "Attach routes to the target, or target another element; `dopol topology` shows what is attached where.",
        example: "targetRef: {group: gateway.networking.k8s.io, kind: Gateway, name: gw, sectionName: unused-listener}",
    });
}

/// A policy none of whose rules is effective on any path (`policy-overridden`).
pub struct PolicyOverridden<'a> {
    /// The policy.
    pub policy: &'a Policy,
    /// Why none of its rules is effective.
    pub why: Overridden<'a>,
}

/// Why a policy's rules are effective nowhere.
pub enum Overridden<'a> {
    /// A Gateway- or listener-level policy of defaults that every route replaces.
    ReplacedDefault {
        /// The level of its target.
        level: Level,
    },
    /// Overridden on every path, as the `Enforced` condition says.
    Everywhere {
        /// The condition's message.
        condition: &'a str,
    },
}

impl Violation for PolicyOverridden<'_> {
    fn code(&self) -> Code {
        Code::POLICY_OVERRIDDEN
    }
    fn message(&self) -> String {
        let why = match &self.why {
            Overridden::ReplacedDefault { level } => format!(
                "a {}-level default every route replaces, as when each route brings its own policy",
                level.as_str()
            ),
            Overridden::Everywhere { condition } => condition.to_string(),
        };
        format!(
            "{}: none of its rules is effective on any path ({why})",
            self.policy.display()
        )
    }
    fn help(&self) -> Option<String> {
        let reach = format_args!("reach {}", self.policy.namespaced_name());
        Some(crate::diag::see_command(reach))
    }
}

/// A policy in the path to nothing, or none of whose rules applies on its paths
/// (`policy-unreachable`).
pub struct PolicyUnreachable<'a> {
    /// The policy.
    pub policy: &'a Policy,
    /// Why it reaches nothing.
    pub why: Unreachable<'a>,
}

/// Why a policy reaches nothing.
pub enum Unreachable<'a> {
    /// It is on no path: why its target is reached by none.
    InPathToNothing(Unreached),
    /// It is on paths, where none of its rules applies.
    NoRuleApplies {
        /// How many paths it is on.
        on_paths: usize,
        /// Why none of its rules applies there.
        because: NoRuleApplies<'a>,
    },
}

/// Why none of a policy's rules applies on its paths.
pub enum NoRuleApplies<'a> {
    /// It has no rule at all; reading it reported these unknown fields (`"spec.limit"`).
    NoRule {
        /// The unknown fields, which may be meant to hold rules.
        unknown_fields: Vec<&'a str>,
    },
    /// Its `when` constraints held on none of them.
    ConstraintsNeverHeld,
    /// Every one of its rules is deactivated there.
    Deactivated,
}

impl fmt::Display for NoRuleApplies<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let fields = match self {
            NoRuleApplies::NoRule { unknown_fields } => unknown_fields,
            NoRuleApplies::ConstraintsNeverHeld => {
                return f.write_str("its `when` constraints did not hold on any of them");
            }
            NoRuleApplies::Deactivated => {
                return f.write_str("every one of its rules is deactivated there");
            }
        };
        f.write_str("it has no rule")?;
        match fields.as_slice() {
            [] => Ok(()),
            [field] => write!(
                f,
                "; its unknown field {field} (DPL1009) may be meant to hold them"
            ),
            many => write!(
                f,
                "; its unknown fields {} (DPL1009) may be meant to hold them",
                many.join(", ")
            ),
        }
    }
}

impl Violation for PolicyUnreachable<'_> {
    fn code(&self) -> Code {
        Code::POLICY_UNREACHABLE
    }
    fn message(&self) -> String {
        let policy = self.policy.display();
        match &self.why {
            Unreachable::InPathToNothing(target) => {
                format!("{policy} targets {target}; the policy is in the path to nothing")
            }
            Unreachable::NoRuleApplies { on_paths, because } => format!(
                "{policy} is on {} but none of its rules applies on any of them: {because}",
                crate::words::counted(*on_paths, "path")
            ),
        }
    }
}
