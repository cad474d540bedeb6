//! CEL expressions in policies: `when` constraints and Kuadrant predicates.
//!
//! Gateway API policies carry CEL in two places, and dopol handles each one
//! differently:
//!
//! - A defaults/overrides block may carry `when: "<CEL>"`. dopol evaluates
//!   this constraint itself, against the lower effective policy rendered in
//!   its spec shape, bound both as `spec` and as `self` (`self.spec.x` works
//!   as well as `spec.x`). [`Constraint`] compiles a constraint, checks what
//!   it references and evaluates it.
//! - Kuadrant request-time predicates and counters (`request.method == 'GET'`,
//!   `auth.identity.userid`) only make sense inside the gateway. dopol never
//!   evaluates them, but [`check_syntax`] reports syntax errors early.
//!
//! The `cel` crate alone isn't enough, for these reasons:
//!
//! - It has no type checker. An unknown variable or function only fails when
//!   the expression is evaluated, and then only if evaluation reaches it. So
//!   [`Constraint::compile`] walks the syntax tree up front and rejects
//!   anything except `spec`, `self` and the standard library.
//! - Its errors give a line and a column, and the unit of the column is not
//!   always the same. [`ExprError`] gives a byte range in the expression
//!   instead, and [`value_offset_to_source`] maps that range onto the YAML
//!   scalar the expression was written in.
//! - serde turns non-negative JSON integers into CEL `uint`, so
//!   `limit + 1` would fail with "no matching overload". [`json_to_cel`]
//!   turns integers into `int` instead.
//! - It is recursive and has no resource limits. In a debug build, a dozen
//!   nested parentheses use up a 2 MiB stack, and a few nested comprehensions
//!   can run for hours. The limits below and dedicated large-stack threads
//!   keep a hostile expression from crashing or hanging dopol.

use cel::common::ast::{
    CallExpr, ComprehensionExpr, EntryExpr, Expr, IdedExpr, LiteralValue, SourceInfo,
};
use cel::common::types::CelInt;
use cel::common::value::Val;
use cel::objects::{Key, Map};
use cel::{Context, Env, ExecutionError, ParseError, ParseErrors, Value};
use std::collections::HashMap;
use std::fmt;
use std::ops::Range;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

/// A compile-time problem in an expression, located in the expression text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExprError {
    /// Human message, without the `ERROR: <input>:1:2:` prefix: e.g.
    /// "mismatched input ')' expecting ..." or "unknown variable `foo`;
    /// constraints can use `spec` and `self`".
    pub message: String,
    /// Byte offset into the expression text where the problem is (best
    /// effort; 0 if unknown). Always a char boundary and `<= text.len()`.
    pub offset: usize,
    /// Byte length of the offending part: at least 1 when the expression is
    /// non-empty, and never past the end of the text.
    pub len: usize,
}

impl ExprError {
    /// An error about `len` bytes at `offset` in `text`. The range is moved
    /// onto char boundaries and into the text. An error at the very end
    /// points at the last visible character instead.
    fn new(text: &str, offset: usize, len: usize, message: impl Into<String>) -> ExprError {
        let mut start = floor_char_boundary(text, offset.min(text.len()));
        if start == text.len() {
            start = last_visible_char(text);
        }
        let end = ceil_char_boundary(text, start.saturating_add(len.max(1)).min(text.len()));
        ExprError {
            message: message.into(),
            offset: start,
            len: end - start,
        }
    }

    /// An error about the token (identifier, number or single character)
    /// that starts at `offset`.
    fn at_token(text: &str, offset: usize, message: impl Into<String>) -> ExprError {
        let offset = floor_char_boundary(text, offset.min(text.len()));
        ExprError::new(text, offset, token_len(&text[offset..]), message)
    }
}

impl fmt::Display for ExprError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ExprError {}

/// The longest expression accepted, in bytes. A `when` constraint or a
/// predicate is one line of logic. The limit also bounds the parse time and
/// the work in any single evaluation step.
pub const MAX_EXPRESSION_BYTES: usize = 8192;

/// The deepest nesting of parentheses, brackets and braces accepted. This is
/// checked on the raw text, before parsing, because the parser is recursive:
/// each level costs it about 150 KiB of stack in a debug build. Deeper input
/// is rejected before the parser ever sees it. 32 levels is far beyond what
/// any hand-written predicate needs.
pub const MAX_NESTING: usize = 32;

/// The deepest syntax tree a constraint may have, e.g. 64 terms in
/// `a + b + c + ...`. Evaluation recurses once per level. This limit keeps
/// that recursion, and the destruction of the tree, shallow.
pub const MAX_TREE_DEPTH: usize = 64;

/// How deeply comprehensions (`all`, `exists`, `exists_one`, `map`,
/// `filter`) may be nested in a constraint. Each level multiplies the work
/// and the size of the values built. Two levels are enough for
/// `spec.limits.exists(k, spec.limits[k].rates.exists(r, ...))`.
pub const MAX_COMPREHENSION_NESTING: usize = 2;

/// How many times a comprehension's variable may be used inside it. Every
/// use of a variable bound to a large value can copy that value (e.g.
/// `[s].map(t, t + t + t + ...)`). This limit, together with
/// [`MAX_COMPREHENSION_NESTING`], bounds how much a value can grow.
pub const MAX_VARIABLE_USES: usize = 10;

/// The evaluation budget of a constraint. Each comprehension iteration
/// costs one step, plus one step per node of its body. Each regular
/// expression match costs 2,000 steps. A constraint that runs out of budget
/// fails instead of running for minutes. Real constraints over a policy
/// take a few hundred steps.
pub const MAX_EVALUATION_STEPS: usize = 100_000;

/// What one regular expression match costs from the evaluation budget. The
/// `cel` crate compiles the pattern on every call. A pattern near the
/// `regex` crate's size limit takes up to 100 ms to compile (or to fail),
/// so at most 50 matches fit in one evaluation. Matching itself is linear:
/// the `regex` crate has no backtracking.
const REGEX_STEPS: usize = 2_000;

/// The stack of the thread that parses expressions and runs the deep ones.
/// The worst input the limits allow needs about 16 MiB in a debug build.
/// This is virtual memory, only touched as needed.
const WORKER_STACK_BYTES: usize = 64 << 20;

/// Constraints whose tree is no taller than this run on the caller's
/// thread. Taller ones run on the worker thread. In a debug build,
/// evaluation takes about 40 KiB of stack per level. The tallest inline
/// shape, with two nested comprehensions, needs about 600 KiB, which fits
/// the 2 MiB of a test thread.
const INLINE_EVAL_HEIGHT: usize = 16;

