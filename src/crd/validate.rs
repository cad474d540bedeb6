//! One object against its CRD version's schema, in the API server's order.
//!
//! 1. **Defaults** ([`super::defaults`]) are applied first, so everything after (validation,
//!    the families' merges) sees the object the API server stores.
//! 2. **Unknown fields** are reported as strict field validation (`kubectl apply`'s default
//!    since 1.27) reports them, with the nearest known field suggested.
//! 3. **The structural schema**: `type`, `required`, `enum`, `pattern`, `format`, bounds,
//!    lengths, counts, list types, `allOf`/`anyOf`/`oneOf`/`not`.
//! 4. **`x-kubernetes-validations` rules**, only when step 3 found no error of the kinds that
//!    make the API server skip them (`Required`, `Unsupported value`, `Too long`, `Too many`,
//!    wrong type). The API server then adds an error saying the rules were not checked
//!    (`<nil>: Invalid value: "null": ...`); dopol tells it in the help of the first such
//!    error instead of as a second finding per object, which said nothing to fix.
//!
//! Messages are the API server's field errors (`spec.x: Required value`), so that what dopol
//! prints is what `kubectl apply` would print. `metadata`, `apiVersion` and `kind` are checked
//! by the loader; `status` is ignored when the status subresource is on (the API server drops
//! it on create).

use super::cel::{CompiledRule, Verdict, to_cel, to_cel_root};
use super::schema::{Additional, ListType, RuleSpec, Schema, Type};
use crate::source::Span;
use crate::yaml::{Entry, Node, Value};
use std::fmt::Write as _;

/// What a violation is, which decides its diagnostic code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Problem {
    /// A field the schema does not declare (strict field validation).
    UnknownField,
    /// The structural schema or a value validation.
    Schema,
    /// An `x-kubernetes-validations` rule is false (or failed to evaluate).
    Rule,
}

/// One violation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// Which kind of check failed.
    pub problem: Problem,
    /// The API server's error text, with its field path (`spec.x: Required value`).
    pub message: String,
    /// Where to point.
    pub span: Span,
    /// The schema node that decided, from `openAPIV3Schema`.
    pub schema_path: String,
    /// A suggestion: `did you mean ...` for unknown fields, how to render a template for a
    /// value that looks like an unfilled placeholder.
    pub suggestion: Option<String>,
    /// Whether the API server skips CEL rules after this error.
    blocking: bool,
}

/// The result of validating one object.
#[derive(Debug, Default)]
pub struct Validated {
    /// Violations, in walk order.
    pub violations: Vec<Violation>,
}

/// The text the API server adds when it did not run the CEL rules.
pub const RULES_NOT_CHECKED: &str = "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation";

/// Validates `root` (already defaulted) against `schema`.
pub fn validate(root: &Node, schema: &Schema, skip_status: bool) -> Validated {
    let mut walk = Walk::default();
    let Some(entries) = root.as_map() else {
        return Validated::default();
    };
    let top = |key: &str| {
        matches!(key, "apiVersion" | "kind" | "metadata") || (skip_status && key == "status")
    };
    // The root's `required` (`spec` in most CRDs), as for any object.
    for name in schema.required.iter().filter(|n| !top(n)) {
        let nullable = schema.property(name).is_some_and(|s| s.nullable);
        let present = entries
            .iter()
            .any(|e| *e.key.text == **name && (nullable || !e.value.is_null()));
        if !present {
            let span = entries.first().map_or(root.span, |e| e.key.span);
            walk.required(name, entries, span, &At::ROOT);
        }
    }
    for entry in entries.iter().filter(|e| !top(&e.key.text)) {
        let key = &*entry.key.text;
        match schema.property(key) {
            Some(s) => walk.node(&entry.value, s, &At::ROOT.child(Seg::Property(key))),
            None if schema.accepts_unknown() => {}
            None => walk.unknown(entry, schema, &At::ROOT),
        }
    }
    if !walk.violations.iter().any(|v| v.blocking) {
        for entry in entries.iter().filter(|e| !top(&e.key.text)) {
            if let Some(s) = schema.property(&entry.key.text) {
                walk.rules(
                    &entry.value,
                    s,
                    &At::ROOT.child(Seg::Property(&entry.key.text)),
                );
            }
        }
        walk.apply_rules(root, schema, &At::ROOT, true);
    } else if schema.has_rules()
        && let Some(first) = walk.violations.iter_mut().find(|v| v.blocking)
    {
        // The API server adds an error of its own (`<nil>: ... were not checked`): one more
        // finding per object that says nothing about what to fix, so it is told on the error
        // that caused it.
        let note = super::hints::rules_not_checked_note(RULES_NOT_CHECKED);
        first.suggestion = Some(match first.suggestion.take() {
            Some(help) => format!("{help}\n{note}"),
            None => note,
        });
    }
    Validated {
        violations: walk.violations,
    }
}

