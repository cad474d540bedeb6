//! Three-valued evaluation of Kuadrant request-time CEL (`dopol request`, docs/semantics.md#95-three-valued-conditions).
//!
//! Offline, a request has only the attributes the user gave: `auth.identity.userid` is usually
//! not among them. Plain CEL would fail on the first unbound variable; a predicate such as
//! `request.method == 'GET' && auth.identity.userid != ''` is still decidable for a `POST`.
//! So the tree is walked here in Kleene logic: `&&`, `||`, `!` and `?:` combine their operands'
//! truths (`false && u` is false, `true || u` true, `!u` unknown), and every other
//! subexpression is evaluated by `cel` only when every attribute it reads was supplied, else it
//! is unknown and *needs* those attributes (listed as written: `auth.identity.userid`).
//!
//! An attribute is supplied when its path exists in the attribute tree. A missing key is
//! unknown, even beside supplied siblings (docs/semantics.md#94-attributes), except inside `request.headers`: the request's
//! headers are all known, so an absent header is an evaluation error, as on the data plane.
//! Evaluation errors (and a non-bool predicate) are unknown too, with `error` set. A supplied
//! map used whole (`size(auth.identity)`, a comprehension over it) is taken as given: dopol
//! cannot tell which of its keys the user left out.
//!
//! Safety: the same guards as constraints ([`crate::expr`]): text limits before parsing, the
//! large-stack worker threads, the constraint checker's tree depth / comprehension nesting /
//! variable-use limits (with any name allowed), and
//! the evaluation budget charged by comprehension steps and regex matches. The wasm-shim string
//! functions are re-implemented here with the wasm-shim's semantics (`Kuadrant/wasm-shim`
//! `src/data/cel/strings.rs`) because the `cel` crate's `strings` extension has no size limit
//! (`s.replace('a', s)` grows exponentially when chained); ours fail beyond
//! [`MAX_STRING_BYTES`]. All ten (`charAt`, `indexOf`, `join`, `lastIndexOf`, `lowerAscii`,
//! `upperAscii`, `trim`, `replace`, `split`, `substring`) are registered, for both
//! evaluators: Authorino's cel-go string extension counts indices in code points where the
//! wasm-shim counts `indexOf`/`lastIndexOf` offsets in bytes, so results differ for non-ASCII
//! strings only.

use crate::diag::over_limit;
use crate::expr::{
    ATTRIBUTE_ROOTS, Budget, MAX_EVALUATION_STEPS, STEP_FUNCTION, check_request, check_text_limits,
    env, json_to_cel, out_of_steps, parse,
};
use crate::platform::deep;
use cel::common::ast::{EntryExpr, Expr, IdedExpr, LiteralValue};
use cel::extractors::{Arguments, This};
use cel::{Context, ExecutionError, ResolveResult, Value};
use serde_json::{Map, Value as Json};
use std::sync::Arc;

/// The largest string or list a string function may build, in bytes (`cel-string-bytes`).
pub const MAX_STRING_BYTES: usize = 1 << 20;

/// Who evaluates an expression on the data plane: the bindings differ slightly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evaluator {
    /// The wasm-shim (`cel` crate): top-level predicates, limit predicates, counters.
    /// `request.user_agent` is null there.
    WasmShim,
    /// Authorino (cel-go): AuthPolicy per-rule `when`. `request.url_path` is percent-decoded
    /// and `request.user_agent` is the `user-agent` header.
    Authorino,
}

/// The result of a three-valued evaluation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcome<T> {
    /// The value, when known.
    pub value: Option<T>,
    /// Unsupplied attributes the value depends on, as written, sorted and unique.
    pub needs: Vec<String>,
    /// Why the value could not be computed (compile or evaluation error).
    pub error: Option<String>,
    /// Every attribute path the expression reads, supplied or not, as written.
    pub reads: Vec<String>,
}

