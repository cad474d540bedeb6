//! Status that does not lie (DPL4020, DPL4021): a policy whose status, as its controller
//! writes it, says it took effect — Accepted, Attached or Enforced, and nothing saying it is
//! overridden — while dopol's fold finds none of its rules effective on any path it reaches, or
//! a rule of it effective nowhere. kgateway and agentgateway write Attached for a policy whose
//! every field lost; Envoy Gateway accepts a policy whatever wins its paths; users file "it said
//! Attached but never matched". The finding names the rule and who beat it.
//!
//! Every family is read through the engine's outcomes, so this check names none. A policy that
//! reaches no path is left to the codes that say why (`policy-unreachable`, the families' own);
//! a family that reports this with its own code (`PolicyFamily::reports_ineffective`), a
//! family with a hierarchy of its own, and a kind that configures listeners without routes
//! (whose effect is not only on paths) are left out.

use crate::diag::{Class, Code, CodeDef, Diagnostic, Severity, Violation};
use crate::engine::fold::RuleEvent;
use crate::engine::observed::Observed;
use crate::policy::{Condition, Policy};
use std::collections::{BTreeMap, BTreeSet};

/// The codes declared here, in catalogue order.
pub const CODES: &[Code] = &[Code::REPORTED_BUT_INEFFECTIVE, Code::RULE_EFFECTIVE_NOWHERE];

impl Code {
    /// DPL4020 `reported-but-ineffective`: The controller reports the policy as taking effect, but none of its rules is effective on any path it reaches.
    pub const REPORTED_BUT_INEFFECTIVE: Code = Code::new(&CodeDef {
        id: "DPL4020",
        name: "reported-but-ineffective",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "The controller reports the policy as taking effect, but none of its rules is effective on any path it reaches.",
        explanation: "The policy's status, as its controller writes it (and dopol reproduces it), says Accepted, Attached or Enforced, with no condition saying it is overridden; yet on every path the policy reaches, each of its rules loses: to a more specific default, a less specific override, an older policy at the same level, or a constraint that does not hold. Nothing it sets reaches a request, while its status tells its author all is well.",
        fix: "Read `dopol explain` on one of its paths (or `dopol reach` for the policy): remove the policy, or change what it targets or its strategy so that it wins where it should.",
        example: "# a kgateway TrafficPolicy on a Gateway whose every field a route-level policy also sets: status Attached",
    });

    /// DPL4021 `rule-effective-nowhere`: A rule the policy sets is effective on none of the paths the policy reaches, while its status says it took effect.
    pub const RULE_EFFECTIVE_NOWHERE: Code = Code::new(&CodeDef {
        id: "DPL4021",
        name: "rule-effective-nowhere",
        severity: Severity::Info,
        class: Class::Finding,
        summary: "A rule the policy sets is effective on none of the paths the policy reaches, while its status says it took effect.",
        explanation: "Other rules of the policy take effect, so its status is true as far as it goes; this rule (a field, a limit, an authentication entry) loses on every path the policy reaches, and no condition names it. A default every route replaces is often meant (info); a rule its author expects to apply is not.",
        fix: "Check the winner the finding names with `dopol explain`; remove the rule, or move it where it wins.",
        example: "# a Gateway AuthPolicy default `authentication#jwt` that every route's own AuthPolicy replaces",
    });
}

/// The condition types that say a policy took effect, the most telling first.
const POSITIVE: [&str; 3] = ["Enforced", "Attached", "Accepted"];

/// The first condition that says `policy` took effect, unless another says it did not.
fn claimed(conditions: &crate::policy::PolicyConditions) -> Option<&Condition> {
    let all: Vec<&Condition> = conditions.all().collect();
    // Overridden=True (Envoy Gateway), or a positive type that is False (Kuadrant's
    // Enforced/Overridden, kgateway's Attached/Overridden): the status already says it.
    let admits = all.iter().any(|c| {
        (c.kind == "Overridden" && c.status == "True")
            || (POSITIVE.contains(&c.kind) && c.status == "False")
    });
    let positive = (POSITIVE.iter())
        .find_map(|&kind| all.iter().find(|c| c.kind == kind && c.status == "True"));
    positive.copied().filter(|_| !admits)
}

