//! The families file: parsing and validation into typed declarations (docs/families.md §4.2, §4.4).
//!
//! Every problem is one located `invalid-families` diagnostic; a file with any problem yields
//! no declaration. Fields are read through [`Fields`] (so unknown keys get the same
//! "did you mean" as manifests do) and its diagnostics are re-coded at the end.

use super::diags::InvalidFamilies;
use super::layout::{Cut, Layout, PLACEHOLDER, RESERVED, RuleDecl, Template, placeholder_in};
use crate::diag::{Code, Diagnostic};
use crate::load::fields::{FieldPath, Fields};
use crate::policy::{BlockKind, GepStrategy, Strategy};
use crate::source::{SourceId, Span};
use crate::yaml::{Entry, Node, Value, parse_chunk};

/// The `apiVersion` of a families file.
pub const API_VERSION: &str = "dopol/v1";
/// The `kind` of a families file.
pub const KIND: &str = "PolicyFamilies";

const FILE_KEYS: &[&str] = &["apiVersion", "kind", "families"];
const FAMILY_KEYS: &[&str] = &[
    "group",
    "kind",
    "versions",
    "model",
    "strategy",
    "targetKinds",
    "targets",
    "sectionName",
    "targetSelectors",
    "rules",
    "fields",
    "exclude",
    "blocks",
    "mergeType",
    "listMergeKeys",
    "plural",
];
const RULE_KEYS: &[&str] = &["path", "keyed", "field", "key"];
const BLOCK_KEYS: &[&str] = &["bare", "defaults", "overrides"];

/// The name of `value` in an enumeration table.
fn name_in<T: PartialEq>(table: &[(&'static str, T)], value: T) -> &'static str {
    table
        .iter()
        .find(|(_, v)| *v == value)
        .map_or("", |(name, _)| name)
}

/// An enumeration of the file with the words it is written as.
macro_rules! written_enum {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident = $text:literal,)* }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum $name { $($(#[$vdoc])* $variant,)* }

        impl $name {
            const ALL: &'static [(&'static str, $name)] = &[$(($text, $name::$variant),)*];

            /// As written in the file.
            pub fn as_str(self) -> &'static str {
                name_in(Self::ALL, self)
            }
        }
    };
}

written_enum! {
    /// The merge model a declared kind follows.
    MergeModel {
        /// docs/semantics.md#3-policy-kinds-and-rule-keys: defaults, overrides, strategies.
        Kuadrant = "kuadrant",
        /// docs/families.md §2, every rule a plain field.
        Kgateway = "kgateway",
        /// docs/families.md §3.
        EnvoyGateway = "envoy-gateway",
    }
}

written_enum! {
    /// A kind a declared policy may target (the Gateway API kind as written).
    TargetKind {
        /// `Gateway` (and its listeners).
        Gateway = "Gateway",
        /// `HTTPRoute` (and its rules).
        HttpRoute = "HTTPRoute",
        /// `GRPCRoute` (and its rules).
        GrpcRoute = "GRPCRoute",
        /// `ListenerSet` (and its listeners): the `kgateway` and `envoy-gateway` models.
        ListenerSet = "ListenerSet",
    }
}

written_enum! {
    /// Which spec fields name targets.
    TargetsField {
        /// `spec.targetRef` only.
        TargetRef = "targetRef",
        /// `spec.targetRefs` only.
        TargetRefs = "targetRefs",
        /// Both.
        Both = "both",
    }
}

written_enum! {
    /// How a rule is keyed, as written.
    Keyed {
        /// `by-map-key`.
        ByMapKey = "by-map-key",
        /// `by-list-item`.
        ByListItem = "by-list-item",
        /// `whole`.
        Whole = "whole",
    }
}

const STRATEGIES: &[(&str, Strategy)] = &[("atomic", Strategy::Atomic), ("merge", Strategy::Merge)];

/// The blocks of a `kuadrant`-model kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Blocks {
    /// Rules directly under `spec` (atomic defaults).
    pub bare: bool,
    /// The block and strategy bare rules are (atomic defaults unless declared by `strategy`).
    pub bare_as: (BlockKind, Strategy),
    /// Allowed `defaults` strategies, the first the default; empty: no `defaults` block.
    pub defaults: Vec<Strategy>,
    /// Allowed `overrides` strategies; empty: no `overrides` block.
    pub overrides: Vec<Strategy>,
}

impl Default for Blocks {
    fn default() -> Self {
        Blocks {
            bare: true,
            bare_as: (BlockKind::Bare, Strategy::Atomic),
            defaults: Vec::new(),
            overrides: Vec::new(),
        }
    }
}

