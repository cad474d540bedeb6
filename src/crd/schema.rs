//! A CRD version's `openAPIV3Schema`, compiled into a tree the validator walks.
//!
//! Only what the API server acts on is kept: types, the structural keywords, value validations,
//! defaults and `x-kubernetes-validations` rules (descriptions and examples are dropped). Regular
//! expressions and CEL rules are compiled on first use, so loading a big CRD costs a JSON walk,
//! and a kind nobody writes costs nothing more. Equal subschemas of one schema are compiled once
//! and shared (`Shared`): CRDs repeat whole subtrees, AuthPolicy's twelvefold.

use super::cel::{CompiledRule, RuleParser};
use regex::Regex;
use rustc_hash::{FxHashMap, FxHasher};
use serde_json::{Map, Value as Json};
use std::sync::{Arc, OnceLock};

/// Properties up to which [`Schema::property`] scans instead of searching.
const LINEAR_PROPERTIES: usize = 16;

/// The OpenAPI `type` of a schema node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Type {
    /// `object`.
    Object,
    /// `array`.
    Array,
    /// `string`.
    String,
    /// `integer`.
    Integer,
    /// `number` (integers are numbers too).
    Number,
    /// `boolean`.
    Boolean,
}

impl Type {
    fn parse(text: &str) -> Option<Type> {
        Some(match text {
            "object" => Type::Object,
            "array" => Type::Array,
            "string" => Type::String,
            "integer" => Type::Integer,
            "number" => Type::Number,
            "boolean" => Type::Boolean,
            _ => return None,
        })
    }

    /// The name the API server's messages use.
    pub fn name(self) -> &'static str {
        match self {
            Type::Object => "object",
            Type::Array => "array",
            Type::String => "string",
            Type::Integer => "integer",
            Type::Number => "number",
            Type::Boolean => "boolean",
        }
    }
}

/// `x-kubernetes-list-type`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum ListType {
    /// `atomic` (or absent): any items, duplicates allowed.
    #[default]
    Atomic,
    /// `set`: scalar items, no duplicates.
    Set,
    /// `map`: object items, unique by these keys (`x-kubernetes-list-map-keys`).
    Map(Vec<Box<str>>),
}

/// `additionalProperties`.
#[derive(Debug, Default)]
pub enum Additional {
    /// Absent: an object with `properties` accepts only those (others are unknown fields).
    #[default]
    Absent,
    /// `additionalProperties: true|false`.
    Bool(bool),
    /// A schema every value of the map follows.
    Schema(Arc<Schema>),
}

/// One `x-kubernetes-validations` entry.
#[derive(Debug)]
pub struct RuleSpec {
    /// The CEL expression; `self` is the value the rule sits on.
    pub rule: Box<str>,
    /// `message`, shown when the rule is false.
    pub message: Option<Box<str>>,
    /// `messageExpression`: CEL that computes the message.
    pub message_expression: Option<Box<str>>,
    /// `fieldPath`: a JSONPath-like suffix (`.spec.x`) the error is reported at.
    pub field_path: Option<Box<str>>,
    /// `reason` (`FieldValueInvalid` when absent).
    pub reason: Option<Box<str>>,
    /// `optionalOldSelf`: the rule also runs on create, with `oldSelf` unset.
    pub optional_old_self: bool,
    /// Whether the rule mentions `oldSelf` (set by [`RuleSpec::new`] and the compiler).
    pub transition: bool,
    /// Which parser reads the rule and its message expression.
    pub parser: RuleParser,
    /// The compiled rule, or why dopol cannot evaluate it.
    pub compiled: OnceLock<Result<CompiledRule, String>>,
}

impl RuleSpec {
    /// A rule with no message, field path or reason (for tests and synthetic rules).
    pub fn new(rule: &str) -> RuleSpec {
        RuleSpec {
            transition: mentions_identifier(rule, "oldSelf"),
            rule: rule.into(),
            message: None,
            message_expression: None,
            field_path: None,
            reason: None,
            optional_old_self: false,
            parser: RuleParser::Grammar,
            compiled: OnceLock::new(),
        }
    }

    /// Whether the rule compares with the previous object (`oldSelf`): on create the API server
    /// skips it unless `optionalOldSelf` is set.
    pub fn is_transition(&self) -> bool {
        self.transition
    }