/// Where the walk is, as a chain of frames on the stack: the field path and the schema path are
/// only rendered when a violation needs them (rendering them at every node would cost more than
/// the walk itself).
#[derive(Clone, Copy)]
struct At<'a> {
    parent: Option<&'a At<'a>>,
    seg: Seg<'a>,
}

#[derive(Clone, Copy)]
enum Seg<'a> {
    Root,
    Property(&'a str),
    MapValue(&'a str),
    Item(usize),
}

impl<'a> At<'a> {
    const ROOT: At<'static> = At {
        parent: None,
        seg: Seg::Root,
    };

    fn child(&'a self, seg: Seg<'a>) -> At<'a> {
        At {
            parent: Some(self),
            seg,
        }
    }

    fn chain(&self) -> Vec<Seg<'a>> {
        let mut segs = vec![self.seg];
        let mut at = self.parent;
        while let Some(frame) = at {
            segs.push(frame.seg);
            at = frame.parent;
        }
        segs.reverse();
        segs
    }

    /// The field path, as the API server writes it (`spec.rules[0].matches`).
    fn path(&self) -> String {
        let mut out = String::new();
        for seg in self.chain() {
            match seg {
                Seg::Root => {}
                Seg::Property(k) | Seg::MapValue(k) => {
                    if !out.is_empty() {
                        out.push('.');
                    }
                    out.push_str(k);
                }
                Seg::Item(i) => {
                    let _ = write!(out, "[{i}]");
                }
            }
        }
        out
    }

    /// The schema node's path from `openAPIV3Schema`.
    fn schema_path(&self) -> String {
        let mut out = String::from("openAPIV3Schema");
        for seg in self.chain() {
            match seg {
                Seg::Root => {}
                Seg::Property(k) => {
                    let _ = write!(out, ".properties.{k}");
                }
                Seg::MapValue(_) => out.push_str(".additionalProperties"),
                Seg::Item(_) => out.push_str(".items"),
            }
        }
        out
    }
}

#[derive(Default)]
struct Walk {
    violations: Vec<Violation>,
    /// How many values were checked: go-openapi's `MatchCount`, which picks the failing branch
    /// of an `anyOf`/`oneOf` whose errors are shown.
    matched: usize,
}

/// The number of valid branches, and the failing branch that matched most (the first on a tie;
/// none once a branch is valid). `anyOf` stops at its first valid branch.
fn best_failure(
    branches: impl Iterator<Item = Walk>,
    stop_at_valid: bool,
) -> (usize, Option<Walk>) {
    let (mut valid, mut best) = (0, None::<Walk>);
    for walk in branches {
        if walk.violations.is_empty() {
            valid += 1;
            best = None;
            if stop_at_valid {
                break;
            }
        } else if valid == 0 && best.as_ref().is_none_or(|b| walk.matched > b.matched) {
            best = Some(walk);
        }
    }
    (valid, best)
}

