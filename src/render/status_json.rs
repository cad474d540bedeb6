//! Fast JSON rendering of a `PolicyStatus` item.
//!
//! A policy on a Gateway lists the outcome of each of its rules on every path under it: on a
//! cluster dump that is millions of small objects, most of a `status -o json` run when
//! formatted token by token through `serde_json`. The outcomes are written here as bytes; the
//! few other fields (conditions, ancestors) still go through `serde_json` at their depth. The
//! bytes are exactly what [`super::json::push_item`] writes for the item (the tests compare).
//!
//! Those few big items (megabytes each) are not built nor held whole: [`write_streamed`] writes
//! one straight to the output, a rule at a time, its outcomes formatted in parallel runs of
//! paths. The many small ones are built and rendered whole, a batch of them in parallel.

use super::json::{Elements, push_joined, push_pretty, push_str};
use crate::engine::observed::Observed;
use crate::policy::NamedStrategy;
use crate::policy::evaluator::{AncestorStatus, Condition};
use crate::report::filter::Filters;
use crate::report::status::{self, PathOutcome, PolicyStatus};
use crate::report::status_targets::{DopolStatus, dopol_status};
use std::io::{self, Write};

/// Outcomes (one per rule per path) a policy's status may list from which it is streamed
/// ([`write_streamed`]) rather than built and rendered whole: about 1 MB of JSON.
const BIG: usize = 4096;

/// Entries of a streamed policy whose outcomes of one rule are formatted as one part, in
/// parallel with the next parts: about 60 KB of JSON. A few parts are held at once, each in
/// a buffer grown by doubling: parts of 1,024 entries held 2.6 MB at `status`'s peak on the
/// 49 MB benchmark.
const RUN: usize = 256;

/// Appends one item of a `PolicyStatusList`: `,\n`, then the item at depth 2.
pub fn push_item(out: &mut Vec<u8>, status: &PolicyStatus<'_>) -> io::Result<()> {
    let head = Head {
        policy: status.policy,
        conditions: &status.conditions,
        ancestors: status.ancestors.as_deref(),
        strategies: &status.strategies,
        dopol: status.dopol.as_ref(),
    };
    push_head(out, &head)?;
    for (i, rule) in status.rules.iter().enumerate() {
        push_rule_head(out, i == 0, rule.key);
        for (j, outcome) in rule.outcomes.iter().enumerate() {
            push_outcome(out, j == 0, outcome);
        }
        push_rule_tail(out, !rule.outcomes.is_empty(), &rule.listener_outcomes)?;
        push_owned_outcomes(out, &rule.owned_outcomes)?;
    }
    push_tail(out, !status.rules.is_empty());
    Ok(())
}

/// Whether the status of policy `p` may be big enough to be streamed ([`write_streamed`]):
/// a policy on a Gateway has an outcome for each of its rules on every path under it.
pub fn is_big(observed: &Observed<'_, '_>, p: u32) -> bool {
    let rules = observed.engine.model.policies[p as usize].rules().count();
    observed.entries_of_policy[p as usize].len() * rules >= BIG
}

/// Writes what [`push_item`] writes for the status of policy `p` (its outcomes on the paths
/// passing `filters`) as it formats it: the status is never held whole, only a few runs of one
/// rule's outcomes, formatted in parallel.
pub fn write_streamed(
    out: &mut Elements<'_>,
    observed: &Observed<'_, '_>,
    filters: &Filters,
    p: u32,
) -> io::Result<()> {
    write_in_runs(out, observed, filters, p, RUN)
}