/// One declared kind.
#[derive(Clone, Debug)]
pub struct Declaration {
    /// API group.
    pub group: String,
    /// Kind.
    pub kind: String,
    /// API versions.
    pub versions: Vec<String>,
    /// The merge model.
    pub model: MergeModel,
    /// The GEP-713 strategy the kind was declared by instead of a model, if it was.
    pub gep: Option<GepStrategy>,
    /// What its policies may target.
    pub target_kinds: Vec<TargetKind>,
    /// Which spec fields name targets.
    pub targets: TargetsField,
    /// Whether targets may name a listener or rule.
    pub section_name: bool,
    /// Whether `spec.targetSelectors` is read.
    pub target_selectors: bool,
    /// Where the rules live.
    pub layout: Layout,
    /// The blocks (`kuadrant` model; the default for it when not written).
    pub blocks: Blocks,
    /// Whether `spec.mergeType` is honoured (`envoy-gateway` model).
    pub merge_type: bool,
    /// Keyed lists for StrategicMerge: path below `spec` → key field (`envoy-gateway`).
    pub list_merge_keys: Vec<(Vec<String>, String)>,
    /// The lowerCamel plural for messages.
    pub plural: String,
    /// Where the declaration's `kind` is written.
    pub span: Span,
    /// Where its `model` is written.
    pub model_span: Span,
}

/// Parses and validates one families file.
pub fn parse(
    source: SourceId,
    name: &str,
    text: &str,
) -> Result<Vec<Declaration>, Vec<Diagnostic>> {
    let mut syntax = Vec::new();
    let documents = parse_chunk(source, text, 0..text.len(), &mut syntax);
    if !syntax.is_empty() {
        return Err(crate::diag::as_file_errors(syntax, Code::INVALID_FAMILIES));
    }
    let mut fields = Fields::new(format!("families file {name}"));
    let declarations = match documents.as_slice() {
        [document] => read_file(&mut fields, &document.root),
        [] => {
            let finding = InvalidFamilies::Empty { path: name };
            return Err(vec![Diagnostic::from(finding).with_file(name)]);
        }
        [_, second, ..] => {
            fields.invalid(
                second.root.span,
                "a families file holds one document; list every kind under `families`".into(),
                "second document",
            );
            Vec::new()
        }
    };
    let diagnostics = fields.into_diagnostics();
    if diagnostics.is_empty() {
        Ok(declarations)
    } else {
        Err(crate::diag::as_file_errors(
            diagnostics,
            Code::INVALID_FAMILIES,
        ))
    }
}

fn read_file(fields: &mut Fields<'_>, root: &Node) -> Vec<Declaration> {
    let path = FieldPath::ROOT;
    let Some(entries) = fields.map(root, &path) else {
        return Vec::new();
    };
    fields.check_known(entries, &path, FILE_KEYS);
    for (key, expected) in [("apiVersion", API_VERSION), ("kind", KIND)] {
        if let Some(node) = fields.required(root, key, &path)
            && let Some(text) = fields.str(node, &path.key(key))
            && text != expected
        {
            fields.invalid(
                node.span,
                format!("`{key}` must be `{expected}`, found `{text}`"),
                &format!("expected `{expected}`"),
            );
        }
    }
    let Some(list) = fields.required(root, "families", &path) else {
        return Vec::new();
    };
    let list_path = path.key("families");
    let Some(items) = fields.seq(list, &list_path) else {
        return Vec::new();
    };
    let mut declarations: Vec<Declaration> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let Some(declaration) = read_family(fields, item, &list_path.index(i)) else {
            continue;
        };
        declarations.push(declaration);
    }
    declarations
}

/// One value of an enumeration, with a suggestion when it is close to one.
fn one_of<T: Copy>(
    fields: &mut Fields<'_>,
    node: &Node,
    path: &FieldPath<'_>,
    options: &[(&str, T)],
) -> Option<T> {
    let text = fields.str(node, path)?;
    if let Some((_, value)) = options.iter().find(|(name, _)| *name == text) {
        return Some(*value);
    }
    let names: Vec<&str> = options.iter().map(|(name, _)| *name).collect();
    let finding = InvalidFamilies::NotOneOf {
        path,
        text,
        options: &names,
    };
    fields.push(Diagnostic::from(finding).with_label(node.span, "unknown value"));
    None
}