impl Walk {
    fn push(&mut self, problem: Problem, message: String, span: Span, at: &At<'_>, blocking: bool) {
        self.violations.push(Violation {
            problem,
            message,
            span,
            schema_path: at.schema_path(),
            suggestion: None,
            blocking,
        });
    }

    /// `<path>.<name>: Required value`, a missing field of the mapping `entries` (at `at`),
    /// with what to write when the mapping says it.
    fn required(&mut self, name: &str, entries: &[Entry], span: Span, at: &At<'_>) {
        let path = at.child(Seg::Property(name)).path();
        self.push(
            Problem::Schema,
            format!("{path}: Required value"),
            span,
            at,
            true,
        );
        if let Some(last) = self.violations.last_mut() {
            last.suggestion = super::hints::missing_field_help(name, entries);
        }
    }

    /// `Invalid value: <value>: <path> in body <what>`, the API server's wording for value checks.
    fn invalid(&mut self, node: &Node, at: &At<'_>, what: &str, blocking: bool) {
        let path = at.path();
        let message = format!(
            "{path}: Invalid value: {}: {path} in body {what}",
            go_value(node)
        );
        self.push(Problem::Schema, message, node.span, at, blocking);
    }

    fn unknown(&mut self, entry: &Entry, parent: &Schema, at: &At<'_>) {
        let field = at.child(Seg::Property(&entry.key.text)).path();
        let known = parent.properties.iter().map(|(k, _)| &**k);
        let suggestion = crate::suggest::did_you_mean_help(&entry.key.text, known);
        self.push(
            Problem::UnknownField,
            format!("unknown field \"{field}\""),
            entry.key.span,
            at,
            false,
        );
        if let Some(last) = self.violations.last_mut() {
            last.suggestion = suggestion;
        }
    }

    /// Structural checks of `node` and its subtree (step 3 and unknown fields).
    fn node(&mut self, node: &Node, schema: &Schema, at: &At<'_>) {
        if node.is_null() {
            // Nullable, or pruned by the API server before validation (when the field has a
            // default, defaulting replaced the null already). Null list items are checked by
            // `array`.
            return;
        }
        if !self.type_ok(node, schema, at) {
            return;
        }
        self.value_checks(node, schema, at);
        match &node.value {
            Value::Map(entries) => self.object(node, entries, schema, at),
            Value::Seq(items) => self.array(node, items, schema, at),
            _ => {}
        }
    }

    fn type_ok(&mut self, node: &Node, schema: &Schema, at: &At<'_>) -> bool {
        let ok = match (schema.ty, &node.value) {
            _ if schema.int_or_string => matches!(node.value, Value::Int(_) | Value::String(_)),
            (None, _) => true,
            (Some(Type::Object), Value::Map(_))
            | (Some(Type::Array), Value::Seq(_))
            | (Some(Type::String), Value::String(_))
            | (Some(Type::Boolean), Value::Bool(_))
            | (Some(Type::Integer), Value::Int(_))
            | (Some(Type::Number), Value::Int(_) | Value::Float(_)) => true,
            (Some(Type::Integer), Value::Float(f)) => f.fract() == 0.0,
            _ => false,
        };
        if !ok {
            let expected = if schema.int_or_string {
                "integer,string"
            } else {
                schema.ty.map_or("", Type::name)
            };
            self.type_error(node, at, expected);
        }
        ok
    }

    fn type_error(&mut self, node: &Node, at: &At<'_>, expected: &str) {
        let path = at.path();
        let found = json_type(node);
        let message = format!(
            "{path}: Invalid value: \"{found}\": {path} in body must be of type {expected}: \"{found}\""
        );
        self.push(Problem::Schema, message, node.span, at, true);
    }