impl<T> Outcome<T> {
    fn failed(error: String) -> Outcome<T> {
        Outcome {
            value: None,
            needs: Vec::new(),
            error: Some(error),
            reads: Vec::new(),
        }
    }
}

/// Evaluates a predicate (`when: [{predicate}]`): a bool, or unknown.
pub fn predicate(
    text: &str,
    attributes: &Map<String, Json>,
    evaluator: Evaluator,
) -> Outcome<bool> {
    evaluate(text, attributes, evaluator, |value| match value {
        Value::Bool(b) => Ok(b),
        other => Err(format!(
            "the predicate returned a {} value, not a bool",
            other.type_of()
        )),
    })
}

/// Evaluates a counter (`counters: [{expression}]`) into the descriptor value the wasm-shim
/// (≥ 0.13) sends: the expression wrapped in `string(...)`. A string is sent as is, an int or
/// a double printed; anything else makes `string()` fail (docs/semantics.md#96-which-policy-rules-apply).
pub fn counter(text: &str, attributes: &Map<String, Json>) -> Outcome<String> {
    evaluate(text, attributes, Evaluator::WasmShim, |value| match value {
        Value::String(s) => Ok(s.to_string()),
        Value::Int(i) => Ok(i.to_string()),
        Value::UInt(u) => Ok(u.to_string()),
        Value::Float(f) => Ok(f.to_string()),
        other => Err(format!(
            "the counter is a {} value, which string() rejects: the limit's action fails \
             and its failure mode decides",
            other.type_of()
        )),
    })
}

/// Parses, prepares and walks `text` on the worker threads; `finish` turns the final value
/// into `T`.
fn evaluate<T: Send>(
    text: &str,
    attributes: &Map<String, Json>,
    evaluator: Evaluator,
    finish: fn(Value) -> Result<T, String>,
) -> Outcome<T> {
    if let Err(error) = check_text_limits(text) {
        return Outcome::failed(format!("does not compile: {error}"));
    }
    deep(|| evaluate_here(text, attributes, evaluator, finish)).unwrap_or_else(Outcome::failed)
}

fn evaluate_here<T>(
    text: &str,
    attributes: &Map<String, Json>,
    evaluator: Evaluator,
    finish: fn(Value) -> Result<T, String>,
) -> Outcome<T> {
    let (mut expr, info) = match parse(text) {
        Ok(parsed) => parsed,
        Err(error) => return Outcome::failed(format!("does not compile: {error}")),
    };
    if let Err(error) = check_request(text, &info, &mut expr) {
        return Outcome::failed(format!("rejected: {}", error.message));
    }
    let tree = bindings(attributes, evaluator);
    let budget = Arc::new(Budget::new(MAX_EVALUATION_STEPS));
    let context = match context(&tree, &budget) {
        Ok(context) => context,
        Err(error) => return Outcome::failed(error),
    };
    let walker = Walker {
        context: &context,
        tree: &tree,
        budget: &budget,
    };
    let mut reads = Vec::new();
    references(&expr, &mut Vec::new(), &mut reads);
    let mut reads: Vec<String> = reads.iter().map(Reference::render).collect();
    reads.sort();
    reads.dedup();
    let (value, needs, error) = match walker.value(&expr).map(finish) {
        Ok(Ok(value)) => (Some(value), Vec::new(), None),
        Ok(Err(error)) => (None, Vec::new(), Some(error)),
        Err(unknown) => (None, unknown.needs, unknown.error),
    };
    Outcome {
        value,
        needs,
        error,
        reads,
    }
}

/// The attribute tree as `evaluator` sees it.
fn bindings(attributes: &Map<String, Json>, evaluator: Evaluator) -> Map<String, Json> {
    let mut tree = attributes.clone();
    if let Some(Json::Object(request)) = tree.get_mut("request") {
        match evaluator {
            Evaluator::WasmShim => {
                request.insert("user_agent".into(), Json::Null);
            }
            Evaluator::Authorino => {
                if let Some(agent) = request.get("useragent").cloned() {
                    request.entry("user_agent").or_insert(agent);
                }
                if let Some(Json::String(path)) = request.get_mut("url_path") {
                    *path = percent_decode(path);
                }
            }
        }
    }
    tree
}

