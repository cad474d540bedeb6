//! The functions Kubernetes adds to CEL for CRD rules, as far as dopol implements them, and
//! the per-thread evaluation context and budget.
//!
//! Implemented (Kubernetes `k8s.io/apiserver/pkg/cel/library` and cel-go `ext`):
//! - the quantity library (`quantity.go`): `quantity`, `isQuantity`, and on a quantity
//!   `isGreaterThan`, `isLessThan`, `compareTo`, `sign`, `isInteger`, `asInteger`,
//!   `asApproximateFloat`, `add`, `sub` (with a quantity or an int);
//! - cel-go's string extension, the part CRD rules use: `lowerAscii`, `upperAscii`, `trim`,
//!   `split` (Go `strings.Split` / `strings.SplitN`), `join`;
//! - `matches` (the standard function, RE2 syntax via the `regex` crate), with compiled
//!   patterns cached per thread.
//!
//! Any other Kubernetes library function (lists, regex `find`, url, ip, cidr, format, ...)
//! makes a rule "not evaluated": [`KNOWN_UNIMPLEMENTED`] names their library.

use super::quantity::Quantity;
use ::cel::common::ast::{CallExpr, Expr, IdedExpr};
use ::cel::extractors::{Arguments, This};
use ::cel::{Context, Env, ExecutionError, ResolveResult, Value};
use regex::{Regex, RegexBuilder};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

/// The function the budget is charged through (no rule can name it: `@` starts no identifier).
pub(crate) use crate::expr::STEP_FUNCTION;
/// What `matches` is rewritten to: `@dopol_matches(text, pattern)`.
pub const MATCHES_FUNCTION: &str = "@dopol_matches";
/// Marks an error whose message is Kubernetes' text verbatim.
pub const K8S_ERROR: &str = "@k8s";

/// What compiling a regular expression costs from the budget (a cached one costs one step per
/// 256 bytes of text matched).
pub const REGEX_COMPILE_STEPS: usize = 2_000;
/// The compiled-program size limit of a pattern (the `regex` crate's default is 10 MiB).
const REGEX_SIZE_LIMIT: usize = 4 << 20;
/// How many compiled patterns each thread keeps.
const REGEX_CACHE_ENTRIES: usize = 64;

/// The functions dopol registers, beyond the standard library.
pub const IMPLEMENTED: &[&str] = &[
    "quantity",
    "isQuantity",
    "isGreaterThan",
    "isLessThan",
    "compareTo",
    "sign",
    "isInteger",
    "asInteger",
    "asApproximateFloat",
    "add",
    "sub",
    "lowerAscii",
    "upperAscii",
    "trim",
    "split",
    "join",
    "indexOf",
    "lastIndexOf",
];

/// Kubernetes CEL functions dopol does not implement, with their library.
pub const KNOWN_UNIMPLEMENTED: &[(&str, &str)] = &[
    ("isSorted", "list"),
    ("sum", "list"),
    ("min", "list"),
    ("max", "list"),
    ("find", "regex"),
    ("findAll", "regex"),
    ("url", "URL"),
    ("isURL", "URL"),
    ("getScheme", "URL"),
    ("getHost", "URL"),
    ("getHostname", "URL"),
    ("getPort", "URL"),
    ("getEscapedPath", "URL"),
    ("getQuery", "URL"),
    ("ip", "IP"),
    ("isIP", "IP"),
    ("cidr", "CIDR"),
    ("isCIDR", "CIDR"),
    ("format", "format / strings"),
    ("charAt", "strings"),
    ("replace", "strings"),
    ("substring", "strings"),
    ("reverse", "strings"),
    ("quote", "strings"),
    ("semver", "semver"),
    ("isSemver", "semver"),
    ("authorizer", "authz"),
    ("sets.contains", "sets"),
    ("sets.equivalent", "sets"),
    ("sets.intersects", "sets"),
];

/// The environment every rule is parsed and run with: the CEL standard library, its macros
/// and optional values.
pub fn env() -> &'static Arc<Env> {
    static ENV: OnceLock<Arc<Env>> = OnceLock::new();
    ENV.get_or_init(|| Arc::new(Env::stdlib()))
}

