//! The evaluation budget, which keeps a constraint from running for hours.
//!
//! `cel` has no resource limits: a few nested comprehensions, or a few
//! hundred regular expressions, can run for minutes. While checking a
//! constraint, each comprehension step and each regular expression match is
//! rewritten to first call a hidden function that charges a [`Budget`]. When
//! the budget runs out, the charge fails and evaluation stops.

use super::{MAX_EVALUATION_STEPS, over_limit};
use cel::common::ast::{CallExpr, ComprehensionExpr, Expr, IdedExpr, LiteralValue};
use cel::common::types::CelInt;
use cel::{ExecutionError, Value};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// What one regular expression match costs from the evaluation budget. The
/// `cel` crate compiles the pattern on every call. A pattern near the
/// `regex` crate's size limit takes up to 100 ms to compile (or to fail),
/// so at most 50 matches fit in one evaluation. Matching itself is linear:
/// the `regex` crate has no backtracking.
pub(super) const REGEX_STEPS: usize = 2_000;

/// The function the evaluation budget is charged through. No expression can
/// call it by name, because identifiers cannot start with `@`.
pub(crate) const STEP_FUNCTION: &str = "@dopol_step";

/// Charges each iteration of `comprehension` `cost` steps, before its body
/// runs. The charge goes on the part of the loop step the user wrote, so
/// that the shapes the interpreter runs faster (`@result && p`, `@result || p`, `@result + [e]`,
/// `c ? @result + [e] : @result`) are kept.
pub(crate) fn meter_step(comprehension: &mut ComprehensionExpr, cost: usize) {
    let step = &mut comprehension.loop_step;
    match user_part(step, &comprehension.accu_var) {
        Some(part) => charge_before(part, cost),
        None => charge_before(step, cost),
    }
}

/// The part of a standard macro's loop step that the user wrote.
fn user_part<'e>(step: &'e mut IdedExpr, accumulator: &str) -> Option<&'e mut IdedExpr> {
    let Expr::Call(call) = &mut step.expr else {
        return None;
    };
    if call.target.is_some() {
        return None;
    }
    let folds_accumulator = call
        .args
        .first()
        .is_some_and(|e| matches!(&e.expr, Expr::Ident(name) if name == accumulator));
    let (index, in_list) = match call.func_name.as_str() {
        "_?_:_" if call.args.len() == 3 => (0, false), // the guard
        "_&&_" | "_||_" if folds_accumulator => (1, false), // the predicate
        "_+_" if folds_accumulator => (1, true),       // the mapped element
        _ => return None,
    };
    let arg = call.args.get_mut(index)?;
    if !in_list {
        return Some(arg);
    }
    match &mut arg.expr {
        Expr::List(list) if list.elements.len() == 1 => list.elements.first_mut(),
        _ => None,
    }
}

/// Makes `part` charge `cost` steps before it runs, as
/// `@dopol_step(cost) ? part : null`. When the budget is exhausted, the
/// charge fails and `part` is skipped.
pub(super) fn charge_before(part: &mut IdedExpr, cost: usize) {
    let cost = i64::try_from(cost).unwrap_or(i64::MAX);
    let charge = synthetic(Expr::Call(CallExpr {
        func_name: STEP_FUNCTION.to_string(),
        target: None,
        args: vec![synthetic(Expr::Literal(LiteralValue::Int(CelInt::from(
            cost,
        ))))],
    }));
    let original = std::mem::take(part);
    *part = synthetic(Expr::Call(CallExpr {
        func_name: "_?_:_".to_string(),
        target: None,
        args: vec![
            charge,
            original,
            synthetic(Expr::Literal(LiteralValue::Null)),
        ],
    }));
}

/// A node added by dopol. Evaluation doesn't use node ids.
fn synthetic(expr: Expr) -> IdedExpr {
    IdedExpr { id: 0, expr }
}

/// Why an evaluation whose budget ran out failed, naming the limit.
pub(crate) fn out_of_steps() -> String {
    format!(
        "{}: the expression does too much work",
        over_limit(
            format_args!("evaluation stopped after {MAX_EVALUATION_STEPS} steps"),
            "cel-steps",
        )
    )
}

/// The steps left for one evaluation.
pub(crate) struct Budget {
    remaining: AtomicUsize,
    exceeded: AtomicBool,
}

impl Budget {
    pub(crate) fn new(steps: usize) -> Budget {
        Budget {
            remaining: AtomicUsize::new(steps),
            exceeded: AtomicBool::new(false),
        }
    }

    pub(crate) fn charge(&self, cost: i64) -> Result<Value, ExecutionError> {
        let cost = usize::try_from(cost).unwrap_or(usize::MAX);
        let remaining = self.remaining.load(Ordering::Relaxed);
        if cost > remaining {
            self.remaining.store(0, Ordering::Relaxed);
            self.exceeded.store(true, Ordering::Relaxed);
            return Err(ExecutionError::function_error(
                STEP_FUNCTION,
                "evaluation budget exceeded",
            ));
        }
        self.remaining.store(remaining - cost, Ordering::Relaxed);
        Ok(Value::Bool(true))
    }

    pub(crate) fn exceeded(&self) -> bool {
        self.exceeded.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use crate::expr::testing::{compile_error, eval};
    use serde_json::json;

    #[test]
    fn runaway_comprehensions_are_stopped() {
        let list = format!("[{}]", vec!["0"; 1000].join(","));
        let text = format!("{list}.all(a, {list}.all(b, a + b == 0))");
        let started = std::time::Instant::now();
        let result = eval(&text, json!({}));
        assert!(result.unwrap_err().contains("steps"));
        assert!(started.elapsed() < std::time::Duration::from_secs(10));

        let error = compile_error("[1].all(a, [1].all(b, [1].all(c, true)))");
        assert!(
            error.message.contains("comprehensions are nested"),
            "{error:?}"
        );
        assert_eq!(error.offset, 26);

        let text = format!("['x'].all(t, {} != '')", ["t"; 11].join(" + "));
        let error = compile_error(&text);
        assert!(error.message.contains("`t` is used more than"), "{error:?}");
    }

    #[test]
    fn a_budget_error_is_not_hidden_by_short_circuits() {
        let list = format!("[{}]", vec!["0"; 1000].join(","));
        let text = format!("{list}.all(a, {list}.all(b, a == 0)) || true");
        assert!(eval(&text, json!({})).is_err());
    }

    #[test]
    fn regexes_are_linear_or_rejected() {
        let spec = json!({"s": "a".repeat(5000)});
        assert_eq!(
            eval("spec.s.matches('^(a|aa)*b$')", spec.clone()),
            Ok(false)
        );
        assert_eq!(eval("spec.s.matches('(a*)*$')", spec.clone()), Ok(true));
        let huge = eval("spec.s.matches('((a{100}){100}){100}')", spec);
        assert!(huge.is_err(), "{huge:?}");
    }

    #[test]
    fn regex_matches_are_charged() {
        let text = vec!["spec.s.matches('^a+$')"; 60].join(" && ");
        let result = eval(&text, json!({"s": "aaa"}));
        assert!(result.unwrap_err().contains("steps"));
        let text = vec!["spec.s.matches('^a+$')"; 40].join(" && ");
        assert_eq!(eval(&text, json!({"s": "aaa"})), Ok(true));
    }
}
