//! A fast path for rules that hold: evaluation straight on the YAML tree.
//!
//! Nearly every rule on nearly every value holds, and the general path pays for that with a
//! deep copy of `self` into the `cel` interpreter's values before the first step. This
//! evaluator reads the YAML nodes in place, typed by their schema exactly as
//! [`super::to_cel`] types them, and covers the part of CEL the bundled rules mostly use:
//! literals, field selection and `has()`, `&&` `||` `!` `?:`, equality and ordering of
//! scalars, `in`, indexing, `+`/`-` on ints, `size`, `startsWith`/`endsWith`/`contains`/
//! `matches`, and the comprehension macros over lists. A rule is translated once into a
//! [`Program`] (names resolved to slots, functions to operations), so evaluating it compares
//! no names but field names.
//!
//! It answers only "this rule holds" ([`Direct::holds`]). Anything else — a false rule, an
//! error, an operation or a value outside that part (durations, quantities, maps iterated,
//! lists compared, mixed-type equality), the step budget running out — gives up, and the
//! caller evaluates the rule the general way, which produces the message or the error
//! exactly. So a verdict of this path is always the verdict of the general path: it only
//! skips the copy.

use super::super::schema::Schema;
use super::CompiledRule;
use super::library::{self, MATCHES_FUNCTION};
use super::value::{Member, Shape, escape, escaped_keys, member, plain_key, shape};
use crate::expr::{MAX_EVALUATION_STEPS, STEP_FUNCTION};
use crate::yaml::node::Entry;
use crate::yaml::{Node, Value as Yaml};
use ::cel::common::ast::{ComprehensionExpr, Expr, IdedExpr, LiteralValue};
use std::borrow::Cow;

/// A rule translated for this path.
#[derive(Debug)]
pub struct Program(Op);

#[derive(Debug)]
enum Op {
    Lit(Lit),
    /// A bound name, by its position in the bound names (`self` is 0).
    Var(usize),
    /// `operand.field` or `has(operand.field)`: the field as written, and the property it
    /// names in an object keyed by escaped names (`None`: an escape this path skips).
    Select {
        operand: Box<Op>,
        field: Box<str>,
        property: Option<Box<str>>,
        test: bool,
    },
    Cond(Box<[Op; 3]>),
    And(Box<[Op; 2]>),
    Or(Box<[Op; 2]>),
    Not(Box<Op>),
    NotStrictlyFalse(Box<Op>),
    /// The comprehension meter: charges its steps.
    Step(usize),
    Unary(Unary, Box<Op>),
    Binary(Binary, Box<[Op; 2]>),
    List(Vec<Op>),
    Fold(Box<Fold>),
    /// Something this path does not evaluate.
    GiveUp,
}

#[derive(Debug)]
enum Lit {
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
    Double(f64),
    Str(Box<str>),
}

#[derive(Clone, Copy, Debug)]
enum Unary {
    Size,
}

#[derive(Clone, Copy, Debug)]
enum Binary {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Add,
    Sub,
    In,
    Index,
    StartsWith,
    EndsWith,
    Contains,
    Matches,
}

/// A comprehension: the accumulator is bound at `accu`, the item just above it.
#[derive(Debug)]
struct Fold {
    range: Op,
    init: Op,
    accu: usize,
    cond: Op,
    step: Op,
    result: Op,
}

impl Program {
    /// Translates a checked, metered rule (names it cannot resolve become [`Op::GiveUp`]).
    pub fn new(expr: &IdedExpr) -> Program {
        Program(translate(expr, &mut vec!["self"]))
    }
}

fn translate<'e>(expr: &'e IdedExpr, names: &mut Vec<&'e str>) -> Op {
    match &expr.expr {
        Expr::Literal(literal) => literal_op(literal),
        Expr::Ident(name) => names
            .iter()
            .rposition(|n| n == name)
            .map_or(Op::GiveUp, Op::Var),
        Expr::Select(select) => Op::Select {
            operand: Box::new(translate(&select.operand, names)),
            field: select.field.as_str().into(),
            property: plain_key(&select.field).map(Into::into),
            test: select.test,
        },
        Expr::Call(call) => {
            let mut args: Vec<&'e IdedExpr> = call.target.as_deref().into_iter().collect();
            args.extend(call.args.iter());
            call_op(&call.func_name, call.target.is_some(), &args, names).unwrap_or(Op::GiveUp)
        }
        Expr::Comprehension(c) => fold_op(c, names),
        Expr::List(list) if list.optional_indices.is_empty() => {
            Op::List(list.elements.iter().map(|e| translate(e, names)).collect())
        }
        _ => Op::GiveUp,
    }
}