thread_local! {
    /// This thread's root context: the functions above, registered once.
    static ROOT: Result<Context<'static, 'static>, String> = root_context();
    static REMAINING: Cell<usize> = const { Cell::new(0) };
    static EXCEEDED: Cell<bool> = const { Cell::new(false) };
    static REGEXES: RefCell<HashMap<String, Result<Regex, String>>> = RefCell::new(HashMap::new());
}

/// Runs `job` with this thread's root context (an error when it could not be built).
pub fn with_root<T>(job: impl FnOnce(&Context<'static, 'static>) -> T) -> Result<T, String> {
    ROOT.with(|root| root.as_ref().map(job).map_err(Clone::clone))
}

/// Starts a budget of `steps` for the next evaluation on this thread.
pub fn start_budget(steps: usize) {
    REMAINING.with(|r| r.set(steps));
    EXCEEDED.with(|e| e.set(false));
}

/// Whether the evaluation ran out of budget.
pub fn budget_exceeded() -> bool {
    EXCEEDED.with(Cell::get)
}

/// Takes `cost` steps from this thread's budget; an error once it is exhausted.
pub(super) fn charge(cost: usize) -> Result<(), ExecutionError> {
    let remaining = REMAINING.with(Cell::get);
    if cost > remaining {
        REMAINING.with(|r| r.set(0));
        EXCEEDED.with(|e| e.set(true));
        return Err(ExecutionError::function_error(
            STEP_FUNCTION,
            "evaluation budget exceeded",
        ));
    }
    REMAINING.with(|r| r.set(remaining - cost));
    Ok(())
}

fn k8s_error(message: impl ToString) -> ExecutionError {
    ExecutionError::function_error(K8S_ERROR, message)
}

fn root_context() -> Result<Context<'static, 'static>, String> {
    let mut context = Context::with_env(Arc::clone(env()));
    let declared = |e: ::cel::DeclarationError| format!("internal error: {e}");
    context
        .add_function(STEP_FUNCTION, |cost: i64| {
            charge(usize::try_from(cost).unwrap_or(usize::MAX)).map(|()| Value::Bool(true))
        })
        .map_err(declared)?;
    context
        .add_function(MATCHES_FUNCTION, matches)
        .map_err(declared)?;
    context
        .add_function("quantity", |s: Arc<String>| -> ResolveResult {
            Quantity::parse(&s)
                .map(|q| Value::Opaque(Arc::new(q)))
                .map_err(k8s_error)
        })
        .map_err(declared)?;
    context
        .add_function("isQuantity", |s: Arc<String>| Quantity::parse(&s).is_ok())
        .map_err(declared)?;
    context
        .add_function("isGreaterThan", |This(a): This<Value>, b: Value| {
            Ok::<_, ExecutionError>(
                quantity(&a)?.compare(quantity(&b)?) == std::cmp::Ordering::Greater,
            )
        })
        .map_err(declared)?;
    context
        .add_function("isLessThan", |This(a): This<Value>, b: Value| {
            Ok::<_, ExecutionError>(
                quantity(&a)?.compare(quantity(&b)?) == std::cmp::Ordering::Less,
            )
        })
        .map_err(declared)?;
    context
        .add_function("compareTo", |This(a): This<Value>, b: Value| {
            Ok::<_, ExecutionError>(quantity(&a)?.compare(quantity(&b)?) as i64)
        })
        .map_err(declared)?;
    context
        .add_function("sign", |This(a): This<Value>| {
            Ok::<_, ExecutionError>(quantity(&a)?.sign())
        })
        .map_err(declared)?;
    context
        .add_function("isInteger", |This(a): This<Value>| {
            Ok::<_, ExecutionError>(quantity(&a)?.is_integer())
        })
        .map_err(declared)?;
    context
        .add_function("asInteger", |This(a): This<Value>| {
            quantity(&a)?
                .as_i64()
                .ok_or_else(|| k8s_error("cannot convert value to integer"))
        })
        .map_err(declared)?;
    context
        .add_function("asApproximateFloat", |This(a): This<Value>| {
            Ok::<_, ExecutionError>(quantity(&a)?.as_f64())
        })
        .map_err(declared)?;
    context
        .add_function("add", |This(a): This<Value>, b: Value| {
            arithmetic(&a, &b, false)
        })
        .map_err(declared)?;
    context
        .add_function("sub", |This(a): This<Value>, b: Value| {
            arithmetic(&a, &b, true)
        })
        .map_err(declared)?;
    context
        .add_function("lowerAscii", |This(s): This<Arc<String>>| {
            s.to_ascii_lowercase()
        })
        .map_err(declared)?;
    context
        .add_function("upperAscii", |This(s): This<Arc<String>>| {
            s.to_ascii_uppercase()
        })
        .map_err(declared)?;
    context
        .add_function("trim", |This(s): This<Arc<String>>| s.trim().to_string())
        .map_err(declared)?;
    context.add_function("split", split).map_err(declared)?;
    context.add_function("join", join).map_err(declared)?;
    context
        .add_function(
            "indexOf",
            |This(this): This<Value>, Arguments(args): Arguments| index_of(&this, &args, false),
        )
        .map_err(declared)?;
    context
        .add_function(
            "lastIndexOf",
            |This(this): This<Value>, Arguments(args): Arguments| index_of(&this, &args, true),
        )
        .map_err(declared)?;
    Ok(context)
}

