//! `dopol explain`: one path's fold, step by step — the ordered policy list with the reason
//! for the order, then what each step did to the effective policy.

use crate::engine::Engine;
use crate::engine::fold::{BlockStep, RuleEvent, RuleRef};
use crate::engine::trace::TraceRecorder;
use crate::model::Model;
use crate::policy::{BlockKind, FamilyExplanation, GepStrategy, PathLevel, PathView, Strategy};
use crate::topology::targets::Target;
use serde::Serialize;

/// A policy on the path, in order.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OrderedPolicy {
    /// 1-based position, least specific first.
    pub position: usize,
    /// Locator.
    pub policy: String,
    /// `ns/name`.
    pub name: String,
    /// What it targets (`Gateway infra/gw`, `listener infra/gw#https`, ...).
    pub target: String,
    /// `gateway`, `listener`, `route`, `route rule`.
    pub level: &'static str,
    /// `metadata.creationTimestamp` as written, if any.
    #[serde(rename = "creationTimestamp", skip_serializing_if = "Option::is_none")]
    pub created: Option<String>,
    /// Its blocks, e.g. `defaults (merge)`.
    pub blocks: Vec<String>,
    /// Why it sits here rather than before the previous policy.
    pub why: String,
    /// Fields the API server would add from the CRD's defaults (they take part in the fold
    /// as if written).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub defaulted: Vec<DefaultedField>,
}

/// A field the CRD's defaults add to a policy.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DefaultedField {
    /// Its path in the object (`spec.defaults.strategy`).
    pub field: String,
    /// Its value.
    pub value: serde_json::Value,
}

/// A change one fold step made.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Change {
    /// Rule key.
    pub key: String,
    /// `added`, `superseded`, `replaced`, `dropped`, `deactivated`, `not-applied`.
    pub action: &'static str,
    /// Locator of the rule's policy (the replaced/dropped rule's for those actions).
    pub source: String,
    /// Locators of the policies that decided it, where relevant.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub by: Vec<String>,
}

/// One fold step.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExplainedStep {
    /// Position of the policy in the ordered list.
    pub position: usize,
    /// Locator.
    pub policy: String,
    /// `defaults`, `bare`, `overrides`.
    pub block: &'static str,
    /// `atomic`, `merge` (the family's word).
    pub strategy: &'static str,
    /// GEP-713's name of the strategy (`Patch defaults`).
    pub gep: GepStrategy,
    /// What the strategy did here, in words.
    pub summary: String,
    /// Whether the block was applied.
    pub applied: bool,
    /// Why not, when not applied.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Changes, in order.
    pub changes: Vec<Change>,
    /// `E` after the step: key → source locator.
    pub effective: Vec<(String, String)>,
}

/// The explanation for one policy kind.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KindExplanation {
    /// The policy kind.
    #[serde(rename = "policyKind")]
    pub policy_kind: &'static str,
    /// How `policies` is ordered, when not least specific first (for the text heading).
    #[serde(skip)]
    pub order: Option<String>,
    /// Policies, least specific first (or in the family's merge order).
    pub policies: Vec<OrderedPolicy>,
    /// Fold steps, most specific first.
    pub steps: Vec<ExplainedStep>,
    /// The final effective policy: key → source locator.
    pub effective: Vec<(String, String)>,
    /// Every origin of each effective key more than one policy contributed to, highest
    /// priority first (`origins[0]` is the key's source).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub origins: Vec<MergedOrigins>,
    /// The family's remarks on its own account (an order decided by name, a fallback chain).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// The origins of one effective key more than one policy contributed to.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MergedOrigins {
    /// Rule key.
    pub key: String,
    /// Locators, highest priority first.
    pub origins: Vec<String>,
}

/// The explanation of one path.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PathExplanation {
    /// The path id.
    #[serde(rename = "pathId")]
    pub path_id: String,
    /// One entry per policy kind with policies on the path.
    pub kinds: Vec<KindExplanation>,
}