/// An optional boolean (`default` when absent).
fn flag(
    fields: &mut Fields<'_>,
    parent: &Node,
    key: &str,
    path: &FieldPath<'_>,
    default: bool,
) -> bool {
    match parent.get(key).map(|n| (n, &n.value)) {
        None | Some((_, Value::Null)) => default,
        Some((_, Value::Bool(b))) => *b,
        Some((node, _)) => {
            fields.invalid(
                node.span,
                format!(
                    "`{path}.{key}` must be true or false, found {}",
                    node.type_name()
                ),
                "expected a boolean",
            );
            default
        }
    }
}

/// The items of a list that must not be empty (an error when it is; none when it is not a
/// list).
fn non_empty_seq<'n>(fields: &mut Fields<'_>, node: &'n Node, path: &FieldPath<'_>) -> &'n [Node] {
    let Some(items) = fields.seq(node, path) else {
        return &[];
    };
    if items.is_empty() {
        fields.invalid(
            node.span,
            format!("`{path}` must not be empty"),
            "empty list",
        );
    }
    items
}

/// A non-empty list of strings, each with its node.
fn string_list<'n>(
    fields: &mut Fields<'_>,
    node: &'n Node,
    path: &FieldPath<'_>,
) -> Vec<(&'n str, &'n Node)> {
    let items = non_empty_seq(fields, node, path);
    items
        .iter()
        .enumerate()
        .filter_map(|(i, item)| {
            fields
                .non_empty_str(item, &path.index(i))
                .map(|s| (s, item))
        })
        .collect()
}

/// A list of enumeration values: non-empty, each once.
fn enum_list<T: Copy + PartialEq>(
    fields: &mut Fields<'_>,
    node: &Node,
    path: &FieldPath<'_>,
    options: &[(&str, T)],
) -> Vec<T> {
    let items = non_empty_seq(fields, node, path);
    let mut values = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let Some(value) = one_of(fields, item, &path.index(i), options) else {
            continue;
        };
        if values.contains(&value) {
            fields.invalid(item.span, format!("`{path}` lists a value twice"), "again");
        } else {
            values.push(value);
        }
    }
    values
}

fn read_family(fields: &mut Fields<'_>, item: &Node, path: &FieldPath<'_>) -> Option<Declaration> {
    let entries = fields.map(item, path)?;
    fields.check_known(entries, path, FAMILY_KEYS);
    let errors_before = fields.error_count();
    let group_node = fields.required(item, "group", path);
    let kind_node = fields.required(item, "kind", path);
    let group = group_node.and_then(|n| checked_group(fields, n, &path.key("group")));
    let kind = kind_node.and_then(|n| checked_kind(fields, n, &path.key("kind")));
    let versions = fields
        .required(item, "versions", path)
        .map(|n| checked_versions(fields, n, &path.key("versions")));
    let (model_node, by_strategy) = read_model(fields, item, path);
    let model = match by_strategy {
        Some(gep) => gep.map(gep_model),
        None => model_node.and_then(|n| one_of(fields, n, &path.key("model"), MergeModel::ALL)),
    };
    let gep = by_strategy.flatten();
    let target_kinds_node = fields.required(item, "targetKinds", path);
    let target_kinds =
        target_kinds_node.map(|n| enum_list(fields, n, &path.key("targetKinds"), TargetKind::ALL));
    if let (Some(node), Some(model)) = (target_kinds_node, model) {
        listener_set_model(fields, node, &path.key("targetKinds"), model);
    }
    let targets = fields
        .required(item, "targets", path)
        .and_then(|n| one_of(fields, n, &path.key("targets"), TargetsField::ALL));
    let section_name = flag(fields, item, "sectionName", path, true);
    let target_selectors = flag(fields, item, "targetSelectors", path, false);
    let layout = read_layout(fields, item, path, model);
    let blocks = match by_strategy {
        Some(gep) => gep.and_then(|gep| {
            let kinds = target_kinds.as_ref().map_or(0, Vec::len);
            let span = model_node.map_or(item.span, |n| n.span);
            gep_blocks(fields, span, path, gep, (kinds, section_name))
        }),
        None => read_blocks(fields, item, path, model),
    };
    let (merge_type, list_merge_keys) = read_envoy(fields, item, path, model);
    let plural = read_plural(fields, item, path, kind.as_deref());
    if fields.error_count() > errors_before {
        return None;
    }
    Some(Declaration {
        group: group?,
        kind: kind?,
        versions: versions?,
        model: model?,
        gep,
        target_kinds: target_kinds?,
        targets: targets?,
        section_name,
        target_selectors,
        layout: layout?,
        blocks: blocks?,
        merge_type,
        list_merge_keys,
        plural: plural?,
        span: kind_node?.span,
        model_span: model_node?.span,
    })
}