/// Go's `url.Parse` path unescaping: `%XX` decoded, `+` kept; an invalid escape (where Go's
/// parse fails) leaves the path as written.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&byte) = bytes.get(i) {
        if byte != b'%' {
            out.push(byte);
            i += 1;
            continue;
        }
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok());
        match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
            Some(decoded) => out.push(decoded),
            None => return text.to_string(),
        }
        i += 3;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A `cel` context with the attribute roots bound, the string functions and the budget.
fn context<'a>(tree: &Map<String, Json>, budget: &Arc<Budget>) -> Result<Context<'a, 'a>, String> {
    let mut context = Context::with_env(Arc::clone(env()));
    let meter = Arc::clone(budget);
    let declared = |error: cel::DeclarationError| format!("internal error: {error}");
    context
        .add_function(STEP_FUNCTION, move |cost: i64| meter.charge(cost))
        .map_err(declared)?;
    register_strings(&mut context).map_err(declared)?;
    for (root, value) in tree {
        context.add_variable_from_value(root.as_str(), json_to_cel(value));
    }
    Ok(context)
}

/// Why a value is unknown.
#[derive(Debug, Default)]
struct Unknown {
    needs: Vec<String>,
    error: Option<String>,
}

impl Unknown {
    fn error(message: String) -> Unknown {
        Unknown {
            needs: Vec::new(),
            error: Some(message),
        }
    }

    /// Both reasons: the needs of both, the first error.
    fn merge(mut self, other: Unknown) -> Unknown {
        self.needs.extend(other.needs);
        self.needs.sort();
        self.needs.dedup();
        self.error = self.error.or(other.error);
        self
    }
}

type Truth = Result<bool, Unknown>;

/// Kleene AND of two truths.
fn and(left: Truth, right: Truth) -> Truth {
    match (left, right) {
        (Ok(false), _) | (_, Ok(false)) => Ok(false),
        (Ok(true), Ok(true)) => Ok(true),
        (Err(a), Err(b)) => Err(a.merge(b)),
        (Err(u), _) | (_, Err(u)) => Err(u),
    }
}

/// Kleene NOT.
fn not(truth: Truth) -> Truth {
    truth.map(|b| !b)
}

/// Walks the tree in Kleene logic, handing the other subexpressions to `cel`.
struct Walker<'w, 'c> {
    context: &'w Context<'c, 'c>,
    tree: &'w Map<String, Json>,
    budget: &'w Budget,
}

impl Walker<'_, '_> {
    fn value(&self, expr: &IdedExpr) -> Result<Value, Unknown> {
        let Expr::Call(call) = &expr.expr else {
            return self.leaf(expr);
        };
        if call.target.is_some() {
            return self.leaf(expr);
        }
        match (call.func_name.as_str(), call.args.as_slice()) {
            ("_&&_", [l, r]) => and(self.truth(l), self.truth(r)).map(Value::Bool),
            ("_||_", [l, r]) => not(and(not(self.truth(l)), not(self.truth(r)))).map(Value::Bool),
            ("!_", [operand]) => not(self.truth(operand)).map(Value::Bool),
            ("_?_:_", [condition, then, otherwise]) => match self.truth(condition)? {
                true => self.value(then),
                false => self.value(otherwise),
            },
            _ => self.leaf(expr),
        }
    }

    fn truth(&self, expr: &IdedExpr) -> Truth {
        match self.value(expr)? {
            Value::Bool(b) => Ok(b),
            other => Err(Unknown::error(format!(
                "a {} value where a bool is needed (no matching overload)",
                other.type_of()
            ))),
        }
    }