fn call_op<'e>(
    name: &str,
    method: bool,
    args: &[&'e IdedExpr],
    names: &mut Vec<&'e str>,
) -> Option<Op> {
    let mut ops: Vec<Op> = args.iter().map(|a| translate(a, names)).collect();
    let one = |ops: &mut Vec<Op>| Box::new(ops.remove(0));
    let two = |ops: Vec<Op>| -> Option<Box<[Op; 2]>> { ops.try_into().ok().map(Box::new) };
    Some(match (name, method, ops.len()) {
        ("_?_:_", false, 3) => Op::Cond(Box::new(ops.try_into().ok()?)),
        ("_&&_", false, 2) => Op::And(two(ops)?),
        ("_||_", false, 2) => Op::Or(two(ops)?),
        ("!_", false, 1) => Op::Not(one(&mut ops)),
        ("@not_strictly_false", false, 1) => Op::NotStrictlyFalse(one(&mut ops)),
        (STEP_FUNCTION, false, 1) => match ops.remove(0) {
            Op::Lit(Lit::Int(n)) => Op::Step(usize::try_from(n).ok()?),
            _ => return None,
        },
        ("size", _, 1) => Op::Unary(Unary::Size, one(&mut ops)),
        (name, method, 2) => Op::Binary(binary_op(name, method)?, two(ops)?),
        _ => return None,
    })
}

fn binary_op(name: &str, method: bool) -> Option<Binary> {
    Some(match (name, method) {
        ("_==_", false) => Binary::Eq,
        ("_!=_", false) => Binary::Ne,
        ("_<_", false) => Binary::Lt,
        ("_<=_", false) => Binary::Le,
        ("_>_", false) => Binary::Gt,
        ("_>=_", false) => Binary::Ge,
        ("_+_", false) => Binary::Add,
        ("_-_", false) => Binary::Sub,
        ("@in", false) => Binary::In,
        ("_[_]", false) => Binary::Index,
        ("startsWith", true) => Binary::StartsWith,
        ("endsWith", true) => Binary::EndsWith,
        ("contains", true) => Binary::Contains,
        (MATCHES_FUNCTION, false) => Binary::Matches,
        _ => return None,
    })
}

fn fold_op<'e>(c: &'e ComprehensionExpr, names: &mut Vec<&'e str>) -> Op {
    if c.iter_var2.is_some() {
        return Op::GiveUp;
    }
    let range = translate(&c.iter_range, names);
    let init = translate(&c.accu_init, names);
    let accu = names.len();
    names.push(&c.accu_var);
    names.push(&c.iter_var);
    let cond = translate(&c.loop_cond, names);
    let step = translate(&c.loop_step, names);
    names.pop();
    let result = translate(&c.result, names);
    names.pop();
    Op::Fold(Box::new(Fold {
        range,
        init,
        accu,
        cond,
        step,
        result,
    }))
}

fn literal_op(literal: &LiteralValue) -> Op {
    Op::Lit(match literal {
        LiteralValue::Boolean(b) => Lit::Bool(*b.inner()),
        LiteralValue::Int(i) => Lit::Int(*i.inner()),
        LiteralValue::UInt(u) => Lit::UInt(*u.inner()),
        LiteralValue::Double(d) => Lit::Double(*d.inner()),
        LiteralValue::String(s) => Lit::Str(s.inner().into()),
        LiteralValue::Null => Lit::Null,
        LiteralValue::Bytes(_) => return Op::GiveUp,
    })
}

/// `self` for the fast path: one value, read by every rule of its schema node.
pub struct Direct<'a> {
    vars: Vec<V<'a>>,
}

