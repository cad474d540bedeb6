//! Evaluating a compiled constraint against a policy's spec.
//!
//! The spec is converted to CEL values (with JSON integers as `int`, so that
//! `limit + 1` works), bound as `spec` and `self`, and the checked tree is
//! run under the evaluation budget. Short trees run on the caller's thread;
//! tall ones on the large-stack worker. Results and errors are described in
//! words a policy author can act on.

use super::budget::{Budget, STEP_FUNCTION, out_of_steps};
use super::parse::env;
use super::{Constraint, MAX_EVALUATION_STEPS};
use crate::platform::{PANIC_MESSAGE, deep};
use cel::common::value::Val;
use cel::objects::{Key, Map};
use cel::{Context, ExecutionError, Value};
use std::collections::HashMap;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;

/// Constraints whose tree is no taller than this run on the caller's
/// thread. Taller ones run on the worker thread. In a debug build,
/// evaluation takes about 40 KiB of stack per level. The tallest inline
/// shape, with two nested comprehensions, needs about 600 KiB, which fits
/// the 2 MiB of a test thread.
const INLINE_EVAL_HEIGHT: usize = 16;

impl Constraint {
    /// Evaluates against the lower effective policy rendered in its spec
    /// shape. Returns `Ok(bool)`, or `Err(reason)` for an evaluation error or
    /// a non-boolean result.
    pub fn evaluate(&self, spec: &serde_json::Value) -> Result<bool, String> {
        if self.height <= INLINE_EVAL_HEIGHT {
            panic::catch_unwind(AssertUnwindSafe(|| self.evaluate_here(spec)))
                .unwrap_or_else(|_| Err(PANIC_MESSAGE.to_string()))
        } else {
            deep(|| self.evaluate_here(spec)).and_then(|result| result)
        }
    }

    /// Evaluates on the current thread.
    fn evaluate_here(&self, spec: &serde_json::Value) -> Result<bool, String> {
        let spec = json_to_cel(spec);
        let this = Value::Map(Map {
            map: Arc::new(HashMap::from([(Key::from("spec"), spec.clone())])),
        });
        let budget = Arc::new(Budget::new(MAX_EVALUATION_STEPS));
        let meter = Arc::clone(&budget);
        let mut context = Context::with_env(Arc::clone(env()));
        context
            .add_function(STEP_FUNCTION, move |cost: i64| meter.charge(cost))
            .map_err(|error| format!("internal error: {error}"))?;
        bind(&mut context, "spec", spec)?;
        bind(&mut context, "self", this)?;
        let result = Value::resolve(&self.expr, &context);
        if budget.exceeded() {
            return Err(out_of_steps());
        }
        match result {
            Ok(Value::Bool(value)) => Ok(value),
            Ok(other) => Err(format!(
                "the expression returned {}, not a boolean",
                describe_value(&other)
            )),
            Err(error) => Err(describe_execution_error(&error)),
        }
    }
}

/// Converts JSON to a CEL value. Integers that fit in i64 become `Int`
/// (not `UInt`). Larger ones become `UInt`, other numbers `Float`. Objects
/// become maps with string keys.
pub fn json_to_cel(value: &serde_json::Value) -> Value {
    use serde_json::Value as Json;
    match value {
        Json::Null => Value::Null,
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => Value::Int(i),
            (None, Some(u)) => Value::UInt(u),
            (None, None) => Value::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Json::String(s) => Value::String(Arc::new(s.clone())),
        Json::Array(items) => Value::List(Arc::new(items.iter().map(json_to_cel).collect())),
        Json::Object(fields) => Value::Map(Map {
            map: Arc::new(
                fields
                    .iter()
                    .map(|(k, v)| (Key::String(Arc::new(k.clone())), json_to_cel(v)))
                    .collect(),
            ),
        }),
    }
}

fn bind(context: &mut Context<'_, '_>, name: &str, value: Value) -> Result<(), String> {
    let value: Box<dyn Val> = value
        .try_into()
        .map_err(|error: ExecutionError| format!("cannot bind `{name}`: {error}"))?;
    context.add_variable_as_val(name, value);
    Ok(())
}

fn describe_execution_error(error: &ExecutionError) -> String {
    match error {
        ExecutionError::NoSuchKey(key) => format!("no such key: {key}"),
        ExecutionError::UndeclaredReference(name) => format!("unknown reference `{name}`"),
        other => {
            let text = other.to_string();
            let mut chars = text.chars();
            match chars.next() {
                Some(first) => first.to_lowercase().chain(chars).collect(),
                None => text,
            }
        }
    }
}

fn describe_value(value: &Value) -> String {
    match value {
        Value::Int(i) => format!("an integer ({i})"),
        Value::UInt(u) => format!("an unsigned integer ({u}u)"),
        Value::Float(f) => format!("a double ({f})"),
        Value::String(s) => format!("a string ({})", abbreviate(s)),
        Value::Bytes(_) => "bytes".to_string(),
        Value::List(items) => format!(
            "a list of {}",
            crate::words::counted(items.len(), "element")
        ),
        Value::Map(map) => format!(
            "a map of {}",
            crate::words::counted_as(map.map.len(), "entry", "entries")
        ),
        Value::Null => "null".to_string(),
        other => format!("a value of type {}", other.type_of()),
    }
}