    /// The compiled rule (compiled on first use). Compiling runs on the CRD-rule threads; a
    /// decoding thread waiting for them executes other decoding jobs meanwhile, which may need
    /// this very rule, so the cell is filled without holding it (`get_or_init` would deadlock
    /// there); two threads may compile the same rule once each, the first result is kept.
    pub fn compiled(&self) -> &Result<CompiledRule, String> {
        if let Some(compiled) = self.compiled.get() {
            return compiled;
        }
        let compiled = CompiledRule::compile(self);
        let _ = self.compiled.set(compiled);
        self.compiled.get().expect("set above")
    }
}

/// Whether `text` uses `name` as a whole identifier (not inside a longer one).
fn mentions_identifier(text: &str, name: &str) -> bool {
    text.match_indices(name).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + name.len()..].chars().next();
        let ident = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        !ident(before) && !ident(after)
    })
}

/// A `pattern`, compiled on first use.
#[derive(Debug)]
pub struct Pattern {
    /// As written in the CRD.
    pub source: Box<str>,
    regex: OnceLock<Option<Arc<Regex>>>,
}

impl Pattern {
    /// The compiled expression (`None` when the `regex` crate cannot compile it: such a pattern
    /// is skipped, which the CRD-loading check reports).
    pub fn regex(&self) -> Option<&Regex> {
        self.regex
            .get_or_init(|| compiled_pattern(&self.source))
            .as_deref()
    }
}

/// How many distinct patterns [`compiled_pattern`] keeps (the bundled CRDs have about 60; a
/// long-lived process fed `--crds` files keeps no more than this).
const KEPT_PATTERNS: usize = 512;

/// `source` compiled, once per process: one pattern sits at many schema nodes (a DNS-1123
/// name under every `parentRef`, `backendRef` and `targetRef`, in every kind), and compiling
/// each was a tenth of a small run's time (docs/performance.md#small-runs).
fn compiled_pattern(source: &str) -> Option<Arc<Regex>> {
    type Compiled = FxHashMap<Box<str>, Option<Arc<Regex>>>;
    static COMPILED: std::sync::LazyLock<std::sync::Mutex<Compiled>> =
        std::sync::LazyLock::new(Default::default);
    let kept = || {
        COMPILED
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    };
    if let Some(found) = kept().get(source) {
        return found.clone();
    }
    // Compiled without the lock: a pattern compiled twice at once costs time, not results.
    let regex = Regex::new(source).ok().map(Arc::new);
    let mut kept = kept();
    if kept.len() < KEPT_PATTERNS {
        kept.entry(source.into()).or_insert_with(|| regex.clone());
    }
    regex
}

/// A numeric bound.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bound {
    /// The limit.
    pub value: f64,
    /// `exclusiveMinimum`/`exclusiveMaximum`.
    pub exclusive: bool,
}

