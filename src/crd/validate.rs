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
//!    wrong type): then, as the API server does, one error says the rules were not checked.
//!
//! Messages are the API server's field errors (`spec.x: Required value`), so that what dopol
//! prints is what `kubectl apply` would print. `metadata`, `apiVersion` and `kind` are checked
//! by the loader; `status` is ignored when the status subresource is on (the API server drops
//! it on create).

use super::cel::{Verdict, to_cel};
use super::schema::{Additional, ListType, Schema, Type};
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

/// A rule that could not be evaluated, with the schema path it sits at and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// The schema path.
    pub schema_path: String,
    /// The rule.
    pub rule: String,
    /// Why.
    pub reason: String,
}

/// The result of validating one object.
#[derive(Debug, Default)]
pub struct Validated {
    /// Violations, in walk order.
    pub violations: Vec<Violation>,
    /// Rules met on this object that dopol could not evaluate.
    pub skipped: Vec<Skipped>,
}

/// The text the API server adds when it did not run the CEL rules.
pub const RULES_NOT_CHECKED: &str = "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation";

/// Validates `root` (already defaulted) against `schema`.
pub fn validate(root: &Node, schema: &Schema, skip_status: bool) -> Validated {
    let mut walk = Walk::default();
    let Some(entries) = root.as_map() else {
        return walk.done();
    };
    for entry in entries {
        let key = &*entry.key.text;
        if matches!(key, "apiVersion" | "kind" | "metadata") || (skip_status && key == "status") {
            continue;
        }
        match schema.property(key) {
            Some(s) => walk.node(
                &entry.value,
                s,
                key,
                &format!("openAPIV3Schema.properties.{key}"),
            ),
            None if schema.accepts_unknown() => {}
            None => walk.unknown(entry, schema, "", "openAPIV3Schema"),
        }
    }
    if !walk.violations.iter().any(|v| v.blocking) {
        walk.rules_pass(root, schema, "openAPIV3Schema", skip_status);
    } else if schema.has_rules() {
        walk.violations.push(Violation {
            problem: Problem::Rule,
            message: RULES_NOT_CHECKED.into(),
            span: root
                .as_map()
                .and_then(|m| m.first())
                .map_or(root.span, |e| e.key.span),
            schema_path: "openAPIV3Schema".into(),
            suggestion: None,
            blocking: false,
        });
    }
    walk.done()
}

#[derive(Default)]
struct Walk {
    violations: Vec<Violation>,
    skipped: Vec<Skipped>,
}

impl Walk {
    fn done(self) -> Validated {
        Validated {
            violations: self.violations,
            skipped: self.skipped,
        }
    }

    fn push(
        &mut self,
        problem: Problem,
        message: String,
        span: Span,
        schema_path: &str,
        blocking: bool,
    ) {
        self.violations.push(Violation {
            problem,
            message,
            span,
            schema_path: schema_path.into(),
            suggestion: None,
            blocking,
        });
    }

    fn unknown(&mut self, entry: &Entry, parent: &Schema, path: &str, schema_path: &str) {
        let field = join(path, &entry.key.text);
        let suggestion =
            crate::suggest::closest(&entry.key.text, parent.properties.iter().map(|(k, _)| &**k))
                .map(|s| format!("did you mean `{s}`?"));
        self.violations.push(Violation {
            problem: Problem::UnknownField,
            message: format!("unknown field \"{field}\""),
            span: entry.key.span,
            schema_path: schema_path.into(),
            suggestion,
            blocking: false,
        });
    }

    /// Structural checks of `node` and its subtree (step 3 and unknown fields).
    fn node(&mut self, node: &Node, schema: &Schema, path: &str, schema_path: &str) {
        if node.is_null() {
            // Nullable, or pruned by the API server before validation (when the field has a
            // default, defaulting replaced the null already). Null list items are checked by
            // `array`.
            return;
        }
        if !self.type_ok(node, schema, path, schema_path) {
            return;
        }
        self.value_checks(node, schema, path, schema_path);
        match &node.value {
            Value::Map(entries) => self.object(node, entries, schema, path, schema_path),
            Value::Seq(items) => self.array(node, items, schema, path, schema_path),
            _ => {}
        }
    }

