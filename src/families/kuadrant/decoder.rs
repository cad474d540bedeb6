//! Decoding a Kuadrant-model object: targets, the `defaults`/bare/`overrides` blocks with their
//! strategies and `when` constraints, `unset`/`remove`, and the CRD's cross-field rules
//! (exclusive blocks, an empty active block) — the same for every kind of the model.
//!
//! What differs between kinds is where the rules live inside a block and how they are keyed:
//! a [`RuleShape`]. The built-in kinds have theirs in [`super::Shape`]; a kind declared in a
//! families file brings a declared layout (`crate::families::declared`).

use super::diags::{BareFieldIgnored, EmptyBlock, ExclusiveBlocks};
use crate::diag::Diagnostic;
use crate::load::Object;
use crate::load::fields::{FieldPath, Fields};
use crate::name::Name;
use crate::policy::decode::TargetFields;
use crate::policy::{
    Block, BlockKind, Constraint, Policy, PolicyKind, Rule, Strategy, UnsetEntry, decode,
};
use crate::source::Span;
use crate::yaml::{Entry, Node, Value};

/// Which blocks a kind has and the strategies each allows (the first is the default).
#[derive(Clone, Copy, Debug)]
pub struct BlockRules {
    /// Rules directly under `spec` (implicit atomic defaults).
    pub bare: bool,
    /// The block bare rules are, and its strategy: atomic defaults (`Bare`) for the built-in
    /// kinds; a kind a families file declares by GEP-713 strategy alone has only bare rules,
    /// which are the defaults or overrides that strategy names.
    pub bare_as: (BlockKind, Strategy),
    /// `spec.defaults` strategies; empty: the kind has no `defaults` block.
    pub defaults: &'static [Strategy],
    /// `spec.overrides` strategies; empty: the kind has no `overrides` block.
    pub overrides: &'static [Strategy],
}

/// The built-in kinds' blocks: bare rules, `defaults` and `overrides`, atomic by default.
pub const BUILTIN_BLOCKS: BlockRules = BlockRules {
    bare: true,
    bare_as: (BlockKind::Bare, Strategy::Atomic),
    defaults: &[Strategy::Atomic, Strategy::Merge],
    overrides: &[Strategy::Atomic, Strategy::Merge],
};

/// Two blocks the CRD forbids together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clash {
    /// `defaults` and `overrides`.
    DefaultsOverrides,
    /// `defaults` and bare rules.
    DefaultsBare,
    /// `overrides` and bare rules.
    OverridesBare,
}

/// Where a kind's rules live inside a block (or the bare spec), and how they are keyed.
pub trait RuleShape: Send + Sync {
    /// The spec fields naming targets.
    fn targets(&self) -> &TargetFields;
    /// The blocks the kind has.
    fn blocks(&self) -> &BlockRules;
    /// Whether `field` of a block (or of the spec, for bare rules) holds rules.
    fn is_rule_field(&self, field: &str) -> bool;
    /// Whether the CRD rejects bare `field` beside `defaults` or `overrides` (its
    /// `x-kubernetes-validations` name it). A bare rule field it does not name is accepted
    /// there and ignored: the operator reads only the explicit block (`Spec.Proper()`).
    fn clashes_with_blocks(&self, _field: &str) -> bool {
        true
    }
    /// The fields a block may hold (rule fields and `when`), for unknown-field warnings;
    /// `None` when every field is a rule.
    fn known_fields(&self) -> Option<Vec<&str>>;
    /// Cuts a block into rules, pushing them to `rules` (shape errors go to `fields`). A `when`
    /// already read as the block's constraint is not a rule then.
    fn cut(
        &self,
        fields: &mut Fields<'_>,
        block: &Node,
        path: &FieldPath<'_>,
        when_is_constraint: bool,
        rules: &mut Vec<Rule>,
    ) -> Option<()>;
    /// `Ok` when the block holds a rule the CRD counts; otherwise the fields it counts.
    fn counted_rules(&self, block: &Node) -> Result<(), Vec<String>>;
    /// The rule key an `unset` entry (a rule key or a spec path) names.
    fn unset_key(&self, text: &str) -> Option<String>;
    /// What an `unset` entry may be, for messages (`a rule key (...) or a spec path (...)`).
    fn unset_forms(&self) -> String;
    /// The CRD's message when two blocks clash.
    fn clash_message(&self, clash: Clash) -> &'static str;
    /// Rules rendered back into the kind's spec shape (what a CEL constraint sees as `spec`).
    fn spec_shape(&self, rules: &[(&str, &Node)]) -> serde_json::Value;
}