fn quantity(value: &Value) -> Result<&Quantity, ExecutionError> {
    match value {
        Value::Opaque(o) => o.downcast_ref::<Quantity>().ok_or_else(no_overload),
        _ => Err(no_overload()),
    }
}

fn no_overload() -> ExecutionError {
    k8s_error("no such overload")
}

fn arithmetic(a: &Value, b: &Value, subtract: bool) -> ResolveResult {
    let a = quantity(a)?;
    let b = match b {
        Value::Int(i) => Quantity::from_i64(*i),
        other => quantity(other)?.clone(),
    };
    let b = if subtract { b.negated() } else { b };
    a.add(&b)
        .map(|q| Value::Opaque(Arc::new(q)))
        .map_err(k8s_error)
}

/// `text.matches(pattern)`: RE2 syntax, unanchored; patterns compiled once per thread.
fn matches(text: Arc<String>, pattern: Arc<String>) -> ResolveResult {
    regex_matches(&text, &pattern).map(Value::Bool)
}

/// Whether `pattern` matches somewhere in `text`, charged to the budget.
pub(super) fn regex_matches(text: &str, pattern: &str) -> Result<bool, ExecutionError> {
    REGEXES.with(|cache| {
        let mut cache = cache.borrow_mut();
        if !cache.contains_key(pattern) {
            charge(REGEX_COMPILE_STEPS)?;
            if cache.len() >= REGEX_CACHE_ENTRIES {
                cache.clear();
            }
            let compiled = RegexBuilder::new(pattern)
                .size_limit(REGEX_SIZE_LIMIT)
                .build()
                .map_err(|e| format!("error parsing regexp: {e}"));
            cache.insert(pattern.to_string(), compiled);
        }
        charge(1 + text.len() / 256)?;
        match cache.get(pattern) {
            Some(Ok(regex)) => Ok(regex.is_match(text)),
            Some(Err(error)) => Err(k8s_error(error)),
            None => Err(k8s_error("internal error: regex cache")),
        }
    })
}

fn string_arg(value: Option<&Value>) -> Result<&str, ExecutionError> {
    match value {
        Some(Value::String(s)) => Ok(s),
        _ => Err(no_overload()),
    }
}