/// `ListenerSet` in `targetKinds` is read by the `kgateway` model (its ListenerSet level is `S#L`
/// then `S`, as TrafficPolicy's) and the `envoy-gateway` model (Envoy Gateway's `S#L` and `S`
/// slots, `S#L` > `S` > `G`); the `kuadrant` model has no ListenerSet level (Kuadrant's CRDs
/// cannot target one).
fn listener_set_model(
    fields: &mut Fields<'_>,
    node: &Node,
    path: &FieldPath<'_>,
    model: MergeModel,
) {
    if matches!(model, MergeModel::Kgateway | MergeModel::EnvoyGateway) {
        return;
    }
    let items = node.as_seq().unwrap_or_default();
    for item in items.iter().filter(|i| i.as_str() == Some("ListenerSet")) {
        fields.invalid(
            item.span,
            format!(
                "`{path}`: `ListenerSet` is read by the `kgateway` and `envoy-gateway` models only, not by `{}`",
                model.as_str()
            ),
            "not for this model",
        );
    }
}

/// `model`, or `strategy` (a GEP-713 name) in its place: exactly one of them. The node whose
/// span stands for the model, and, when `strategy` was written, the strategy if it can run.
fn read_model<'n>(
    fields: &mut Fields<'_>,
    item: &'n Node,
    path: &FieldPath<'_>,
) -> (Option<&'n Node>, Option<Option<GepStrategy>>) {
    let Some(node) = item.get("strategy") else {
        return (fields.required(item, "model", path), None);
    };
    let named: Vec<(&str, GepStrategy)> = (GepStrategy::ALL.iter())
        .map(|&s| (s.keyword(), s))
        .collect();
    let gep = one_of(fields, node, &path.key("strategy"), &named);
    for key in ["model", "blocks", "mergeType", "listMergeKeys"] {
        if let Some(entry) = item.entry(key) {
            fields.invalid(
                entry.key.span,
                format!("`{path}.{key}`: a kind declared by `strategy` takes no `{key}` (the strategy decides the merge)"),
                "beside `strategy`",
            );
        }
    }
    if gep == Some(GepStrategy::Custom) {
        fields.invalid(
            node.span,
            format!("`{path}.strategy`: `Custom` names no merge dopol can run; declare a `model` instead"),
            "no merge to run",
        );
    }
    (Some(node), Some(gep.filter(|&s| s != GepStrategy::Custom)))
}

/// The model that runs a GEP-713 strategy: the Kuadrant fold for the four defaults/overrides
/// strategies, Envoy Gateway's slots for None (the first policy in order holds a target, the
/// others are conflicted).
fn gep_model(gep: GepStrategy) -> MergeModel {
    match gep {
        GepStrategy::None => MergeModel::EnvoyGateway,
        _ => MergeModel::Kuadrant,
    }
}

/// The blocks of a kind declared by `strategy`: its spec's rules, as the block the strategy
/// names. None also needs a single target kind and no `sectionName` (GEP-713: None is for
/// policies of one target kind, where no level is more specific than another).
fn gep_blocks(
    fields: &mut Fields<'_>,
    span: Span,
    path: &FieldPath<'_>,
    gep: GepStrategy,
    (target_kinds, section_name): (usize, bool),
) -> Option<Blocks> {
    let bare_as = match gep {
        GepStrategy::AtomicDefaults => (BlockKind::Bare, Strategy::Atomic),
        GepStrategy::PatchDefaults => (BlockKind::Defaults, Strategy::Merge),
        GepStrategy::AtomicOverrides => (BlockKind::Overrides, Strategy::Atomic),
        GepStrategy::PatchOverrides => (BlockKind::Overrides, Strategy::Merge),
        GepStrategy::None | GepStrategy::Custom => {
            if target_kinds != 1 || section_name {
                fields.invalid(
                    span,
                    format!("`{path}.strategy`: None is for a kind with one target kind and `sectionName: false` (GEP-713: no level may be more specific than another)"),
                    "more than one level",
                );
                return None;
            }
            return Some(Blocks::default());
        }
    };
    Some(Blocks {
        bare_as,
        ..Blocks::default()
    })
}

fn checked_group(fields: &mut Fields<'_>, node: &Node, path: &FieldPath<'_>) -> Option<String> {
    let text = fields.non_empty_str(node, path)?;
    if crate::load::names::NameRule::Subdomain
        .violation(text)
        .is_some()
    {
        fields.invalid(
            node.span,
            format!("`{path}` must be a DNS subdomain (lower-case letters, digits, `-` and `.`), found `{text}`"),
            "not an API group",
        );
        return None;
    }
    if text == crate::model::gateway::GATEWAY_GROUP {
        fields.invalid(
            node.span,
            format!("`{path}`: `{text}` is the Gateway API's own group, not a policy group"),
            "not a policy group",
        );
        return None;
    }
    Some(text.to_string())
}