/// `PathExplanationList`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ExplainReport {
    /// One per path.
    pub items: Vec<PathExplanation>,
}

impl Serialize for ExplainReport {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        crate::report::list_document(serializer, "PathExplanationList", &self.items)
    }
}

/// Explains path `path` (index into `Topology::paths`) for the kinds passing `show_kind`.
pub fn explain_path(
    engine: &Engine<'_>,
    path: usize,
    show_kind: impl Fn(usize) -> bool,
) -> PathExplanation {
    let topology_path = engine.topology.paths[path];
    let kinds = engine
        .model
        .registry
        .kinds()
        .enumerate()
        .filter(|(k, _)| show_kind(*k))
        .filter_map(|(k, kind)| {
            let levels = engine.levels(&topology_path, k);
            if levels.iter().all(|(_, p)| p.is_empty()) {
                return None;
            }
            let mut trace = TraceRecorder::default();
            let model = engine.model;
            let (ordered, folded) = engine.fold_levels(path as u32, k, &levels, &mut trace);
            let view_levels = PathLevel::borrow_all(&levels);
            let view = PathView {
                path: path as u32,
                levels: &view_levels,
            };
            if let Some(own) = engine.evaluator(k).explain(&view) {
                return Some(family_explanation(model, kind.kind, own, &folded));
            }
            let locator = |p: u32| model.policies[p as usize].locator.clone();
            let position = |p: u32| ordered.iter().position(|&q| q == p).map_or(0, |i| i + 1);
            let policies = ordered_policies(engine, &topology_path, k, &ordered);
            let steps = trace
                .steps
                .iter()
                .map(|step| {
                    let policy = &model.policies[step.policy as usize];
                    let block = &policy.blocks[step.block as usize];
                    let added: Vec<&str> = step
                        .events
                        .iter()
                        .filter(|(r, e)| r.policy == step.policy && *e == RuleEvent::Added)
                        .map(|(r, _)| rule_key(model, *r))
                        .collect();
                    let replaced: Vec<&str> = step
                        .events
                        .iter()
                        .filter(|(r, e)| {
                            matches!(e, RuleEvent::Overridden { .. })
                                && added.contains(&rule_key(model, *r))
                        })
                        .map(|(r, _)| rule_key(model, *r))
                        .collect();
                    let changes = step
                        .events
                        .iter()
                        // A replacement already says the key now comes from this policy.
                        .filter(|(r, e)| {
                            !(*e == RuleEvent::Added
                                && r.policy == step.policy
                                && replaced.contains(&rule_key(model, *r)))
                        })
                        .map(|(r, event)| {
                            let key = rule_key(model, *r).to_string();
                            let (action, by) = match event {
                                RuleEvent::Added => ("added", Vec::new()),
                                RuleEvent::Superseded { by } => {
                                    ("superseded", by.iter().map(|&q| locator(q)).collect())
                                }
                                RuleEvent::Overridden { by } if added.contains(&key.as_str()) => {
                                    ("replaced", vec![locator(*by)])
                                }
                                RuleEvent::Overridden { by } => ("dropped", vec![locator(*by)]),
                                RuleEvent::Deactivated { by } => {
                                    ("deactivated", vec![locator(*by)])
                                }
                                RuleEvent::NotApplied { .. } => ("not-applied", Vec::new()),
                                RuleEvent::Merged { by } => ("merged", vec![locator(*by)]),
                                RuleEvent::Tie { by } => ("tie", vec![locator(*by)]),
                            };
                            Change {
                                key,
                                action,
                                source: locator(r.policy),
                                by,
                            }
                        })
                        .collect();
                    let (applied, reason) = match &step.step {
                        BlockStep::Applied => (true, None),
                        BlockStep::NotApplied { reason } => (false, Some(reason.clone())),
                    };
                    ExplainedStep {
                        position: position(step.policy),
                        policy: policy.locator.clone(),
                        block: block.kind.as_str(),
                        strategy: block.strategy.as_str(),
                        gep: GepStrategy::of_block(block.kind, block.strategy),
                        summary: step_summary(block, applied, &step.events, step.policy),
                        applied,
                        reason,
                        changes,
                        effective: effective_list(model, &step.effective_after),
                    }
                })
                .collect();
            Some(KindExplanation {
                policy_kind: kind.kind,
                order: None,
                policies,
                steps,
                effective: effective_list(model, &folded.effective),
                origins: merged_origins(model, &folded.effective),
                notes: Vec::new(),
            })
        })
        .collect();
    PathExplanation {
        path_id: engine.topology.path_id(path).to_string(),
        kinds,
    }
}