    fn object(&mut self, node: &Node, entries: &[Entry], schema: &Schema, at: &At<'_>) {
        for name in &schema.required {
            let nullable = schema.property(name).is_some_and(|s| s.nullable);
            let present = entries
                .iter()
                .any(|e| *e.key.text == **name && (nullable || !e.value.is_null()));
            if !present {
                let span = entries.first().map_or(node.span, |e| e.key.span);
                self.required(name, entries, span, at);
            }
        }
        let closed = !schema.accepts_unknown()
            && (schema.ty == Some(Type::Object) || !schema.properties.is_empty());
        for entry in entries {
            let key = &*entry.key.text;
            if let Some(s) = schema.property(key) {
                self.node(&entry.value, s, &at.child(Seg::Property(key)));
            } else if let Additional::Schema(s) = &schema.additional {
                self.node(&entry.value, s, &at.child(Seg::MapValue(key)));
            } else if matches!(schema.additional, Additional::Bool(false)) {
                // Pruning keeps the key (`additionalProperties` is set), so the API server
                // reports it as kube-openapi does, not as an unknown field.
                let path = at.path();
                let message = format!(
                    "{path}: Invalid value: {key:?}: {} in body is a forbidden property",
                    at.child(Seg::Property(key)).path()
                );
                self.push(Problem::Schema, message, entry.key.span, at, false);
            } else if closed {
                self.unknown(entry, schema, at);
            }
        }
        let bounds = (schema.min_properties, schema.max_properties);
        self.count_checks(node, at, entries.len(), bounds, "properties");
    }

    /// `minItems`/`maxItems` and `minProperties`/`maxProperties`: too many is the API server's
    /// `TooMany` (which blocks the rules, and always says "items"), too few an invalid value.
    fn count_checks(
        &mut self,
        node: &Node,
        at: &At<'_>,
        count: usize,
        (min, max): (Option<u64>, Option<u64>),
        noun: &str,
    ) {
        let count = count as u64;
        if let Some(max) = max.filter(|m| count > *m) {
            let path = at.path();
            let message = format!("{path}: Too many: {count}: must have at most {max} items");
            self.push(Problem::Schema, message, node.span, at, true);
        }
        if let Some(min) = min.filter(|m| count < *m) {
            let path = at.path();
            let message = format!(
                "{path}: Invalid value: {count}: {path} in body should have at least {min} {noun}"
            );
            self.push(Problem::Schema, message, node.span, at, false);
        }
    }

    fn array(&mut self, node: &Node, items: &[Node], schema: &Schema, at: &At<'_>) {
        let bounds = (schema.min_items, schema.max_items);
        self.count_checks(node, at, items.len(), bounds, "items");
        if let Some(item_schema) = &schema.items {
            for (i, item) in items.iter().enumerate() {
                let child = at.child(Seg::Item(i));
                if item.is_null() && !item_schema.nullable {
                    self.type_error(item, &child, item_schema.ty.map_or("", Type::name));
                } else {
                    self.node(item, item_schema, &child);
                }
            }
        }
        self.list_type(items, schema, at);
        if schema.unique_items
            && let Some(dup) = items
                .iter()
                .enumerate()
                .find(|(i, item)| items[..*i].iter().any(|o| o.same_value(item)))
        {
            let _ = dup;
            self.invalid(node, at, "shouldn't contain duplicates", false);
        }
    }