    /// A subexpression outside Kleene logic: unknown if it reads an unsupplied attribute,
    /// else `cel`'s value.
    fn leaf(&self, expr: &IdedExpr) -> Result<Value, Unknown> {
        let mut found = Vec::new();
        references(expr, &mut Vec::new(), &mut found);
        let mut needs: Vec<String> = found
            .iter()
            .filter(|r| !r.is_supplied(self.tree))
            .map(Reference::render)
            .collect();
        if !needs.is_empty() {
            needs.sort();
            needs.dedup();
            return Err(Unknown { needs, error: None });
        }
        let result = Value::resolve(expr, self.context);
        if self.budget.exceeded() {
            return Err(Unknown::error(out_of_steps()));
        }
        result.map_err(|error| Unknown::error(error.to_string()))
    }
}

/// One step of an attribute path.
#[derive(Debug)]
enum Segment {
    /// `.name` (or `.?name`).
    Field(String),
    /// `['key']`.
    Key(String),
    /// `[0]`.
    Index(i64),
}

/// An attribute path read by an expression: a root identifier and literal selections.
#[derive(Debug)]
struct Reference {
    root: String,
    path: Vec<Segment>,
}

impl Reference {
    /// As written: `auth.identity.userid`, `request.headers['x-team']`.
    fn render(&self) -> String {
        let mut text = self.root.clone();
        for segment in &self.path {
            match segment {
                Segment::Field(name) => text.push_str(&format!(".{name}")),
                Segment::Key(key) => text.push_str(&format!("[{key:?}]").replace('"', "'")),
                Segment::Index(i) => text.push_str(&format!("[{i}]")),
            }
        }
        text
    }

    /// Whether the path exists in the tree. Selecting into a scalar, a list or a complete map
    /// (`request.headers`) counts as supplied: `cel` then reports the error the data plane
    /// would.
    fn is_supplied(&self, tree: &Map<String, Json>) -> bool {
        let Some(mut node) = tree.get(&self.root) else {
            return false;
        };
        for (at, segment) in self.path.iter().enumerate() {
            let (Json::Object(map), Segment::Field(key) | Segment::Key(key)) = (node, segment)
            else {
                return true;
            };
            match map.get(key) {
                Some(next) => node = next,
                None => return self.is_complete_map(at),
            }
        }
        true
    }

    /// Whether the map reached after `depth` segments is known in full.
    fn is_complete_map(&self, depth: usize) -> bool {
        self.root == "request"
            && depth == 1
            && matches!(&self.path[0], Segment::Field(f) | Segment::Key(f) if f == "headers")
    }
}

/// The attribute path `expr` spells, if it is one: `(root, segments)`.
fn chain(expr: &IdedExpr) -> Option<Reference> {
    match &expr.expr {
        Expr::Ident(name) => Some(Reference {
            root: name.clone(),
            path: Vec::new(),
        }),
        Expr::Select(select) => {
            let mut reference = chain(&select.operand)?;
            reference.path.push(Segment::Field(select.field.clone()));
            Some(reference)
        }
        Expr::Call(call) if call.target.is_none() && call.args.len() == 2 => {
            let segment = match (call.func_name.as_str(), &call.args[1].expr) {
                ("_[_]" | "_[?_]", Expr::Literal(LiteralValue::String(key))) => {
                    Segment::Key(key.inner().to_string())
                }
                ("_[_]" | "_[?_]", Expr::Literal(LiteralValue::Int(i))) => {
                    Segment::Index(*i.inner())
                }
                ("_?._", Expr::Literal(LiteralValue::String(key))) => {
                    Segment::Field(key.inner().to_string())
                }
                _ => return None,
            };
            let mut reference = chain(&call.args[0])?;
            reference.path.push(segment);
            Some(reference)
        }
        _ => None,
    }
}