/// One node of a compiled schema.
#[derive(Debug, Default)]
pub struct Schema {
    /// `type`, when given.
    pub ty: Option<Type>,
    /// `nullable: true`.
    pub nullable: bool,
    /// `x-kubernetes-int-or-string`.
    pub int_or_string: bool,
    /// `x-kubernetes-preserve-unknown-fields`.
    pub preserve_unknown: bool,
    /// `x-kubernetes-embedded-resource`.
    pub embedded_resource: bool,
    /// `properties`, sorted by name.
    pub properties: Vec<(Box<str>, Arc<Schema>)>,
    /// `additionalProperties`.
    pub additional: Additional,
    /// `items`.
    pub items: Option<Arc<Schema>>,
    /// `required`.
    pub required: Vec<Box<str>>,
    /// `enum`.
    pub enumeration: Vec<Json>,
    /// `pattern`.
    pub pattern: Option<Pattern>,
    /// `format`.
    pub format: Option<Box<str>>,
    /// `minimum` / `exclusiveMinimum`.
    pub minimum: Option<Bound>,
    /// `maximum` / `exclusiveMaximum`.
    pub maximum: Option<Bound>,
    /// `multipleOf`.
    pub multiple_of: Option<f64>,
    /// `minLength`.
    pub min_length: Option<u64>,
    /// `maxLength`.
    pub max_length: Option<u64>,
    /// `minItems`.
    pub min_items: Option<u64>,
    /// `maxItems`.
    pub max_items: Option<u64>,
    /// `minProperties`.
    pub min_properties: Option<u64>,
    /// `maxProperties`.
    pub max_properties: Option<u64>,
    /// `uniqueItems`.
    pub unique_items: bool,
    /// `x-kubernetes-list-type` (and its map keys).
    pub list_type: ListType,
    /// `default`.
    pub default: Option<Json>,
    /// `allOf`.
    pub all_of: Vec<Arc<Schema>>,
    /// `anyOf`.
    pub any_of: Vec<Arc<Schema>>,
    /// `oneOf`.
    pub one_of: Vec<Arc<Schema>>,
    /// `not`.
    pub not: Option<Arc<Schema>>,
    /// `x-kubernetes-validations`.
    pub rules: Vec<RuleSpec>,
    /// Whether any rule sits at or below this node (computed once, at compile time).
    has_rules: bool,
    /// Whether any `default` sits below this node (computed once, at compile time).
    has_defaults: bool,
    /// How many schema levels sit below this node (0: none), for [`MAX_SCHEMA_DEPTH`] when the
    /// node is shared at another depth.
    height: usize,
    /// A number no other compiled schema node of the process has (0: built by hand), which
    /// names the node in [`super::memo`] (an address could be reused by a later catalog).
    memo_id: u64,
    /// What this node's rules observe of `self` (computed on first use).
    seen: OnceLock<super::cel::Seen>,
    /// Positions of the rules that run on a create (computed on first use).
    create_rules: OnceLock<Box<[usize]>>,
}

/// Deepest schema nesting compiled (user CRDs are input too; the bundled ones stay under 40).
pub const MAX_SCHEMA_DEPTH: usize = 128;

impl Schema {
    /// See the field; 0 for a schema not made by compiling a CRD.
    pub fn memo_id(&self) -> u64 {
        self.memo_id
    }

    /// Compiles a schema object. Unknown keywords are ignored (the API server rejected CRDs
    /// that use them when they were created). Errors are for schemas nested beyond
    /// [`MAX_SCHEMA_DEPTH`] or keywords of the wrong JSON type.
    pub fn compile(json: &Json) -> Result<Schema, String> {
        Schema::compile_with(json, RuleParser::Grammar)
    }

    /// [`Schema::compile`] for a schema whose rules are parsed by `parser`.
    pub fn compile_with(json: &Json, parser: RuleParser) -> Result<Schema, String> {
        let mut shared = Shared::new(json, parser);
        compile(json, 0, &At::ROOT, &mut shared)
    }

    /// The schema of property `name`.
    pub fn property(&self, name: &str) -> Option<&Schema> {
        // Most objects declare a handful of properties: equality, which rejects a name of
        // another length without reading a byte, beats the ordering comparisons of a binary
        // search there (a lookup is made for every field of every object).
        if self.properties.len() <= LINEAR_PROPERTIES {
            return self
                .properties
                .iter()
                .find(|(k, _)| **k == *name)
                .map(|(_, s)| &**s);
        }
        self.properties
            .binary_search_by(|(k, _)| (**k).cmp(name))
            .ok()
            .map(|i| &*self.properties[i].1)
    }

    /// The schema a map value or property named `name` follows, if any.
    pub fn field(&self, name: &str) -> Option<&Schema> {
        self.property(name).or(match &self.additional {
            Additional::Schema(s) => Some(s),
            _ => None,
        })
    }

    /// Whether a field of this (object) schema that has no declared property is accepted.
    pub fn accepts_unknown(&self) -> bool {
        self.preserve_unknown
            || matches!(
                self.additional,
                Additional::Bool(true) | Additional::Schema(_)
            )
    }

    /// What this node's rules (and their message expressions) observe of `self`. Rules that
    /// do not compile observe nothing: they are never evaluated.
    pub fn seen(&self) -> &super::cel::Seen {
        self.seen.get_or_init(|| {
            let mut seen = super::cel::Seen::default();
            for rule in &self.rules {
                if let Ok(compiled) = rule.compiled() {
                    compiled.add_seen(&mut seen);
                }
            }
            seen
        })
    }