impl<'a> Direct<'a> {
    /// `node` typed by `schema` (`root`: the whole object); `None` when this path cannot
    /// read it (a duration, a schemaless subtree, ...).
    pub fn new(node: &'a Node, schema: &'a Schema, root: bool) -> Option<Direct<'a>> {
        let this = match (&node.value, root) {
            (Yaml::Map(entries), true) => V::Object(entries, schema, true),
            (_, true) => return None,
            (_, false) => typed(node, schema).ok()?,
        };
        Some(Direct { vars: vec![this] })
    }

    /// Whether `rule` holds, as far as this path can tell: `false` means "not known here",
    /// never "the rule is false".
    pub fn holds(&mut self, rule: &'a CompiledRule) -> bool {
        if rule.optional_old_self || rule.height > super::INLINE_EVAL_HEIGHT {
            return false;
        }
        library::start_budget(MAX_EVALUATION_STEPS);
        self.vars.truncate(1);
        matches!(self.eval(&rule.direct.0), Ok(V::Bool(true)))
    }

    fn eval(&mut self, op: &'a Op) -> R<V<'a>> {
        Ok(match op {
            Op::Lit(lit) => lit_value(lit),
            Op::Var(slot) => self.vars.get(*slot).cloned().ok_or(GiveUp)?,
            Op::Select {
                operand,
                field: name,
                property,
                test,
            } => {
                let V::Object(entries, schema, resource) = self.eval(operand)? else {
                    return Err(GiveUp);
                };
                let key = if escaped_keys(schema, resource) {
                    property.as_deref().ok_or(GiveUp)?
                } else {
                    name
                };
                match (field(entries, schema, resource, key)?, test) {
                    (found, true) => V::Bool(found.is_some()),
                    (Some(v), false) => v,
                    (None, false) => return Err(GiveUp),
                }
            }
            Op::Cond(ops) => {
                let [c, a, b] = &**ops;
                if self.bool(c)? {
                    self.eval(a)?
                } else {
                    self.eval(b)?
                }
            }
            Op::And(ops) => V::Bool(self.bool(&ops[0])? && self.bool(&ops[1])?),
            Op::Or(ops) => V::Bool(self.bool(&ops[0])? || self.bool(&ops[1])?),
            Op::Not(a) => V::Bool(!self.bool(a)?),
            Op::NotStrictlyFalse(a) => V::Bool(self.bool(a)?),
            Op::Step(cost) => {
                library::charge(*cost).map_err(|_| GiveUp)?;
                V::Bool(true)
            }
            Op::Unary(Unary::Size, a) => size(self.eval(a)?)?,
            Op::Binary(binary, ops) => {
                let a = self.eval(&ops[0])?;
                let b = self.eval(&ops[1])?;
                apply(*binary, a, b)?
            }
            Op::List(ops) => V::Values(ops.iter().map(|o| self.eval(o)).collect::<R<_>>()?),
            Op::Fold(fold) => self.comprehension(fold)?,
            Op::GiveUp => return Err(GiveUp),
        })
    }

    fn bool(&mut self, op: &'a Op) -> R<bool> {
        match self.eval(op)? {
            V::Bool(b) => Ok(b),
            _ => Err(GiveUp),
        }
    }

    fn comprehension(&mut self, fold: &'a Fold) -> R<V<'a>> {
        let range = self.eval(&fold.range)?;
        let count = match &range {
            V::List(items, _) => items.len(),
            V::Values(values) => values.len(),
            _ => return Err(GiveUp),
        };
        if self.vars.len() != fold.accu {
            return Err(GiveUp);
        }
        let init = self.eval(&fold.init)?;
        self.vars.push(init);
        let folded = self.fold(fold, &range, count);
        let result = folded.and_then(|()| self.eval(&fold.result));
        self.vars.truncate(fold.accu);
        result
    }

    /// The loop of a comprehension over the `count` items of `range`.
    fn fold(&mut self, fold: &'a Fold, range: &V<'a>, count: usize) -> R<()> {
        for i in 0..count {
            let item = match range {
                V::List(items, schema) => typed(&items[i], schema)?,
                V::Values(values) => values[i].clone(),
                _ => return Err(GiveUp),
            };
            self.vars.push(item);
            let step = match self.bool(&fold.cond) {
                Ok(true) => self.eval(&fold.step).map(Some),
                Ok(false) => Ok(None),
                Err(e) => Err(e),
            };
            self.vars.pop();
            match step? {
                Some(accumulated) => self.vars[fold.accu] = accumulated,
                None => break,
            }
        }
        Ok(())
    }
}

/// This path cannot say (the general path will).
struct GiveUp;

type R<T> = Result<T, GiveUp>;

/// A value: scalars by value, objects and lists as the nodes they are read from.
#[derive(Clone)]
enum V<'a> {
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
    Double(f64),
    Str(Cow<'a, str>),
    /// A typed object: its entries, its schema, whether it is a resource (root or embedded).
    Object(&'a [Entry], &'a Schema, bool),
    /// A typed list: its items and their schema.
    List(&'a [Node], &'a Schema),
    /// A list literal.
    Values(Vec<V<'a>>),
}

fn lit_value(lit: &Lit) -> V<'_> {
    match lit {
        Lit::Null => V::Null,
        Lit::Bool(b) => V::Bool(*b),
        Lit::Int(i) => V::Int(*i),
        Lit::UInt(u) => V::UInt(*u),
        Lit::Double(d) => V::Double(*d),
        Lit::Str(s) => V::Str(Cow::Borrowed(s)),
    }
}

/// `node` as [`super::to_cel`] converts it, for the kinds this path reads.
fn typed<'a>(node: &'a Node, schema: &'a Schema) -> R<V<'a>> {
    Ok(match shape(node, schema) {
        Shape::Null => V::Null,
        Shape::Bool(b) => V::Bool(b),
        Shape::Int(i) => V::Int(i),
        Shape::Double(f) => V::Double(f),
        Shape::Str(s) => V::Str(Cow::Borrowed(s)),
        Shape::Object(entries) => V::Object(entries, schema, schema.embedded_resource),
        Shape::List(items, item) => V::List(items, item),
        Shape::Formatted(..) | Shape::Untyped => return Err(GiveUp),
    })
}

/// The entry `key` of a typed object: what the converted map holds under that key (for an
/// object keyed by escaped names, `key` is the property's own name). Later duplicates win,
/// as they do when the map is built.
fn field<'a>(
    entries: &'a [Entry],
    schema: &'a Schema,
    resource: bool,
    key: &str,
) -> R<Option<V<'a>>> {
    for entry in entries.iter().rev() {
        if &*entry.key.text == key {
            if let Some(v) = visible(entry, schema, resource)? {
                return Ok(Some(v));
            }
        }
    }
    Ok(None)
}