fn checked_kind(fields: &mut Fields<'_>, node: &Node, path: &FieldPath<'_>) -> Option<String> {
    let text = fields.non_empty_str(node, path)?;
    let valid = text.starts_with(|c: char| c.is_ascii_uppercase())
        && text.chars().all(|c| c.is_ascii_alphanumeric());
    if !valid {
        fields.invalid(
            node.span,
            format!(
                "`{path}` must be a Kind in UpperCamelCase (letters and digits), found `{text}`"
            ),
            "not a Kind",
        );
        return None;
    }
    Some(text.to_string())
}

/// `v1`, `v1alpha1`, `v2beta3`.
fn is_version(text: &str) -> bool {
    let Some(rest) = text.strip_prefix('v') else {
        return false;
    };
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    if digits == 0 || rest.starts_with('0') {
        return false;
    }
    let tail = &rest[digits..];
    tail.is_empty()
        || ["alpha", "beta"].iter().any(|stage| {
            tail.strip_prefix(stage).is_some_and(|n| {
                !n.is_empty() && !n.starts_with('0') && n.chars().all(|c| c.is_ascii_digit())
            })
        })
}

fn checked_versions(fields: &mut Fields<'_>, node: &Node, path: &FieldPath<'_>) -> Vec<String> {
    let mut versions: Vec<String> = Vec::new();
    for (text, item) in string_list(fields, node, path) {
        if !is_version(text) {
            fields.invalid(
                item.span,
                format!(
                    "`{path}`: `{text}` is not a Kubernetes API version (v1, v1alpha1, v2beta3)"
                ),
                "not a version",
            );
        } else if versions.iter().any(|v| v == text) {
            fields.invalid(item.span, format!("`{path}` lists `{text}` twice"), "again");
        } else {
            versions.push(text.to_string());
        }
    }
    versions
}

fn read_plural(
    fields: &mut Fields<'_>,
    item: &Node,
    path: &FieldPath<'_>,
    kind: Option<&str>,
) -> Option<String> {
    match item.get("plural").filter(|n| !n.is_null()) {
        Some(node) => {
            let text = fields.non_empty_str(node, &path.key("plural"))?;
            let valid = text.starts_with(|c: char| c.is_ascii_lowercase())
                && text.chars().all(|c| c.is_ascii_alphanumeric());
            if !valid {
                fields.invalid(
                    node.span,
                    format!("`{path}.plural` must be lowerCamelCase (letters and digits), found `{text}`"),
                    "not a lowerCamel plural",
                );
                return None;
            }
            Some(text.to_string())
        }
        None => kind.map(default_plural),
    }
}

/// `BackendTrafficPolicy` → `backendTrafficPolicies`.
pub fn default_plural(kind: &str) -> String {
    let mut chars = kind.chars();
    let first: String = chars
        .next()
        .map(|c| c.to_ascii_lowercase().to_string())
        .unwrap_or_default();
    let rest: String = chars.collect();
    let word = format!("{first}{rest}");
    match word.strip_suffix('y') {
        Some(stem) => format!("{stem}ies"),
        None => format!("{word}s"),
    }
}

/// `rules` or `fields` (with `exclude`), exactly one.
fn read_layout(
    fields: &mut Fields<'_>,
    item: &Node,
    path: &FieldPath<'_>,
    model: Option<MergeModel>,
) -> Option<Layout> {
    let rules = item.entry("rules");
    let top = item.entry("fields");
    let exclude = item.entry("exclude");
    match (rules, top) {
        (Some(_), Some(top)) => {
            fields.invalid(
                top.key.span,
                format!("`{path}` has both `rules` and `fields`; declare exactly one"),
                "remove `fields` or `rules`",
            );
            None
        }
        (None, None) => {
            let start = item.as_map().and_then(<[Entry]>::first);
            fields.invalid(
                start.map_or(item.span, |e| e.key.span),
                format!("`{path}` needs `rules` (a list) or `fields: top-level`"),
                "no rules declared",
            );
            None
        }
        (None, Some(top)) => {
            one_of(
                fields,
                &top.value,
                &path.key("fields"),
                &[("top-level", ())],
            )?;
            let exclude = exclude
                .map(|e| read_exclude(fields, &e.value, &path.key("exclude")))
                .unwrap_or_default();
            Some(Layout::TopLevel { exclude })
        }
        (Some(rules), None) => {
            if let Some(exclude) = exclude {
                fields.invalid(
                    exclude.key.span,
                    format!("`{path}.exclude` goes with `fields: top-level`, not with `rules`"),
                    "only with `fields`",
                );
            }
            read_rules(fields, &rules.value, &path.key("rules"), model).map(Layout::Rules)
        }
    }
}

