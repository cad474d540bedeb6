//! `x-kubernetes-validations` rules: the Kubernetes CEL environment, as CRD rules use it.
//!
//! A rule is compiled once ([`CompiledRule::compile`]) and evaluated on every value its schema
//! node validates ([`CompiledRule::evaluate`], with `self` built by [`to_cel`]). What follows
//! the API server (`k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/validation.go`,
//! `validateExpressions`):
//!
//! - The message of a false rule: the `messageExpression` result when it evaluates to a
//!   non-empty one-line string of at most 5 KiB (trimmed), else `message` (trimmed), else
//!   `failed rule: <rule>` (trimmed) — `ruleMessageOrDefault`. Note that Kubernetes prefers
//!   `messageExpression` over `message` when both are set.
//! - Evaluation errors: `'<error>': call arguments did not match a supported operator,
//!   function or macro signature for rule: <rule>` for a runtime overload error, else
//!   `<error> evaluating rule: <rule>` (`<rule>` being `message` when set: `ruleErrorString`),
//!   with cel-go's wording for the usual errors (`no such key: x`, `index out of bounds: 3`).
//! - With `optionalOldSelf`, `oldSelf` is an unset optional on create (`optional.none()`).
//!   Without it, a transition rule is skipped on create by the caller; if evaluated anyway,
//!   `oldSelf` is unbound and the rule fails with an error.
//!
//! What dopol does differently: there is no type checker, so a rule that the API server
//! would have refused when the CRD was created (an undeclared field, a type error) only
//! fails when evaluated; the cost limits are dopol's (a step budget of
//! [`MAX_EVALUATION_STEPS`] per rule evaluation, not Kubernetes' cost model); and the
//! library functions dopol lacks make the rule "not evaluated" ([`CompiledRule::compile`]
//! says which).
//!
//! Safety, for rules from user CRDs: the text limits of [`crate::expr`] (length, bracket
//! nesting), parsing and tall evaluations on large-stack threads, a tree depth limit,
//! comprehension nesting and variable-use limits, and the step budget charged by every
//! comprehension iteration and regular expression. A panic in the `cel` crate becomes an
//! error.

mod direct;
mod library;
mod quantity;
mod reads;
mod value;

pub use direct::Direct;
pub use reads::Seen;
pub use value::{escape, to_cel, to_cel_root};

use super::schema::RuleSpec;
use crate::diag::over_limit;
use crate::expr::{MAX_EVALUATION_STEPS, MAX_TREE_DEPTH, meter_step};
use crate::platform::{PANIC_MESSAGE, deep};
use ::cel::common::ast::{CallExpr, ComprehensionExpr, EntryExpr, Expr, IdedExpr};
use ::cel::common::value::Val;
use ::cel::objects::OptionalValue;
use ::cel::{Context, ExecutionError, Value};
use library::{K8S_ERROR, MATCHES_FUNCTION, env, with_root};
use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;

/// How deeply comprehensions may nest (the bundled rules use two levels).
pub const MAX_COMPREHENSION_NESTING: usize = 3;

/// How often a comprehension variable may be used in its comprehension (the Gateway API
/// parentRefs uniqueness rules use `p1` 16 times). Together with the nesting limit, this
/// bounds how much a value can grow (`[s].map(t, t + t + ...)`).
pub const MAX_VARIABLE_USES: usize = 24;

/// The longest message a `messageExpression` may produce (`celconfig`
/// `MaxEvaluatedMessageExpressionSizeBytes`).
const MAX_MESSAGE_EXPRESSION_BYTES: usize = 5 * 1024;

/// Trees at most this tall are evaluated on the caller's thread; taller ones on the
/// large-stack worker (about 40 KiB of stack per level in a debug build).
const INLINE_EVAL_HEIGHT: usize = if cfg!(debug_assertions) { 16 } else { 40 };

/// A rule ready to evaluate.
#[derive(Debug)]
pub struct CompiledRule {
    expr: IdedExpr,
    /// The same rule for the fast path.
    direct: direct::Program,
    height: usize,
    message_expression: Option<(IdedExpr, usize)>,
    /// `ruleMessageOrDefault`.
    fail_message: Box<str>,
    /// `ruleErrorString`.
    label: Box<str>,
    optional_old_self: bool,
}