/// A family's own account of its fold, in the report's shape.
fn family_explanation(
    model: &Model,
    kind: &'static str,
    own: FamilyExplanation,
    folded: &crate::engine::fold::Folded<'_>,
) -> KindExplanation {
    let locator = |p: u32| model.policies[p as usize].locator.clone();
    let position = |p: Option<u32>| {
        p.and_then(|p| own.policies.iter().position(|q| q.policy == p))
            .map_or(0, |i| i + 1)
    };
    let policies = own
        .policies
        .iter()
        .enumerate()
        .map(|(i, p)| OrderedPolicy {
            position: i + 1,
            policy: locator(p.policy),
            name: model.policies[p.policy as usize].namespaced_name(),
            target: p.target.describe(model),
            level: p.level,
            created: model.policy_created_text(p.policy),
            blocks: Vec::new(),
            why: p.why.clone(),
            defaulted: defaulted(model, p.policy),
        })
        .collect();
    let steps = own
        .steps
        .iter()
        .map(|s| ExplainedStep {
            position: position(s.policy),
            policy: s.policy.map_or_else(|| s.subject.clone(), locator),
            block: s.scope,
            strategy: s.strategy,
            gep: s.gep,
            summary: s.summary.clone(),
            applied: s.skipped.is_none(),
            reason: s.skipped.clone(),
            changes: s
                .changes
                .iter()
                .map(|c| Change {
                    key: c.key.clone(),
                    action: c.action,
                    source: locator(c.source),
                    by: c.by.iter().map(|&q| locator(q)).collect(),
                })
                .collect(),
            effective: Vec::new(),
        })
        .collect();
    KindExplanation {
        policy_kind: kind,
        order: Some(own.order.to_string()),
        policies,
        steps,
        effective: effective_list(model, &folded.effective),
        origins: merged_origins(model, &folded.effective),
        notes: Vec::new(),
    }
}

/// The explanation of the items of an owned hierarchy on path `path_id`, for the kinds passing
/// `show_kind` (their families' own account: each contribution in merge order with its sort key
/// and why it is relevant, and the keys each one added or replaced).
pub fn explain_owned(
    engine: &Engine<'_>,
    path_id: &str,
    show_kind: impl Fn(&crate::policy::PolicyKind) -> bool,
) -> Option<PathExplanation> {
    let items: Vec<&crate::policy::owned::OwnedItem> = engine
        .owned()
        .flat_map(|o| o.items.iter())
        .filter(|i| i.path_id == path_id)
        .collect();
    if items.is_empty() {
        return None;
    }
    // A path of the hierarchy without the kinds asked for has none to explain, as a Gateway
    // API path without them.
    let kinds = items
        .into_iter()
        .filter(|item| show_kind(item.kind))
        .map(|item| owned_kind(engine.model, item))
        .collect();
    Some(PathExplanation {
        path_id: path_id.to_string(),
        kinds,
    })
}

/// One owned item's explanation, in the shape of a family's own account.
fn owned_kind(model: &Model, item: &crate::policy::owned::OwnedItem) -> KindExplanation {
    let locator = |p: u32| model.policies[p as usize].locator.clone();
    KindExplanation {
        policy_kind: item.kind.kind,
        order: Some(item.explanation.order.clone()),
        policies: owned_policies(model, &item.explanation),
        steps: owned_steps(model, &item.explanation),
        effective: (item.rules.iter())
            .map(|r| (r.key.clone(), locator(r.source)))
            .collect(),
        origins: (item.rules.iter())
            .filter(|r| r.origins.len() > 1)
            .map(|r| MergedOrigins {
                key: r.key.clone(),
                origins: r.origins.iter().map(|&p| locator(p)).collect(),
            })
            .collect(),
        notes: item.explanation.notes.clone(),
    }
}