    /// Positions of the rules an object's creation runs: a rule reading `oldSelf` runs only
    /// with `optionalOldSelf`, and a rule dopol cannot compile never runs (the catalog lists it
    /// once per kind). Filled without holding the cell, as [`RuleSpec::compiled`] is.
    pub fn create_rules(&self) -> &[usize] {
        if let Some(positions) = self.create_rules.get() {
            return positions;
        }
        let positions = (self.rules.iter().enumerate())
            .filter(|(_, rule)| !rule.is_transition() || rule.optional_old_self)
            .filter(|(_, rule)| rule.compiled().is_ok())
            .map(|(i, _)| i)
            .collect();
        let _ = self.create_rules.set(positions);
        self.create_rules.get().expect("set above")
    }

    /// Whether any `x-kubernetes-validations` rule sits at or below this node.
    pub fn has_rules(&self) -> bool {
        self.has_rules
    }

    /// Whether any property default sits inside this node (defaulting skips other subtrees).
    pub fn has_defaults(&self) -> bool {
        self.has_defaults
    }

    /// The subschemas directly below this node, of every keyword.
    fn children(&self) -> impl Iterator<Item = &Schema> {
        let additional = match &self.additional {
            Additional::Schema(s) => Some(&**s),
            _ => None,
        };
        (self.properties.iter().map(|(_, s)| &**s))
            .chain(self.items.as_deref())
            .chain(additional)
            .chain(self.all_of.iter().map(|s| &**s))
            .chain(self.any_of.iter().map(|s| &**s))
            .chain(self.one_of.iter().map(|s| &**s))
            .chain(self.not.as_deref())
    }

    /// Every rule of the tree, with the schema path it sits at (for the "not evaluated" list).
    pub fn visit_rules<'s>(&'s self, path: &str, out: &mut Vec<(String, &'s RuleSpec)>) {
        out.extend(self.rules.iter().map(|r| (path.to_string(), r)));
        for (name, s) in &self.properties {
            s.visit_rules(&format!("{path}.properties.{name}"), out);
        }
        if let Some(items) = &self.items {
            items.visit_rules(&format!("{path}.items"), out);
        }
        if let Additional::Schema(s) = &self.additional {
            s.visit_rules(&format!("{path}.additionalProperties"), out);
        }
    }
}

/// Where a schema node is, written out only for an error: building the path of every node of
/// every bundled CRD would cost more than compiling them.
struct At<'a> {
    parent: Option<&'a At<'a>>,
    /// The keyword (or the root's name).
    keyword: &'static str,
    /// A property name, or the index in `allOf`/`anyOf`/`oneOf`.
    step: Step<'a>,
}

enum Step<'a> {
    None,
    Name(&'a str),
    Index(usize),
}

impl At<'_> {
    const ROOT: At<'static> = At {
        parent: None,
        keyword: "openAPIV3Schema",
        step: Step::None,
    };

    fn child<'a>(&'a self, keyword: &'static str, step: Step<'a>) -> At<'a> {
        At {
            parent: Some(self),
            keyword,
            step,
        }
    }
}

impl std::fmt::Display for At<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(parent) = self.parent {
            write!(f, "{parent}.")?;
        }
        f.write_str(self.keyword)?;
        match self.step {
            Step::None => Ok(()),
            Step::Name(name) => write!(f, ".{name}"),
            Step::Index(i) => write!(f, "[{i}]"),
        }
    }
}

/// A schema object's keywords. Lookups scan its few entries: hashing the key of each of the ~30
/// keywords read per node cost more than the rest of the compile.
#[derive(Clone, Copy)]
struct Keywords<'a>(&'a Map<String, Json>);

impl<'a> Keywords<'a> {
    fn get(self, key: &str) -> Option<&'a Json> {
        self.0.iter().find(|(k, _)| *k == key).map(|(_, v)| v)
    }
}

/// Identical subschemas of one schema, compiled once and shared. AuthPolicy's rule schemas
/// appear under `defaults`, `overrides` and the spec itself, with the same predicate and
/// pattern schemas in every rule: 1,905 nodes, 155 of them distinct. Compiling them all was
/// most of a small run's start-up. A subtree is shared only when it is equal, as JSON, to one
/// compiled before, and when it fits under [`MAX_SCHEMA_DEPTH`] where it is found again (else
/// it is compiled there, and fails as it would have). Sharing changes nothing a validation
/// sees: a node's verdicts depend on its rules and the value only (see [`super::memo`]).
struct Shared<'j> {
    parser: RuleParser,
    /// A fingerprint of every JSON object in the schema, by its address.
    prints: FxHashMap<*const Json, u64>,
    /// The subschemas compiled so far, by fingerprint, with the JSON each was compiled from.
    compiled: FxHashMap<u64, Vec<(&'j Json, Arc<Schema>)>>,
}

