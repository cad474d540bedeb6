//! A full record of one fold, step by step, for `dopol explain`.

use super::fold::{BlockStep, Effective, FoldObserver, RuleEvent, RuleRef};

/// One block of one policy being merged.
#[derive(Clone, Debug)]
pub struct TraceStep<'m> {
    /// The policy.
    pub policy: u32,
    /// The block.
    pub block: u16,
    /// Whether the block was applied (its constraint held).
    pub step: BlockStep,
    /// Every decision made in this step, in order.
    pub events: Vec<(RuleRef, RuleEvent)>,
    /// `E` after the step.
    pub effective_after: Effective<'m>,
}

/// Records every step of a fold.
#[derive(Debug, Default)]
pub struct TraceRecorder<'m> {
    /// The steps, most specific policy first.
    pub steps: Vec<TraceStep<'m>>,
}

impl<'m> FoldObserver<'m> for TraceRecorder<'m> {
    fn block(&mut self, policy: u32, block: u16, step: &BlockStep) {
        self.steps.push(TraceStep {
            policy,
            block,
            step: step.clone(),
            events: Vec::new(),
            effective_after: Effective::new(),
        });
    }

    fn rule(&mut self, rule: RuleRef, event: RuleEvent) {
        if let Some(step) = self.steps.last_mut() {
            step.events.push((rule, event));
        }
    }

    fn after_block(&mut self, _policy: u32, _block: u16, effective: &Effective<'m>) {
        if let Some(step) = self.steps.last_mut() {
            step.effective_after = effective.clone();
        }
    }
}