/// `s` quoted, cut after 40 chars.
fn abbreviate(s: &str) -> String {
    const MAX_CHARS: usize = 40;
    match s.char_indices().nth(MAX_CHARS) {
        Some((cut, _)) => format!("{:?}...", &s[..cut]),
        None => format!("{s:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::MAX_TREE_DEPTH;
    use crate::expr::testing::eval;
    use serde_json::json;

    fn limits() -> serde_json::Value {
        json!({"limits": {"a": {"rates": [{"limit": 100, "window": "1m"}]}}})
    }

    #[test]
    fn compares_fields_of_the_spec() {
        let auth = |a| json!({"rules": {"authentication": {"a": a}}});
        let text = "spec.rules.authentication.a > 50";
        assert_eq!(eval(text, auth(100)), Ok(true));
        assert_eq!(eval(text, auth(30)), Ok(false));
    }

    #[test]
    fn evaluates_macros_and_self() {
        let text = "spec.limits.a.rates.exists(r, r.limit > 50)";
        assert_eq!(eval(text, limits()), Ok(true));
        let text = "self.spec.limits.a.rates[0].limit + 1 == 101";
        assert_eq!(eval(text, limits()), Ok(true));
        let text = "has(spec.limits) && size(spec.limits) > 0";
        assert_eq!(eval(text, limits()), Ok(true));
        assert_eq!(eval(text, json!({})), Ok(false));
        let text = "spec.limits.all(k, spec.limits[k].rates.all(r, r.window in ['1m', '1h']))";
        assert_eq!(eval(text, limits()), Ok(true));
        let text = "spec.limits.a.rates.map(r, r.limit * 2).filter(x, x > 150).size() == 1";
        assert_eq!(eval(text, limits()), Ok(true));
        let text = "spec.limits.a.rates.exists_one(r, r.window.matches('^[0-9]+m$'))";
        assert_eq!(eval(text, limits()), Ok(true));
    }

    #[test]
    fn reports_evaluation_errors() {
        let spec = json!({"rules": {"authentication": {"a": 100}}});
        assert_eq!(
            eval("spec.rules.authentication.zz > 1", spec.clone()),
            Err("no such key: zz".to_string())
        );
        assert_eq!(
            eval("spec.rules.authentication.a", spec.clone()),
            Err("the expression returned an integer (100), not a boolean".to_string())
        );
        assert_eq!(
            eval("spec.rules.authentication.a > 'x'", spec),
            Err("found no matching overload for '_>_' applied to '(int, string)'".to_string())
        );
    }

    #[test]
    fn json_integers_become_ints() {
        assert_eq!(json_to_cel(&json!(5)), Value::Int(5));
        assert_eq!(json_to_cel(&json!(-5)), Value::Int(-5));
        assert_eq!(json_to_cel(&json!(u64::MAX)), Value::UInt(u64::MAX));
        assert_eq!(json_to_cel(&json!(1.5)), Value::Float(1.5));
        assert_eq!(
            json_to_cel(&json!({"a": [null, true, "s"]})),
            Value::Map(Map {
                map: Arc::new(HashMap::from([(
                    Key::from("a"),
                    Value::List(Arc::new(vec![
                        Value::Null,
                        Value::Bool(true),
                        Value::String(Arc::new("s".to_string())),
                    ])),
                )])),
            })
        );
        assert_eq!(
            eval(
                "spec.big > 1u && spec.f > 1.0",
                json!({"big": u64::MAX, "f": 1.5})
            ),
            Ok(true)
        );
    }

    #[test]
    fn tall_constraints_evaluate_on_the_worker() {
        let terms = MAX_TREE_DEPTH - 6;
        let text = format!("spec.a{} == {}", " + 1".repeat(terms), terms + 1);
        let constraint = Constraint::compile(&text).expect("compiles");
        assert!(constraint.height > INLINE_EVAL_HEIGHT);
        assert_eq!(constraint.evaluate(&json!({"a": 1})), Ok(true));
    }

    #[test]
    fn inline_evaluation_fits_a_small_stack() {
        // The tallest shape evaluated on the caller's thread, with nested
        // comprehensions, on a 1 MiB stack.
        let text = "spec.l.all(x, spec.l.exists(y, x + y + 1 + 1 + 1 + 1 + 1 + 1 + 1 > 0))";
        let constraint = Constraint::compile(text).expect("compiles");
        assert_eq!(constraint.height, INLINE_EVAL_HEIGHT);
        let result = std::thread::Builder::new()
            .stack_size(1 << 20)
            .spawn(move || constraint.evaluate(&json!({"l": [1, 2]})))
            .expect("spawns")
            .join()
            .expect("no overflow");
        assert_eq!(result, Ok(true));
    }
}