/// The value `entry` contributes to its converted object, if any.
fn visible<'a>(entry: &'a Entry, schema: &'a Schema, resource: bool) -> R<Option<V<'a>>> {
    match member(entry, schema, resource) {
        Member::Absent => Ok(None),
        Member::TypeMeta(s) => Ok(Some(V::Str(Cow::Borrowed(s)))),
        Member::ObjectMeta => Err(GiveUp),
        Member::Value(node, s) => typed(node, s).map(Some),
    }
}

/// How many entries the converted object has (small objects only: duplicates are counted
/// once, pairwise; a property `cel.Escape` cannot name is not in the converted object).
fn object_size(entries: &[Entry], schema: &Schema, resource: bool) -> R<i64> {
    if entries.len() > 64 {
        return Err(GiveUp);
    }
    let mut count = 0;
    for (i, entry) in entries.iter().enumerate() {
        let later = entries[i + 1..]
            .iter()
            .any(|e| e.key.text == entry.key.text);
        if later || visible(entry, schema, resource)?.is_none() {
            continue;
        }
        if escaped_keys(schema, resource) && escape(&entry.key.text).is_none() {
            continue;
        }
        count += 1;
    }
    Ok(count)
}

fn size(v: V<'_>) -> R<V<'_>> {
    Ok(V::Int(match v {
        V::Str(s) => s.chars().count() as i64,
        V::List(items, _) => items.len() as i64,
        V::Values(values) => values.len() as i64,
        V::Object(entries, schema, resource) => object_size(entries, schema, resource)?,
        _ => return Err(GiveUp),
    }))
}

fn apply<'a>(op: Binary, a: V<'a>, b: V<'a>) -> R<V<'a>> {
    use std::cmp::Ordering::{Greater, Less};
    Ok(match (op, a, b) {
        (Binary::Eq, a, b) => V::Bool(equal(&a, &b)?),
        (Binary::Ne, a, b) => V::Bool(!equal(&a, &b)?),
        (Binary::Lt, a, b) => V::Bool(compare(&a, &b)? == Less),
        (Binary::Le, a, b) => V::Bool(compare(&a, &b)? != Greater),
        (Binary::Gt, a, b) => V::Bool(compare(&a, &b)? == Greater),
        (Binary::Ge, a, b) => V::Bool(compare(&a, &b)? != Less),
        (Binary::Add, V::Int(x), V::Int(y)) => V::Int(x.checked_add(y).ok_or(GiveUp)?),
        (Binary::Sub, V::Int(x), V::Int(y)) => V::Int(x.checked_sub(y).ok_or(GiveUp)?),
        (Binary::In, a, b) => V::Bool(contains(&b, &a)?),
        (Binary::Index, a, b) => index(a, b)?,
        (Binary::StartsWith, V::Str(s), V::Str(p)) => V::Bool(s.starts_with(&*p)),
        (Binary::EndsWith, V::Str(s), V::Str(p)) => V::Bool(s.ends_with(&*p)),
        (Binary::Contains, V::Str(s), V::Str(p)) => V::Bool(s.contains(&*p)),
        (Binary::Matches, V::Str(t), V::Str(p)) => {
            V::Bool(library::regex_matches(&t, &p).map_err(|_| GiveUp)?)
        }
        _ => return Err(GiveUp),
    })
}

/// Equality of two scalars of one type (anything else gives up).
fn equal(a: &V<'_>, b: &V<'_>) -> R<bool> {
    Ok(match (a, b) {
        (V::Null, V::Null) => true,
        (V::Bool(x), V::Bool(y)) => x == y,
        (V::Int(x), V::Int(y)) => x == y,
        (V::UInt(x), V::UInt(y)) => x == y,
        (V::Double(x), V::Double(y)) => x == y,
        (V::Str(x), V::Str(y)) => x == y,
        _ => return Err(GiveUp),
    })
}

fn compare(a: &V<'_>, b: &V<'_>) -> R<std::cmp::Ordering> {
    match (a, b) {
        (V::Int(x), V::Int(y)) => Ok(x.cmp(y)),
        (V::UInt(x), V::UInt(y)) => Ok(x.cmp(y)),
        (V::Double(x), V::Double(y)) => x.partial_cmp(y).ok_or(GiveUp),
        (V::Str(x), V::Str(y)) => Ok(x.cmp(y)),
        _ => Err(GiveUp),
    }
}

fn contains(list: &V<'_>, item: &V<'_>) -> R<bool> {
    match list {
        V::Values(values) => {
            for v in values {
                if equal(v, item)? {
                    return Ok(true);
                }
            }
            Ok(false)
        }
        V::List(items, schema) => {
            for node in items.iter() {
                if equal(&typed(node, schema)?, item)? {
                    return Ok(true);
                }
            }
            Ok(false)
        }
        _ => Err(GiveUp),
    }
}

fn index<'a>(container: V<'a>, at: V<'a>) -> R<V<'a>> {
    match (container, at) {
        (V::List(items, schema), V::Int(i)) => {
            let node = usize::try_from(i)
                .ok()
                .and_then(|i| items.get(i))
                .ok_or(GiveUp)?;
            typed(node, schema)
        }
        (V::Values(mut values), V::Int(i)) => {
            let i = usize::try_from(i).map_err(|_| GiveUp)?;
            if i < values.len() {
                Ok(values.swap_remove(i))
            } else {
                Err(GiveUp)
            }
        }
        (V::Object(entries, schema, resource), V::Str(key)) => {
            let key = if escaped_keys(schema, resource) {
                plain_key(&key).ok_or(GiveUp)?
            } else {
                &key
            };
            field(entries, schema, resource, key)?.ok_or(GiveUp)
        }
        _ => Err(GiveUp),
    }
}