fn read_exclude(fields: &mut Fields<'_>, node: &Node, path: &FieldPath<'_>) -> Vec<String> {
    let mut exclude = Vec::new();
    for (i, item) in fields
        .seq(node, path)
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        let Some(text) = fields.non_empty_str(item, &path.index(i)) else {
            continue;
        };
        if text.contains('.') || RESERVED.contains(&text) {
            fields.invalid(
                item.span,
                format!("`{path}`: `{text}` must be a top-level spec field that would otherwise be a rule"),
                "not a rule field",
            );
        } else {
            exclude.push(text.to_string());
        }
    }
    exclude
}

/// A written rule with the nodes errors point at.
struct Written<'n> {
    rule: RuleDecl,
    path_node: &'n Node,
    key_node: Option<&'n Node>,
}

fn read_rules(
    fields: &mut Fields<'_>,
    node: &Node,
    path: &FieldPath<'_>,
    model: Option<MergeModel>,
) -> Option<Vec<RuleDecl>> {
    let items = fields.seq(node, path)?;
    if items.is_empty() {
        fields.invalid(node.span, format!("`{path}` must not be empty"), "no rule");
        return None;
    }
    let mut written: Vec<Written<'_>> = Vec::new();
    let mut failed = false;
    for (i, item) in items.iter().enumerate() {
        match read_rule(fields, item, &path.index(i), model) {
            Some(rule) => written.push(rule),
            None => failed = true,
        }
    }
    for (j, later) in written.iter().enumerate() {
        for earlier in &written[..j] {
            failed |= !check_pair(fields, earlier, later);
        }
    }
    (!failed).then(|| written.into_iter().map(|w| w.rule).collect())
}

/// Two rules must neither overlap (one path inside the other, where values are cut whole)
/// nor give the same key template. Reports on `later`; `false` when they clash.
fn check_pair(fields: &mut Fields<'_>, earlier: &Written<'_>, later: &Written<'_>) -> bool {
    let (a, b) = (&earlier.rule, &later.rule);
    if a.path == b.path {
        fields.invalid(
            later.path_node.span,
            format!("the rule path `spec.{}` is declared twice", b.dotted()),
            "declared again",
        );
        return false;
    }
    let (outer, inner, inner_node) = if b.path.starts_with(&a.path) {
        (a, b, later.path_node)
    } else if a.path.starts_with(&b.path) {
        (b, a, earlier.path_node)
    } else {
        return check_templates(fields, earlier, later);
    };
    fields.invalid(
        inner_node.span,
        format!(
            "the rule path `spec.{}` does not exist in the declared schema: it lies inside the rule `spec.{}`, whose {} taken whole",
            inner.dotted(),
            outer.dotted(),
            match outer.cut {
                Cut::Whole(_) => "value is",
                Cut::ByMapKey(_) => "entries' values are",
                Cut::ByListItem { .. } => "items are",
            }
        ),
        "inside another rule",
    );
    false
}

fn check_templates(fields: &mut Fields<'_>, earlier: &Written<'_>, later: &Written<'_>) -> bool {
    if earlier.rule.key_text() != later.rule.key_text() {
        return true;
    }
    let span = later.key_node.map_or(later.path_node.span, |n| n.span);
    fields.invalid(
        span,
        format!(
            "the key `{}` is used by the rules `spec.{}` and `spec.{}`; each rule needs its own",
            later.rule.key_text(),
            earlier.rule.dotted(),
            later.rule.dotted()
        ),
        "same key as an earlier rule",
    );
    false
}