/// The outcome of one rule on one value.
///
/// How the caller prints it, as the API server does (`field.Error`):
/// - `Fail(msg)` at the rule's path (the node's path, plus `fieldPath` when set):
///   by `reason`: absent or `FieldValueInvalid` → `<path>: Invalid value: "<type>": <msg>`;
///   `FieldValueRequired` → `<path>: Required value: <msg>`; `FieldValueForbidden` →
///   `<path>: Forbidden: <msg>`; `FieldValueDuplicate` → `<path>: Duplicate value: "<type>"`.
/// - `Error(detail)` always at the node's path (not `fieldPath`):
///   `<path>: Invalid value: "<type>": <detail>`.
///
/// `<type>` is the schema's `type` (`object`, `string`, ...).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The rule holds.
    Pass,
    /// The rule is false: the message the API server prints.
    Fail(String),
    /// Evaluation failed: the API server's error detail.
    Error(String),
}

impl CompiledRule {
    /// Compiles a rule, or says why dopol cannot evaluate it (never panics).
    pub fn compile(spec: &RuleSpec) -> Result<CompiledRule, String> {
        let (expr, height) = compile_expression(&spec.rule, spec.parser)?;
        let message_expression = match spec.message_expression.as_deref() {
            Some(text) => Some(
                compile_expression(text, spec.parser)
                    .map_err(|e| format!("messageExpression: {e}"))?,
            ),
            None => None,
        };
        let message = spec.message.as_deref().map(str::trim).unwrap_or("");
        let label = if message.is_empty() {
            spec.rule.trim()
        } else {
            message
        };
        let fail_message = if message.is_empty() {
            format!("failed rule: {label}")
        } else {
            message.to_string()
        };
        Ok(CompiledRule {
            direct: direct::Program::new(&expr),
            expr,
            height,
            message_expression,
            fail_message: fail_message.into(),
            label: label.into(),
            optional_old_self: spec.optional_old_self,
        })
    }

    /// Adds what the rule and its message expression observe of `self` to `seen`.
    pub fn add_seen(&self, seen: &mut Seen) {
        seen.add(&self.expr);
        if let Some((expr, _)) = &self.message_expression {
            seen.add(expr);
        }
    }

    /// Evaluates the rule with `self` bound to `this` (and `oldSelf` to `optional.none()`
    /// when the rule sets `optionalOldSelf`).
    pub fn evaluate(&self, this: &Value) -> Verdict {
        evaluate_all(&[self], this).pop().unwrap_or(Verdict::Pass)
    }

    /// The verdict in `scope`, where `self` (and `oldSelf`) are bound.
    fn verdict(&self, scope: &Context<'_, '_>, this: &Value) -> Verdict {
        match evaluate_in(&self.expr, scope) {
            Ok(Value::Bool(true)) => Verdict::Pass,
            Ok(Value::Bool(false)) => Verdict::Fail(self.message(scope, this)),
            Ok(other) => Verdict::Error(format!(
                "rule returned a {} value, not a bool, evaluating rule: {}",
                other.type_of(),
                self.label
            )),
            Err(Failure::Budget) => Verdict::Error(format!(
                "{} for rule: {}",
                over_limit(
                    format_args!("dopol stopped evaluating after {MAX_EVALUATION_STEPS} steps"),
                    "cel-steps"
                ),
                self.label
            )),
            Err(Failure::Error(error)) => Verdict::Error(describe_error(&error, &self.label)),
        }
    }

    /// The message of a false rule (`messageExpression` is evaluated without `oldSelf`, as
    /// in the API server).
    fn message(&self, scope: &Context<'_, '_>, _this: &Value) -> String {
        if let Some((expr, _)) = &self.message_expression {
            if let Ok(Value::String(s)) = evaluate_in(expr, scope) {
                let trimmed = s.trim();
                if !trimmed.is_empty()
                    && trimmed.len() <= MAX_MESSAGE_EXPRESSION_BYTES
                    && !trimmed.contains('\n')
                {
                    return trimmed.to_string();
                }
            }
        }
        self.fail_message.to_string()
    }
}

/// Why an evaluation produced no value.
enum Failure {
    Budget,
    Error(ExecutionError),
}

