//! Outcome checks: a policy overridden on every path (DPL4001), a policy in the path to no route
//! (DPL4002), and a default rule superseded on every path where it applies (DPL4003). They read
//! the same rule outcomes as `dopol status`, and the Kuadrant operator's `Enforced` condition:
//! they are the Kuadrant family's checks.

use crate::diag::{Class, Code, CodeDef, Diagnostic, Severity, Violation};
use crate::engine::fold::RuleEvent;
use crate::engine::observed::Observed;
use crate::model::Model;
use crate::policy::{BlockKind, Level, Policy};
use crate::report::status::conditions;
use crate::source::Span;
use crate::topology::Topology;
use crate::topology::diags::Unreached;
use crate::topology::targets::Target;
use rayon::prelude::*;
use std::fmt;

/// DPL4001 and DPL4002 per accepted policy; DPL4003 per default rule. Policies are checked on
/// every core (each reads only its own outcomes), their findings kept in policy order.
pub fn check(
    observed: &Observed<'_, '_>,
    owns: &(dyn Fn(&Policy) -> bool + Sync),
) -> Vec<Diagnostic> {
    let model = observed.engine.model;
    let per_policy: Vec<Vec<Diagnostic>> = (0..model.policies.len() as u32)
        .into_par_iter()
        .filter(|&index| owns(&model.policies[index as usize]))
        .map(|index| policy_findings(observed, index))
        .collect();
    crate::platform::join_parts(per_policy)
}

/// The findings of policy `index`.
fn policy_findings(observed: &Observed<'_, '_>, index: u32) -> Vec<Diagnostic> {
    let policy = &observed.engine.model.policies[index as usize];
    let Some(&target) = observed.engine.topology.targets.of_policy[index as usize].first() else {
        return Vec::new();
    };
    let Some(condition) = conditions(observed, index)
        .into_iter()
        .find(|c| c.kind == "Enforced")
    else {
        return Vec::new();
    };
    match condition.reason {
        "Overridden" => return vec![overridden(policy, target, &condition.message)],
        "Unknown" => return vec![unreachable(observed, index, target)],
        _ => {}
    }
    // DPL4003: default rules that never win. Counted per rule (block by block) straight from
    // the folds, then reported in (block, key) order.
    let first_rule: Vec<usize> = (policy.blocks.iter())
        .scan(0, |next, block| {
            let first = *next;
            *next += block.rules.len();
            Some(first)
        })
        .collect();
    let rule_count = policy.blocks.iter().map(|b| b.rules.len()).sum();
    let mut counts = vec![(0usize, 0usize); rule_count];
    for (_, rule, outcome) in observed.outcomes_of(index) {
        let count = &mut counts[first_rule[rule.block()] + rule.rule()];
        count.0 += 1;
        if matches!(outcome, RuleEvent::Superseded { .. }) {
            count.1 += 1;
        }
    }
    let mut never_won: Vec<(usize, &str, usize)> = Vec::new();
    for (b, block) in policy.blocks.iter().enumerate() {
        for (r, rule) in block.rules.iter().enumerate() {
            let (paths, superseded) = counts[first_rule[b] + r];
            if block.kind != BlockKind::Overrides && paths > 0 && superseded == paths {
                never_won.push((b, rule.key.as_str(), paths));
            }
        }
    }
    never_won.sort_unstable();
    let mut diagnostics = Vec::new();
    for (block, key, paths) in never_won {
        let rule = policy.blocks[block]
            .rule(key)
            .expect("the key is the block's");
        let finding = DefaultSupersededEverywhere { policy, key, paths };
        diagnostics.push(
            Diagnostic::from(finding)
                .with_label(rule.key_span, "never effective")
                .with_object(policy.display()),
        );
    }
    diagnostics
}