fn read_rule<'n>(
    fields: &mut Fields<'_>,
    item: &'n Node,
    path: &FieldPath<'_>,
    model: Option<MergeModel>,
) -> Option<Written<'n>> {
    let entries = fields.map(item, path)?;
    fields.check_known(entries, path, RULE_KEYS);
    let path_node = fields.required(item, "path", path)?;
    let segments = rule_path(fields, path_node, &path.key("path"), model);
    let keyed = fields
        .required(item, "keyed", path)
        .and_then(|n| one_of(fields, n, &path.key("keyed"), Keyed::ALL));
    let field = item.entry("field");
    let key_node = item.get("key").filter(|n| !n.is_null());
    let segments = segments?;
    let keyed = keyed?;
    let cut = match keyed {
        Keyed::Whole => {
            reject_field(fields, field, path)?;
            Cut::Whole(whole_key(fields, key_node, &path.key("key"), &segments)?)
        }
        Keyed::ByMapKey => {
            reject_field(fields, field, path)?;
            Cut::ByMapKey(template(fields, item, key_node, path)?)
        }
        Keyed::ByListItem => {
            let Some(field) = field else {
                fields.invalid(
                    item.span,
                    format!("`{path}.field` is required for `keyed: by-list-item` (the item field that names each rule)"),
                    "missing `field`",
                );
                return None;
            };
            let name = fields.non_empty_str(&field.value, &path.key("field"))?;
            let template = template(fields, item, key_node, path)?;
            Cut::ByListItem {
                field: name.to_string(),
                template,
            }
        }
    };
    let is_when = segments.first().is_some_and(|s| s == "when");
    if is_when && model == Some(MergeModel::Kuadrant) && !matches!(cut, Cut::Whole(_)) {
        fields.invalid(
            path_node.span,
            format!(
                "`{path}.path`: `spec.when` is a predicate list or a block constraint: declare it `keyed: whole`"
            ),
            "must be whole",
        );
        return None;
    }
    Some(Written {
        rule: RuleDecl {
            path: segments,
            cut,
        },
        path_node,
        key_node,
    })
}

fn reject_field(
    fields: &mut Fields<'_>,
    field: Option<&Entry>,
    path: &FieldPath<'_>,
) -> Option<()> {
    match field {
        None => Some(()),
        Some(field) => {
            fields.invalid(
                field.key.span,
                format!("`{path}.field` goes only with `keyed: by-list-item`"),
                "only for by-list-item",
            );
            None
        }
    }
}

/// The key template of a keyed rule (required).
fn template(
    fields: &mut Fields<'_>,
    item: &Node,
    key_node: Option<&Node>,
    path: &FieldPath<'_>,
) -> Option<Template> {
    let Some(node) = key_node else {
        fields.invalid(
            item.span,
            format!("`{path}.key` is required for a keyed rule: a template with `{PLACEHOLDER}`"),
            "missing `key`",
        );
        return None;
    };
    let text = fields.str(node, &path.key("key"))?;
    match Template::parse(text) {
        Ok(template) => Some(template),
        Err(why) => {
            fields.invalid(
                node.span,
                format!("`{path}.key`: {why}"),
                "bad key template",
            );
            None
        }
    }
}

/// The key of a whole rule: as written (no placeholder), or the path.
fn whole_key(
    fields: &mut Fields<'_>,
    key_node: Option<&Node>,
    path: &FieldPath<'_>,
    segments: &[String],
) -> Option<String> {
    let Some(node) = key_node else {
        return Some(segments.join("."));
    };
    let text = fields.non_empty_str(node, path)?;
    if let Some(placeholder) = placeholder_in(text) {
        fields.invalid(
            node.span,
            format!(
                "`{path}`: a `keyed: whole` rule is one rule, its key cannot use `{placeholder}`"
            ),
            "placeholder in a whole key",
        );
        return None;
    }
    Some(text.to_string())
}

/// `spec.<a>[.<b>...]`: map keys below `spec`, not inside the targets, not a field the model
/// reserves, and not inside a value that is never a mapping.
fn rule_path(
    fields: &mut Fields<'_>,
    node: &Node,
    path: &FieldPath<'_>,
    model: Option<MergeModel>,
) -> Option<Vec<String>> {
    let text = fields.non_empty_str(node, path)?;
    let mut invalid = |why: String, label: &str| {
        fields.invalid(node.span, format!("`{path}`: {why}"), label);
        None
    };
    let Some(rest) = text.strip_prefix("spec.") else {
        return invalid(
            format!("`{text}` must start with `spec.`"),
            "not under spec",
        );
    };
    let segments: Vec<String> = rest.split('.').map(str::to_string).collect();
    if segments.iter().any(String::is_empty) {
        return invalid(format!("`{text}` has an empty segment"), "empty segment");
    }
    let first = segments[0].as_str();
    if ["targetRef", "targetRefs", "targetSelectors"].contains(&first) {
        return invalid(
            format!(
                "`{text}` lies inside `spec.{first}`, which names targets: targets are not rules"
            ),
            "inside the targets",
        );
    }
    if RESERVED.contains(&first) || (model == Some(MergeModel::Kuadrant) && first == "strategy") {
        let why = match first {
            "defaults" | "overrides" => format!(
                "`spec.{first}` is a block: rule paths are read inside every block, write them without it (`spec.<field>`)"
            ),
            _ => format!("`spec.{first}` is reserved (never a rule)"),
        };
        return invalid(why, "reserved field");
    }
    if model == Some(MergeModel::Kuadrant) && first == "when" && segments.len() > 1 {
        return invalid(
            format!(
                "the rule path `{text}` does not exist in the schema: `spec.when` is a predicate list or a constraint string, never a mapping"
            ),
            "inside `when`",
        );
    }
    Some(segments)
}