/// Every non-macro function and operator that [`Env::stdlib`] of `cel` 0.15
/// declares or that its interpreter handles itself. The test
/// `allowed_functions_are_declared_by_the_stdlib` checks this list against
/// the crate.
const ALLOWED_FUNCTIONS: &[&str] = &[
    // Operators, spelled as the parser names them.
    "_?_:_",
    "_&&_",
    "_||_",
    "!_",
    "-_",
    "_+_",
    "_-_",
    "_*_",
    "_/_",
    "_%_",
    "_==_",
    "_!=_",
    "_<_",
    "_<=_",
    "_>_",
    "_>=_",
    "@in",
    "_[_]",
    "_[?_]",
    "_?._",
    "@not_strictly_false",
    // Conversions and types.
    "bool",
    "bytes",
    "double",
    "dyn",
    "int",
    "uint",
    "string",
    "type",
    "duration",
    "timestamp",
    // Strings, lists and maps.
    "size",
    "contains",
    "startsWith",
    "endsWith",
    "matches",
    // Durations and timestamps.
    "getFullYear",
    "getMonth",
    "getDayOfYear",
    "getDayOfMonth",
    "getDate",
    "getDayOfWeek",
    "getHours",
    "getMinutes",
    "getSeconds",
    "getMilliseconds",
    // Optional values.
    "optional.none",
    "optional.of",
    "optional.ofNonZeroValue",
    "value",
    "hasValue",
    "or",
    "orValue",
];

/// The standard macros. A call left with one of these names was not
/// expanded, because it had the wrong number or kind of arguments.
const MACROS: &[&str] = &["has", "all", "exists", "exists_one", "map", "filter"];

/// The variables a constraint may use.
const CONSTRAINT_VARIABLES: &[&str] = &["spec", "self"];

/// The function the evaluation budget is charged through. No expression can
/// call it by name, because identifiers cannot start with `@`.
const STEP_FUNCTION: &str = "@dopol_step";

/// The prefix `cel` puts on errors reported by the ANTLR parser, whose
/// columns count chars. Its other errors count bytes.
const SYNTAX_ERROR_PREFIX: &str = "Syntax error: ";

/// The environment shared by every expression: the CEL standard library,
/// with the standard macros and optional syntax. The `strings` extension is
/// deliberately left out: `replace` can grow a string exponentially in the
/// length of the expression, e.g. `s.replace('a', s).replace('a', s)`.
fn env() -> &'static Arc<Env> {
    static ENV: OnceLock<Arc<Env>> = OnceLock::new();
    ENV.get_or_init(|| Arc::new(Env::stdlib()))
}

/// A compiled constraint (`when` of a defaults/overrides block).
#[derive(Clone, Debug)]
pub struct Constraint {
    /// The checked tree, with the budget charged at each comprehension step.
    expr: IdedExpr,
    /// The height of `expr`, which sets how much stack evaluation needs.
    height: usize,
}

impl Constraint {
    /// Compiles and checks that only the variables `spec` and `self` and
    /// standard CEL functions/macros are referenced. Also enforces the
    /// limits above.
    pub fn compile(text: &str) -> Result<Constraint, ExprError> {
        check_text_limits(text)?;
        on_worker(|| compile_constraint(text))
            .unwrap_or_else(|reason| Err(ExprError::new(text, 0, text.len(), reason)))
    }