    /// `x-kubernetes-list-type: set|map`: no duplicate items (by value, or by key fields).
    fn list_type(&mut self, items: &[Node], schema: &Schema, at: &At<'_>) {
        let keys: &[Box<str>] = match &schema.list_type {
            ListType::Atomic => return,
            ListType::Set => &[],
            ListType::Map(keys) => keys,
        };
        let key_of = |item: &Node| -> Vec<Option<Node>> {
            keys.iter().map(|k| item.get(k).cloned()).collect()
        };
        let same = |a: &Node, b: &Node| {
            if keys.is_empty() {
                return a.same_value(b);
            }
            key_of(a)
                .iter()
                .zip(key_of(b).iter())
                .all(|(x, y)| match (x, y) {
                    (Some(x), Some(y)) => x.same_value(y),
                    (None, None) => true,
                    _ => false,
                })
        };
        for (i, item) in items.iter().enumerate() {
            // Only the second occurrence of a value is reported (`validateListSet`).
            if items[..i].iter().filter(|o| same(o, item)).count() != 1 {
                continue;
            }
            let shown = if keys.is_empty() {
                go_value(item)
            } else {
                // Go prints a map's keys sorted.
                let mut pairs: Vec<(&Box<str>, Option<Node>)> =
                    keys.iter().zip(key_of(item)).collect();
                pairs.sort_by(|a, b| a.0.cmp(b.0));
                let mut shown = String::from("map[string]interface {}{");
                for (n, (k, v)) in pairs.into_iter().filter(|(_, v)| v.is_some()).enumerate() {
                    if let Some(v) = v {
                        let _ = write!(
                            shown,
                            "{}\"{k}\":{}",
                            if n > 0 { ", " } else { "" },
                            go_value(&v)
                        );
                    }
                }
                shown.push('}');
                shown
            };
            let path = at.child(Seg::Item(i)).path();
            self.push(
                Problem::Schema,
                format!("{path}: Duplicate value: {shown}"),
                item.span,
                at,
                false,
            );
        }
    }

    /// `enum`, `pattern`, `format`, bounds, lengths, and the combinators.
    fn value_checks(&mut self, node: &Node, schema: &Schema, at: &At<'_>) {
        self.matched += 1;
        if !schema.enumeration.is_empty()
            && !schema.enumeration.iter().any(|e| scalar_equal(e, node))
        {
            {
                let supported: Vec<String> = schema.enumeration.iter().map(go_json).collect();
                let path = at.path();
                let message = format!(
                    "{path}: Unsupported value: {}: supported values: {}",
                    go_value(node),
                    supported.join(", ")
                );
                self.push(Problem::Schema, message, node.span, at, true);
            }
        }
        match &node.value {
            Value::String(s) => self.string_checks(node, s, schema, at),
            Value::Int(_) | Value::Float(_) => self.number_checks(node, schema, at),
            _ => {}
        }
        if !schema.all_of.is_empty()
            || !schema.any_of.is_empty()
            || !schema.one_of.is_empty()
            || schema.not.is_some()
        {
            self.combinators(node, schema, at);
        }
    }

    fn string_checks(&mut self, node: &Node, s: &str, schema: &Schema, at: &At<'_>) {
        // Characters are counted only when the byte length cannot decide: a string has at most
        // one character per byte and at least one per four.
        let bytes = s.len() as u64;
        let chars = || s.chars().count() as u64;
        if let Some(max) = schema.max_length.filter(|&m| bytes > m && chars() > m) {
            let path = at.path();
            self.push(
                Problem::Schema,
                format!("{path}: Too long: may not be more than {max} bytes"),
                node.span,
                at,
                true,
            );
        }
        if let Some(min) = schema
            .min_length
            .filter(|&m| bytes < m || (bytes.div_ceil(4) < m && chars() < m))
        {
            self.invalid(
                node,
                at,
                &format!("should be at least {min} chars long"),
                false,
            );
        }
        if let Some(pattern) = &schema.pattern
            && let Some(regex) = pattern.regex()
            && !regex.is_match(s)
        {
            self.invalid(
                node,
                at,
                &format!("should match '{}'", pattern.source),
                false,
            );
            if let Some(last) = self.violations.last_mut() {
                last.suggestion = crate::load::names::template_help(s);
            }
        }
        if let Some(format) = &schema.format
            && !super::formats::valid(format, s)
        {
            self.invalid(
                node,
                at,
                &format!("must be of type {format}: {}", go_value(node)),
                // kube-openapi reports a format as a type error (`TypeInvalid`), which blocks.
                true,
            );
        }
    }