/// Decodes an object of a Kuadrant-model kind; `None` (with errors in `fields`) when the API
/// server would reject it.
pub fn decode_policy(
    kind: &'static PolicyKind,
    shape: &dyn RuleShape,
    object: &Object,
    fields: &mut Fields<'_>,
) -> Option<Policy> {
    Decoder {
        kind,
        shape,
        fields,
    }
    .decode(object)
}

/// Rules rendered into a spec, each at the path (field names under `spec`) `path_of` gives.
pub fn spec_by_paths(
    rules: &[(&str, &Node)],
    path_of: impl Fn(&str) -> Vec<String>,
) -> serde_json::Value {
    let mut spec = serde_json::Map::new();
    for (key, value) in rules {
        let path = path_of(key);
        if !path.is_empty() {
            *crate::policy::decode::json_slot(&mut spec, &path) = value.to_json();
        }
    }
    serde_json::Value::Object(spec)
}

/// The names of the target fields, in the order the known-field list gives them.
fn target_field_names(targets: &TargetFields) -> Vec<&'static str> {
    let mut names = Vec::new();
    if targets.single {
        names.push("targetRef");
    }
    if targets.list {
        names.push("targetRefs");
    }
    if targets.selectors.is_some() {
        names.push("targetSelectors");
    }
    names
}

struct Decoder<'a, 'f> {
    kind: &'static PolicyKind,
    shape: &'a dyn RuleShape,
    fields: &'a mut Fields<'f>,
}

impl Decoder<'_, '_> {
    fn decode(&mut self, object: &Object) -> Option<Policy> {
        let root = FieldPath::ROOT;
        let spec_path = root.key("spec");
        let spec = self.fields.required(&object.root, "spec", &root)?;
        let spec_entries = self.fields.map(spec, &spec_path)?;
        let blocks_allowed = *self.shape.blocks();

        if let Some(rule_fields) = self.shape.known_fields() {
            let mut known = target_field_names(self.shape.targets());
            if !blocks_allowed.defaults.is_empty() {
                known.push("defaults");
            }
            if !blocks_allowed.overrides.is_empty() {
                known.push("overrides");
            }
            known.extend(["unset", "remove"]);
            if blocks_allowed.bare {
                known.extend(rule_fields);
            }
            self.fields.check_known(spec_entries, &spec_path, &known);
        }

        let targets = decode::targets(
            self.fields,
            self.kind,
            spec,
            &spec_path,
            self.shape.targets(),
        );

        let block_entry = |name: &str, strategies: &[Strategy]| {
            spec.entry(name)
                .filter(|e| !strategies.is_empty() && !e.value.is_null())
        };
        let defaults = block_entry("defaults", blocks_allowed.defaults);
        let overrides = block_entry("overrides", blocks_allowed.overrides);
        let (bare_fields, ignored): (Vec<&Entry>, Vec<&Entry>) = spec_entries
            .iter()
            .filter(|e| {
                blocks_allowed.bare && self.shape.is_rule_field(&e.key.text) && !e.value.is_null()
            })
            .partition(|e| {
                self.shape.clashes_with_blocks(&e.key.text)
                    || (defaults.is_none() && overrides.is_none())
            });
        self.check_exclusive(defaults, overrides, &bare_fields);
        self.report_ignored(defaults.or(overrides), &ignored);

        let mut blocks = Vec::new();
        if let Some(entry) = defaults {
            let decoded = self.decode_explicit_block(entry, BlockKind::Defaults, &spec_path);
            blocks.push(decoded);
        }
        let no_block = defaults.is_none() && overrides.is_none();
        if blocks_allowed.bare && (!bare_fields.is_empty() || no_block) {
            let rules = self.decode_rules(spec, &spec_path, false);
            let span = bare_fields.first().map_or(spec.span, |e| e.key.span);
            let (kind, strategy) = blocks_allowed.bare_as;
            blocks.push(rules.map(|(rules, constraint)| Block {
                kind,
                strategy,
                rules: rules.into(),
                constraint: constraint.map(Box::new),
                span,
            }));
            if no_block {
                self.check_not_empty(spec, &spec_path, span);
            }
        } else if no_block {
            self.no_block(spec, blocks_allowed);
        }
        if let Some(entry) = overrides {
            let decoded = self.decode_explicit_block(entry, BlockKind::Overrides, &spec_path);
            blocks.push(decoded);
        }
        let unset = self.decode_unset(spec, &spec_path);

        if self.fields.failed() {
            return None;
        }
        let blocks: Vec<Block> = blocks.into_iter().collect::<Option<_>>()?;
        Some(Policy {
            unset: unset?.into(),
            ..Policy::new(self.kind, object, targets, blocks)
        })
    }