    /// Evaluates against the lower effective policy rendered in its spec
    /// shape. Returns `Ok(bool)`, or `Err(reason)` for an evaluation error or
    /// a non-boolean result.
    pub fn evaluate(&self, spec: &serde_json::Value) -> Result<bool, String> {
        if self.height <= INLINE_EVAL_HEIGHT {
            panic::catch_unwind(AssertUnwindSafe(|| self.evaluate_here(spec)))
                .unwrap_or_else(|_| Err(PANIC_MESSAGE.to_string()))
        } else {
            on_worker(|| self.evaluate_here(spec)).and_then(|result| result)
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
            return Err(format!(
                "evaluation stopped after {MAX_EVALUATION_STEPS} steps: \
                 the expression does too much work"
            ));
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

/// Syntax-checks a Kuadrant request-time predicate or counter expression
/// without evaluating it. Its variables and functions are not checked.
pub fn check_syntax(text: &str) -> Result<(), ExprError> {
    check_text_limits(text)?;
    on_worker(|| parse(text).map(drop))
        .unwrap_or_else(|reason| Err(ExprError::new(text, 0, text.len(), reason)))
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

// ---------------------------------------------------------------------------
// Limits, threads and parsing
// ---------------------------------------------------------------------------

const PANIC_MESSAGE: &str = "internal error: the CEL library panicked";

/// Rejects text that is too long, or nested too deeply for the recursive
/// parser, before it is parsed.
fn check_text_limits(text: &str) -> Result<(), ExprError> {
    if text.len() > MAX_EXPRESSION_BYTES {
        return Err(ExprError::new(
            text,
            MAX_EXPRESSION_BYTES,
            1,
            format!(
                "the expression is too long: {} bytes, the limit is {MAX_EXPRESSION_BYTES}",
                text.len()
            ),
        ));
    }
    match too_deep_bracket(text) {
        Some(offset) => Err(ExprError::new(
            text,
            offset,
            1,
            format!("the expression nests brackets more than {MAX_NESTING} levels deep"),
        )),
        None => Ok(()),
    }
}

/// The offset of the first bracket that opens level `MAX_NESTING + 1`.
/// Brackets inside string literals and `//` comments are skipped.
fn too_deep_bracket(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while let Some(&byte) = bytes.get(i) {
        i = match byte {
            b'(' | b'[' | b'{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Some(i);
                }
                i + 1
            }
            b')' | b']' | b'}' => {
                depth = depth.saturating_sub(1);
                i + 1
            }
            b'\'' | b'"' => skip_string_literal(bytes, i),
            b'/' if bytes.get(i + 1) == Some(&b'/') => bytes[i..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(bytes.len(), |n| i + n),
            _ => i + 1,
        };
    }
    None
}

/// The index just after the CEL string literal whose opening quote is at
/// `start`. The literal may be single, double, triple-quoted or raw.
fn skip_string_literal(bytes: &[u8], start: usize) -> usize {
    let quote = bytes[start];
    let raw = start > 0 && matches!(bytes[start - 1], b'r' | b'R');
    let triple = bytes[start..].starts_with(&[quote; 3]);
    let mut i = start + if triple { 3 } else { 1 };
    while let Some(&byte) = bytes.get(i) {
        if byte == b'\\' && !raw {
            i += 2;
        } else if triple && bytes[i..].starts_with(&[quote; 3]) {
            return i + 3;
        } else if !triple && (byte == quote || byte == b'\n') {
            return i + 1;
        } else {
            i += 1;
        }
    }
    bytes.len()
}

/// Runs `job` on dopol's expression threads, which have a [`WORKER_STACK_BYTES`] stack: the
/// `cel` parser and interpreter recurse deeply in debug builds. The threads live for the whole
/// process (starting a thread per expression would cost more than parsing it), and a job
/// submitted from one of them runs inline. A panic in the job becomes an error.
fn on_worker<T: Send>(job: impl FnOnce() -> T + Send) -> Result<T, String> {
    static POOL: OnceLock<Result<rayon::ThreadPool, String>> = OnceLock::new();
    let pool = POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .thread_name(|i| format!("dopol-cel-{i}"))
            .stack_size(WORKER_STACK_BYTES)
            .build()
            .map_err(|error| format!("cannot start the expression threads: {error}"))
    });
    let pool = pool.as_ref().map_err(Clone::clone)?;
    pool.install(|| {
        panic::catch_unwind(AssertUnwindSafe(job)).map_err(|_| PANIC_MESSAGE.to_string())
    })
}

/// Parses `text` with the shared environment's parser, which expands the
/// standard macros.
fn parse(text: &str) -> Result<(IdedExpr, SourceInfo), ExprError> {
    env()
        .parser()
        .parse_with_source_info(text)
        .map_err(|errors| first_parse_error(text, &errors))
}

fn first_parse_error(text: &str, errors: &ParseErrors) -> ExprError {
    match errors.errors.first() {
        Some(error) => parse_error(text, error),
        None => ExprError::new(text, 0, 0, "invalid expression"),
    }
}

/// Locates a `cel` parse error in `text`. An error about a node is located
/// through the node's byte offset. Otherwise `pos` is `(line, column)`,
/// both 1-based. The column counts chars for the parser's syntax errors
/// and bytes for the macro errors.
fn parse_error(text: &str, error: &ParseError) -> ExprError {
    let node_offset = error
        .source_info
        .as_ref()
        .filter(|_| error.expr_id != 0)
        .and_then(|info| info.offset_for(error.expr_id))
        .map(|(start, _)| start as usize);
    let offset = node_offset.unwrap_or_else(|| {
        let (line, column) = error.pos;
        let in_chars = error.msg.starts_with(SYNTAX_ERROR_PREFIX);
        line_column_to_offset(text, line, column, in_chars)
    });
    ExprError::at_token(text, offset, clean_parse_message(&error.msg))
}

fn clean_parse_message(message: &str) -> String {
    if message.contains("Recursion limit") {
        return "the expression is nested too deeply".to_string();
    }
    message
        .strip_prefix(SYNTAX_ERROR_PREFIX)
        .unwrap_or(message)
        .to_string()
}

/// The byte offset of the 1-based `(line, column)` in `text`. The column
/// counts chars if `in_chars`, bytes otherwise. Out-of-range positions are
/// clamped.
fn line_column_to_offset(text: &str, line: isize, column: isize, in_chars: bool) -> usize {
    let skip_lines = usize::try_from(line.saturating_sub(1)).unwrap_or(0);
    let line_start = match skip_lines.checked_sub(1) {
        None => 0,
        Some(n) => text
            .match_indices('\n')
            .nth(n)
            .map_or(text.len(), |(at, _)| at + 1),
    };
    let column = usize::try_from(column.saturating_sub(1)).unwrap_or(0);
    let rest = &text[line_start..];
    let within = if in_chars {
        rest.char_indices()
            .nth(column)
            .map_or(rest.len(), |(at, _)| at)
    } else {
        floor_char_boundary(rest, column.min(rest.len()))
    };
    line_start + within
}

// ---------------------------------------------------------------------------
// Checking a constraint
// ---------------------------------------------------------------------------

fn compile_constraint(text: &str) -> Result<Constraint, ExprError> {
    let (mut expr, info) = parse(text)?;
    let mut checker = Checker {
        text,
        info: &info,
        loops: Vec::new(),
    };
    let shape = checker.visit(&mut expr, 0, 0)?;
    Ok(Constraint {
        expr,
        height: shape.height,
    })
}

/// The size of a checked subtree.
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

/// The variables a comprehension binds, and how often its body uses them.
struct LoopScope {
    variables: Vec<String>,
    uses: usize,
}

/// Checks a constraint's tree against the rules and limits, and meters its
/// comprehensions.
struct Checker<'a> {
    text: &'a str,
    info: &'a SourceInfo,
    loops: Vec<LoopScope>,
}