/// Collects the attribute paths `expr` reads; `bound` holds comprehension variables in scope.
fn references(expr: &IdedExpr, bound: &mut Vec<String>, found: &mut Vec<Reference>) {
    if let Some(reference) = chain(expr) {
        let root = reference.root.as_str();
        if ATTRIBUTE_ROOTS.contains(&root) && !bound.iter().any(|b| b == root) {
            found.push(reference);
            return;
        }
    }
    let mut visit = |e: &IdedExpr, bound: &mut Vec<String>| references(e, bound, found);
    match &expr.expr {
        Expr::Select(select) => visit(&select.operand, bound),
        Expr::Call(call) => {
            call.target.iter().for_each(|t| visit(t, bound));
            call.args.iter().for_each(|a| visit(a, bound));
        }
        Expr::List(list) => list.elements.iter().for_each(|e| visit(e, bound)),
        Expr::Map(map) => {
            for entry in &map.entries {
                match &entry.expr {
                    EntryExpr::MapEntry(e) => {
                        visit(&e.key, bound);
                        visit(&e.value, bound);
                    }
                    EntryExpr::StructField(f) => visit(&f.value, bound),
                }
            }
        }
        Expr::Comprehension(c) => {
            visit(&c.iter_range, bound);
            let depth = bound.len();
            bound.extend(
                [Some(&c.iter_var), c.iter_var2.as_ref(), Some(&c.accu_var)]
                    .into_iter()
                    .flatten()
                    .cloned(),
            );
            for part in [&c.accu_init, &c.loop_cond, &c.loop_step, &c.result] {
                visit(part, bound);
            }
            bound.truncate(depth);
        }
        _ => {}
    }
}

// The wasm-shim's string functions (`src/data/cel/strings.rs`), with sizes capped and without
// its panics (slicing at a non-char boundary).

/// Registers the wasm-shim's string functions.
fn register_strings(context: &mut Context<'_, '_>) -> Result<(), cel::DeclarationError> {
    context.add_function("charAt", char_at)?;
    context.add_function("indexOf", index_of)?;
    context.add_function("lastIndexOf", last_index_of)?;
    context.add_function("join", join)?;
    context.add_function("lowerAscii", |This(s): This<Arc<String>>| {
        s.to_ascii_lowercase()
    })?;
    context.add_function("upperAscii", |This(s): This<Arc<String>>| {
        s.to_ascii_uppercase()
    })?;
    context.add_function("trim", |This(s): This<Arc<String>>| s.trim().to_string())?;
    context.add_function("replace", replace)?;
    context.add_function("split", split)?;
    context.add_function("substring", substring)
}

fn function_error(function: &str, message: impl ToString) -> ExecutionError {
    ExecutionError::function_error(function, message)
}

/// An integer argument, converted as the wasm-shim does (`as usize`: negative values wrap).
fn integer_arg(function: &str, value: Option<&Value>) -> Result<usize, ExecutionError> {
    match value {
        Some(Value::Int(i)) => Ok(*i as usize),
        Some(Value::UInt(u)) => Ok(usize::try_from(*u).unwrap_or(usize::MAX)),
        other => Err(function_error(
            function,
            format!("expects an integer, got {other:?}"),
        )),
    }
}

fn string_arg<'a>(function: &str, value: Option<&'a Value>) -> Result<&'a str, ExecutionError> {
    match value {
        Some(Value::String(s)) => Ok(s.as_str()),
        other => Err(function_error(
            function,
            format!("expects a string, got {other:?}"),
        )),
    }
}

/// `text` as a value, unless it is larger than [`MAX_STRING_BYTES`].
fn capped(function: &str, size: usize) -> Result<(), ExecutionError> {
    if size > MAX_STRING_BYTES {
        return Err(function_error(
            function,
            over_limit(
                format_args!("the result would exceed {MAX_STRING_BYTES} bytes"),
                "cel-string-bytes",
            ),
        ));
    }
    Ok(())
}

fn char_at(This(this): This<Arc<String>>, index: i64) -> ResolveResult {
    match this.chars().nth(index as usize) {
        Some(c) => Ok(c.to_string().into()),
        None => Err(function_error(
            "charAt",
            format!("no index {index} in `{this}`"),
        )),
    }
}