/// cel-go `split`: Go `strings.Split(s, sep)`, or `strings.SplitN(s, sep, n)`.
fn split(This(this): This<Arc<String>>, Arguments(args): Arguments) -> ResolveResult {
    let separator = string_arg(args.first())?;
    let limit = match args.get(1) {
        None => -1,
        Some(Value::Int(n)) => *n,
        Some(_) => return Err(no_overload()),
    };
    if args.len() > 2 || limit == 0 {
        return if args.len() > 2 {
            Err(no_overload())
        } else {
            Ok(Value::List(Arc::new(Vec::new())))
        };
    }
    let parts: Vec<Value> = if separator.is_empty() {
        // Go explodes into UTF-8 sequences, the last part keeping the rest.
        let chars: Vec<&str> = this
            .char_indices()
            .map(|(i, c)| &this[i..i + c.len_utf8()])
            .collect();
        let n = if limit < 0 {
            chars.len()
        } else {
            chars
                .len()
                .min(usize::try_from(limit).unwrap_or(usize::MAX))
        };
        let mut parts: Vec<Value> = chars[..n.saturating_sub(1)]
            .iter()
            .map(|s| Value::from(*s))
            .collect();
        if n > 0 {
            let start: usize = chars[..n - 1].iter().map(|s| s.len()).sum();
            parts.push(Value::from(&this[start..]));
        }
        parts
    } else if limit < 0 {
        this.split(separator).map(Value::from).collect()
    } else {
        this.splitn(usize::try_from(limit).unwrap_or(usize::MAX), separator)
            .map(Value::from)
            .collect()
    };
    Ok(Value::List(Arc::new(parts)))
}

/// cel-go `indexOf`/`lastIndexOf` (`last`): on a string (strings library: the code-point index
/// of the first or last occurrence of a substring, searching from or back from an optional
/// code-point offset; an empty substring is found at the offset, or at the end), or on a list
/// (lists library: the index of the first or last equal element); -1 when absent.
fn index_of(this: &Value, args: &[Value], last: bool) -> ResolveResult {
    let found = |i: Option<usize>| Value::Int(i.map_or(-1, |i| i as i64));
    match (this, args) {
        (Value::List(items), [needle]) => {
            let mut equal = items.iter().enumerate().filter(|(_, v)| *v == needle);
            Ok(found(
                if last {
                    equal.next_back()
                } else {
                    equal.next()
                }
                .map(|(i, _)| i),
            ))
        }
        (Value::String(text), [Value::String(needle), rest @ ..]) if rest.len() <= 1 => {
            let chars: Vec<char> = text.chars().collect();
            let needle: Vec<char> = needle.chars().collect();
            let offset = match rest.first() {
                None if last => chars.len(),
                None => 0,
                Some(Value::Int(n)) => usize::try_from(*n)
                    .ok()
                    .filter(|n| *n <= chars.len())
                    .ok_or_else(|| k8s_error("index out of range"))?,
                Some(_) => return Err(no_overload()),
            };
            let at = |i: &usize| chars[*i..].starts_with(&needle);
            let position = if last {
                let top = offset.min(chars.len().saturating_sub(needle.len()));
                (needle.len() <= chars.len())
                    .then(|| (0..=top).rev().find(at))
                    .flatten()
            } else {
                (offset..=chars.len()).find(|i| chars.len() - i >= needle.len() && at(i))
            };
            Ok(found(position))
        }
        _ => Err(no_overload()),
    }
}

/// cel-go `join`: `list.join()` or `list.join(separator)`.
fn join(This(this): This<Arc<Vec<Value>>>, Arguments(args): Arguments) -> ResolveResult {
    let separator = match args.first() {
        None => "",
        some => string_arg(some)?,
    };
    let parts = this
        .iter()
        .map(|v| string_arg(Some(v)))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(parts.join(separator).into())
}

/// Which standard conversion [`parse_with_cel`] runs.
#[derive(Clone, Copy)]
pub enum ParseAs {
    /// `duration(s)`.
    Duration,
    /// `timestamp(s)`.
    Timestamp,
}

/// `duration(s)` or `timestamp(s)` through the standard library (dopol cannot build those
/// values itself); `None` when `s` does not parse.
pub fn parse_with_cel(kind: ParseAs, text: &str) -> Option<Value> {
    let call = IdedExpr {
        id: 0,
        expr: Expr::Call(CallExpr {
            func_name: match kind {
                ParseAs::Duration => "duration",
                ParseAs::Timestamp => "timestamp",
            }
            .to_string(),
            target: None,
            args: vec![IdedExpr {
                id: 0,
                expr: Expr::Literal(::cel::common::ast::LiteralValue::String(
                    text.to_string().into(),
                )),
            }],
        }),
    };
    with_root(|root| Value::resolve(&call, root).ok())
        .ok()
        .flatten()
}