fn read_blocks(
    fields: &mut Fields<'_>,
    item: &Node,
    path: &FieldPath<'_>,
    model: Option<MergeModel>,
) -> Option<Blocks> {
    let Some(entry) = item.entry("blocks") else {
        return Some(Blocks::default());
    };
    if model.is_some_and(|m| m != MergeModel::Kuadrant) {
        fields.invalid(
            entry.key.span,
            format!(
                "`{path}.blocks` is only for the `kuadrant` model (this kind's model is `{}`)",
                model.map_or("", MergeModel::as_str)
            ),
            "only for kuadrant",
        );
        return None;
    }
    let blocks_path = path.key("blocks");
    let entries = fields.map(&entry.value, &blocks_path)?;
    fields.check_known(entries, &blocks_path, BLOCK_KEYS);
    let bare = flag(fields, &entry.value, "bare", &blocks_path, true);
    let mut strategies = |name: &str| match entry.value.get(name).filter(|n| !n.is_null()) {
        None => Vec::new(),
        Some(node) => enum_list(fields, node, &blocks_path.key(name), STRATEGIES),
    };
    let defaults = strategies("defaults");
    let overrides = strategies("overrides");
    if !bare && defaults.is_empty() && overrides.is_empty() {
        fields.invalid(
            entry.value.span,
            format!("`{blocks_path}` leaves no block usable: allow bare rules, `defaults` or `overrides`"),
            "no usable block",
        );
        return None;
    }
    Some(Blocks {
        bare,
        defaults,
        overrides,
        ..Blocks::default()
    })
}

/// `mergeType` and `listMergeKeys` (envoy-gateway only).
fn read_envoy(
    fields: &mut Fields<'_>,
    item: &Node,
    path: &FieldPath<'_>,
    model: Option<MergeModel>,
) -> (bool, Vec<(Vec<String>, String)>) {
    let envoy = model.is_none_or(|m| m == MergeModel::EnvoyGateway);
    for key in ["mergeType", "listMergeKeys"] {
        if let Some(entry) = item.entry(key).filter(|_| !envoy) {
            fields.invalid(
                entry.key.span,
                format!(
                    "`{path}.{key}` is only for the `envoy-gateway` model (this kind's model is `{}`)",
                    model.map_or("", MergeModel::as_str)
                ),
                "only for envoy-gateway",
            );
        }
    }
    if !envoy {
        return (false, Vec::new());
    }
    let merge_type = flag(fields, item, "mergeType", path, false);
    let mut keys = Vec::new();
    if let Some(node) = item.get("listMergeKeys").filter(|n| !n.is_null()) {
        let keys_path = path.key("listMergeKeys");
        for entry in fields.map(node, &keys_path).unwrap_or_default() {
            let list = entry
                .key
                .text
                .strip_prefix("spec.")
                .map(|rest| rest.split('.').map(str::to_string).collect::<Vec<_>>())
                .filter(|segments| segments.iter().all(|s| !s.is_empty()));
            let Some(list) = list else {
                fields.invalid(
                    entry.key.span,
                    format!(
                        "`{keys_path}`: `{}` must be a path `spec.<a>[.<b>...]`",
                        entry.key.text
                    ),
                    "not a spec path",
                );
                continue;
            };
            if let Some(field) = fields.non_empty_str(&entry.value, &keys_path.key(&entry.key.text))
            {
                keys.push((list, field.to_string()));
            }
        }
    }
    (merge_type, keys)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_and_plurals() {
        for ok in ["v1", "v1alpha1", "v2beta3", "v10"] {
            assert!(is_version(ok), "{ok}");
        }
        for bad in ["1", "v", "v0", "v1gamma1", "v1alpha", "v1alpha0", "V1"] {
            assert!(!is_version(bad), "{bad}");
        }
        assert_eq!(default_plural("TimeoutPolicy"), "timeoutPolicies");
        assert_eq!(default_plural("Backend"), "backends");
    }
}