    fn type_ok(&mut self, node: &Node, schema: &Schema, path: &str, schema_path: &str) -> bool {
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
            let found = json_type(node);
            self.push(
                Problem::Schema,
                format!("{path}: Invalid value: \"{found}\": {path} in body must be of type {expected}: \"{found}\""),
                node.span,
                schema_path,
                true,
            );
        }
        ok
    }

    fn object(
        &mut self,
        node: &Node,
        entries: &[Entry],
        schema: &Schema,
        path: &str,
        schema_path: &str,
    ) {
        for name in &schema.required {
            let present = entries
                .iter()
                .find(|e| *e.key.text == **name)
                .is_some_and(|e| {
                    !e.value.is_null() || schema.property(name).is_some_and(|s| s.nullable)
                });
            if !present {
                let span = node
                    .as_map()
                    .and_then(|m| m.first())
                    .map_or(node.span, |e| e.key.span);
                self.push(
                    Problem::Schema,
                    format!("{}: Required value", join(path, name)),
                    span,
                    schema_path,
                    true,
                );
            }
        }
        for entry in entries {
            let key = &*entry.key.text;
            let child = join(path, key);
            if let Some(s) = schema.property(key) {
                self.node(
                    &entry.value,
                    s,
                    &child,
                    &format!("{schema_path}.properties.{key}"),
                );
            } else if let Additional::Schema(s) = &schema.additional {
                self.node(
                    &entry.value,
                    s,
                    &child,
                    &format!("{schema_path}.additionalProperties"),
                );
            } else if !schema.accepts_unknown()
                && (!schema.properties.is_empty()
                    || matches!(schema.additional, Additional::Bool(false))
                    || schema.ty == Some(Type::Object))
            {
                self.unknown(entry, schema, path, schema_path);
            }
        }
        let count = entries.len() as u64;
        if let Some(max) = schema.max_properties.filter(|m| count > *m) {
            self.push(
                Problem::Schema,
                format!("{path}: Too many: {count}: must have at most {max} items"),
                node.span,
                schema_path,
                true,
            );
        }
        if let Some(min) = schema.min_properties.filter(|m| count < *m) {
            self.push(Problem::Schema, format!("{path}: Invalid value: {count}: {path} in body should have at least {min} properties"), node.span, schema_path, false);
        }
    }

    fn array(
        &mut self,
        node: &Node,
        items: &[Node],
        schema: &Schema,
        path: &str,
        schema_path: &str,
    ) {
        let count = items.len() as u64;
        if let Some(max) = schema.max_items.filter(|m| count > *m) {
            self.push(
                Problem::Schema,
                format!("{path}: Too many: {count}: must have at most {max} items"),
                node.span,
                schema_path,
                true,
            );
        }
        if let Some(min) = schema.min_items.filter(|m| count < *m) {
            self.push(Problem::Schema, format!("{path}: Invalid value: {count}: {path} in body should have at least {min} items"), node.span, schema_path, false);
        }
        if let Some(item_schema) = &schema.items {
            let item_path = format!("{schema_path}.items");
            for (i, item) in items.iter().enumerate() {
                let child = format!("{path}[{i}]");
                if item.is_null() && !item_schema.nullable {
                    let expected = item_schema.ty.map_or("", Type::name);
                    self.push(Problem::Schema, format!("{child}: Invalid value: \"null\": {child} in body must be of type {expected}: \"null\""), item.span, &item_path, true);
                    continue;
                }
                self.node(item, item_schema, &child, &item_path);
            }
        }
        self.list_type(items, schema, path, schema_path);
        if schema.unique_items {
            for (i, item) in items.iter().enumerate() {
                if items[..i].iter().any(|o| o.same_value(item)) {
                    self.push(Problem::Schema, format!("{path}: Invalid value: {}: {path} in body shouldn't contain duplicates", go_value(node)), item.span, schema_path, false);
                    break;
                }
            }
        }
    }

    /// `x-kubernetes-list-type: set|map`: no duplicate items (by value, or by key fields).
    fn list_type(&mut self, items: &[Node], schema: &Schema, path: &str, schema_path: &str) {
        match &schema.list_type {
            ListType::Atomic => {}
            ListType::Set => {
                for (i, item) in items.iter().enumerate() {
                    if items[..i].iter().any(|o| o.same_value(item)) {
                        self.push(
                            Problem::Schema,
                            format!("{path}[{i}]: Duplicate value: {}", go_value(item)),
                            item.span,
                            schema_path,
                            false,
                        );
                    }
                }
            }
            ListType::Map(keys) => {
                let key_of = |item: &Node| -> Vec<Option<Node>> {
                    keys.iter().map(|k| item.get(k).cloned()).collect()
                };
                for (i, item) in items.iter().enumerate() {
                    let key = key_of(item);
                    let same = |o: &Node| {
                        key_of(o).iter().zip(&key).all(|(a, b)| match (a, b) {
                            (Some(a), Some(b)) => a.same_value(b),
                            (None, None) => true,
                            _ => false,
                        })
                    };
                    if items[..i].iter().any(same) {
                        let mut shown = String::from("map[string]interface {}{");
                        for (n, (k, v)) in keys.iter().zip(&key).enumerate() {
                            if let Some(v) = v {
                                let _ = write!(
                                    shown,
                                    "{}\"{k}\":{}",
                                    if n > 0 { ", " } else { "" },
                                    go_value(v)
                                );
                            }
                        }
                        shown.push('}');
                        self.push(
                            Problem::Schema,
                            format!("{path}[{i}]: Duplicate value: {shown}"),
                            item.span,
                            schema_path,
                            false,
                        );
                    }
                }
            }
        }
    }

    /// `enum`, `pattern`, `format`, bounds, lengths, and the combinators.
    fn value_checks(&mut self, node: &Node, schema: &Schema, path: &str, schema_path: &str) {
        if !schema.enumeration.is_empty() {
            let json = node.to_json();
            if !schema.enumeration.iter().any(|e| json_equal(e, &json)) {
                let supported: Vec<String> =
                    schema.enumeration.iter().map(|e| go_json(e)).collect();
                self.push(
                    Problem::Schema,
                    format!(
                        "{path}: Unsupported value: {}: supported values: {}",
                        go_value(node),
                        supported.join(", ")
                    ),
                    node.span,
                    schema_path,
                    true,
                );
            }
        }
        match &node.value {
            Value::String(s) => self.string_checks(node, s, schema, path, schema_path),
            Value::Int(_) | Value::Float(_) => self.number_checks(node, schema, path, schema_path),
            _ => {}
        }
        self.combinators(node, schema, path, schema_path);
    }

    fn string_checks(
        &mut self,
        node: &Node,
        s: &str,
        schema: &Schema,
        path: &str,
        schema_path: &str,
    ) {
        let chars = s.chars().count() as u64;
        if let Some(max) = schema.max_length.filter(|m| chars > *m) {
            self.push(
                Problem::Schema,
                format!("{path}: Too long: may not be more than {max} bytes"),
                node.span,
                schema_path,
                true,
            );
        }
        if let Some(min) = schema.min_length.filter(|m| chars < *m) {
            self.push(
                Problem::Schema,
                format!(
                    "{path}: Invalid value: {}: {path} in body should be at least {min} chars long",
                    go_value(node)
                ),
                node.span,
                schema_path,
                false,
            );
        }
        if let Some(pattern) = &schema.pattern
            && let Some(regex) = pattern.regex()
            && !regex.is_match(s)
        {
            self.push(
                Problem::Schema,
                format!(
                    "{path}: Invalid value: {}: {path} in body should match '{}'",
                    go_value(node),
                    pattern.source
                ),
                node.span,
                schema_path,
                false,
            );
            if let Some(last) = self.violations.last_mut() {
                last.suggestion = crate::load::names::template_help(s);
            }
        }
        if let Some(format) = &schema.format
            && !super::formats::valid(format, s)
        {
            self.push(
                Problem::Schema,
                format!(
                    "{path}: Invalid value: {}: {path} in body must be of type {format}: {}",
                    go_value(node),
                    go_value(node)
                ),
                node.span,
                schema_path,
                false,
            );
        }
    }

    fn number_checks(&mut self, node: &Node, schema: &Schema, path: &str, schema_path: &str) {
        let n = match node.value {
            Value::Int(i) => i as f64,
            Value::Float(f) => f,
            _ => return,
        };
        let shown = go_value(node);
        if let Some(min) = schema.minimum {
            let (bad, words) = if min.exclusive {
                (n <= min.value, "greater than")
            } else {
                (n < min.value, "greater than or equal to")
            };
            if bad {
                self.push(
                    Problem::Schema,
                    format!(
                        "{path}: Invalid value: {shown}: {path} in body should be {words} {}",
                        number(min.value)
                    ),
                    node.span,
                    schema_path,
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
                self.push(
                    Problem::Schema,
                    format!(
                        "{path}: Invalid value: {shown}: {path} in body should be {words} {}",
                        number(max.value)
                    ),
                    node.span,
                    schema_path,
                    false,
                );
            }
        }
        if let Some(m) = schema
            .multiple_of
            .filter(|m| *m != 0.0 && (n / m).fract() != 0.0)
        {
            self.push(
                Problem::Schema,
                format!(
                    "{path}: Invalid value: {shown}: {path} in body should be a multiple of {}",
                    number(m)
                ),
                node.span,
                schema_path,
                false,
            );
        }
    }

    /// `allOf`/`anyOf`/`oneOf`/`not`: value validations on the same value (structural schemas
    /// allow no types or structure inside them, so a sub-walk that only counts errors is enough).
    fn combinators(&mut self, node: &Node, schema: &Schema, path: &str, schema_path: &str) {
        let passes = |sub: &Schema| {
            let mut probe = Walk::default();
            probe.value_checks(node, sub, path, schema_path);
            probe.sub_structure(node, sub, path, schema_path);
            probe.violations.is_empty()
        };
        for sub in &schema.all_of {
            self.value_checks(node, sub, path, schema_path);
            self.sub_structure(node, sub, path, schema_path);
        }
        if !schema.any_of.is_empty() && !schema.any_of.iter().any(passes) {
            self.push(Problem::Schema, format!("{path}: Invalid value: {}: {path} in body must validate at least one schema (anyOf)", go_value(node)), node.span, schema_path, false);
        }
        if !schema.one_of.is_empty() && schema.one_of.iter().filter(|s| passes(s)).count() != 1 {
            self.push(Problem::Schema, format!("{path}: Invalid value: {}: {path} in body must validate one and only one schema (oneOf)", go_value(node)), node.span, schema_path, false);
        }
        if let Some(not) = &schema.not
            && passes(not)
        {
            self.push(
                Problem::Schema,
                format!(
                    "{path}: Invalid value: {}: {path} in body must not validate the schema (not)",
                    go_value(node)
                ),
                node.span,
                schema_path,
                false,
            );
        }
    }

    /// Inside a combinator: `required` and the value checks of declared properties and items.
    fn sub_structure(&mut self, node: &Node, sub: &Schema, path: &str, schema_path: &str) {
        if let Some(entries) = node.as_map() {
            for name in &sub.required {
                if !entries.iter().any(|e| *e.key.text == **name) {
                    self.push(
                        Problem::Schema,
                        format!("{}: Required value", join(path, name)),
                        node.span,
                        schema_path,
                        true,
                    );
                }
            }
            for entry in entries {
                if let Some(s) = sub.property(&entry.key.text) {
                    let child = join(path, &entry.key.text);
                    self.value_checks(&entry.value, s, &child, schema_path);
                    self.sub_structure(&entry.value, s, &child, schema_path);
                }
            }
        }
        if let (Some(items), Some(s)) = (node.as_seq(), &sub.items) {
            for (i, item) in items.iter().enumerate() {
                let child = format!("{path}[{i}]");
                self.value_checks(item, s, &child, schema_path);
                self.sub_structure(item, s, &child, schema_path);
            }
        }
    }

    /// Step 4: every `x-kubernetes-validations` rule of the tree, bottom-up as written.
    fn rules_pass(&mut self, root: &Node, schema: &Schema, schema_path: &str, skip_status: bool) {
        for entry in root.as_map().unwrap_or_default() {
            let key = &*entry.key.text;
            if matches!(key, "apiVersion" | "kind" | "metadata") || (skip_status && key == "status")
            {
                continue;
            }
            if let Some(s) = schema.property(key) {
                self.rules(
                    &entry.value,
                    s,
                    key,
                    &format!("{schema_path}.properties.{key}"),
                );
            }
        }
        let _ = self.apply_rules(root, schema, "", schema_path);
    }

    fn rules(&mut self, node: &Node, schema: &Schema, path: &str, schema_path: &str) {
        if node.is_null() || !schema.has_rules() {
            return;
        }
        match &node.value {
            Value::Map(entries) => {
                for entry in entries.iter() {
                    if let Some(s) = schema.field(&entry.key.text) {
                        let sp = if schema.property(&entry.key.text).is_some() {
                            format!("{schema_path}.properties.{}", entry.key.text)
                        } else {
                            format!("{schema_path}.additionalProperties")
                        };
                        self.rules(&entry.value, s, &join(path, &entry.key.text), &sp);
                    }
                }
            }
            Value::Seq(items) => {
                if let Some(s) = &schema.items {
                    let sp = format!("{schema_path}.items");
                    for (i, item) in items.iter().enumerate() {
                        self.rules(item, s, &format!("{path}[{i}]"), &sp);
                    }
                }
            }
            _ => {}
        }
        self.apply_rules(node, schema, path, schema_path);
    }

    fn apply_rules(&mut self, node: &Node, schema: &Schema, path: &str, schema_path: &str) {
        if schema.rules.is_empty() {
            return;
        }
        let this = to_cel(node, schema);
        for rule in &schema.rules {
            if rule.is_transition() && !rule.optional_old_self {
                continue;
            }
            let compiled = match rule.compiled() {
                Ok(c) => c,
                Err(reason) => {
                    self.skipped.push(Skipped {
                        schema_path: schema_path.into(),
                        rule: rule.rule.to_string(),
                        reason: reason.clone(),
                    });
                    continue;
                }
            };
            let detail = match compiled.evaluate(&this) {
                Verdict::Pass => continue,
                Verdict::Fail(message) | Verdict::Error(message) => message,
            };
            let (at, span) = match rule.field_path.as_deref() {
                Some(fp) => field_path_target(node, path, fp),
                None => (path.to_string(), node.span),
            };
            let shown = if at.is_empty() {
                "<nil>".to_string()
            } else {
                at
            };
            let value_type = cel_type_name(node, schema);
            self.push(
                Problem::Rule,
                format!("{shown}: Invalid value: \"{value_type}\": {detail}"),
                span,
                schema_path,
                false,
            );
        }
    }
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

fn json_equal(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}
