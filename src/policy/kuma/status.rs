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
    let (mut on_paths, mut effective, mut lost) = (false, 0usize, 0usize);
    let mut winners = BTreeSet::new();
    for item in evaluator
        .paths
        .items
        .iter()
        .filter(|i| i.policies.contains(&policy))
    {
        on_paths = true;
        effective += item
            .rules
            .iter()
            .filter(|r| r.origins.contains(&policy))
            .count();
        for loss in item
            .lost
            .iter()
            .filter(|l| l.policy == policy && l.winner != policy)
        {
            lost += 1;
            winners.insert(model.policies[loss.winner as usize].namespaced_name());
        }
    }
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

fn condition(status: &'static str, reason: &'static str, message: String) -> Condition {
    Condition {
        kind: "Enforced",
        status,
        reason,
        message,
    }
}
