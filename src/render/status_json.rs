//! Fast JSON rendering of a `PolicyStatus` item.
//!
//! A policy on a Gateway lists the outcome of each of its rules on every path under it: on a
//! cluster dump that is millions of small objects, most of a `status -o json` run when
//! formatted token by token through `serde_json`. The outcomes are written here as bytes; the
//! few other fields (conditions, ancestors) still go through `serde_json` at their depth. The
//! bytes are exactly what [`super::json::push_item`] writes for the item (the tests compare).

use super::json::{push_joined, push_pretty, push_str};
use crate::report::status::{PathOutcome, PolicyStatus};
use std::io;

/// Appends one item of a `PolicyStatusList`: `,\n`, then the item at depth 2.
pub fn push_item(out: &mut Vec<u8>, status: &PolicyStatus<'_>) -> io::Result<()> {
    out.extend_from_slice(b",\n    {\n      \"policy\": ");
    push_str(out, status.policy);
    out.extend_from_slice(b",\n      \"conditions\": ");
    push_pretty(out, &status.conditions, 3)?;
    if let Some(ancestors) = &status.ancestors {
        out.extend_from_slice(b",\n      \"ancestors\": ");
        push_pretty(out, ancestors, 3)?;
    }
    out.extend_from_slice(b",\n      \"rules\": [");
    for (i, rule) in status.rules.iter().enumerate() {
        out.extend_from_slice(if i == 0 { b"\n" } else { b",\n" });
        out.extend_from_slice(b"        {\n          \"key\": ");
        push_str(out, rule.key);
        out.extend_from_slice(b",\n          \"outcomes\": [");
        for (j, outcome) in rule.outcomes.iter().enumerate() {
            out.extend_from_slice(if j == 0 { b"\n" } else { b",\n" });
            push_outcome(out, outcome);
        }
        if !rule.outcomes.is_empty() {
            out.extend_from_slice(b"\n          ");
        }
        out.extend_from_slice(b"]\n        }");
    }
    if !status.rules.is_empty() {
        out.extend_from_slice(b"\n      ");
    }
    out.extend_from_slice(b"]\n    }");
    Ok(())
}

/// One outcome, as an element of its rule's `outcomes` (depth 6).
fn push_outcome(out: &mut Vec<u8>, outcome: &PathOutcome<'_>) {
    out.extend_from_slice(b"            {\n              \"pathId\": ");
    push_joined(out, &outcome.path_id.parts());
    out.extend_from_slice(b",\n              \"outcome\": ");
    push_str(out, outcome.outcome);
    out.extend_from_slice(b",\n              \"by\": [");
    for (k, by) in outcome.by.iter().enumerate() {
        out.extend_from_slice(if k == 0 { b"\n" } else { b",\n" });
        out.extend_from_slice(b"                ");
        push_str(out, by);
    }
    if !outcome.by.is_empty() {
        out.extend_from_slice(b"\n              ");
    }
    out.push(b']');
    if let Some(reason) = outcome.reason {
        out.extend_from_slice(b",\n              \"reason\": ");
        push_str(out, reason);
    }
    out.extend_from_slice(b"\n            }");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::evaluator::{AncestorRef, AncestorStatus, Condition};
    use crate::report::status::RuleStatus;
    use crate::topology::{PathId, Topology};

    fn condition(message: &str) -> Condition {
        Condition {
            kind: "Accepted",
            status: "True",
            reason: "Accepted",
            message: message.into(),
        }
    }

    fn outcome<'a>(
        path_id: PathId<'a>,
        by: Vec<&'a str>,
        reason: Option<&'a str>,
    ) -> PathOutcome<'a> {
        PathOutcome {
            path_id,
            outcome: "overridden",
            by,
            reason,
        }
    }

    fn serde_bytes(status: &PolicyStatus<'_>) -> Vec<u8> {
        let mut out = Vec::new();
        crate::render::json::push_item(&mut out, status).unwrap();
        out
    }

    #[test]
    fn writes_what_serde_json_writes() {
        let escaped = "a\"b\\c\nd\u{1}é\t";
        let ids = ["istio|ns/gw|ns/gw#http|ns/r|ns/r#rule-1", escaped, "p"];
        let topology = Topology::of_path_ids(&ids);
        let id = |i| topology.path_id(i);
        let rules = vec![
            RuleStatus {
                key: "limits#global",
                outcomes: vec![
                    outcome(id(0), vec![], None),
                    outcome(id(1), vec!["a:ns/one"], Some("why \"not\"")),
                    outcome(id(2), vec!["a:ns/one", escaped], None),
                ],
            },
            RuleStatus {
                key: escaped,
                outcomes: vec![],
            },
        ];
        let ancestors = vec![AncestorStatus {
            ancestor_ref: AncestorRef {
                group: "gateway.networking.k8s.io",
                kind: "Gateway",
                namespace: "ns".into(),
                name: "gw".into(),
                section_name: None,
            },
            conditions: vec![condition("attached")],
            conflicted_by: vec![],
        }];
        for (rules, ancestors, conditions) in [
            (
                rules.clone(),
                None,
                vec![condition("ok"), condition(escaped)],
            ),
            (rules.clone(), Some(ancestors.clone()), vec![]),
            (vec![], None, vec![condition("ok")]),
            (vec![], Some(vec![]), vec![]),
        ] {
            let status = PolicyStatus {
                policy: "authpolicy.kuadrant.io:ns/p",
                conditions,
                ancestors,
                rules,
                index: 0,
                policy_kind: "AuthPolicy",
            };
            let mut fast = Vec::new();
            push_item(&mut fast, &status).unwrap();
            assert_eq!(
                String::from_utf8(fast).unwrap(),
                String::from_utf8(serde_bytes(&status)).unwrap()
            );
        }
    }
}
