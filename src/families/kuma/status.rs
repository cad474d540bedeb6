//! The status dopol reports for a Kuma policy (§K10): `Accepted`, and `Enforced` computed over
//! the paths the policy takes part in and the leaves its entries set there.

use super::evaluate::KumaEvaluator;
use crate::policy::{Condition, PolicyConditions};
use std::collections::BTreeSet;

/// `Accepted` and `Enforced` of `policy`.
pub fn conditions(evaluator: &KumaEvaluator<'_>, policy: u32) -> PolicyConditions {
    let model = evaluator.model;
    let kind = model.policies[policy as usize].kind.kind;
    let accepted = Condition {
        kind: "Accepted",
        status: "True",
        reason: "Accepted",
        message: format!("{kind} has been accepted"),
    };
    let (on_paths, effective, lost, winners) = tally(evaluator, policy);
    let enforced = match (on_paths, effective, lost) {
        (false, ..) => condition(
            "False",
            "Unknown",
            format!("{kind} is not in the path of any dataplane"),
        ),
        (true, 0, 1..) => {
            let by: Vec<String> = winners.into_iter().collect();
            condition(
                "False",
                "Overridden",
                format!("{kind} is overridden by [{}]", by.join(" ")),
            )
        }
        (true, _, 0) => condition(
            "True",
            "Enforced",
            format!("{kind} has been successfully enforced"),
        ),
        (true, _, _) => condition(
            "True",
            "Enforced",
            format!("{kind} has been partially enforced"),
        ),
    };
    PolicyConditions {
        conditions: vec![accepted, enforced],
        ancestors: None,
    }
}

/// Whether `policy` is on some path, how many leaves it gives, how many it lost, and to whom.
fn tally(evaluator: &KumaEvaluator<'_>, policy: u32) -> (bool, usize, usize, BTreeSet<String>) {
    let model = evaluator.model;
    let (mut on_paths, mut effective, mut lost) = (false, 0usize, 0usize);
    let mut winners = BTreeSet::new();
    let items = evaluator.paths.items.iter();
    for item in items.filter(|i| i.policies.contains(&policy)) {
        on_paths = true;
        effective += (item.rules.iter())
            .filter(|r| r.origins.contains(&policy))
            .count();
        let losses = item.lost.iter();
        for loss in losses.filter(|l| l.policy == policy && l.winner != policy) {
            lost += 1;
            winners.insert(model.policies[loss.winner as usize].namespaced_name());
        }
    }
    (on_paths, effective, lost, winners)
}

fn condition(status: &'static str, reason: &'static str, message: String) -> Condition {
    Condition {
        kind: "Enforced",
        status,
        reason,
        message,
    }
}
