//! RFC 0009 constraints: a block's `when` CEL expression, evaluated against the lower effective
//! policy rendered back into its spec shape (bound as `spec` and `self.spec`).
//!
//! Every expression is compiled once, when the family's evaluator is prepared; compile errors become
//! located diagnostics and make the block never apply. Evaluation errors and non-boolean
//! results mean "not applied" and are reported per path by the caller.

use super::diags::ConstraintInvalid;
use crate::diag::Diagnostic;
use crate::engine::fold::Effective;
use crate::expr;
use crate::model::Model;
use crate::policy::expressions::expression_span;
use crate::policy::{Constraint, PolicyKind};
use std::collections::HashMap;

/// Result of checking a block's constraint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConstraintOutcome {
    /// The constraint holds: apply the block.
    Applied,
    /// The constraint is false: skip the block.
    False(String),
    /// The constraint could not be evaluated: skip the block, and warn.
    Failed(String),
    /// The constraint does not compile (already reported): skip the block.
    Invalid(String),
}

/// Compiled constraints of every block that has one.
#[derive(Default)]
pub struct Constraints {
    compiled: HashMap<(u32, u16), Result<expr::Constraint, String>>,
}

impl Constraints {
    /// Compiles every constraint of the policies of `kinds`; compile errors become diagnostics.
    pub fn compile(model: &Model, kinds: &[PolicyKind]) -> (Constraints, Vec<Diagnostic>) {
        let mut compiled = HashMap::new();
        let mut diagnostics = Vec::new();
        for (p, policy) in model.policies.iter().enumerate() {
            if !super::evaluate::owns(kinds, policy) {
                continue;
            }
            for (b, block) in policy.blocks.iter().enumerate() {
                let Some(constraint) = &block.constraint else {
                    continue;
                };
                let result = expr::Constraint::compile(&constraint.expression).map_err(|error| {
                    let span = expression_span(&model.sources, constraint.span, &error);
                    let finding = ConstraintInvalid {
                        policy,
                        block: block.kind,
                        error: &error,
                    };
                    diagnostics.push(
                        Diagnostic::from(finding)
                            .with_label(span, error.message.clone())
                            .with_object(policy.display()),
                    );
                    format!("the constraint is invalid: {}", error.message)
                });
                compiled.insert((p as u32, b as u16), result);
            }
        }
        (Constraints { compiled }, diagnostics)
    }

    /// Evaluates the constraint of `(policy, block)` against `effective`.
    pub fn evaluate(
        &self,
        model: &Model,
        policy: u32,
        block: u16,
        constraint: &Constraint,
        effective: &Effective<'_>,
    ) -> ConstraintOutcome {
        let compiled = match self.compiled.get(&(policy, block)) {
            Some(Ok(compiled)) => compiled,
            Some(Err(reason)) => return ConstraintOutcome::Invalid(reason.clone()),
            None => return ConstraintOutcome::Invalid("the constraint was not compiled".into()),
        };
        let spec = spec_shape(model, policy, effective);
        match compiled.evaluate(&spec) {
            Ok(true) => ConstraintOutcome::Applied,
            Ok(false) => ConstraintOutcome::False(format!(
                "constraint `{}` is false",
                constraint.expression.trim()
            )),
            Err(reason) => ConstraintOutcome::Failed(format!(
                "constraint `{}` could not be evaluated: {reason}",
                constraint.expression.trim()
            )),
        }
    }
}

/// The lower effective policy in the spec shape of `policy`'s kind.
pub fn spec_shape(model: &Model, policy: u32, effective: &Effective<'_>) -> serde_json::Value {
    let kind = model.policies[policy as usize].kind;
    let rules: Vec<(&str, &crate::yaml::Node)> = effective
        .iter()
        .map(|(key, rule)| (*key, rule.value(model)))
        .collect();
    model.registry.family_of(kind).spec_shape(kind, &rules)
}