    /// A kind without bare rules and neither block written: nothing to evaluate.
    fn no_block(&mut self, spec: &Node, blocks: BlockRules) {
        let mut names = Vec::new();
        if !blocks.defaults.is_empty() {
            names.push("spec.defaults");
        }
        if !blocks.overrides.is_empty() {
            names.push("spec.overrides");
        }
        self.report_empty(EmptyBlock::NoBlock { blocks: names }, spec.span);
    }

    /// Reports an empty spec or block, labelled at `span`.
    fn report_empty(&mut self, finding: EmptyBlock<'_>, span: Span) {
        let label = finding.label();
        self.fields
            .report(Diagnostic::from(finding).with_label(span, label));
    }

    /// Bare rule fields the CRD accepts beside the explicit `block` and the operator ignores
    /// (a rate limit policy's top-level `when` beside `defaults`).
    fn report_ignored(&mut self, block: Option<&Entry>, ignored: &[&Entry]) {
        let Some(block) = block else {
            return;
        };
        for entry in ignored {
            let finding = BareFieldIgnored {
                field: &entry.key.text,
                block: &block.key.text,
            };
            let (here, beside) = (finding.label(), finding.block_label());
            self.fields.report(
                Diagnostic::from(finding)
                    .with_label(entry.key.span, here)
                    .with_label(block.key.span, beside),
            );
        }
    }

    /// The CRD forbids `defaults` with `overrides`, and either beside bare rules.
    fn check_exclusive(
        &mut self,
        defaults: Option<&Entry>,
        overrides: Option<&Entry>,
        bare: &[&Entry],
    ) {
        let pairs = [
            (Clash::DefaultsOverrides, defaults, overrides),
            (Clash::DefaultsBare, defaults, bare.first().copied()),
            (Clash::OverridesBare, overrides, bare.first().copied()),
        ];
        for (clash, first, second) in pairs {
            let (Some(first), Some(second)) = (first, second) else {
                continue;
            };
            let finding = ExclusiveBlocks {
                shape: self.shape,
                clash,
                first: &first.key.text,
                second: &second.key.text,
            };
            let (here, conflicts) = (finding.second_label(), finding.first_label());
            self.fields.report(
                Diagnostic::from(finding)
                    .with_label(second.key.span, here)
                    .with_label(first.key.span, conflicts),
            );
        }
    }