    fn number_checks(&mut self, node: &Node, schema: &Schema, at: &At<'_>) {
        let n = match node.value {
            Value::Int(i) => i as f64,
            Value::Float(f) => f,
            _ => return,
        };
        if let Some(min) = schema.minimum {
            let (bad, words) = if min.exclusive {
                (n <= min.value, "greater than")
            } else {
                (n < min.value, "greater than or equal to")
            };
            if bad {
                self.invalid(
                    node,
                    at,
                    &format!("should be {words} {}", number(min.value)),
                    false,
                );
            }
        }
        if let Some(max) = schema.maximum {
            let (bad, words) = if max.exclusive {
                (n >= max.value, "less than")
            } else {
                (n > max.value, "less than or equal to")
            };
            if bad {
                self.invalid(
                    node,
                    at,
                    &format!("should be {words} {}", number(max.value)),
                    false,
                );
            }
        }
        if let Some(m) = schema
            .multiple_of
            .filter(|m| *m != 0.0 && (n / m).fract() != 0.0)
        {
            self.invalid(
                node,
                at,
                &format!("should be a multiple of {}", number(m)),
                false,
            );
        }
    }

    /// `allOf`/`anyOf`/`oneOf`/`not`: value validations on the same value (structural schemas
    /// allow no types or structure inside them, so a sub-walk of the value checks is enough).
    ///
    /// As kube-openapi's `schemaPropsValidator`: a failed combinator is a composite error, which
    /// the API server prints without a field (`<nil>: Invalid value: "": "<path>" must …`),
    /// followed by the errors of the failing branch that matched most (the first on a tie) for
    /// `anyOf`/`oneOf`, and of every branch for `allOf`.
    fn combinators(&mut self, node: &Node, schema: &Schema, at: &At<'_>) {
        let probe = |sub: &std::sync::Arc<Schema>| {
            let mut walk = Walk::default();
            walk.value_checks(node, sub, at);
            walk.sub_structure(node, sub, at);
            walk
        };
        if !schema.any_of.is_empty() {
            let (valid, best) = best_failure(schema.any_of.iter().map(probe), true);
            if valid == 0 {
                self.composite(node, at, "must validate at least one schema (anyOf)");
            }
            self.merge(best);
        }
        if !schema.one_of.is_empty() {
            let (valid, best) = best_failure(schema.one_of.iter().map(probe), false);
            if valid != 1 {
                let found = match valid {
                    0 => "Found none valid".to_string(),
                    n => format!("Found {n} valid alternatives"),
                };
                let what = format!("must validate one and only one schema (oneOf). {found}");
                self.composite(node, at, &what);
                self.merge(best);
            }
        }
        if !schema.all_of.is_empty() {
            let mut valid = 0;
            for walk in schema.all_of.iter().map(probe) {
                valid += usize::from(walk.violations.is_empty());
                self.merge(Some(walk));
            }
            if valid != schema.all_of.len() {
                let none = if valid == 0 { ". None validated" } else { "" };
                self.composite(
                    node,
                    at,
                    &format!("must validate all the schemas (allOf){none}"),
                );
            }
        }
        if let Some(not) = &schema.not
            && probe(not).violations.is_empty()
        {
            self.composite(node, at, "must not validate the schema (not)");
        }
    }

    /// A composite error: the API server reports it on no field, with an empty value.
    fn composite(&mut self, node: &Node, at: &At<'_>, what: &str) {
        let message = format!("<nil>: Invalid value: \"\": {:?} {what}", at.path());
        self.push(Problem::Schema, message, node.span, at, false);
    }

    /// Adds a branch's errors, skipping messages already reported (`Result.AddErrors`).
    fn merge(&mut self, branch: Option<Walk>) {
        let Some(branch) = branch else { return };
        self.matched += branch.matched;
        for violation in branch.violations {
            if !self
                .violations
                .iter()
                .any(|v| v.message == violation.message)
            {
                self.violations.push(violation);
            }
        }
    }