/// DPL4002: a policy in the path to nothing, or on paths where none of its rules applies, with
/// the cause a user fixes: the target's own finding (a route attached nowhere), a policy with no
/// rule at all (its unknown field, when one was reported), or `when` constraints that never held.
fn unreachable(observed: &Observed<'_, '_>, index: u32, target: Target) -> Diagnostic {
    let model = observed.engine.model;
    let policy = &model.policies[index as usize];
    let on_paths = observed.entries_of_policy[index as usize].len();
    let label = policy.targets[0].name_span;
    if on_paths == 0 {
        return in_path_to_nothing(model, observed.engine.topology, policy, target, label);
    }
    let (because, root) = if policy.blocks.iter().all(|b| b.rules.is_empty()) {
        let (unknown_fields, root) = unknown_fields(model, policy);
        (NoRuleApplies::NoRule { unknown_fields }, root)
    } else if policy.blocks.iter().any(|b| b.constraint.is_some()) {
        (NoRuleApplies::ConstraintsNeverHeld, None)
    } else {
        (NoRuleApplies::Deactivated, None)
    };
    let why = Unreachable::NoRuleApplies { on_paths, because };
    Diagnostic::from(PolicyUnreachable { policy, why })
        .with_label(label, "never applied")
        .with_object(policy.display())
        .with_follows(root)
}

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

/// The unknown fields (`"spec.limit"`) that reading the policy reported (a kind read without its
/// CRD keeps such an object), with the first one's span.
fn unknown_fields<'m>(model: &'m Model, policy: &Policy) -> (Vec<&'m str>, Option<Span>) {
    let object = policy.display();
    let found: Vec<&Diagnostic> = model
        .diagnostics
        .iter()
        .filter(|d| d.code == Code::UNKNOWN_FIELD && d.object.as_deref() == Some(&object))
        .collect();
    let fields: Vec<&str> = found
        .iter()
        .map(|d| d.message.trim_start_matches("unknown field "))
        .collect();
    (fields, found.first().and_then(|d| d.primary_span()))
}

/// DPL4001. A Gateway- or listener-level policy of defaults that every route replaces is the
/// documented pattern (a deny-all default each route brings its own policy for): info. An
/// override, or a route-level policy, that loses everywhere is probably an accident: warning.
fn overridden(policy: &Policy, target: Target, condition: &str) -> Diagnostic {
    let replaced_default = matches!(target.level(), Level::Gateway | Level::Listener)
        && policy.blocks.iter().all(|b| !b.kind.is_override());
    let (severity, label, why) = if replaced_default {
        let level = target.level();
        let why = Overridden::ReplacedDefault { level };
        (Severity::Info, "replaced on every route", why)
    } else {
        let why = Overridden::Everywhere { condition };
        (Severity::Warning, "overridden everywhere", why)
    };
    Diagnostic::from(PolicyOverridden { policy, why })
        .with_severity(severity)
        .with_label(policy.name_span, label)
        .with_object(policy.display())
}

/// The codes declared here, in catalogue order.
pub const CODES: &[Code] = &[
    Code::POLICY_OVERRIDDEN,
    Code::POLICY_UNREACHABLE,
    Code::DEFAULT_SUPERSEDED_EVERYWHERE,
];

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

    /// DPL4003 `default-superseded-everywhere`: A default rule loses to a more specific policy on every path where it applies.
    pub const DEFAULT_SUPERSEDED_EVERYWHERE: Code = Code::new(&CodeDef {
        id: "DPL4003",
        name: "default-superseded-everywhere",
        severity: Severity::Info,
        class: Class::Finding,
        summary: "A default rule loses to a more specific policy on every path where it applies.",
        explanation: "A default rule (in `defaults` or bare rules) loses to a more specific policy on every path where it applies, so it never takes effect although the rest of its policy does.",
        fix: "Remove the rule, or make it an override if it must win.",
        example: "",
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

/// A default rule that loses on every path where it applies (`default-superseded-everywhere`).
pub struct DefaultSupersededEverywhere<'a> {
    /// The policy.
    pub policy: &'a Policy,
    /// The rule's key.
    pub key: &'a str,
    /// How many paths it applies on.
    pub paths: usize,
}

impl Violation for DefaultSupersededEverywhere<'_> {
    fn code(&self) -> Code {
        Code::DEFAULT_SUPERSEDED_EVERYWHERE
    }
    fn message(&self) -> String {
        format!(
            "default rule `{}` of {} is superseded on every path where it applies ({})",
            self.key,
            self.policy.display(),
            crate::words::counted(self.paths, "path")
        )
    }
}