/// Evaluates `rules` on one value: `self` is converted and bound once for all of them (the
/// conversion is a deep copy and costs more than most rules); `oldSelf` is `optional.none()`
/// for rules with `optionalOldSelf` and unbound for the others (a create: the caller skips
/// rules reading `oldSelf` without it).
/// A tall rule moves the whole batch onto a deep stack; a panic becomes an error verdict.
pub fn evaluate_all(rules: &[&CompiledRule], this: &Value) -> Vec<Verdict> {
    let tallest = rules
        .iter()
        .map(|r| {
            r.height
                .max(r.message_expression.as_ref().map_or(0, |m| m.1))
        })
        .max()
        .unwrap_or(0);
    let job = || -> Result<Vec<Verdict>, String> {
        let bound: Box<dyn Val> = this.clone().try_into().map_err(|e| format!("{e}"))?;
        with_root(|root| {
            let mut scope = root.new_inner_scope();
            scope.add_variable_as_val("self", bound);
            let mut verdicts = Vec::with_capacity(rules.len());
            for rule in rules {
                verdicts.push(if rule.optional_old_self {
                    let none = Value::Opaque(Arc::new(OptionalValue::none()));
                    let old: Box<dyn Val> = none.try_into().map_err(|e| format!("{e}"))?;
                    let mut inner = scope.new_inner_scope();
                    inner.add_variable_as_val("oldSelf", old);
                    rule.verdict(&inner, this)
                } else {
                    rule.verdict(&scope, this)
                });
            }
            Ok(verdicts)
        })?
    };
    let outcome = if tallest <= INLINE_EVAL_HEIGHT {
        panic::catch_unwind(AssertUnwindSafe(job)).map_err(|_| PANIC_MESSAGE.to_string())
    } else {
        deep(job)
    };
    match outcome.and_then(|verdicts| verdicts) {
        Ok(verdicts) => verdicts,
        Err(error) => rules
            .iter()
            .map(|rule| Verdict::Error(format!("{error}: {}", rule.label)))
            .collect(),
    }
}

/// One expression in `scope`, within the evaluation budget.
fn evaluate_in(expr: &IdedExpr, scope: &Context<'_, '_>) -> Result<Value, Failure> {
    library::start_budget(MAX_EVALUATION_STEPS);
    let result = Value::resolve(expr, scope);
    if library::budget_exceeded() {
        return Err(Failure::Budget);
    }
    result.map_err(Failure::Error)
}

/// The detail Kubernetes prints for an evaluation error.
fn describe_error(error: &ExecutionError, label: &str) -> String {
    let text = match error {
        ExecutionError::NoSuchKey(key) => format!("no such key: {key}"),
        ExecutionError::IndexOutOfBounds(Value::Int(i)) => format!("index out of bounds: {i}"),
        ExecutionError::DivisionByZero(_) => "division by zero".to_string(),
        ExecutionError::RemainderByZero(_) => "modulus by zero".to_string(),
        ExecutionError::Overflow(..) => "integer overflow".to_string(),
        ExecutionError::UndeclaredReference(name) => format!("no such attribute: {name}"),
        ExecutionError::FunctionError { function, message } if function == K8S_ERROR => {
            message.clone()
        }
        // cel-go's `string.ConvertToType` failing to parse.
        ExecutionError::FunctionError { function, .. } if function == "duration" => {
            "type conversion error from 'string' to 'google.protobuf.Duration'".to_string()
        }
        ExecutionError::FunctionError { function, .. } if function == "timestamp" => {
            "type conversion error from 'string' to 'google.protobuf.Timestamp'".to_string()
        }
        ExecutionError::NoSuchOverload(_)
        | ExecutionError::UnsupportedBinaryOperator(..)
        | ExecutionError::UnexpectedType { .. }
        | ExecutionError::ValuesNotComparable(..)
        | ExecutionError::UnsupportedTargetType { .. }
        | ExecutionError::NotSupportedAsMethod { .. } => "no such overload".to_string(),
        other => other.to_string(),
    };
    if text.starts_with("no such overload") {
        format!(
            "'{text}': call arguments did not match a supported operator, function or macro \
             signature for rule: {label}"
        )
    } else {
        format!("{text} evaluating rule: {label}")
    }
}

/// Which parser reads a rule.
///
/// The API server parses rules with cel-go's ANTLR grammar, and so does `cel`'s grammar parser.
/// `cel`'s hand-written Pratt parser is about 17 times faster and builds the same tree for every
/// bundled rule (only the ids of map literal entries differ, and nothing reads ids):
/// `crd::cel::tests::the_fast_parser_builds_the_grammar_tree_for_every_bundled_rule` keeps it so.
/// Bundled CRDs use it, which makes a small run's compile cost a tenth; rules from `--crds` are
/// parsed by the grammar, since nothing proves the two parsers agree on them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleParser {
    /// The ANTLR grammar, as the API server.
    Grammar,
    /// The hand-written parser, for rules it is known to read as the grammar does.
    Fast,
}