    /// Inside a combinator: `required` and the value checks of declared properties and items.
    fn sub_structure(&mut self, node: &Node, sub: &Schema, at: &At<'_>) {
        if let Some(entries) = node.as_map() {
            for name in &sub.required {
                if !entries.iter().any(|e| *e.key.text == **name) {
                    self.required(name, entries, node.span, at);
                }
            }
            for entry in entries {
                if let Some(s) = sub.property(&entry.key.text) {
                    let child = at.child(Seg::Property(&entry.key.text));
                    self.value_checks(&entry.value, s, &child);
                    self.sub_structure(&entry.value, s, &child);
                }
            }
        }
        if let (Some(items), Some(s)) = (node.as_seq(), &sub.items) {
            for (i, item) in items.iter().enumerate() {
                let child = at.child(Seg::Item(i));
                self.value_checks(item, s, &child);
                self.sub_structure(item, s, &child);
            }
        }
    }

    /// Step 4: the rules of the subtree, deepest first, then the node's own.
    fn rules(&mut self, node: &Node, schema: &Schema, at: &At<'_>) {
        if node.is_null() || !schema.has_rules() {
            return;
        }
        match &node.value {
            Value::Map(entries) => {
                for entry in entries.iter() {
                    let key = &*entry.key.text;
                    if let Some(s) = schema.property(key) {
                        self.rules(&entry.value, s, &at.child(Seg::Property(key)));
                    } else if let Additional::Schema(s) = &schema.additional {
                        self.rules(&entry.value, s, &at.child(Seg::MapValue(key)));
                    }
                }
            }
            Value::Seq(items) => {
                if let Some(s) = &schema.items {
                    for (i, item) in items.iter().enumerate() {
                        self.rules(item, s, &at.child(Seg::Item(i)));
                    }
                }
            }
            _ => {}
        }
        self.apply_rules(node, schema, at, false);
    }

    fn apply_rules(&mut self, node: &Node, schema: &Schema, at: &At<'_>, root: bool) {
        if schema.rules.is_empty() {
            return;
        }
        // The verdicts of equal values are remembered; on a miss, rules that hold on the fast
        // path are done and the others are evaluated in full.
        let positions = schema.create_rules();
        if positions.is_empty() {
            return;
        }
        let verdicts = super::memo::verdicts(schema, node, root, positions, || {
            let rules: Vec<_> = (positions.iter())
                .filter_map(|&i| {
                    Some((&schema.rules[i], schema.rules[i].compiled().as_ref().ok()?))
                })
                .collect();
            evaluate_rules(node, schema, root, &rules)
        });
        for (&position, verdict) in positions.iter().zip(verdicts.iter().cloned()) {
            let rule = &schema.rules[position];
            // A false rule is reported at its `fieldPath` with its `reason`; an evaluation
            // error always at the rule's node, as an invalid value (`fieldErrorForReason`).
            let (detail, reason, field_path) = match verdict {
                Verdict::Pass => continue,
                Verdict::Fail(message) => {
                    (message, rule.reason.as_deref(), rule.field_path.as_deref())
                }
                Verdict::Error(message) => (message, None, None),
            };
            let path = at.path();
            let (shown, span) = match field_path {
                Some(fp) => field_path_target(node, &path, fp),
                None => (path, node.span),
            };
            let shown = if shown.is_empty() {
                "<nil>".to_string()
            } else {
                shown
            };
            let value_type = cel_type_name(node, schema);
            let message = match reason {
                Some("FieldValueRequired") => format!("{shown}: Required value: {detail}"),
                Some("FieldValueForbidden") => format!("{shown}: Forbidden: {detail}"),
                Some("FieldValueDuplicate") => {
                    format!("{shown}: Duplicate value: \"{value_type}\"")
                }
                _ => format!("{shown}: Invalid value: \"{value_type}\": {detail}"),
            };
            self.push(Problem::Rule, message, span, at, false);
        }
    }
}

