//! Rule outcomes (docs/semantics.md#5-outcomes-status-and-reach): for every rule of every policy on a path, what happened to it and
//! who decided it, recorded at the fold step that decided it.
//!
//! A rule added at one step and knocked out by a later, higher step ends `overridden` by that
//! higher policy; rules still in `E` at the end are `effective`.

use super::fold::{Effective, FoldObserver, RuleEvent, RuleRef};
use std::collections::BTreeMap;

/// What happened to one rule on one path: the last fold event about it (`Added` meaning it is
/// still in the final effective policy).
pub type Outcome = RuleEvent;

/// Records the last decision about each rule during a fold.
#[derive(Debug, Default)]
pub struct OutcomeRecorder {
    outcomes: BTreeMap<RuleRef, Outcome>,
}

impl FoldObserver<'_> for OutcomeRecorder {
    fn rule(&mut self, rule: RuleRef, event: RuleEvent) {
        self.outcomes.insert(rule, event);
    }
}

impl OutcomeRecorder {
    /// The outcome of every rule the fold saw, sorted by rule. Rules recorded as added must be
    /// in the final `effective` (a checked invariant of the fold).
    pub fn finish(self, effective: &Effective<'_>) -> Vec<(RuleRef, Outcome)> {
        debug_assert!(
            self.outcomes
                .iter()
                .filter(|(_, o)| **o == RuleEvent::Added)
                .all(|(r, _)| effective.values().any(|e| e.rule == *r)),
            "a rule recorded as effective is not in the effective policy"
        );
        self.outcomes.into_iter().collect()
    }
}