impl Checker<'_> {
    /// Checks `expr`, at `depth` in the tree and inside `nesting`
    /// comprehension bodies.
    fn visit(
        &mut self,
        expr: &mut IdedExpr,
        depth: usize,
        nesting: usize,
    ) -> Result<Shape, ExprError> {
        if depth >= MAX_TREE_DEPTH {
            return Err(self.error_at_node(
                expr.id,
                format!("the expression is nested more than {MAX_TREE_DEPTH} levels deep"),
            ));
        }
        let id = expr.id;
        let below = depth + 1;
        let children = match &mut expr.expr {
            Expr::Literal(_) => Shape::default(),
            Expr::Ident(name) => {
                self.check_identifier(name, id)?;
                Shape::default()
            }
            Expr::Select(select) => {
                if self.is_type_name(&select.operand, &select.field) && !select.test {
                    Shape::default()
                } else {
                    self.visit(&mut select.operand, below, nesting)?
                }
            }
            Expr::Call(call) => self.visit_call(call, id, below, nesting)?,
            Expr::Comprehension(comprehension) => {
                self.visit_comprehension(comprehension, id, below, nesting)?
            }
            Expr::List(list) => self.visit_all(list.elements.iter_mut(), below, nesting)?,
            Expr::Map(map) => {
                let mut shape = Shape::default();
                for entry in &mut map.entries {
                    shape = shape.and(match &mut entry.expr {
                        EntryExpr::MapEntry(entry) => {
                            let key = self.visit(&mut entry.key, below, nesting)?;
                            key.and(self.visit(&mut entry.value, below, nesting)?)
                        }
                        EntryExpr::StructField(field) => {
                            self.visit(&mut field.value, below, nesting)?
                        }
                    });
                }
                shape
            }
            Expr::Struct(_) => {
                return Err(self.error_at_node(id, "message literals are not supported here"));
            }
            Expr::Unspecified => {
                return Err(self.error_at_node(id, "incomplete expression"));
            }
        };
        if matches!(&expr.expr, Expr::Call(call) if call.func_name == "matches") {
            charge_before(expr, REGEX_STEPS);
            return Ok(Shape {
                nodes: children.nodes + 4,
                height: children.height + 2,
            });
        }
        Ok(Shape {
            nodes: children.nodes + 1,
            height: children.height + 1,
        })
    }

    fn visit_all<'e>(
        &mut self,
        exprs: impl Iterator<Item = &'e mut IdedExpr>,
        depth: usize,
        nesting: usize,
    ) -> Result<Shape, ExprError> {
        let mut shape = Shape::default();
        for expr in exprs {
            shape = shape.and(self.visit(expr, depth, nesting)?);
        }
        Ok(shape)
    }

    fn visit_call(
        &mut self,
        call: &mut CallExpr,
        id: u64,
        depth: usize,
        nesting: usize,
    ) -> Result<Shape, ExprError> {
        // `optional.of(x)` is a call to `optional.of`, not `of` on a variable.
        let qualified = call
            .target
            .as_deref()
            .and_then(|target| self.non_variable_name(target))
            .map(|namespace| format!("{namespace}.{}", call.func_name))
            .filter(|name| ALLOWED_FUNCTIONS.contains(&name.as_str()));
        if qualified.is_none() {
            self.check_function(&call.func_name, id)?;
        }
        let target = match call.target.as_deref_mut() {
            Some(target) if qualified.is_none() => self.visit(target, depth, nesting)?,
            _ => Shape::default(),
        };
        Ok(target.and(self.visit_all(call.args.iter_mut(), depth, nesting)?))
    }

    fn visit_comprehension(
        &mut self,
        comprehension: &mut ComprehensionExpr,
        id: u64,
        depth: usize,
        nesting: usize,
    ) -> Result<Shape, ExprError> {
        if nesting >= MAX_COMPREHENSION_NESTING {
            return Err(self.error_at_call(
                id,
                format!(
                    "comprehensions are nested more than {MAX_COMPREHENSION_NESTING} levels deep; \
                     this could make evaluation too slow"
                ),
            ));
        }
        let range = self.visit(&mut comprehension.iter_range, depth, nesting)?;
        let variables = [
            Some(&comprehension.iter_var),
            comprehension.iter_var2.as_ref(),
        ];
        self.loops.push(LoopScope {
            variables: variables.into_iter().flatten().cloned().collect(),
            uses: 0,
        });
        let init = self.visit(&mut comprehension.accu_init, depth, nesting)?;
        let condition = self.visit(&mut comprehension.loop_cond, depth, nesting + 1)?;
        let step = self.visit(&mut comprehension.loop_step, depth, nesting + 1)?;
        let result = self.visit(&mut comprehension.result, depth, nesting)?;
        self.loops.pop();
        meter_step(comprehension, step.nodes + 1);
        let metered_step = Shape {
            nodes: step.nodes + 3,
            height: step.height + 1,
        };
        Ok(range.and(init).and(condition).and(metered_step).and(result))
    }

    fn check_identifier(&mut self, name: &str, id: u64) -> Result<(), ExprError> {
        if name.starts_with('@') {
            return Ok(()); // a macro's accumulator
        }
        if let Some(scope) = self
            .loops
            .iter_mut()
            .rev()
            .find(|scope| scope.variables.iter().any(|v| v == name))
        {
            scope.uses += 1;
            if scope.uses > MAX_VARIABLE_USES {
                return Err(self.error_at_node(
                    id,
                    format!(
                        "`{name}` is used more than {MAX_VARIABLE_USES} times in its comprehension"
                    ),
                ));
            }
            return Ok(());
        }
        if CONSTRAINT_VARIABLES.contains(&name) || env().types().find_type(name).is_some() {
            return Ok(());
        }
        Err(self.error_at_node(
            id,
            format!("unknown variable `{name}`; constraints can use `spec` and `self`"),
        ))
    }

    fn check_function(&self, name: &str, id: u64) -> Result<(), ExprError> {
        if ALLOWED_FUNCTIONS.contains(&name) {
            Ok(())
        } else if MACROS.contains(&name) {
            Err(self.error_at_call(id, format!("wrong arguments for the `{name}` macro")))
        } else {
            Err(self.error_at_call(id, format!("unknown function `{name}`")))
        }
    }

    /// Whether `operand.field` names a standard type, such as
    /// `google.protobuf.Duration`.
    fn is_type_name(&self, operand: &IdedExpr, field: &str) -> bool {
        self.non_variable_name(operand).is_some_and(|name| {
            env()
                .types()
                .find_type(&format!("{name}.{field}"))
                .is_some()
        })
    }

    /// The dotted name `expr` spells, such as `a.b.c`, unless its first
    /// segment is a variable.
    fn non_variable_name(&self, expr: &IdedExpr) -> Option<String> {
        let mut segments = Vec::new();
        let mut current = expr;
        loop {
            match &current.expr {
                Expr::Ident(root) => {
                    if self.is_variable(root) {
                        return None;
                    }
                    segments.push(root.as_str());
                    segments.reverse();
                    return Some(segments.join("."));
                }
                Expr::Select(select) if !select.test => {
                    segments.push(&select.field);
                    current = &select.operand;
                }
                _ => return None,
            }
        }
    }

    fn is_variable(&self, name: &str) -> bool {
        CONSTRAINT_VARIABLES.contains(&name)
            || self
                .loops
                .iter()
                .any(|scope| scope.variables.iter().any(|v| v == name))
    }

    fn node_offset(&self, id: u64) -> usize {
        self.info
            .offset_for(id)
            .map_or(0, |(start, _)| start as usize)
    }

    fn error_at_node(&self, id: u64, message: impl Into<String>) -> ExprError {
        ExprError::at_token(self.text, self.node_offset(id), message)
    }

    /// An error about a call. The parser places calls at their `(`, so the
    /// error points at the name before it.
    fn error_at_call(&self, id: u64, message: impl Into<String>) -> ExprError {
        let paren = self.node_offset(id);
        let offset = identifier_before(self.text, paren).unwrap_or(paren);
        ExprError::at_token(self.text, offset, message)
    }
}

// ---------------------------------------------------------------------------
// The evaluation budget
// ---------------------------------------------------------------------------