/// The verdicts of `rules` on `node`: a pass for each rule that holds on the fast path, the
/// general evaluator's verdict for the others.
fn evaluate_rules(
    node: &Node,
    schema: &Schema,
    root: bool,
    rules: &[(&RuleSpec, &CompiledRule)],
) -> Vec<Verdict> {
    let mut direct = super::cel::Direct::new(node, schema, root);
    let slow: Vec<usize> = (0..rules.len())
        .filter(|&i| direct.as_mut().is_none_or(|d| !d.holds(rules[i].1)))
        .collect();
    let mut verdicts = vec![Verdict::Pass; rules.len()];
    if slow.is_empty() {
        return verdicts;
    }
    let this = if root {
        to_cel_root(node, schema)
    } else {
        to_cel(node, schema)
    };
    let compiled: Vec<&CompiledRule> = slow.iter().map(|&i| rules[i].1).collect();
    for (i, verdict) in slow
        .into_iter()
        .zip(super::cel::evaluate_all(&compiled, &this))
    {
        verdicts[i] = verdict;
    }
    verdicts
}

/// `fieldPath` (`.spec.x`, `.list[0]`, `['key']`): the path and span the error is reported at.
fn field_path_target(node: &Node, path: &str, field_path: &str) -> (String, Span) {
    let mut current = node;
    let mut shown = path.to_string();
    for part in field_path.split('.').filter(|p| !p.is_empty()) {
        let name = part.split('[').next().unwrap_or(part);
        shown = join(&shown, part);
        if let Some(child) = current.get(name) {
            current = child;
        }
    }
    (shown, current.span)
}

/// The type name the API server shows in `Invalid value: "<type>"` for a rule's value.
fn cel_type_name(node: &Node, schema: &Schema) -> &'static str {
    match &node.value {
        Value::Map(_) => "object",
        Value::Seq(_) => "array",
        Value::String(_) => "string",
        Value::Int(_) if schema.ty == Some(Type::Number) => "number",
        Value::Int(_) => "integer",
        Value::Float(_) => "number",
        Value::Bool(_) => "boolean",
        Value::Null => "null",
    }
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

fn json_type(node: &Node) -> &'static str {
    match &node.value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Int(_) => "integer",
        Value::Float(_) => "number",
        Value::String(_) => "string",
        Value::Seq(_) => "array",
        Value::Map(_) => "object",
    }
}

/// A number as Go's `%v` prints a float64 limit (`65535`, `0.5`).
fn number(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    }
}

/// A value the way the API server's field errors show it: strings quoted, numbers bare,
/// collections as JSON.
fn go_value(node: &Node) -> String {
    go_json(&node.to_json())
}

fn go_json(json: &serde_json::Value) -> String {
    match json {
        serde_json::Value::String(s) => format!("{s:?}"),
        other => other.to_string(),
    }
}

/// Whether an `enum` entry equals the node (scalars compared directly; collections through JSON).
fn scalar_equal(e: &serde_json::Value, node: &Node) -> bool {
    use serde_json::Value as J;
    match (e, &node.value) {
        (J::String(a), Value::String(b)) => a.as_str() == &**b,
        (J::Bool(a), Value::Bool(b)) => a == b,
        (J::Null, Value::Null) => true,
        (J::Number(a), Value::Int(b)) => a.as_f64() == Some(*b as f64),
        (J::Number(a), Value::Float(b)) => a.as_f64() == Some(*b),
        (J::Array(_) | J::Object(_), Value::Seq(_) | Value::Map(_)) => {
            json_equal(e, &node.to_json())
        }
        _ => false,
    }
}

fn json_equal(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}