/// Parses and checks `text` (on a worker thread: the parser is recursive).
fn compile_expression(text: &str, parser: RuleParser) -> Result<(IdedExpr, usize), String> {
    deep(|| {
        let fast = match parser {
            RuleParser::Fast => crate::expr::check_text_limits(text)
                .ok()
                .and_then(|()| fast_parser().parse(text).ok()),
            RuleParser::Grammar => None,
        };
        let mut expr = match fast {
            Some(expr) => expr,
            // What the fast parser does not read is left to the grammar, which says why.
            None => grammar_parse(text)?,
        };
        let mut checker = Checker { loops: Vec::new() };
        let shape = checker.visit(&mut expr, 0, 0)?;
        Ok((expr, shape.height))
    })?
}

/// `cel`'s hand-written parser, configured as [`env`]'s grammar parser (standard macros,
/// optional syntax).
pub fn fast_parser() -> ::cel::parser::PrattParser {
    ::cel::parser::PrattParser::new().enable_optional_syntax(true)
}

/// Parses with the grammar, within the expression limits (the message of the first error).
pub fn grammar_parse(text: &str) -> Result<IdedExpr, String> {
    crate::expr::parse_checked(text).map_err(|e| e.message)
}

use crate::expr::stdlib::{MACROS, STANDARD_FUNCTIONS};

const VARIABLES: &[&str] = &["self", "oldSelf"];

#[derive(Clone, Copy, Default)]
struct Shape {
    nodes: usize,
    height: usize,
}

impl Shape {
    fn and(self, other: Shape) -> Shape {
        Shape {
            nodes: self.nodes + other.nodes,
            height: self.height.max(other.height),
        }
    }
}

struct Checker {
    /// Comprehension variables in scope, and how often each scope's were used.
    loops: Vec<(Vec<String>, usize)>,
}

impl Checker {
    fn visit(
        &mut self,
        expr: &mut IdedExpr,
        depth: usize,
        nesting: usize,
    ) -> Result<Shape, String> {
        if depth >= MAX_TREE_DEPTH {
            return Err(format!(
                "the expression is nested more than {MAX_TREE_DEPTH} levels deep"
            ));
        }
        let below = depth + 1;
        let children = match &mut expr.expr {
            Expr::Literal(_) => Shape::default(),
            Expr::Ident(name) => {
                self.check_identifier(name)?;
                Shape::default()
            }
            Expr::Select(select) => self.visit(&mut select.operand, below, nesting)?,
            Expr::Call(call) => self.visit_call(call, below, nesting)?,
            Expr::Comprehension(c) => self.visit_comprehension(c, below, nesting)?,
            Expr::List(list) => {
                let mut shape = Shape::default();
                for e in &mut list.elements {
                    shape = shape.and(self.visit(e, below, nesting)?);
                }
                shape
            }
            Expr::Map(map) => {
                let mut shape = Shape::default();
                for entry in &mut map.entries {
                    shape = shape.and(match &mut entry.expr {
                        EntryExpr::MapEntry(e) => self
                            .visit(&mut e.key, below, nesting)?
                            .and(self.visit(&mut e.value, below, nesting)?),
                        EntryExpr::StructField(f) => self.visit(&mut f.value, below, nesting)?,
                    });
                }
                shape
            }
            Expr::Struct(_) => return Err("message literals are not supported".to_string()),
            Expr::Unspecified => return Err("incomplete expression".to_string()),
        };
        rewrite_matches(expr);
        Ok(Shape {
            nodes: children.nodes + 1,
            height: children.height + 1,
        })
    }