/// [`write_streamed`], formatting `run` entries of the policy per part.
fn write_in_runs(
    out: &mut Elements<'_>,
    observed: &Observed<'_, '_>,
    filters: &Filters,
    p: u32,
    run: usize,
) -> io::Result<()> {
    let conditions = status::policy_conditions(observed, p);
    let dopol = dopol_status(observed, filters, p);
    let locator = &observed.engine.model.policies[p as usize].locator;
    // The item's first write holds its comma (see `Elements`).
    let mut buffer = Vec::new();
    let head = Head {
        policy: locator,
        conditions: &conditions.conditions,
        ancestors: conditions.ancestors.as_deref(),
        strategies: &status::strategies(observed, p),
        dopol: dopol.as_ref(),
    };
    push_head(&mut buffer, &head)?;
    let keys = status::rule_keys(observed, p);
    let on_listeners = status::listener_outcomes(observed, filters, p);
    let runs: Vec<&[u32]> = observed.entries_of_policy[p as usize].chunks(run).collect();
    for (i, &key) in keys.iter().enumerate() {
        push_rule_head(&mut buffer, i == 0, key);
        out.write_all(&buffer)?;
        buffer.clear();
        let mut outcomes = Elements::new(out);
        outcomes.write_parallel(runs.len(), &|at, part| {
            status::shown_observations(observed, filters, p, runs[at])
                .filter(|o| o.key == key)
                .for_each(|o| push_outcome(part, false, &status::path_outcome(observed, &o)));
            Ok(())
        })?;
        let listener_outcomes: Vec<_> = (on_listeners.iter())
            .filter(|(k, _)| *k == key)
            .map(|(_, o)| o.clone())
            .collect();
        push_rule_tail(&mut buffer, outcomes.written(), &listener_outcomes)?;
    }
    push_tail(&mut buffer, !keys.is_empty());
    out.write_all(&buffer)
}

/// The item up to its rules' opening bracket: `,\n`, the policy, its conditions and ancestors.
/// What a status item says before its rules.
struct Head<'s> {
    policy: &'s str,
    conditions: &'s [Condition],
    ancestors: Option<&'s [AncestorStatus]>,
    strategies: &'s [NamedStrategy],
    dopol: Option<&'s DopolStatus>,
}

fn push_head(out: &mut Vec<u8>, head: &Head<'_>) -> io::Result<()> {
    out.extend_from_slice(b",\n    {\n      \"policy\": ");
    push_str(out, head.policy);
    out.extend_from_slice(b",\n      \"conditions\": ");
    push_pretty(out, head.conditions, 3)?;
    if let Some(ancestors) = head.ancestors {
        out.extend_from_slice(b",\n      \"ancestors\": ");
        push_pretty(out, ancestors, 3)?;
    }
    out.extend_from_slice(b",\n      \"strategies\": ");
    push_pretty(out, head.strategies, 3)?;
    if let Some(dopol) = head.dopol {
        out.extend_from_slice(b",\n      \"dopol\": ");
        push_pretty(out, dopol, 3)?;
    }
    out.extend_from_slice(b",\n      \"rules\": [");
    Ok(())
}

/// A rule up to its outcomes' opening bracket (`first`: the item's first rule).
fn push_rule_head(out: &mut Vec<u8>, first: bool, key: &str) {
    out.extend_from_slice(if first { b"\n" } else { b",\n" });
    out.extend_from_slice(b"        {\n          \"key\": ");
    push_str(out, key);
    out.extend_from_slice(b",\n          \"outcomes\": [");
}