/// `indexOf`/`lastIndexOf`: a byte offset (uint), or -1. With an offset, the search starts
/// there; `lastIndexOf` then returns the position relative to the offset, as the wasm-shim does.
fn search(
    function: &str,
    this: &str,
    args: &[Value],
    find: fn(&str, &str) -> Option<usize>,
    relative: bool,
) -> ResolveResult {
    let needle = string_arg(function, args.first())?;
    let base = match args.len() {
        1 => 0,
        2 => integer_arg(function, args.get(1))?,
        n => {
            return Err(function_error(
                function,
                format!("expects 1 or 2 arguments, got {n}"),
            ));
        }
    };
    if args.len() == 2 && base >= this.len() {
        return Ok(Value::Int(-1));
    }
    let Some(rest) = this.get(base..) else {
        return Err(function_error(function, "the offset is inside a character"));
    };
    Ok(match find(rest, needle) {
        Some(at) if relative => Value::UInt(at as u64),
        Some(at) => Value::UInt((base + at) as u64),
        None => Value::Int(-1),
    })
}

fn index_of(This(this): This<Arc<String>>, Arguments(args): Arguments) -> ResolveResult {
    search("indexOf", &this, &args, |s, n| s.find(n), false)
}

fn last_index_of(This(this): This<Arc<String>>, Arguments(args): Arguments) -> ResolveResult {
    search("lastIndexOf", &this, &args, |s, n| s.rfind(n), true)
}

fn join(This(this): This<Arc<Vec<Value>>>, Arguments(args): Arguments) -> ResolveResult {
    let separator = match args.first() {
        None => "",
        some => string_arg("join", some)?,
    };
    let parts = this
        .iter()
        .map(|v| string_arg("join", Some(v)))
        .collect::<Result<Vec<_>, _>>()?;
    let size = parts.iter().map(|p| p.len() + separator.len()).sum();
    capped("join", size)?;
    Ok(parts.join(separator).into())
}

fn replace(This(this): This<Arc<String>>, Arguments(args): Arguments) -> ResolveResult {
    if !(2..=3).contains(&args.len()) {
        return Err(function_error("replace", "expects 2 or 3 arguments"));
    }
    let from = string_arg("replace", args.first())?;
    let to = string_arg("replace", args.get(1))?;
    let limit = match args.get(2) {
        Some(n) => integer_arg("replace", Some(n))?,
        None => usize::MAX,
    };
    let matches = if from.is_empty() {
        this.chars().count() + 1
    } else {
        this.matches(from).count()
    };
    capped(
        "replace",
        this.len()
            .saturating_add(matches.min(limit).saturating_mul(to.len())),
    )?;
    Ok(this.replacen(from, to, limit).into())
}

fn split(This(this): This<Arc<String>>, Arguments(args): Arguments) -> ResolveResult {
    let separator = string_arg("split", args.first())?;
    let parts: Vec<Value> = match args.len() {
        1 => this.split(separator).map(Value::from).collect(),
        2 => {
            let limit = integer_arg("split", args.get(1))?;
            this.splitn(limit, separator).map(Value::from).collect()
        }
        n => {
            return Err(function_error(
                "split",
                format!("expects 1 or 2 arguments, got {n}"),
            ));
        }
    };
    Ok(parts.into())
}

