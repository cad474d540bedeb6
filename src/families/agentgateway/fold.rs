//! One path's effective AgentgatewayPolicy (docs/families.md §5.4–4.6): for each rule key, its values on
//! the ladder's rungs resolved the way the proxy merges that section —
//!
//! - `traffic`: least specific first, each value replacing the previous one unless the key is
//!   locked by an `inheritance: Override` value; `traffic.buffer` keeps the least specific value
//!   \[controller\];
//! - `preRouting`, `frontend`, `backend`: the most specific value;
//! - union keys (`authorization`, ...): every rung contributes, most specific first; in
//!   `traffic` nothing is added after the first Override contributor;
//! - several values at one rung: an Override beats a default; otherwise the controller's order
//!   is arbitrary, dopol takes the first (docs/families.md §1 order) and the others `tie`.

use super::keys::{BUFFER, Section, is_union};
use super::ladder::Step;
use crate::engine::fold::{Effective, EffectiveRule, Merged, RuleEvent, RuleRef};
use crate::model::Model;
use crate::yaml::Shared;
use std::collections::BTreeMap;
use std::sync::Arc;

/// One policy's value of one key at one rung.
#[derive(Clone, Copy, Debug)]
pub struct Value {
    /// Index of the rung in the ladder.
    pub rung: usize,
    /// The rule.
    pub rule: RuleRef,
    /// Whether its policy has `strategy.inheritance: Override`.
    pub over: bool,
}

/// A path's fold: the effective rules and every rule's outcome.
#[derive(Debug, Default)]
pub struct Fold<'m> {
    /// The effective policy.
    pub effective: Effective<'m>,
    /// Each rule's outcome (a rule on two rungs keeps its best: effective, then merged).
    pub events: BTreeMap<RuleRef, RuleEvent>,
}

impl Fold<'_> {
    /// Records `event` for `rule`, keeping an earlier effective or merged outcome.
    fn record(&mut self, rule: RuleRef, event: RuleEvent) {
        let rank = |e: &RuleEvent| match e {
            RuleEvent::Added => 0,
            RuleEvent::Merged { .. } => 1,
            _ => 2,
        };
        match self.events.get(&rule) {
            Some(old) if rank(old) <= rank(&event) => {}
            _ => {
                self.events.insert(rule, event);
            }
        }
    }
}

/// The fold of a ladder; `over(policy)`: whether it has `inheritance: Override`.
pub fn fold<'m>(model: &'m Model, steps: &[Step], over: &dyn Fn(u32) -> bool) -> Fold<'m> {
    let mut by_key: BTreeMap<&'m str, Vec<Value>> = BTreeMap::new();
    for (rung, step) in steps.iter().enumerate() {
        for &policy in &step.policies {
            let block = &model.policies[policy as usize].blocks[0];
            for (i, rule) in block.rules.iter().enumerate() {
                let key = rule.key.as_str();
                if !step.rung.reads(Section::of(key)) {
                    continue;
                }
                by_key.entry(key).or_default().push(Value {
                    rung,
                    rule: RuleRef::new(policy, 0, i),
                    over: over(policy),
                });
            }
        }
    }
    let mut out = Fold::default();
    for (key, values) in by_key {
        let section = Section::of(key);
        let locks = section == Section::Traffic;
        if is_union(key) {
            union(model, key, &values, locks, &mut out);
        } else if key == BUFFER {
            single(key, &values, Direction::LeastFirst, locks, &mut out);
        } else if locks {
            single(key, &values, Direction::Locking, locks, &mut out);
        } else {
            single(key, &values, Direction::MostFirst, locks, &mut out);
        }
    }
    out
}

/// How a single-valued key is resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Direction {
    /// The least specific rung that sets it (`traffic.buffer`).
    LeastFirst,
    /// The most specific rung that sets it.
    MostFirst,
    /// Least specific first, each replacing the previous unless locked (`traffic`).
    Locking,
}