/// Charges each iteration of `comprehension` `cost` steps, before its body
/// runs. The charge goes on the part of the loop step the user wrote, so
/// that the shapes the interpreter runs faster (`@result && p`, `@result || p`, `@result + [e]`,
/// `c ? @result + [e] : @result`) are kept.
fn meter_step(comprehension: &mut ComprehensionExpr, cost: usize) {
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
fn charge_before(part: &mut IdedExpr, cost: usize) {
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

/// The steps left for one evaluation.
struct Budget {
    remaining: AtomicUsize,
    exceeded: AtomicBool,
}

impl Budget {
    fn new(steps: usize) -> Budget {
        Budget {
            remaining: AtomicUsize::new(steps),
            exceeded: AtomicBool::new(false),
        }
    }

    fn charge(&self, cost: i64) -> Result<Value, ExecutionError> {
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

    fn exceeded(&self) -> bool {
        self.exceeded.load(Ordering::Relaxed)
    }
}

// ---------------------------------------------------------------------------
// Evaluation helpers
// ---------------------------------------------------------------------------

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
        Value::List(items) => format!("a list of {} elements", items.len()),
        Value::Map(map) => format!("a map of {} entries", map.map.len()),
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

// ---------------------------------------------------------------------------
// Text helpers
// ---------------------------------------------------------------------------

fn floor_char_boundary(text: &str, mut index: usize) -> usize {
    index = index.min(text.len());
    while !text.is_char_boundary(index) {
        index -= 1;
    }
    index
}

fn ceil_char_boundary(text: &str, mut index: usize) -> usize {
    index = index.min(text.len());
    while !text.is_char_boundary(index) {
        index += 1;
    }
    index
}

/// The start of the last non-whitespace char of `text`, or of its last char.
fn last_visible_char(text: &str) -> usize {
    let visible = text.trim_end();
    let within = if visible.is_empty() { text } else { visible };
    within.char_indices().next_back().map_or(0, |(at, _)| at)
}

fn is_identifier_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The byte length of the token at the start of `rest`: an identifier, a
/// number, or else one char.
fn token_len(rest: &str) -> usize {
    let number = rest.starts_with(|c: char| c.is_ascii_digit());
    match rest.chars().next() {
        Some(c) if is_identifier_char(c) => rest
            .find(|c: char| !(is_identifier_char(c) || (number && c == '.')))
            .unwrap_or(rest.len()),
        Some(c) => c.len_utf8(),
        None => 0,
    }
}

/// The start of the identifier that ends just before `end`, whitespace
/// aside.
fn identifier_before(text: &str, end: usize) -> Option<usize> {
    let before = text.get(..end)?.trim_end();
    let start = before
        .char_indices()
        .rev()
        .take_while(|&(_, c)| is_identifier_char(c))
        .last()
        .map(|(at, _)| at)?;
    Some(start)
}

// ---------------------------------------------------------------------------
// YAML scalars
// ---------------------------------------------------------------------------

/// Maps a byte offset in a YAML scalar's decoded value to a byte offset in
/// the scalar's source text.
///
/// `source` is the exact source text of the scalar node as it appears in the
/// YAML file, in one of these forms:
///   - plain: `spec.x > 1` (may span several lines; line breaks fold to a
///     single space, leading indentation of continuation lines is dropped),
///   - single-quoted: `'a ''b'' c'` (the `''` escape is one `'` in the value;
///     line folding as for plain),
///   - double-quoted: `"a \"b\" \u00e9 c"` (backslash escapes, an escaped
///     line break joins lines; line folding otherwise),
///   - literal block: starts with `|` (with optional chomping/indent
///     indicators like `|-`, `|+`, `|2`) followed by a newline and indented
///     content lines; the value is the content lines with the common
///     indentation removed, newlines kept,
///   - folded block: starts with `>` similarly; single newlines between
///     non-empty, non-more-indented lines fold into spaces.
///
/// Returns the byte offset in `source` of the character that produced the
/// value character at `value_offset`. This is best effort for folding, and
/// exact for single-line scalars and literal blocks. Offsets at or beyond the
/// end map to the end of the last content character.
pub fn value_offset_to_source(source: &str, value_offset: usize) -> usize {
    let decoded = decode_scalar(source);
    let spans = &decoded.spans;
    let index = spans.partition_point(|span| span.value_end <= value_offset);
    match spans.get(index) {
        Some(span) => span.source.start,
        None => spans
            .iter()
            .rev()
            .find(|span| !span.is_break)
            .map_or(decoded.content_start, |span| span.source.end),
    }
}

/// Where one char of a decoded scalar value came from.
#[derive(Debug)]
struct Span {
    /// The end of the char in the value.
    value_end: usize,
    /// The source text that produced it.
    source: Range<usize>,
    /// Whether it is a line break, folded or kept, rather than content.
    is_break: bool,
}

/// A decoded scalar value, and where each of its chars came from.
#[derive(Debug, Default)]
struct Decoded {
    value: String,
    spans: Vec<Span>,
    /// Where the content starts in the source, after any quote or header.
    content_start: usize,
}

impl Decoded {
    fn push(&mut self, c: char, source: Range<usize>, is_break: bool) {
        self.value.push(c);
        self.spans.push(Span {
            value_end: self.value.len(),
            source,
            is_break,
        });
    }
}

fn decode_scalar(source: &str) -> Decoded {
    match source.chars().next() {
        Some(quote @ ('\'' | '"')) => decode_flow(source, Some(quote)),
        Some('|') => decode_block(source, false),
        Some('>') => decode_block(source, true),
        _ => decode_flow(source, None),
    }
}

/// Collects the whitespace and line breaks between the content of a flow
/// scalar, and folds them when content resumes.
struct Folder {
    out: Decoded,
    spaces: Vec<(char, usize)>,
    breaks: Vec<usize>,
}

impl Folder {
    fn space(&mut self, c: char, at: usize) {
        self.spaces.push((c, at));
    }

    /// A line break drops the whitespace before it.
    fn line_break(&mut self, at: usize) {
        self.spaces.clear();
        self.breaks.push(at);
    }

    fn content(&mut self, c: char, source: Range<usize>) {
        self.separate();
        self.out.push(c, source, false);
    }

    /// Emits what separates the previous content from the next one. That is
    /// the whitespace on the same line, a space for a single line break, or
    /// one newline per empty line. The whitespace that started the new line
    /// is dropped.
    fn separate(&mut self) {
        match self.breaks.as_slice() {
            [] => {
                for (c, at) in self.spaces.drain(..) {
                    self.out.push(c, at..at + 1, false);
                }
            }
            [single] => self.out.push(' ', *single..*single + 1, true),
            [_, empty_lines @ ..] => {
                for &at in empty_lines {
                    self.out.push('\n', at..at + 1, true);
                }
            }
        }
        self.breaks.clear();
        self.spaces.clear();
    }
}

/// Decodes a plain (`quote` is `None`), single-quoted or double-quoted
/// scalar.
fn decode_flow(source: &str, quote: Option<char>) -> Decoded {
    let start = quote.map_or(0, char::len_utf8);
    let mut folder = Folder {
        out: Decoded {
            content_start: start,
            ..Decoded::default()
        },
        spaces: Vec::new(),
        breaks: Vec::new(),
    };
    let mut i = start;
    while let Some(c) = source.get(i..).and_then(|rest| rest.chars().next()) {
        let next = i + c.len_utf8();
        let rest = &source[next..];
        match c {
            '\n' => folder.line_break(i),
            '\r' if rest.starts_with('\n') => {}
            ' ' | '\t' => folder.space(c, i),
            '\'' if quote == Some('\'') && rest.starts_with('\'') => {
                folder.content('\'', i..next + 1);
                i = next + 1;
                continue;
            }
            '\\' if quote == Some('"') => {
                i = decode_escape(source, i, &mut folder);
                continue;
            }
            _ if Some(c) == quote => break,
            _ => folder.content(c, i..next),
        }
        i = next;
    }
    if quote.is_some() {
        folder.separate();
    }
    folder.out
}

/// Decodes the double-quoted escape at `start` (a backslash) and returns
/// the index after it.
fn decode_escape(source: &str, start: usize, folder: &mut Folder) -> usize {
    let after = start + 1;
    let Some(c) = source.get(after..).and_then(|rest| rest.chars().next()) else {
        folder.content('\\', start..after);
        return after;
    };
    let mut end = after + c.len_utf8();
    let decoded = match c {
        '\n' | '\r' => {
            // An escaped line break joins the lines, and drops the
            // indentation of the next one.
            folder.separate();
            let rest = &source[after..];
            let rest = rest.strip_prefix("\r\n").unwrap_or(&rest[1..]);
            let indented = rest.trim_start_matches([' ', '\t']);
            return source.len() - indented.len();
        }
        'x' | 'u' | 'U' => {
            let digits = match c {
                'x' => 2,
                'u' => 4,
                _ => 8,
            };
            let hex: String = source[end..]
                .chars()
                .take(digits)
                .take_while(char::is_ascii_hexdigit)
                .collect();
            end += hex.len();
            u32::from_str_radix(&hex, 16)
                .ok()
                .and_then(char::from_u32)
                .unwrap_or(char::REPLACEMENT_CHARACTER)
        }
        '0' => '\0',
        'a' => '\u{07}',
        'b' => '\u{08}',
        't' | '\t' => '\t',
        'n' => '\n',
        'v' => '\u{0B}',
        'f' => '\u{0C}',
        'r' => '\r',
        'e' => '\u{1B}',
        'N' => '\u{85}',
        '_' => '\u{A0}',
        'L' => '\u{2028}',
        'P' => '\u{2029}',
        other => other, // `\"`, `\\`, `\/`, `\ `, and unknown escapes
    };
    folder.content(decoded, start..end);
    end
}

/// One line of a block scalar's content.
struct BlockLine {
    /// Where the line starts in the source.
    start: usize,
    /// The line, without its line break.
    text: String,
    /// Where its line break is, if it has one.
    line_break: Option<usize>,
}

impl BlockLine {
    fn indentation(&self) -> usize {
        self.text.len() - self.text.trim_start_matches(' ').len()
    }

    fn is_blank(&self) -> bool {
        self.text.trim_start_matches(' ').is_empty()
    }
}

/// Decodes a literal (`|`) or folded (`>`) block scalar.
fn decode_block(source: &str, folded: bool) -> Decoded {
    let header_end = source.find('\n').map_or(source.len(), |at| at + 1);
    let header = source[..header_end].split('#').next().unwrap_or("");
    let chomping = header.chars().find(|c| matches!(c, '-' | '+'));
    let lines = block_lines(source, header_end);
    // The common indentation of the lines with content. YAML takes that of
    // the first one. In a well-formed block, no line with content is less
    // indented.
    let indentation = lines
        .iter()
        .filter(|line| !line.is_blank())
        .map(BlockLine::indentation)
        .min()
        .unwrap_or(0);
    let mut out = Decoded {
        content_start: header_end,
        ..Decoded::default()
    };
    // The break ending the previous line with content, and whether that line
    // was more indented than the others.
    let mut previous: Option<(Option<usize>, bool)> = None;
    let mut empty_lines: Vec<usize> = Vec::new();
    for line in &lines {
        if line.text.len() <= indentation && line.is_blank() {
            empty_lines.extend(line.line_break);
            continue;
        }
        // A less indented line (not well-formed) loses what indentation it has.
        let strip = indentation.min(line.indentation());
        let content = &line.text[strip..];
        let more_indented = content.starts_with([' ', '\t']);
        if let Some((previous_break, previous_more)) = previous {
            let folds = folded && !previous_more && !more_indented;
            match previous_break {
                Some(at) if folds && empty_lines.is_empty() => out.push(' ', at..at + 1, true),
                Some(at) if !folds => out.push('\n', at..at + 1, true),
                _ => {}
            }
        }
        for at in empty_lines.drain(..) {
            out.push('\n', at..at + 1, true);
        }
        let content_start = line.start + strip;
        for (at, c) in content.char_indices() {
            let from = content_start + at;
            out.push(c, from..from + c.len_utf8(), false);
        }
        previous = Some((line.line_break, more_indented));
    }
    let last_break = previous.and_then(|(at, _)| at);
    match chomping {
        Some('-') => {}
        Some(_) => {
            for at in last_break.into_iter().chain(empty_lines) {
                out.push('\n', at..at + 1, true);
            }
        }
        None => {
            if let Some(at) = last_break {
                out.push('\n', at..at + 1, true);
            }
        }
    }
    out
}

/// The lines of `source` from `start`, each without its `\n` or `\r\n`.
fn block_lines(source: &str, start: usize) -> Vec<BlockLine> {
    let mut lines = Vec::new();
    let mut at = start;
    while at < source.len() {
        let rest = &source[at..];
        let (text, line_break, next) = match rest.find('\n') {
            Some(n) => (&rest[..n], Some(at + n), at + n + 1),
            None => (rest, None, source.len()),
        };
        lines.push(BlockLine {
            start: at,
            text: text.strip_suffix('\r').unwrap_or(text).to_string(),
            line_break,
        });
        at = next;
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn eval(text: &str, spec: serde_json::Value) -> Result<bool, String> {
        Constraint::compile(text)
            .map_err(|e| format!("compile error: {e:?}"))?
            .evaluate(&spec)
    }

    fn compile_error(text: &str) -> ExprError {
        match Constraint::compile(text) {
            Ok(_) => panic!("`{text}` compiled"),
            Err(error) => error,
        }
    }

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
    fn kuadrant_predicates_parse() {
        for text in [
            "request.method == 'GET'",
            r#"request.auth.claims["kuadrant.io/groups"].split(",").exists(g, g == "free")"#,
            "request.url_path.matches('^/[^/]+/Index$')",
            "!request.path.startsWith('/grpc.reflection.')",
            "request.headers.exists(h, h.lowerAscii() == 'x-grpc-test' && request.headers[h] == 'true')",
            "auth.identity.userid",
        ] {
            assert_eq!(check_syntax(text), Ok(()), "{text}");
        }
    }

    #[test]
    fn syntax_errors_are_located_in_bytes() {
        let error = compile_error("spec.a > )");
        assert_eq!((error.offset, error.len), (9, 1));
        assert!(
            error.message.starts_with("mismatched input ')'"),
            "{error:?}"
        );

        let text = "spec.a > 1 &&\n  spec.b < )";
        let error = compile_error(text);
        assert_eq!(error.offset, text.rfind(')').unwrap_or_default());

        // The parser counts chars: `é` is one column but two bytes.
        let text = "spec.name == 'héllo wörld' && )";
        let error = check_syntax(text).unwrap_err();
        assert_eq!(error.offset, text.rfind(')').unwrap_or_default());

        let text = "'é'\n+ 'ü' +\n)";
        let error = check_syntax(text).unwrap_err();
        assert_eq!(error.offset, text.rfind(')').unwrap_or_default());
    }

    #[test]
    fn macro_errors_are_located_in_bytes() {
        // The macro errors count bytes, unlike the parser's.
        let text = "'éé' == spec.a || has(1)";
        let error = check_syntax(text).unwrap_err();
        assert_eq!(error.message, "invalid argument to has() macro");
        assert_eq!(error.offset, text.rfind('1').unwrap_or_default());

        let text = "'é' == spec.a || spec.l.exists(x.y, true)";
        let error = check_syntax(text).unwrap_err();
        assert_eq!(error.message, "argument must be a simple name");
        assert_eq!(error.offset, text.find(".y").unwrap_or_default());
    }

    #[test]
    fn an_error_at_the_end_points_at_the_last_token() {
        let error = check_syntax("spec.a +  ").unwrap_err();
        assert_eq!((error.offset, error.len), (7, 1));
        let error = check_syntax("").unwrap_err();
        assert_eq!((error.offset, error.len), (0, 0));
    }

    #[test]
    fn unknown_variables_are_located() {
        let text = "'é' == foo.bar";
        let error = compile_error(text);
        assert_eq!(
            error.message,
            "unknown variable `foo`; constraints can use `spec` and `self`"
        );
        assert_eq!((error.offset, error.len), (8, 3));

        let text = "spec.a.exists(x, x > 1) && x > 2";
        let error = compile_error(text);
        assert_eq!((error.offset, error.len), (text.rfind('x').unwrap_or(0), 1));
    }

    #[test]
    fn unknown_functions_are_located() {
        let text = "spec.a.frobnicate(1) && true";
        let error = compile_error(text);
        assert_eq!(error.message, "unknown function `frobnicate`");
        assert_eq!((error.offset, error.len), (7, 10));

        let text = "'é' == lowerAscii (spec.a)";
        let error = compile_error(text);
        assert_eq!((error.offset, error.len), (8, 10));

        let error = compile_error("spec.a.all(x)");
        assert_eq!(error.message, "wrong arguments for the `all` macro");
        assert_eq!(error.offset, 7);
    }

    #[test]
    fn standard_names_are_accepted() {
        for text in [
            "type(spec.a) == int",
            "type(spec.a) != google.protobuf.Duration",
            "optional.of(spec.a).hasValue()",
            "spec.?a.orValue(1) == 1",
            "int(string(spec.a)) + 1 == uint(2) + 0 ? true : false",
            "timestamp('2024-01-01T00:00:00Z').getFullYear() == 2024",
            "duration('1m') < duration('1h') && 'a' in ['a'] && spec.a.startsWith('x')",
        ] {
            assert!(Constraint::compile(text).is_ok(), "{text}");
        }
        assert_eq!(
            eval(
                "type(spec.a) == int && optional.of(spec.a).hasValue()",
                json!({"a": 1})
            ),
            Ok(true)
        );
    }

    #[test]
    fn size_and_nesting_limits_fail_fast() {
        let started = std::time::Instant::now();
        let huge = "(".repeat(100_000);
        let error = check_syntax(&huge).unwrap_err();
        assert!(error.message.contains("too long"), "{error:?}");
        assert_eq!(error.offset, MAX_EXPRESSION_BYTES);

        let megabyte = format!("spec.a == '{}'", "x".repeat(1 << 20));
        assert!(compile_error(&megabyte).message.contains("too long"));

        let deep = format!("{}spec.a{}", "(".repeat(8000), ")".repeat(100));
        let error = compile_error(&deep);
        assert!(error.message.contains("nests brackets"), "{error:?}");
        assert_eq!((error.offset, error.len), (MAX_NESTING, 1));
        assert!(started.elapsed() < std::time::Duration::from_secs(5));

        let limit = MAX_NESTING;
        let ok = format!("{}spec.a > 1{}", "(".repeat(limit), ")".repeat(limit));
        assert_eq!(eval(&ok, json!({"a": 2})), Ok(true));
        let too_deep = format!(
            "{}spec.a > 1{}",
            "[".repeat(limit + 1),
            "]".repeat(limit + 1)
        );
        assert!(check_syntax(&too_deep).is_err());
        // Brackets in strings and comments don't count.
        let quoted = format!("spec.a == '{}' // {}\n", "(".repeat(100), "[".repeat(100));
        assert!(Constraint::compile(&quoted).is_ok());
    }

    #[test]
    fn long_chains_parse_on_the_worker_and_are_rejected_as_constraints() {
        let chain = format!("1{} == 1", " + 1".repeat(2000));
        assert_eq!(check_syntax(&chain), Ok(()));
        let error = compile_error(&chain);
        assert!(error.message.contains("nested more than"), "{error:?}");
        let members = format!("spec{}", ".a".repeat(4000));
        assert_eq!(check_syntax(&members), Ok(()));
        assert!(Constraint::compile(&members).is_err());
        let ternaries = format!("{}1", "true ? 1 : ".repeat(700));
        assert!(check_syntax(&ternaries).is_err());
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

    /// The list of allowed functions matches what `Env::stdlib` declares: the
    /// context refuses to add a function under a declared name.
    #[test]
    fn allowed_functions_are_declared_by_the_stdlib() {
        let mut context = Context::with_env(Arc::clone(env()));
        for name in ALLOWED_FUNCTIONS
            .iter()
            .filter(|name| name.chars().next().is_some_and(char::is_alphabetic))
        {
            assert!(
                context.add_function(name, |a: i64| a).is_err(),
                "`{name}` is not declared"
            );
        }
        for name in ["lowerAscii", "split", "replace", "greatest", "max"] {
            assert!(context.add_function(name, |a: i64| a).is_ok(), "{name}");
        }
    }

    #[test]
    fn error_ranges_are_char_boundaries_within_the_text() {
        let texts = [
            "é",
            "éé + )",
            "'é' +",
            "\"unterminated é",
            "a ⊕ b",
            "x ? ",
            "{'é': }",
            "é\n\né)",
            "has(é)",
            "[1].all(é, 1)",
            "spec.é",
            "'\\xzz'",
            "1 +\n",
            "\u{10FFFF}(",
        ];
        for text in texts {
            for error in [check_syntax(text).err(), Constraint::compile(text).err()]
                .into_iter()
                .flatten()
            {
                assert!(text.is_char_boundary(error.offset), "{text:?} {error:?}");
                let end = error.offset + error.len;
                assert!(
                    end <= text.len() && text.is_char_boundary(end),
                    "{text:?} {error:?}"
                );
                assert!(error.len >= 1, "{text:?} {error:?}");
            }
        }
    }

    #[test]
    fn regex_matches_are_charged() {
        let text = vec!["spec.s.matches('^a+$')"; 60].join(" && ");
        let result = eval(&text, json!({"s": "aaa"}));
        assert!(result.unwrap_err().contains("steps"));
        let text = vec!["spec.s.matches('^a+$')"; 40].join(" && ");
        assert_eq!(eval(&text, json!({"s": "aaa"})), Ok(true));
    }

    #[test]
    fn hostile_inputs_neither_crash_nor_hang() {
        let fill = |prefix: &str, unit: &str, suffix: &str| {
            let room = MAX_EXPRESSION_BYTES - prefix.len() - suffix.len();
            format!("{prefix}{}{suffix}", unit.repeat(room / unit.len()))
        };
        let open = "(".repeat(MAX_NESTING);
        let close = ")".repeat(MAX_NESTING);
        let inputs = [
            fill(&format!("{open}1"), "+1", &close),
            fill("spec", ".a", ""),
            fill("spec", "[0]", ""),
            fill("spec", ".f()", ""),
            fill("", "-", "1"),
            fill("", "!", "true"),
            fill("1", " < 1", ""),
            fill("", "true ? 1 : ", "1"),
            fill("", "1 +", ""),
            fill("", ")", ""),
            fill("", "é", ""),
            fill("", "'", ""),
            fill("", "[1, ", ""),
            format!("{}spec{}", "[spec, {'a': ".repeat(16), "}]".repeat(16)),
            format!(
                "{}true{}",
                "spec.l.exists(x, ".repeat(MAX_NESTING),
                ")".repeat(MAX_NESTING)
            ),
        ];
        for text in &inputs {
            assert!(text.len() <= MAX_EXPRESSION_BYTES);
            let started = std::time::Instant::now();
            let _ = check_syntax(text);
            if let Ok(constraint) = Constraint::compile(text) {
                let _ = constraint.evaluate(&json!({"a": 1, "l": [1, 2, 3]}));
            }
            let elapsed = started.elapsed();
            assert!(
                elapsed < std::time::Duration::from_secs(20),
                "{elapsed:?} for {}",
                &text[..40]
            );
        }
    }

    #[test]
    fn constraints_can_be_shared_between_threads() {
        fn shareable<T: Send + Sync>() {}
        shareable::<Constraint>();
    }

    #[test]
    fn scalar_mapping_never_panics() {
        let sources = [
            "",
            "'",
            "\"",
            "|",
            ">",
            "|\n",
            "'é''",
            "\"\\",
            "\"\\u",
            "\"\\\n",
            "é\n é",
            "|\n    é\n  ü\né\n",
            ">+\n\n  a\n\n",
            "|-\r\n é\r\n",
            "\"é\\\r\n  b\"",
            "'a\n\n\n b '",
            "plain  \t\n\t x",
            ">\n  a\n    b\n  c",
        ];
        for source in sources {
            let value_len = decoded(source).len();
            for offset in 0..value_len + 3 {
                let mapped = value_offset_to_source(source, offset);
                assert!(mapped <= source.len(), "{source:?} {offset}");
                assert!(source.is_char_boundary(mapped), "{source:?} {offset}");
            }
        }
    }

    fn decoded(source: &str) -> String {
        decode_scalar(source).value
    }

    #[test]
    fn plain_scalars_fold_lines() {
        let source = "spec.a >\n    1 +";
        assert_eq!(decoded(source), "spec.a > 1 +");
        assert_eq!(value_offset_to_source(source, 3), 3);
        assert_eq!(value_offset_to_source(source, 8), 8);
        assert_eq!(value_offset_to_source(source, 9), 13);
        assert_eq!(value_offset_to_source(source, 11), 15);
        assert_eq!(value_offset_to_source(source, 12), 16);
        assert_eq!(value_offset_to_source(source, 99), 16);
        let source = "a\n\n  b  \n";
        assert_eq!(decoded(source), "a\nb");
        assert_eq!(value_offset_to_source(source, 2), 5);
    }

    #[test]
    fn single_quoted_scalars_unescape_quotes() {
        assert_eq!(decoded("'it''s'"), "it's");
        assert_eq!(value_offset_to_source("'it''s'", 3), 5);
        assert_eq!(value_offset_to_source("'it''s'", 2), 3);
        assert_eq!(value_offset_to_source("'it''s'", 4), 6);
        assert_eq!(decoded("'a\n   b  '"), "a b  ");
        assert_eq!(value_offset_to_source("''", 0), 1);
    }

    #[test]
    fn double_quoted_scalars_unescape() {
        let source = "\"a\\u00e9b\"";
        assert_eq!(decoded(source), "aéb");
        assert_eq!(value_offset_to_source(source, 1), 2);
        assert_eq!(value_offset_to_source(source, 3), 8);
        assert_eq!(decoded(r#""a \"b\" \u00e9 c""#), "a \"b\" é c");
        assert_eq!(
            decoded(r#""\\ \/ \n\t\r\0\a\b\e\f\v\N\_\L\P\x41\U0001F600\q""#),
            "\\ / \n\t\r\0\u{7}\u{8}\u{1b}\u{c}\u{b}\u{85}\u{a0}\u{2028}\u{2029}A😀q"
        );
        let source = "\"spec.a >  \\\n    1 + \n\n  2\"";
        assert_eq!(decoded(source), "spec.a >  1 +\n2");
        assert_eq!(
            value_offset_to_source(source, 10),
            source.find('1').unwrap_or(0)
        );
        assert_eq!(decoded("\"\\u12\""), "\u{12}");
        assert_eq!(decoded("\"\\uZZ\\"), "\u{FFFD}ZZ\\");
    }

    #[test]
    fn literal_blocks_keep_lines() {
        let source = "|\n  spec.a >\n  (1 +\n";
        assert_eq!(decoded(source), "spec.a >\n(1 +\n");
        assert_eq!(
            value_offset_to_source(source, 9),
            source.find('(').unwrap_or(0)
        );
        assert_eq!(value_offset_to_source(source, 0), 4);
        assert_eq!(value_offset_to_source(source, 14), 19);
        assert_eq!(value_offset_to_source(source, 99), 19);
        let source = "|-\n    a\n      b\n\n    c\n\n";
        assert_eq!(decoded(source), "a\n  b\n\nc");
        assert_eq!(
            value_offset_to_source(source, 4),
            source.find('b').unwrap_or(0)
        );
        assert_eq!(decoded("|+ # keep\n  a\n\n"), "a\n\n");
        assert_eq!(decoded("|2\n   a\n  b\n"), " a\nb\n");
        assert_eq!(decoded("|\r\n  a\r\n  b"), "a\nb");
    }

    #[test]
    fn folded_blocks_fold_lines() {
        let source = ">\n  spec.a >\n  1 +\n\n  2\n     more\n  3\n";
        assert_eq!(decoded(source), "spec.a > 1 +\n2\n   more\n3\n");
        assert_eq!(
            value_offset_to_source(source, 9),
            source.find('1').unwrap_or(0)
        );
        assert_eq!(
            value_offset_to_source(source, 13),
            source.find('2').unwrap_or(0)
        );
        assert_eq!(decoded(">-\n  a\n  b\n"), "a b");
    }
}