impl<'j> Shared<'j> {
    fn new(root: &'j Json, parser: RuleParser) -> Shared<'j> {
        let mut prints = FxHashMap::default();
        fingerprint(root, &mut prints);
        Shared {
            parser,
            prints,
            compiled: FxHashMap::default(),
        }
    }

    /// The fingerprint of `json` (an object of the schema; `None` for anything else).
    fn print(&self, json: &Json) -> Option<u64> {
        self.prints.get(&std::ptr::from_ref(json)).copied()
    }

    /// A subschema equal to `json` (fingerprint `print`) compiled before, if it fits at `depth`.
    fn find(&self, print: u64, json: &'j Json, depth: usize) -> Option<Arc<Schema>> {
        let (_, schema) = self.compiled.get(&print)?.iter().find(|(seen, schema)| {
            depth + schema.height <= MAX_SCHEMA_DEPTH && identical(seen, json)
        })?;
        Some(Arc::clone(schema))
    }
}

/// Whether `a` and `b` are the same JSON, keys in the same order (`==` ignores the order, and
/// a shared `default` would then keep the first one's).
fn identical(a: &Json, b: &Json) -> bool {
    match (a, b) {
        (Json::Object(a), Json::Object(b)) => {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|((ka, va), (kb, vb))| ka == kb && identical(va, vb))
        }
        (Json::Array(a), Json::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| identical(a, b))
        }
        _ => a == b,
    }
}

/// Hashes `json` (equal values hash alike) and records the hash of each object in it.
fn fingerprint(json: &Json, prints: &mut FxHashMap<*const Json, u64>) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = FxHasher::default();
    match json {
        Json::Object(map) => {
            for (key, value) in map {
                key.hash(&mut hasher);
                fingerprint(value, prints).hash(&mut hasher);
            }
            let print = hasher.finish();
            prints.insert(std::ptr::from_ref(json), print);
            return print;
        }
        Json::Array(list) => {
            1u8.hash(&mut hasher);
            for value in list {
                fingerprint(value, prints).hash(&mut hasher);
            }
        }
        Json::String(text) => text.hash(&mut hasher),
        Json::Number(number) => number.as_f64().map(f64::to_bits).hash(&mut hasher),
        Json::Bool(flag) => flag.hash(&mut hasher),
        Json::Null => 2u8.hash(&mut hasher),
    }
    hasher.finish()
}

/// The subschema `json`, one level below `depth`, at `path`: shared when an equal one was
/// compiled before.
fn sub<'j>(
    json: &'j Json,
    depth: usize,
    path: &At<'_>,
    shared: &mut Shared<'j>,
) -> Result<Arc<Schema>, String> {
    let print = shared.print(json);
    if let Some(found) = print.and_then(|print| shared.find(print, json, depth + 1)) {
        return Ok(found);
    }
    let schema = Arc::new(compile(json, depth + 1, path, shared)?);
    if let Some(print) = print {
        let same = shared.compiled.entry(print).or_default();
        same.push((json, Arc::clone(&schema)));
    }
    Ok(schema)
}