/// The contributions of an owned explanation, in merge order: each with its entry and why it
/// is relevant (`to[0] (Mesh)`) and its sort key (`top Mesh, origin zone, ...`).
fn owned_policies(
    model: &Model,
    own: &crate::policy::owned::OwnedExplanation,
) -> Vec<OrderedPolicy> {
    (own.steps.iter().enumerate())
        .map(|(i, step)| {
            let key: Vec<String> = (own.key_columns.iter().zip(&step.key))
                .map(|(column, value)| format!("{column} {value}"))
                .collect();
            let policy = &model.policies[step.policy as usize];
            OrderedPolicy {
                position: i + 1,
                policy: policy.locator.clone(),
                name: policy.namespaced_name(),
                target: format!("{} ({})", step.entry, step.relevance),
                level: "entry",
                created: model.policy_created_text(step.policy),
                blocks: Vec::new(),
                why: key.join(", "),
                defaulted: defaulted(model, step.policy),
            }
        })
        .collect()
}

/// The merge steps of an owned explanation: the keys each contribution added, and those it
/// replaced with the policy whose value it replaced.
fn owned_steps(model: &Model, own: &crate::policy::owned::OwnedExplanation) -> Vec<ExplainedStep> {
    let locator = |p: u32| model.policies[p as usize].locator.clone();
    let mut setters: std::collections::BTreeMap<&str, u32> = Default::default();
    let mut steps = Vec::new();
    for (i, step) in own.steps.iter().enumerate() {
        let added = (step.added.iter()).map(|key| Change {
            key: key.clone(),
            action: "added",
            source: locator(step.policy),
            by: Vec::new(),
        });
        let replaced = (step.replaced.iter()).map(|key| Change {
            key: key.clone(),
            action: "replaced",
            source: locator(setters.get(key.as_str()).copied().unwrap_or(step.policy)),
            by: vec![locator(step.policy)],
        });
        let mut changes: Vec<Change> = added.chain(replaced).collect();
        changes.sort_by(|a, b| a.key.cmp(&b.key));
        for key in step.added.iter().chain(&step.replaced) {
            setters.insert(key, step.policy);
        }
        steps.push(ExplainedStep {
            position: i + 1,
            policy: locator(step.policy),
            block: "spec",
            strategy: "merge",
            // Later (more specific) contributions replace the keys earlier ones set.
            gep: GepStrategy::PatchDefaults,
            summary: format!(
                "{}: {} added, {} replaced",
                step.entry,
                step.added.len(),
                step.replaced.len()
            ),
            applied: true,
            reason: None,
            changes,
            effective: setters
                .iter()
                .map(|(k, &p)| (k.to_string(), locator(p)))
                .collect(),
        });
    }
    steps
}

fn rule_key(model: &Model, rule: RuleRef) -> &str {
    &model.policies[rule.policy as usize].blocks[rule.block()].rules[rule.rule()].key
}

fn effective_list(
    model: &Model,
    effective: &crate::engine::fold::Effective<'_>,
) -> Vec<(String, String)> {
    effective
        .iter()
        .map(|(key, r)| {
            (
                key.to_string(),
                model.policies[r.policy as usize].locator.clone(),
            )
        })
        .collect()
}

fn merged_origins(
    model: &Model,
    effective: &crate::engine::fold::Effective<'_>,
) -> Vec<MergedOrigins> {
    effective
        .iter()
        .filter(|(_, r)| r.origins().len() > 1)
        .map(|(key, r)| MergedOrigins {
            key: key.to_string(),
            origins: r
                .origins()
                .iter()
                .map(|&p| model.policies[p as usize].locator.clone())
                .collect(),
        })
        .collect()
}

