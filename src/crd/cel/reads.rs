//! What a rule observes of `self`.
//!
//! Two values that agree on everything a rule observes get the same verdict, message and
//! error from it. The verdict memo keys values by that ([`Seen::write_key`]), so the rules on
//! an HTTPRoute rule — which look at how many `matches` there are and at their path type, at
//! the filters of each backendRef, never at a path's value or a backend's name — are evaluated
//! once per distinct shape, not once per rule of every route.
//!
//! The analysis walks the rule's syntax tree with the names comprehensions bind. A path from
//! `self` (`self.backendRefs`, an item of it bound by `exists_one(b, …)`, `b.filters`) is
//! observed by how the rule uses it:
//! - selecting a field, `has()`, iterating, indexing or `size()` observe its type tag;
//! - `size()`, indexing and iterating also observe its item count;
//! - iterating or indexing observe each item the way the body uses the bound item;
//! - anything else (compared, passed to a function, returned, iterated as a map, a field whose
//!   CEL name is an escape other than a reserved word) observes it whole.
//!
//! Scalars are written whole as soon as anything beyond their type tag is observed.

use super::value::plain_key;
use crate::crd::memo::{push_decimal, push_length_prefixed};
use crate::yaml::{Node, Value};
use ::cel::common::ast::{EntryExpr, Expr, IdedExpr};
use std::collections::BTreeMap;

/// What some rules observe of a value (and, below it, of its fields and items).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Seen {
    whole: bool,
    tag: bool,
    count: bool,
    /// By the field's CEL name: the property it names, and what is observed of it.
    fields: BTreeMap<Box<str>, (Box<str>, Seen)>,
    items: Option<Box<Seen>>,
}

/// One step of a path from `self`.
#[derive(Clone, Debug)]
enum Step {
    Field(Box<str>),
    Item,
}

/// A name comprehensions bound: a path from `self`, or some other value.
type Scope = Vec<(String, Option<Vec<Step>>)>;

impl Seen {
    /// Adds what `expr` (a rule or a message expression, `self` bound) observes.
    pub fn add(&mut self, expr: &IdedExpr) {
        let mut scope: Scope = vec![("self".into(), Some(Vec::new()))];
        self.value(expr, &mut scope);
    }

    fn at(&mut self, path: &[Step]) -> &mut Seen {
        let mut seen = self;
        for step in path {
            seen.tag = true;
            seen = match step {
                Step::Field(name) => {
                    let plain = plain_key(name).unwrap_or(name);
                    let field = seen.fields.entry(name.clone());
                    &mut field.or_insert_with(|| (plain.into(), Seen::default())).1
                }
                Step::Item => {
                    seen.count = true;
                    seen.items.get_or_insert_with(Default::default)
                }
            };
        }
        seen
    }

    /// `expr` used as a value: a path is observed whole.
    fn value(&mut self, expr: &IdedExpr, scope: &mut Scope) {
        if let Some(path) = self.path(expr, scope) {
            self.at(&path).whole = true;
        }
    }

    /// The path `expr` denotes, if it is one (its parts are recorded as they are walked);
    /// otherwise its parts are walked as values.
    fn path(&mut self, expr: &IdedExpr, scope: &mut Scope) -> Option<Vec<Step>> {
        match &expr.expr {
            Expr::Ident(name) => {
                let bound = scope.iter().rposition(|(n, _)| n == name)?;
                scope[bound].1.clone()
            }
            Expr::Select(select) => {
                let mut path = self.path(&select.operand, scope)?;
                if plain_key(&select.field).is_none() {
                    self.at(&path).whole = true;
                    return None;
                }
                path.push(Step::Field(select.field.as_str().into()));
                if select.test {
                    self.at(&path).tag = true;
                    return None;
                }
                Some(path)
            }
            Expr::Call(call) => {
                let args: Vec<&IdedExpr> = call
                    .target
                    .as_deref()
                    .into_iter()
                    .chain(&call.args)
                    .collect();
                match (call.func_name.as_str(), args.as_slice()) {
                    ("size", [one]) => {
                        if let Some(path) = self.path(one, scope) {
                            let seen = self.at(&path);
                            seen.tag = true;
                            seen.count = true;
                        }
                        None
                    }
                    ("_[_]", [list, index]) => {
                        self.value(index, scope);
                        let mut path = self.path(list, scope)?;
                        path.push(Step::Item);
                        Some(path)
                    }
                    _ => {
                        args.iter().for_each(|a| self.value(a, scope));
                        None
                    }
                }
            }
            Expr::Comprehension(c) => {
                let range = self.path(&c.iter_range, scope);
                let item = match (range, &c.iter_var2) {
                    (Some(mut path), None) => {
                        path.push(Step::Item);
                        self.at(&path);
                        Some(path)
                    }
                    (Some(path), Some(_)) => {
                        self.at(&path).whole = true;
                        None
                    }
                    (None, _) => None,
                };
                self.value(&c.accu_init, scope);
                let depth = scope.len();
                scope.push((c.iter_var.clone(), item));
                if let Some(second) = &c.iter_var2 {
                    scope.push((second.clone(), None));
                }
                scope.push((c.accu_var.clone(), None));
                for part in [&c.loop_cond, &c.loop_step, &c.result] {
                    self.value(part, scope);
                }
                scope.truncate(depth);
                None
            }
            Expr::List(list) => {
                list.elements.iter().for_each(|e| self.value(e, scope));
                None
            }
            Expr::Map(map) => {
                map.entries.iter().for_each(|e| self.entry(&e.expr, scope));
                None
            }
            Expr::Struct(s) => {
                s.entries.iter().for_each(|e| self.entry(&e.expr, scope));
                None
            }
            Expr::Literal(_) => None,
            Expr::Unspecified => {
                self.whole = true;
                None
            }
        }
    }