    fn decode_explicit_block(
        &mut self,
        entry: &Entry,
        kind: BlockKind,
        spec_path: &FieldPath<'_>,
    ) -> Option<Block> {
        let path = spec_path.key(&entry.key.text);
        let node = &entry.value;
        let entries = self.fields.map(node, &path)?;
        if let Some(rule_fields) = self.shape.known_fields() {
            let mut known = vec!["strategy"];
            known.extend(rule_fields);
            self.fields.check_known(entries, &path, &known);
        }
        let allowed = match kind {
            BlockKind::Overrides => self.shape.blocks().overrides,
            _ => self.shape.blocks().defaults,
        };
        let strategy = match node.get("strategy").filter(|n| !n.is_null()) {
            None => allowed[0],
            Some(s) => {
                let text = self.fields.str(s, &path.key("strategy"))?;
                match allowed.iter().find(|a| a.as_str() == text) {
                    Some(strategy) => *strategy,
                    None => {
                        let supported: Vec<String> = allowed
                            .iter()
                            .map(|a| format!("\"{}\"", a.as_str()))
                            .collect();
                        self.fields.invalid(
                            s.span,
                            format!(
                                "`{path}.strategy`: Unsupported value: \"{text}\": supported values: {}",
                                supported.join(", ")
                            ),
                            &must_be(allowed),
                        );
                        return None;
                    }
                }
            }
        };
        let (rules, constraint) = self.decode_rules(node, &path, true)?;
        self.check_not_empty(node, &path, entry.key.span);
        Some(Block {
            kind,
            strategy,
            rules: rules.into(),
            constraint: constraint.map(Box::new),
            span: entry.key.span,
        })
    }

    /// The CRD requires the active block to hold at least one rule it counts.
    fn check_not_empty(&mut self, block: &Node, path: &FieldPath<'_>, span: Span) {
        let Err(counted) = self.shape.counted_rules(block) else {
            return;
        };
        let finding = EmptyBlock::NoRule {
            path,
            counted: &counted,
        };
        self.report_empty(finding, span);
    }

    /// Reads the rules of a block (or of the bare spec). `explicit` blocks may carry a CEL
    /// constraint as a string `when`.
    fn decode_rules(
        &mut self,
        block: &Node,
        path: &FieldPath<'_>,
        explicit: bool,
    ) -> Option<(Vec<Rule>, Option<Constraint>)> {
        let constraint = match block.get("when").map(|n| &n.value) {
            Some(Value::String(expression)) if explicit => Some(Constraint {
                expression: expression.to_string(),
                span: block.get("when").map_or(block.span, |n| n.span),
            }),
            _ => None,
        };
        let mut rules = Vec::new();
        self.shape
            .cut(self.fields, block, path, constraint.is_some(), &mut rules)?;
        rules.sort_by(|a, b| a.key.cmp(&b.key));
        // Keys are unique by construction except where a name equals a reserved key (a limit
        // named `###_TOP_LEVEL_PREDICATES_###` beside a top-level `when`).
        if let Some(pair) = rules.windows(2).find(|pair| pair[0].key == pair[1].key) {
            let clash = pair[1].key_span;
            self.fields.invalid(
                clash,
                format!(
                    "rule key `{}` is used twice in `{path}` (a name collides with a reserved key)",
                    pair[0].key
                ),
                "reserved key",
            );
            return None;
        }
        Some((rules, constraint))
    }

    fn decode_unset(&mut self, spec: &Node, spec_path: &FieldPath<'_>) -> Option<Vec<UnsetEntry>> {
        let mut entries = Vec::new();
        for field in ["unset", "remove"] {
            let Some(list) = spec.get(field).filter(|n| !n.is_null()) else {
                continue;
            };
            let path = spec_path.key(field);
            for (i, item) in self.fields.seq(list, &path)?.iter().enumerate() {
                let item_path = path.index(i);
                let Some(text) = self.fields.non_empty_str(item, &item_path) else {
                    continue;
                };
                match self.shape.unset_key(text) {
                    Some(key) => entries.push(UnsetEntry {
                        text: text.to_string(),
                        key,
                        span: item.span,
                    }),
                    None => self.fields.invalid(
                        item.span,
                        format!("`{item_path}` must be {}", self.shape.unset_forms()),
                        "not a rule",
                    ),
                }
            }
        }
        Some(entries)
    }
}

/// `must be atomic or merge`, for the strategies a block allows.
fn must_be(allowed: &[Strategy]) -> String {
    let names: Vec<&str> = allowed.iter().map(|s| s.as_str()).collect();
    format!("must be {}", names.join(" or "))
}

/// A rule named by a map entry's key.
pub fn named_rule(key: String, entry: &Entry) -> Rule {
    Rule {
        key: Name::new(&key),
        value: entry.value.clone(),
        key_span: entry.key.span,
    }
}