/// What a strategy did at one step, in words.
fn step_summary(
    block: &crate::policy::Block,
    applied: bool,
    events: &[(crate::engine::fold::RuleRef, RuleEvent)],
    policy: u32,
) -> String {
    if !applied {
        return "its constraint did not hold, so the block was skipped".into();
    }
    let own_added = events
        .iter()
        .any(|(r, e)| r.policy == policy && *e == RuleEvent::Added);
    let name = match block.kind {
        BlockKind::Bare => "bare rules (atomic defaults)".to_string(),
        kind => format!("{} ({})", kind.as_str(), block.strategy.as_str()),
    };
    let what = match (block.kind.is_override(), block.strategy) {
        (false, Strategy::Atomic) if own_added => "E was empty, so its rules apply",
        (false, Strategy::Atomic) => "E already had rules, so none of its rules apply",
        (true, Strategy::Atomic) => "replaces E entirely",
        (false, Strategy::Merge) => "adds the keys E lacks; E wins clashes",
        (true, Strategy::Merge) => "its rules win clashes; E keeps its other keys",
    };
    match &block.constraint {
        Some(c) => format!("{name}, constraint `{}` holds: {what}", c.expression.trim()),
        None => format!("{name}: {what}"),
    }
}

/// The ordered policies with the reason each one sits where it does.
fn ordered_policies(
    engine: &Engine<'_>,
    path: &crate::topology::Path,
    kind: usize,
    ordered: &[u32],
) -> Vec<OrderedPolicy> {
    let model = engine.model;
    let targets = &engine.topology.targets;
    let element_of = |p: u32| -> Target {
        engine
            .elements(path, kind)
            .into_iter()
            .find(|t| targets.on(*t, kind).contains(&p))
            .expect("a policy on the path is attached to one of its elements")
    };
    ordered
        .iter()
        .enumerate()
        .map(|(i, &p)| {
            let policy = &model.policies[p as usize];
            let element = element_of(p);
            let why = match i.checked_sub(1).map(|j| ordered[j]) {
                None => format!(
                    "least specific: attached to the {}",
                    element.level().as_str()
                ),
                Some(previous) if element_of(previous) != element => {
                    format!(
                        "{} level is more specific than {}",
                        element.level().as_str(),
                        element_of(previous).level().as_str()
                    )
                }
                Some(previous) => same_element_reason(model, previous, p),
            };
            OrderedPolicy {
                position: i + 1,
                policy: policy.locator.clone(),
                name: policy.namespaced_name(),
                target: element.describe(model),
                level: element.level().as_str(),
                created: model.policy_created_text(p),
                blocks: policy
                    .blocks
                    .iter()
                    .map(|b| match b.kind {
                        BlockKind::Bare => "bare (atomic)".to_string(),
                        k => format!("{} ({})", k.as_str(), b.strategy.as_str()),
                    })
                    .collect(),
                why,
                defaulted: defaulted(model, p),
            }
        })
        .collect()
}

fn defaulted(model: &Model, policy: u32) -> Vec<DefaultedField> {
    model.policy_object(policy).map_or_else(Vec::new, |o| {
        crate::crd::defaults::defaulted_fields(model.tree(o))
            .into_iter()
            .map(|(field, value)| DefaultedField { field, value })
            .collect()
    })
}

/// Why `current` comes after `previous` on the same element.
fn same_element_reason(model: &Model, previous: u32, current: u32) -> String {
    let (a, b) = (
        &model.policies[previous as usize],
        &model.policies[current as usize],
    );
    let same = format!("same target as {}", a.namespaced_name());
    match (a.creation_timestamp, b.creation_timestamp) {
        (Some(x), Some(y)) if x < y => format!("{same}; created later, so more specific"),
        (Some(_), None) => {
            format!("{same}; no creationTimestamp counts as newest, so more specific")
        }
        _ => format!("{same}; same creationTimestamp (or none): ordered by name, so more specific"),
    }
}