fn compile<'j>(
    json: &'j Json,
    depth: usize,
    path: &At<'_>,
    shared: &mut Shared<'j>,
) -> Result<Schema, String> {
    if depth > MAX_SCHEMA_DEPTH {
        return Err(format!(
            "{path}: {}",
            crate::diag::over_limit(
                format_args!("the schema nests deeper than {MAX_SCHEMA_DEPTH} levels"),
                "crd-schema-depth"
            )
        ));
    }
    let Some(obj) = json.as_object().map(Keywords) else {
        return Err(format!("{path}: a schema must be an object"));
    };
    static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    let mut schema = Schema {
        memo_id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        ty: match obj.get("type") {
            Some(Json::String(t)) => {
                Some(Type::parse(t).ok_or_else(|| format!("{path}.type: unknown type `{t}`"))?)
            }
            _ => None,
        },
        nullable: flag(obj, "nullable"),
        int_or_string: flag(obj, "x-kubernetes-int-or-string"),
        preserve_unknown: flag(obj, "x-kubernetes-preserve-unknown-fields"),
        embedded_resource: flag(obj, "x-kubernetes-embedded-resource"),
        required: strings(obj, "required"),
        enumeration: obj
            .get("enum")
            .and_then(Json::as_array)
            .cloned()
            .unwrap_or_default(),
        pattern: obj.get("pattern").and_then(Json::as_str).map(|p| Pattern {
            source: p.into(),
            regex: OnceLock::new(),
        }),
        format: obj.get("format").and_then(Json::as_str).map(Into::into),
        minimum: bound(obj, "minimum", "exclusiveMinimum"),
        maximum: bound(obj, "maximum", "exclusiveMaximum"),
        multiple_of: obj.get("multipleOf").and_then(Json::as_f64),
        min_length: count(obj, "minLength"),
        max_length: count(obj, "maxLength"),
        min_items: count(obj, "minItems"),
        max_items: count(obj, "maxItems"),
        min_properties: count(obj, "minProperties"),
        max_properties: count(obj, "maxProperties"),
        unique_items: flag(obj, "uniqueItems"),
        list_type: match obj.get("x-kubernetes-list-type").and_then(Json::as_str) {
            Some("set") => ListType::Set,
            Some("map") => ListType::Map(
                strings(obj, "x-kubernetes-list-map-keys")
                    .into_iter()
                    .collect(),
            ),
            _ => ListType::Atomic,
        },
        default: obj.get("default").cloned(),
        rules: rules(obj, path, shared.parser)?,
        ..Schema::default()
    };
    if let Some(props) = obj.get("properties").and_then(Json::as_object) {
        let mut properties = Vec::with_capacity(props.len());
        for (k, v) in props {
            let at = path.child("properties", Step::Name(k));
            properties.push((k.as_str().into(), sub(v, depth, &at, shared)?));
        }
        properties.sort_by(|a: &(Box<str>, Arc<Schema>), b| a.0.cmp(&b.0));
        schema.properties = properties;
    }
    schema.additional = match obj.get("additionalProperties") {
        Some(Json::Bool(b)) => Additional::Bool(*b),
        Some(s @ Json::Object(_)) => {
            let at = path.child("additionalProperties", Step::None);
            Additional::Schema(sub(s, depth, &at, shared)?)
        }
        _ => Additional::Absent,
    };
    if let Some(items) = obj.get("items") {
        schema.items = Some(sub(items, depth, &path.child("items", Step::None), shared)?);
    }
    for (keyword, slot) in [
        ("allOf", &mut schema.all_of),
        ("anyOf", &mut schema.any_of),
        ("oneOf", &mut schema.one_of),
    ] {
        if let Some(list) = obj.get(keyword).and_then(Json::as_array) {
            for (i, s) in list.iter().enumerate() {
                slot.push(sub(s, depth, &path.child(keyword, Step::Index(i)), shared)?);
            }
        }
    }
    if let Some(not) = obj.get("not") {
        schema.not = Some(sub(not, depth, &path.child("not", Step::None), shared)?);
    }
    schema.has_rules = !schema.rules.is_empty()
        || schema.properties.iter().any(|(_, s)| s.has_rules)
        || schema.items.as_deref().is_some_and(|s| s.has_rules)
        || matches!(&schema.additional, Additional::Schema(s) if s.has_rules);
    schema.has_defaults = schema
        .properties
        .iter()
        .any(|(_, s)| s.default.is_some() || s.has_defaults)
        || schema.items.as_deref().is_some_and(|s| s.has_defaults)
        || matches!(&schema.additional, Additional::Schema(s) if s.has_defaults);
    schema.height = schema.children().map(|s| s.height + 1).max().unwrap_or(0);
    Ok(schema)
}

fn flag(obj: Keywords<'_>, key: &str) -> bool {
    obj.get(key).and_then(Json::as_bool).unwrap_or(false)
}

fn count(obj: Keywords<'_>, key: &str) -> Option<u64> {
    obj.get(key).and_then(Json::as_u64)
}