/// The values of `values` at each rung, in ladder order.
fn rungs(values: &[Value]) -> Vec<&[Value]> {
    values.chunk_by(|a, b| a.rung == b.rung).collect()
}

/// The winner among the values of one rung and the others' outcomes: with `locks`, the first
/// Override beats every default; otherwise the first (dopol's pick in an arbitrary order).
fn pick(at: &[Value], locks: bool, out: &mut Fold<'_>) -> Value {
    let winner = at
        .iter()
        .find(|v| locks && v.over)
        .copied()
        .unwrap_or(at[0]);
    for v in at.iter().filter(|v| v.rule != winner.rule) {
        let by = winner.rule.policy;
        let event = if winner.over && !v.over && locks {
            RuleEvent::Overridden { by }
        } else {
            RuleEvent::Tie { by }
        };
        out.record(v.rule, event);
    }
    winner
}

/// A key with one value (§5.4).
fn single<'m>(
    key: &'m str,
    values: &[Value],
    direction: Direction,
    locks: bool,
    out: &mut Fold<'m>,
) {
    let mut rungs = rungs(values);
    if direction == Direction::MostFirst {
        rungs.reverse();
    }
    let mut current: Option<Value> = None;
    let mut replaced: Vec<Value> = Vec::new();
    for at in rungs {
        match current {
            Some(lock) if direction == Direction::Locking && lock.over => {
                for v in at {
                    out.record(
                        v.rule,
                        RuleEvent::Overridden {
                            by: lock.rule.policy,
                        },
                    );
                }
            }
            Some(_) if direction != Direction::Locking => replaced.extend_from_slice(at),
            _ => {
                let winner = pick(at, locks, out);
                replaced.extend(current.replace(winner));
            }
        }
    }
    let Some(winner) = current else { return };
    let by = Shared::copied(&[winner.rule.policy]);
    for v in replaced {
        out.record(v.rule, RuleEvent::Superseded { by: by.clone() });
    }
    out.record(winner.rule, RuleEvent::Added);
    out.effective.insert(key, EffectiveRule::whole(winner.rule));
}

/// A union key (§5.4): `{"ruleSets": [...]}`, most specific first; in `traffic`, nothing is
/// added after the first Override contributor.
fn union<'m>(model: &'m Model, key: &'m str, values: &[Value], locks: bool, out: &mut Fold<'m>) {
    let mut taken: Vec<Value> = Vec::new();
    let mut lock: Option<Value> = None;
    for at in rungs(values) {
        if let Some(lock) = lock {
            for v in at {
                out.record(
                    v.rule,
                    RuleEvent::Overridden {
                        by: lock.rule.policy,
                    },
                );
            }
            continue;
        }
        for v in at {
            match lock {
                Some(l) => out.record(v.rule, RuleEvent::Tie { by: l.rule.policy }),
                None => {
                    taken.push(*v);
                    if locks && v.over {
                        lock = Some(*v);
                    }
                }
            }
        }
    }
    taken.reverse();
    let Some(source) = taken.first().copied() else {
        return;
    };
    let value_of = |v: &Value| {
        let policy = &model.policies[v.rule.policy as usize];
        policy.blocks[0].rules[v.rule.rule()].value.clone()
    };
    let sets = super::keys::seq(taken.iter().map(value_of).collect());
    let mut origins: Vec<u32> = Vec::new();
    for v in &taken {
        if !origins.contains(&v.rule.policy) {
            origins.push(v.rule.policy);
        }
        let event = if v.rule == source.rule {
            RuleEvent::Added
        } else {
            RuleEvent::Merged {
                by: source.rule.policy,
            }
        };
        out.record(v.rule, event);
    }
    let merged = Merged {
        value: super::keys::map(vec![("ruleSets", sets)]),
        origins,
    };
    let rule = EffectiveRule {
        rule: source.rule,
        merged: Some(Arc::new(merged)),
    };
    out.effective.insert(key, rule);
}