/// What happened to one rule key of a policy over the paths it reaches.
#[derive(Default)]
struct KeyFate {
    /// Effective (or merged into the value) on some path.
    effective: bool,
    /// The policies that beat it.
    winners: BTreeSet<u32>,
    /// The ways it lost without another policy to name.
    unnamed: BTreeSet<Unnamed>,
}

/// A loss without another policy to name.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
enum Unnamed {
    /// Another rule of the same policy won (a block it should not have beside another).
    Own,
    /// The family left the path without a value of the kind (kgateway: an invalid policy on
    /// the path; the family's own error says so).
    NoValue,
    /// Any other outcome without a winner (`not-applied`: a constraint did not hold).
    Outcome(&'static str),
}

impl Unnamed {
    fn of(lost: &RuleEvent, p: u32) -> Unnamed {
        match lost {
            _ if lost.by().contains(&p) => Unnamed::Own,
            RuleEvent::Superseded { .. } => Unnamed::NoValue,
            other => Unnamed::Outcome(other.as_str()),
        }
    }

    fn describe(&self, kind: &str) -> String {
        match self {
            Unnamed::Own => "loses to another of its own rules".to_string(),
            Unnamed::NoValue => format!("the path has no effective {kind}"),
            Unnamed::Outcome(outcome) => outcome.to_string(),
        }
    }
}

/// Whether every rule of policy `p` is effective on some path: most policies, found on their
/// first paths, so the check reads no further.
fn all_effective(observed: &Observed<'_, '_>, p: u32) -> bool {
    let policy = &observed.engine.model.policies[p as usize];
    let mut left: Vec<&str> = policy.rules().map(|(_, r)| r.key.as_str()).collect();
    left.sort_unstable();
    left.dedup();
    for seen in observed.each_observation(p) {
        if matches!(seen.outcome, RuleEvent::Added | RuleEvent::Merged { .. }) {
            left.retain(|key| *key != seen.key);
            if left.is_empty() {
                return true;
            }
        }
    }
    false
}

/// Every rule key of policy `p` with its fate, and how many paths it reaches.
fn fates<'o>(observed: &'o Observed<'_, '_>, p: u32) -> (BTreeMap<&'o str, KeyFate>, usize) {
    let mut keys: BTreeMap<&str, KeyFate> = BTreeMap::new();
    // A path's outcomes come together: counting a change of path counts the paths.
    let (mut paths, mut last) = (0, None);
    for seen in observed.each_observation(p) {
        if last != Some(seen.path) {
            (paths, last) = (paths + 1, Some(seen.path));
        }
        let fate = keys.entry(seen.key).or_default();
        match seen.outcome {
            RuleEvent::Added | RuleEvent::Merged { .. } => fate.effective = true,
            lost => {
                let others = lost.by().iter().filter(|&&w| w != p);
                if others.clone().next().is_none() {
                    fate.unnamed.insert(Unnamed::of(lost, p));
                }
                fate.winners.extend(others);
            }
        }
    }
    (keys, paths)
}

/// Whether the check reads policy `p` (see the module's documentation).
fn checked(observed: &Observed<'_, '_>, policy: &Policy) -> bool {
    let model = observed.engine.model;
    let registry = &model.registry;
    let index = registry.kind_index(policy.kind);
    !registry.family_of(policy.kind).reports_ineffective()
        && observed.engine.evaluator(index).owned_paths().is_none()
        && !registry.evaluation_at(index).acts_on_listeners(policy.kind)
        && registry.hierarchy_of(policy.kind).attaches_to_routes()
}