fn strings(obj: Keywords<'_>, key: &str) -> Vec<Box<str>> {
    obj.get(key)
        .and_then(Json::as_array)
        .map(|a| a.iter().filter_map(Json::as_str).map(Into::into).collect())
        .unwrap_or_default()
}

fn bound(obj: Keywords<'_>, key: &str, exclusive: &str) -> Option<Bound> {
    obj.get(key).and_then(Json::as_f64).map(|value| Bound {
        value,
        exclusive: flag(obj, exclusive),
    })
}

fn rules(obj: Keywords<'_>, path: &At<'_>, parser: RuleParser) -> Result<Vec<RuleSpec>, String> {
    let Some(list) = obj.get("x-kubernetes-validations") else {
        return Ok(Vec::new());
    };
    let list = list
        .as_array()
        .ok_or_else(|| format!("{path}.x-kubernetes-validations: must be a list"))?;
    list.iter()
        .enumerate()
        .map(|(i, r)| {
            let text = |k: &str| r.get(k).and_then(Json::as_str).map(Box::<str>::from);
            let rule = text("rule")
                .ok_or_else(|| format!("{path}.x-kubernetes-validations[{i}].rule: required"))?;
            Ok(RuleSpec {
                transition: mentions_identifier(&rule, "oldSelf"),
                rule,
                message: text("message"),
                message_expression: text("messageExpression"),
                field_path: text("fieldPath"),
                reason: text("reason"),
                optional_old_self: r
                    .get("optionalOldSelf")
                    .and_then(Json::as_bool)
                    .unwrap_or(false),
                parser,
                compiled: OnceLock::new(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_pattern_at_two_nodes_is_compiled_once() {
        let json: Json = serde_json::from_str(
            r#"{"properties": {"a": {"type": "string", "pattern": "^[a-z]+x$"},
                               "b": {"type": "string", "maxLength": 3, "pattern": "^[a-z]+x$"},
                               "c": {"type": "string", "pattern": "(unclosed"}}}"#,
        )
        .unwrap();
        let schema = Schema::compile(&json).unwrap();
        let regex = |name| {
            let pattern = schema.property(name).unwrap().pattern.as_ref().unwrap();
            pattern.regex().map(|r| r as *const Regex)
        };
        assert!(regex("a").is_some());
        assert_eq!(regex("a"), regex("b"));
        assert_eq!(regex("c"), None);
        let a = schema.property("a").unwrap().pattern.as_ref().unwrap();
        assert!(a.regex().unwrap().is_match("abx") && !a.regex().unwrap().is_match("ab"));
    }

    #[test]
    fn a_schema_error_names_the_path_of_its_node() {
        let json: Json = serde_json::from_str(
            r#"{"properties": {"a": {"items": {"allOf": [{}, {"not": {"type": "nope"}}]}}}}"#,
        )
        .unwrap();
        assert_eq!(
            Schema::compile(&json).err().as_deref(),
            Some("openAPIV3Schema.properties.a.items.allOf[1].not.type: unknown type `nope`")
        );
    }

    #[test]
    fn compiles_structure_and_rules() {
        let json: Json = serde_json::from_str(
            r#"{"type":"object","required":["spec"],"properties":{
                "spec":{"type":"object","x-kubernetes-validations":[{"rule":"self.a == oldSelf.a","message":"m"}],
                  "properties":{"b":{"type":"integer","minimum":0,"exclusiveMinimum":true},
                                "a":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
                                     "items":{"type":"object"}}}}}}"#,
        )
        .unwrap();
        let schema = Schema::compile(&json).unwrap();
        let spec = schema.property("spec").unwrap();
        assert_eq!(spec.properties[0].0.as_ref(), "a");
        assert_eq!(
            spec.property("a").unwrap().list_type,
            ListType::Map(vec!["name".into()])
        );
        assert_eq!(
            spec.property("b").unwrap().minimum,
            Some(Bound {
                value: 0.0,
                exclusive: true
            })
        );
        assert!(spec.rules[0].is_transition());
        assert!(schema.has_rules());
    }

    /// `{"properties": {"a": {"properties": {"a": … leaf …}}}}`, `levels` schema levels deep.
    fn chain(levels: usize, leaf: Json) -> Json {
        (0..levels).fold(
            leaf,
            |inner, _| serde_json::json!({"properties": {"a": inner}}),
        )
    }

    #[test]
    fn equal_subschemas_are_compiled_once_and_shared() {
        let rule = serde_json::json!({"type": "string", "x-kubernetes-validations": [{"rule": "self != ''"}]});
        let other = serde_json::json!({"type": "string", "maxLength": 3});
        let json = serde_json::json!({"properties": {
            "a": {"properties": {"x": rule.clone()}},
            "b": {"properties": {"x": rule}},
            "c": {"properties": {"x": other}},
        }});
        let schema = Schema::compile(&json).unwrap();
        let x = |name: &str| {
            let parent = &schema
                .properties
                .iter()
                .find(|(k, _)| &**k == name)
                .unwrap()
                .1;
            Arc::clone(&parent.properties[0].1)
        };
        assert!(Arc::ptr_eq(
            &schema.properties[0].1,
            &schema.properties[1].1
        ));
        assert!(Arc::ptr_eq(&x("a"), &x("b")));
        assert!(!Arc::ptr_eq(&x("a"), &x("c")));
        assert_eq!(x("c").max_length, Some(3));
        assert!(schema.has_rules() && x("b").has_rules());

        // AuthPolicy repeats its rule schemas under `defaults`, `overrides` and the spec.
        let bundled = super::super::bundle::BUNDLED
            .iter()
            .find(|b| b.file.ends_with("kuadrant.io_authpolicies.yaml"))
            .unwrap();
        let crd: Json = serde_json::from_str(bundled.compact).unwrap();
        let schema = Schema::compile(&crd["versions"][0]["schema"]).unwrap();
        let spec = schema.property("spec").unwrap();
        let rules = |block: &str| {
            let block = spec.property(block).unwrap();
            std::ptr::from_ref(block.property("rules").unwrap())
        };
        assert_eq!(rules("defaults"), rules("overrides"));
        assert_eq!(
            spec.property("rules").map(std::ptr::from_ref),
            Some(rules("defaults"))
        );
    }

    #[test]
    fn subschemas_whose_defaults_differ_in_key_order_are_not_shared() {
        let json: Json = serde_json::from_str(
            r#"{"properties": {"a": {"type": "object", "default": {"x": 1, "y": 2}},
                               "b": {"type": "object", "default": {"y": 2, "x": 1}}}}"#,
        )
        .unwrap();
        let schema = Schema::compile(&json).unwrap();
        assert!(!Arc::ptr_eq(
            &schema.properties[0].1,
            &schema.properties[1].1
        ));
        let keys = |i: usize| {
            let default = schema.properties[i].1.default.as_ref().unwrap();
            default
                .as_object()
                .unwrap()
                .keys()
                .cloned()
                .collect::<Vec<_>>()
        };
        assert_eq!(
            (keys(0), keys(1)),
            (vec!["x".into(), "y".into()], vec!["y".into(), "x".into()])
        );
        // Equal as JSON values (`==` ignores key order), yet not the same to share: the
        // fingerprints differ here, and `identical` is what decides when they do not.
        let (a, b) = (&json["properties"]["a"], &json["properties"]["b"]);
        assert!(a == b && !identical(a, b) && identical(a, &a.clone()));
    }

    #[test]
    fn a_shared_subschema_too_deep_where_found_again_fails_as_before() {
        // The same 70-level subtree at depth 1 (fits) and at depth 60 (130 > 128 levels).
        let deep = chain(70, serde_json::json!({"type": "string"}));
        let json = serde_json::json!({"properties": {
            "shallow": deep.clone(),
            "z": chain(59, deep.clone()),
        }});
        let error = Schema::compile(&json).unwrap_err();
        assert!(error.contains("crd-schema-depth"), "{error}");
        // The same tree with the deep copy one level up compiles, and shares the subtree.
        let json =
            serde_json::json!({"properties": {"shallow": deep.clone(), "z": chain(57, deep)}});
        let schema = Schema::compile(&json).unwrap();
        let mut node = &schema.properties[1].1;
        for _ in 0..57 {
            node = &node.properties[0].1;
        }
        assert!(Arc::ptr_eq(node, &schema.properties[0].1));
    }

    #[test]
    fn transition_rules_are_whole_identifiers() {
        assert!(mentions_identifier("oldSelf == self", "oldSelf"));
        assert!(!mentions_identifier("self.oldSelfish == 1", "oldSelf"));
    }
}