fn substring(This(this): This<Arc<String>>, Arguments(args): Arguments) -> ResolveResult {
    let start = integer_arg("substring", args.first())?;
    let end = match args.len() {
        1 => this.chars().count(),
        2 => integer_arg("substring", args.get(1))?,
        n => {
            return Err(function_error(
                "substring",
                format!("expects 1 or 2 arguments, got {n}"),
            ));
        }
    };
    if end < start {
        return Err(function_error(
            "substring",
            format!("end {end} is before start {start}"),
        ));
    }
    Ok(this
        .chars()
        .skip(start)
        .take(end - start)
        .collect::<String>()
        .into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn attributes(value: Json) -> Map<String, Json> {
        match value {
            Json::Object(map) => map,
            _ => Map::new(),
        }
    }

    fn request() -> Map<String, Json> {
        attributes(json!({
            "request": {"method": "GET", "path": "/cart/a%20b?id=3", "url_path": "/cart/a%20b",
                        "headers": {"x-team": "blue", ":method": "GET"}, "useragent": "curl"},
            "auth": {"identity": {"userid": "bob", "level": 3, "admin": true}}
        }))
    }

    fn eval(text: &str) -> Outcome<bool> {
        predicate(text, &request(), Evaluator::WasmShim)
    }

    #[test]
    fn an_unsupplied_attribute_is_unknown_and_needed() {
        let outcome = eval("auth.identity.group == 'admins'");
        assert_eq!(outcome.value, None);
        assert_eq!(outcome.needs, vec!["auth.identity.group"]);
        assert_eq!(outcome.error, None);
        assert_eq!(outcome.reads, vec!["auth.identity.group"]);
        let outcome = eval("source.address.startsWith('10.') || metadata['x-y'].z == 1");
        assert_eq!(outcome.needs, vec!["metadata['x-y'].z", "source.address"]);
        assert_eq!(eval("auth.identity.userid == 'bob'").value, Some(true));
    }

    #[test]
    fn kleene_connectives() {
        assert_eq!(
            eval("request.method == 'POST' && auth.x.y == 1").value,
            Some(false)
        );
        assert_eq!(
            eval("auth.x.y == 1 && request.method == 'POST'").value,
            Some(false)
        );
        assert_eq!(
            eval("request.method == 'GET' || auth.x.y == 1").value,
            Some(true)
        );
        assert_eq!(eval("request.method == 'GET' && auth.x.y == 1").value, None);
        let outcome = eval("!(auth.x.y == 1)");
        assert_eq!(
            (outcome.value, outcome.needs),
            (None, vec!["auth.x.y".to_string()])
        );
        let outcome = eval("auth.x.y ? true : false");
        assert_eq!(outcome.needs, vec!["auth.x.y"]);
        assert_eq!(
            eval("request.method == 'GET' ? auth.identity.admin : auth.x").value,
            Some(true)
        );
    }

    #[test]
    fn an_absent_header_is_an_error_not_unknown() {
        let outcome = eval("request.headers['x-missing'] == 'a'");
        assert_eq!(outcome.value, None);
        assert!(outcome.needs.is_empty());
        assert!(
            outcome.error.as_deref().unwrap_or("").contains("x-missing"),
            "{outcome:?}"
        );
        assert_eq!(
            eval("request.headers['x-team'] == 'blue'").value,
            Some(true)
        );
        assert_eq!(eval("has(request.headers.x_missing)").value, Some(false));
        // An error on the decided side of a connective does not matter, as in CEL.
        assert_eq!(
            eval("request.method == 'POST' && request.headers['x'] == 'a'").value,
            Some(false)
        );
    }

    #[test]
    fn non_bool_predicates_and_compile_errors_fail() {
        let outcome = eval("request.method");
        assert_eq!(outcome.value, None);
        assert_eq!(
            outcome.error.as_deref(),
            Some("the predicate returned a string value, not a bool")
        );
        assert!(
            eval("request.method ==")
                .error
                .unwrap_or_default()
                .starts_with("does not compile")
        );
        assert!(eval("1 && true").error.is_some());
    }

    #[test]
    fn counters_are_printed_as_string_would() {
        let attrs = request();
        assert_eq!(
            counter("auth.identity.userid", &attrs).value.as_deref(),
            Some("bob")
        );
        assert_eq!(
            counter("auth.identity.level", &attrs).value.as_deref(),
            Some("3")
        );
        assert_eq!(
            counter("double(auth.identity.level) + 0.5", &attrs)
                .value
                .as_deref(),
            Some("3.5")
        );
        let boolean = counter("auth.identity.admin", &attrs);
        assert_eq!(boolean.value, None);
        assert!(
            boolean
                .error
                .unwrap_or_default()
                .contains("string() rejects")
        );
        let unknown = counter("auth.identity.tenant", &attrs);
        assert_eq!(
            (unknown.value, unknown.needs),
            (None, vec!["auth.identity.tenant".to_string()])
        );
    }

    #[test]
    fn wasm_shim_string_functions() {
        for text in [
            "request.url_path.split('/')[1] == 'cart'",
            "'TacoCat'.lowerAscii() == 'tacocat' && 'a'.upperAscii() == 'A'",
            "'hello mellow'.indexOf('ello') == 1u && 'hello mellow'.indexOf('jello') == -1",
            "'hello mellow'.lastIndexOf('ello', 6) == 1u",
            "['a', 'b'].join('-') == 'a-b' && [].join() == ''",
            "'  x '.trim() == 'x' && 'abc'.charAt(1) == 'b'",
            "'hello hello'.replace('he', 'we', 1) == 'wello hello'",
            "'hello'.substring(1, 3) == 'el' && 'hello'.substring(3) == 'lo'",
        ] {
            assert_eq!(eval(text).value, Some(true), "{text}: {:?}", eval(text));
        }
        assert!(eval("'abc'.charAt(9) == 'x'").error.is_some());
        assert!(eval("'é'.indexOf('x', 1) == 1").error.is_some());
        let big = format!("'{}'", "a".repeat(2000));
        let text = format!("{big}.replace('a', {big}).size() > 0");
        assert!(eval(&text).error.unwrap_or_default().contains("exceed"));
    }

    #[test]
    fn authorino_decodes_the_url_path_and_binds_user_agent() {
        let attrs = request();
        let text = "request.url_path == '/cart/a b' && request.user_agent == 'curl'";
        assert_eq!(
            predicate(text, &attrs, Evaluator::Authorino).value,
            Some(true)
        );
        assert_eq!(
            predicate(text, &attrs, Evaluator::WasmShim).value,
            Some(false)
        );
        assert_eq!(percent_decode("/a%2"), "/a%2");
        assert_eq!(percent_decode("/a+%41"), "/a+A");
    }

    #[test]
    fn comprehensions_bind_their_variables() {
        let text = "request.headers.exists(h, h == 'x-team' && request.headers[h] == 'blue')";
        assert_eq!(eval(text).value, Some(true));
        let text = "[1, 2].exists(auth, auth == 2)";
        assert_eq!(eval(text).value, Some(true));
        assert_eq!(eval("[1].all(x, auth.q == x)").needs, vec!["auth.q"]);
    }

    #[test]
    fn hostile_expressions_fail_quickly() {
        let started = std::time::Instant::now();
        let deep = format!("{}true{}", "(".repeat(5000), ")".repeat(5000));
        assert!(eval(&deep).error.is_some());
        let list = format!("[{}]", vec!["0"; 1000].join(","));
        let runaway = format!("{list}.all(a, {list}.all(b, a + b == 0))");
        let outcome = eval(&runaway);
        assert!(
            outcome.error.as_deref().unwrap_or("").contains("steps"),
            "{outcome:?}"
        );
        let nested = "[1].all(a, [1].all(b, [1].all(c, true)))";
        assert!(eval(nested).error.unwrap_or_default().contains("nested"));
        let chain = format!("true{}", " && true".repeat(2000));
        assert!(eval(&chain).error.is_some());
        let uses = format!("['x'].all(t, {} != '')", ["t"; 11].join(" + "));
        assert!(
            eval(&uses)
                .error
                .unwrap_or_default()
                .contains("used more than")
        );
        let huge = format!("'{}'", "a".repeat(MAX_STRING_BYTES));
        assert!(eval(&huge).error.unwrap_or_default().contains("too long"));
        assert!(started.elapsed() < std::time::Duration::from_secs(20));
    }
}