/// DPL4020 and DPL4021 over every policy.
pub fn check(observed: &Observed<'_, '_>) -> Vec<Diagnostic> {
    let model = observed.engine.model;
    let mut found = Vec::new();
    for (p, policy) in model.policies.iter().enumerate() {
        let p = p as u32;
        if !checked(observed, policy) {
            continue;
        }
        // Outcomes first: a policy whose rules all take effect somewhere (most of them) needs
        // no status.
        if all_effective(observed, p) {
            continue;
        }
        let (keys, paths) = fates(observed, p);
        let lost: Vec<(&str, &KeyFate)> = (keys.iter())
            .filter(|(_, f)| !f.effective)
            .map(|(k, f)| (*k, f))
            .collect();
        if paths == 0 || lost.is_empty() {
            continue;
        }
        let conditions = observed.conditions(p);
        let Some(claim) = claimed(&conditions) else {
            continue;
        };
        let whole = lost.len() == keys.len();
        let family = model.registry.family_of(policy.kind);
        if !whole && family.status_admits_loss(&conditions) {
            continue;
        }
        let finding = Ineffective {
            policy,
            claim,
            paths,
            lost: &lost,
            whole,
            locator: &|w| model.policies[w as usize].display(),
        };
        if finding.whole {
            found.push(finding.diagnostic());
        } else {
            found.extend((0..lost.len()).map(|i| finding.one(i)));
        }
    }
    found
}

/// A policy (or one rule of it) effective nowhere while its status says it took effect.
pub struct Ineffective<'a> {
    policy: &'a Policy,
    claim: &'a Condition,
    paths: usize,
    lost: &'a [(&'a str, &'a KeyFate)],
    /// Every rule lost (DPL4020), else one rule per finding (DPL4021).
    whole: bool,
    locator: &'a dyn Fn(u32) -> String,
}

impl Ineffective<'_> {
    fn diagnostic(&self) -> Diagnostic {
        Diagnostic::from(self)
            .with_label(self.policy.name_span, "its status says it took effect")
            .with_object(self.policy.display())
    }

    /// The DPL4021 finding of the `i`-th lost rule.
    fn one(&self, i: usize) -> Diagnostic {
        Ineffective {
            lost: &self.lost[i..=i],
            ..*self
        }
        .diagnostic()
    }

    /// `key (loses to X, Y; not applied: its constraint)` for each lost rule.
    fn fates(&self) -> Vec<String> {
        (self.lost.iter())
            .map(|(key, fate)| {
                let mut why: Vec<String> = Vec::new();
                if !fate.winners.is_empty() {
                    let winners: Vec<String> =
                        fate.winners.iter().map(|&w| (self.locator)(w)).collect();
                    why.push(format!("loses to {}", winners.join(", ")));
                }
                let kind = self.policy.kind.kind;
                why.extend(fate.unnamed.iter().map(|how| how.describe(kind)));
                format!("`{key}` ({})", why.join("; "))
            })
            .collect()
    }
}

impl Violation for &Ineffective<'_> {
    fn code(&self) -> Code {
        match self.whole {
            true => Code::REPORTED_BUT_INEFFECTIVE,
            false => Code::RULE_EFFECTIVE_NOWHERE,
        }
    }
    fn message(&self) -> String {
        let status = format!(
            "its status says {}={} ({})",
            self.claim.kind, self.claim.status, self.claim.reason
        );
        let (on, none_on) = match self.paths {
            1 => (
                "on the 1 path".to_string(),
                "not effective on the 1 path".to_string(),
            ),
            n => (
                format!("on any of the {n} paths"),
                format!("effective on none of the {n} paths"),
            ),
        };
        let fates = self.fates().join(", ");
        match self.whole {
            true => format!(
                "{} has no effect: {status}, but none of its rules is effective {on} it reaches: {fates}",
                self.policy.display()
            ),
            false => format!(
                "{}: rule {fates} is {none_on} the policy reaches, while {status}",
                self.policy.display()
            ),
        }
    }
}