/// A rule from its outcomes' closing bracket (`any`: it listed outcomes), with its outcomes on
/// listeners when there are any.
fn push_rule_tail(
    out: &mut Vec<u8>,
    any: bool,
    on_listeners: &[status::ListenerOutcome<'_>],
) -> io::Result<()> {
    if any {
        out.extend_from_slice(b"\n          ");
    }
    out.push(b']');
    if !on_listeners.is_empty() {
        out.extend_from_slice(b",\n          \"listenerOutcomes\": ");
        push_pretty(out, on_listeners, 5)?;
    }
    out.extend_from_slice(b"\n        }");
    Ok(())
}

/// A rule's outcomes on the paths of owned hierarchies, when it has any: written inside the
/// rule, before the brace [`push_rule_tail`] closed it with.
fn push_owned_outcomes(out: &mut Vec<u8>, on_owned: &[status::OwnedOutcome<'_>]) -> io::Result<()> {
    if on_owned.is_empty() {
        return Ok(());
    }
    out.truncate(out.len() - b"\n        }".len());
    out.extend_from_slice(b",\n          \"ownedOutcomes\": ");
    push_pretty(out, on_owned, 5)?;
    out.extend_from_slice(b"\n        }");
    Ok(())
}

/// The item from its rules' closing bracket (`any`: it listed rules).
fn push_tail(out: &mut Vec<u8>, any: bool) {
    if any {
        out.extend_from_slice(b"\n      ");
    }
    out.extend_from_slice(b"]\n    }");
}

/// One outcome as an element of its rule's `outcomes` (depth 6), after `\n` if it is the
/// `first`, else after `,\n`.
fn push_outcome(out: &mut Vec<u8>, first: bool, outcome: &PathOutcome<'_>) {
    out.extend_from_slice(if first { b"\n" } else { b",\n" });
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
                listener_outcomes: vec![status::ListenerOutcome {
                    listener_id: "eg|ns/gw|ns/gw#tcp".into(),
                    outcome: "superseded",
                    by: vec!["ns/listener-policy", escaped],
                }],
                owned_outcomes: vec![],
            },
            RuleStatus {
                key: escaped,
                outcomes: vec![],
                listener_outcomes: vec![],
                owned_outcomes: vec![status::OwnedOutcome {
                    path_id: "mesh|ns/dp|inbound|ns/dp#main",
                    outcome: "merged",
                    by: vec![escaped],
                }],
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
            let dopol = ancestors.as_ref().map(|_| dopol_example());
            let status = PolicyStatus {
                policy: "authpolicy.kuadrant.io:ns/p",
                conditions,
                ancestors,
                strategies: vec![NamedStrategy::of_block(
                    crate::policy::BlockKind::Overrides,
                    crate::policy::Strategy::Merge,
                )],
                dopol,
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

    /// A `dopol` status with one ancestor and one target.
    fn dopol_example() -> DopolStatus {
        use crate::policy::evaluator::AncestorRef;
        use crate::report::status_targets::{AncestorTargets, TargetStatus};
        let gateway = AncestorRef {
            group: "gateway.networking.k8s.io",
            kind: "Gateway",
            namespace: "ns".into(),
            name: "gw \"<x>\"".into(),
            section_name: None,
        };
        let target = TargetStatus {
            target_ref: AncestorRef {
                section_name: Some("http".into()),
                ..gateway.clone()
            },
            conditions: vec![Condition {
                kind: "dopol.io/Effective",
                status: "True",
                reason: "Effective",
                message: "its 1 rule: effective on the 1 path through it".into(),
            }],
        };
        DopolStatus {
            ancestors: vec![AncestorTargets {
                ancestor_ref: gateway,
                targets: vec![target],
            }],
        }
    }

    /// The status of every policy of `input`, through `filters`: what [`push_item`] writes for
    /// it built whole, and what [`write_in_runs`] streams for it, runs of 1, 2 and [`RUN`].
    fn buffered_and_streamed(input: &str, filters: &Filters) -> Vec<(Vec<u8>, Vec<u8>)> {
        use crate::engine::Engine;
        use crate::pipeline::{InputOptions, evaluate};
        let options = InputOptions {
            files: vec!["-".into()],
            ..InputOptions::default()
        };
        let evaluated = evaluate(
            &options,
            &crate::load::files::WorkTree,
            &mut input.as_bytes(),
        );
        let (engine, _) = Engine::new(&evaluated.model, &evaluated.topology);
        let (observed, _) = Observed::new(&engine);
        let mut pairs = Vec::new();
        for p in 0..evaluated.model.policies.len() as u32 {
            let mut buffered = Vec::new();
            push_item(&mut buffered, &status::policy_status(&observed, filters, p)).unwrap();
            for run in [1, 2, RUN] {
                // A list's first item loses its comma: write one after it.
                let mut streamed = b"[".to_vec();
                let mut items = Elements::new(&mut streamed);
                items.write_all(b",\n    0").unwrap();
                write_in_runs(&mut items, &observed, filters, p, run).unwrap();
                pairs.push(([&b"[\n    0"[..], &buffered].concat(), streamed));
            }
        }
        pairs
    }

    #[test]
    fn a_streamed_status_writes_what_the_built_status_writes() {
        let inputs = [
            include_str!("../../testdata/status/manifests.yaml"),
            include_str!("../../testdata/envoy/precedence/manifests.yaml"),
            include_str!("../../testdata/levels/manifests.yaml"),
        ];
        let hiding = Filters {
            route: Some("shop/plain".into()),
            ..Filters::default()
        };
        let mut outcomes = 0;
        for input in inputs {
            for filters in [&Filters::default(), &hiding] {
                for (buffered, streamed) in buffered_and_streamed(input, filters) {
                    outcomes += buffered.windows(8).filter(|w| w == b"\"pathId\"").count();
                    assert_eq!(
                        String::from_utf8(streamed).unwrap(),
                        String::from_utf8(buffered).unwrap()
                    );
                }
            }
        }
        assert!(outcomes > 20, "{outcomes} outcomes compared");
    }
}