    fn entry(&mut self, entry: &EntryExpr, scope: &mut Scope) {
        match entry {
            EntryExpr::MapEntry(e) => {
                self.value(&e.key, scope);
                self.value(&e.value, scope);
            }
            EntryExpr::StructField(f) => self.value(&f.value, scope),
        }
    }

    /// Writes an unambiguous text of what is observed of `node` (two nodes with the same text
    /// are alike to the rules); `false` once `out` passes `limit` bytes.
    pub fn write_key(
        &self,
        node: &Node,
        out: &mut String,
        limit: usize,
        whole: &dyn Fn(&Node, &mut String) -> bool,
    ) -> bool {
        // A map iterated or indexed has its keys observed: it is written whole too.
        if self.whole || (self.items.is_some() && matches!(node.value, Value::Map(_))) {
            return whole(node, out);
        }
        out.push('(');
        match &node.value {
            Value::Map(entries) => {
                out.push('{');
                if self.count {
                    push_count(out, entries.len());
                }
                for (name, (plain, seen)) in &self.fields {
                    push_length_prefixed(out, name);
                    let matching = (entries.iter())
                        .filter(|e| *e.key.text == **name || *e.key.text == **plain);
                    for entry in matching {
                        out.push('=');
                        if !seen.write_key(&entry.value, out, limit, whole) {
                            return false;
                        }
                    }
                    out.push(';');
                }
            }
            Value::Seq(items) => {
                out.push('[');
                if self.count || self.items.is_some() {
                    push_count(out, items.len());
                }
                if let Some(seen) = &self.items {
                    for item in items.iter() {
                        if !seen.write_key(item, out, limit, whole) {
                            return false;
                        }
                    }
                }
            }
            _ if self.count || !self.fields.is_empty() || self.items.is_some() => {
                if !whole(node, out) {
                    return false;
                }
            }
            Value::Null => out.push('n'),
            Value::Bool(_) => out.push('b'),
            Value::Int(_) => out.push('i'),
            Value::Float(_) => out.push('d'),
            Value::String(_) => out.push('s'),
        }
        out.push(')');
        out.len() <= limit
    }
}

/// `#<n>;`: an item count in a key.
fn push_count(out: &mut String, n: usize) {
    out.push('#');
    push_decimal(out, n as u64);
    out.push(';');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen(rule: &str) -> Seen {
        let (expr, _) = super::super::compile_expression(rule, super::super::RuleParser::Grammar)
            .expect("compiles");
        let mut seen = Seen::default();
        seen.add(&expr);
        seen
    }

    fn key(rule: &str, yaml: &str) -> String {
        let node = super::super::tests::yaml(yaml);
        let mut out = String::new();
        let whole = |n: &Node, out: &mut String| {
            out.push_str(&serde_json::to_string(&n.to_json()).unwrap_or_default());
            true
        };
        assert!(seen(rule).write_key(&node, &mut out, 4096, &whole));
        out
    }

    const RULE: &str = "(has(self.filters) && self.filters.exists_one(f, has(f.urlRewrite) && \
        f.urlRewrite.path.type == 'ReplacePrefixMatch')) ? ((size(self.matches) != 1 || \
        !has(self.matches[0].path) || self.matches[0].path.type != 'PathPrefix') ? false : true) \
        : true";

    #[test]
    fn values_that_differ_only_where_the_rule_does_not_look_share_a_key() {
        let a =
            "{matches: [{path: {type: PathPrefix, value: /a}}], name: x, backendRefs: [{name: a}]}";
        let b = "{matches: [{path: {type: PathPrefix, value: /b}}], backendRefs: [{name: b}]}";
        assert_eq!(key(RULE, a), key(RULE, b));
    }

    #[test]
    fn values_that_differ_where_the_rule_looks_do_not() {
        let one = "{matches: [{path: {type: PathPrefix, value: /a}}]}";
        let two = "{matches: [{path: {type: PathPrefix, value: /a}}, {}]}";
        let exact = "{matches: [{path: {type: Exact, value: /a}}]}";
        let filtered = "{matches: [{path: {type: PathPrefix, value: /a}}], filters: [{type: X}]}";
        let keys = [one, two, exact, filtered].map(|v| key(RULE, v));
        for (i, a) in keys.iter().enumerate() {
            for b in &keys[i + 1..] {
                assert_ne!(a, b);
            }
        }
        // The type tag of a field tested with has() is observed, not its value.
        assert_ne!(key("has(self.a)", "{a: 1}"), key("has(self.a)", "{b: 1}"));
        assert_eq!(key("has(self.a)", "{a: 1}"), key("has(self.a)", "{a: 2}"));
        assert_ne!(
            key("has(self.a)", "{a: 1}"),
            key("has(self.a)", "{a: null}")
        );
    }

    #[test]
    fn self_used_otherwise_is_observed_whole() {
        for rule in [
            "self == {'a': 1}",
            "size(self) > 1 && self.all(x, x != 'a')",
            "self.foo__dash__bar == 1",
            "self.a.all(k, k == 'x')",
        ] {
            fn any_whole(seen: &Seen) -> bool {
                seen.whole
                    || seen.fields.values().any(|(_, s)| any_whole(s))
                    || seen.items.as_deref().is_some_and(any_whole)
            }
            let seen = seen(rule);
            assert!(any_whole(&seen), "{rule}: {seen:?}");
        }
        assert_eq!(
            key("self.a == 1", "{a: 1, b: 2}"),
            key("self.a == 1", "{a: 1, b: 3}")
        );
        assert_ne!(
            key("self.a == 1", "{a: 1, b: 2}"),
            key("self.a == 1", "{a: 2, b: 2}")
        );
    }
}
