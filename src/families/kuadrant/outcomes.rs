//! Kuadrant's outcome checks: a policy overridden on every path (DPL4001), a policy in the path to
//! no route (DPL4002), and a default rule superseded on every path where it applies (DPL4003).
//! They read the same rule outcomes as `dopol status`, and the Kuadrant operator's `Enforced`
//! condition. The first two codes are shared by the families ([`crate::policy::outcomes`]).

use crate::diag::{Class, Code, CodeDef, Diagnostic, Severity, Violation};
use crate::engine::fold::RuleEvent;
use crate::engine::observed::Observed;
use crate::model::Model;
use crate::policy::outcomes::{
    NoRuleApplies, Overridden, PolicyOverridden, PolicyUnreachable, Unreachable, in_path_to_nothing,
};
use crate::policy::{BlockKind, Level, Policy};
use crate::source::Span;
use crate::topology::targets::Target;
use rayon::prelude::*;

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
    let Some(condition) = (observed.conditions(index).conditions)
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

impl Code {
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