    fn visit_call(
        &mut self,
        call: &mut CallExpr,
        depth: usize,
        nesting: usize,
    ) -> Result<Shape, String> {
        // `optional.of(x)` is the function `optional.of`, not `of` on a variable.
        let qualified = match call.target.as_deref() {
            Some(IdedExpr {
                expr: Expr::Ident(namespace),
                ..
            }) if !self.is_variable(namespace) => {
                let name = format!("{namespace}.{}", call.func_name);
                STANDARD_FUNCTIONS.contains(&name.as_str()).then_some(name)
            }
            _ => None,
        };
        if qualified.is_none() {
            check_function(&call.func_name)?;
        }
        let mut shape = match call.target.as_deref_mut() {
            Some(target) if qualified.is_none() => self.visit(target, depth, nesting)?,
            _ => Shape::default(),
        };
        for arg in &mut call.args {
            shape = shape.and(self.visit(arg, depth, nesting)?);
        }
        Ok(shape)
    }

    fn visit_comprehension(
        &mut self,
        c: &mut ComprehensionExpr,
        depth: usize,
        nesting: usize,
    ) -> Result<Shape, String> {
        if nesting >= MAX_COMPREHENSION_NESTING {
            return Err(over_limit(
                format_args!(
                    "comprehensions are nested more than {MAX_COMPREHENSION_NESTING} levels deep"
                ),
                "crd-comprehension-nesting",
            ));
        }
        let range = self.visit(&mut c.iter_range, depth, nesting)?;
        let variables = [Some(&c.iter_var), c.iter_var2.as_ref()]
            .into_iter()
            .flatten()
            .cloned()
            .collect();
        self.loops.push((variables, 0));
        let init = self.visit(&mut c.accu_init, depth, nesting)?;
        let condition = self.visit(&mut c.loop_cond, depth, nesting + 1)?;
        let step = self.visit(&mut c.loop_step, depth, nesting + 1)?;
        let result = self.visit(&mut c.result, depth, nesting)?;
        self.loops.pop();
        meter_step(c, step.nodes + 1);
        let metered = Shape {
            nodes: step.nodes + 3,
            height: step.height + 1,
        };
        Ok(range.and(init).and(condition).and(metered).and(result))
    }

    fn check_identifier(&mut self, name: &str) -> Result<(), String> {
        if name.starts_with('@') {
            return Ok(()); // a macro's accumulator
        }
        if let Some(scope) = self
            .loops
            .iter_mut()
            .rev()
            .find(|(variables, _)| variables.iter().any(|v| v == name))
        {
            scope.1 += 1;
            if scope.1 > MAX_VARIABLE_USES {
                return Err(over_limit(
                    format_args!(
                        "`{name}` is used more than {MAX_VARIABLE_USES} times in its comprehension"
                    ),
                    "crd-variable-uses",
                ));
            }
            return Ok(());
        }
        if VARIABLES.contains(&name) || env().types().find_type(name).is_some() {
            return Ok(());
        }
        Err(format!(
            "unknown variable `{name}` (CRD rules can use `self` and `oldSelf`)"
        ))
    }

    fn is_variable(&self, name: &str) -> bool {
        VARIABLES.contains(&name)
            || self
                .loops
                .iter()
                .any(|(variables, _)| variables.iter().any(|v| v == name))
    }
}

fn check_function(name: &str) -> Result<(), String> {
    if STANDARD_FUNCTIONS.contains(&name) || library::IMPLEMENTED.contains(&name) {
        return Ok(());
    }
    if MACROS.contains(&name) {
        return Err(format!("wrong arguments for the `{name}` macro"));
    }
    match library::KNOWN_UNIMPLEMENTED
        .iter()
        .find(|(function, _)| *function == name)
    {
        Some((_, lib)) => Err(format!(
            "uses `{name}` (Kubernetes CEL {lib} library), which dopol does not implement"
        )),
        None => Err(format!(
            "uses the function `{name}`, which is not in the Kubernetes CEL environment as \
             dopol implements it"
        )),
    }
}

/// `s.matches(p)` and `matches(s, p)` become `@dopol_matches(s, p)` (cached, metered).
fn rewrite_matches(expr: &mut IdedExpr) {
    let Expr::Call(call) = &mut expr.expr else {
        return;
    };
    if call.func_name != "matches" {
        return;
    }
    let args = match (call.target.take(), std::mem::take(&mut call.args)) {
        (Some(target), args) if args.len() == 1 => {
            let mut all = vec![*target];
            all.extend(args);
            all
        }
        (None, args) => args,
        (target, args) => {
            // Leave a call the function itself rejects.
            call.target = target;
            call.args = args;
            return;
        }
    };
    call.func_name = MATCHES_FUNCTION.to_string();
    call.args = args;
}

#[cfg(test)]
pub(crate) mod tests;
