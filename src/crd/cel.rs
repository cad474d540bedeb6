//! `x-kubernetes-validations` rules: the Kubernetes CEL environment (skeleton, being written).

use super::schema::{RuleSpec, Schema};
use crate::yaml::Node;

/// A rule ready to evaluate.
#[derive(Debug)]
pub struct CompiledRule {
    _private: (),
}

/// The outcome of one rule on one value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The rule holds.
    Pass,
    /// The rule is false: the message the API server prints.
    Fail(String),
    /// Evaluation failed: the API server's error text.
    Error(String),
}

impl CompiledRule {
    /// Compiles a rule, or says why dopol cannot evaluate it.
    pub fn compile(_spec: &RuleSpec) -> Result<CompiledRule, String> {
        Err("CEL rules are not evaluated yet".into())
    }

    /// Evaluates the rule with `self` bound to `this`.
    pub fn evaluate(&self, _this: &cel::Value) -> Verdict {
        Verdict::Pass
    }
}

/// `node` as the CEL value a rule sees as `self`, typed by its schema.
pub fn to_cel(_node: &Node, _schema: &Schema) -> cel::Value {
    cel::Value::Null
}
