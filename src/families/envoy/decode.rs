//! An Envoy Gateway object as a [`Policy`] (docs/families.md §3.1): a selector's target kind (which the
//! CRDs leave to the controller; their shape rules, such as `mergeType` only with xRoute targets,
//! are checked from the CRDs in [`crate::crd`] before this runs), the ListenerSet targets
//! (`targetRefs` of kind ListenerSet, with or without `sectionName`, are kept in the stored spec
//! for [`super::sets`], out of the generic targets; a ListenerSet selector stays a selector, which
//! [`super::sets`] resolves), a selector's `namespaces` (field-2026 §2.6: the other
//! namespaces it may select in, each match there needing a ReferenceGrant), the pruning
//! of `null`s the API server does, and the rule keys.
//!
//! The decode-time findings (`null-pruned`, `deprecated-target-ref`, `selector-selects-all`)
//! are reported here, where the nodes are.

use super::diags::{DeprecatedTargetRef, NullPruned, SelectorSelectsAll};
use super::merge::{MergeType, prune_nulls};
use super::spec::EnvoyKindSpec;
use super::spec::GROUP;
use crate::diag::Diagnostic;
use crate::kinds::{CrossNamespace, NamespacesFrom};
use crate::load::Object;
use crate::load::fields::{FieldPath, Fields};
use crate::policy::diags::InvalidTargetKind;
use crate::policy::{Block, BlockKind, Policy, PolicyKind, Strategy, decode};
use crate::yaml::{Entry, Node, Shared, Value};

/// Decodes one object of `kind`; `None` when the API server would reject it.
pub fn decode_policy(
    kind: &'static PolicyKind,
    spec_rules: &EnvoyKindSpec,
    object: &Object,
    fields: &mut Fields,
) -> Option<Policy> {
    let root = FieldPath::ROOT;
    let spec_path = root.key("spec");
    let written = fields.required(&object.root, "spec", &root)?;
    fields.map(written, &spec_path)?;
    let mut pruned = Vec::new();
    let spec = prune_nulls(written, &mut pruned);
    for span in pruned {
        fields.report(pruned_null(object, span));
    }
    merge_type(kind, spec_rules, &spec, fields);
    if let Some(single) = spec.get("targetRef") {
        fields.report(deprecated_target_ref(object, single));
    }
    // The stored spec keeps the ListenerSet targets (`super::sets` reads them; they are not
    // rules); the generic targets are read without them.
    let stored = spec;
    let (spec, namespaces) = generic_targets(&stored);
    // Each ListenerSet `targetRefs` entry is left to the family: noted so that the topology
    // does not call a policy with only such targets "without targets".
    let left_to_family: thin_vec::ThinVec<&'static str> = (super::sets::set_refs_of(&stored))
        .map(|_| "ListenerSet")
        .collect();
    let mut targets = decode::targets(fields, kind, &spec, &spec_path, &spec_rules.targets);
    let selectors_path = spec_path.key("targetSelectors");
    for (i, selector) in targets.1.iter_mut().enumerate() {
        check_selector(kind, selector, i, fields);
        let item = selectors_path.index(i);
        let path = item.key("namespaces");
        let written = namespaces.get(i).and_then(Option::as_ref);
        selector.cross_namespace = written.and_then(|n| cross_namespace(n, &path, fields));
    }
    let rules = spec_rules.rules.cut(&spec);
    if fields.failed() {
        return None;
    }
    let block = Block {
        kind: BlockKind::Spec,
        strategy: Strategy::Atomic,
        rules: rules.into(),
        constraint: None,
        span: written.span,
    };
    Some(Policy {
        spec: Some(Box::new(stored)),
        unmodelled_targets: left_to_family,
        ..Policy::new(kind, object, targets, vec![block])
    })
}

/// `null-pruned` at `span`.
fn pruned_null(object: &Object, span: crate::source::Span) -> Diagnostic {
    Diagnostic::from(NullPruned { object }).with_label(span, "pruned")
}

/// `deprecated-target-ref` on the singular `targetRef`.
fn deprecated_target_ref(object: &Object, single: &Node) -> Diagnostic {
    Diagnostic::from(DeprecatedTargetRef { object }).with_label(single.span, "deprecated")
}

/// `spec.mergeType` of a decoded spec, when set to a known value.
pub fn read_merge_type(spec: &Node) -> Option<MergeType> {
    spec.get("mergeType")
        .and_then(Node::as_str)
        .and_then(MergeType::parse)
}

/// `mergeType` on a kind without it (a declared kind without a CRD: the built-in kinds' CRDs
/// refuse it first), and a value Envoy Gateway cannot merge with: the CRDs refuse only
/// `Replace`, and `utils.Merge` fails on anything but the two merge types.
fn merge_type(kind: &PolicyKind, spec_rules: &EnvoyKindSpec, spec: &Node, fields: &mut Fields) {
    let Some(node) = spec.get("mergeType") else {
        return;
    };
    if !spec_rules.merge_type {
        fields.invalid(
            node.span,
            format!("`spec.mergeType`: {} has no mergeType field", kind.kind),
            "not allowed here",
        );
    } else if let Some(text) = node.as_str()
        && MergeType::parse(text).is_none()
    {
        fields.invalid(
            node.span,
            format!("`spec.mergeType`: unsupported merge type: {text} (Envoy Gateway merges only StrategicMerge and JSONMerge)"),
            "not a merge type",
        );
    }
}

/// A selector's `namespaces` written for each selector kept (in order), `None` where absent.
type SelectorNamespaces = Vec<Option<Node>>;

/// `spec` without its `targetRef`/`targetRefs` entries of kind ListenerSet (resolved by
/// [`super::sets`]) and without selectors' `namespaces`, and the `namespaces` taken out.
fn generic_targets(spec: &Node) -> (Node, SelectorNamespaces) {
    let Some(entries) = spec.as_map() else {
        return (spec.clone(), Vec::new());
    };
    let generic = |node: &Node| node.get("kind").and_then(Node::as_str) != Some("ListenerSet");
    let mut namespaces = Vec::new();
    let mut out = Vec::with_capacity(entries.len());
    for entry in entries {
        let value = match &*entry.key.text {
            "targetRef" if !generic(&entry.value) => continue,
            "targetRefs" => filter_seq(&entry.value, generic),
            "targetSelectors" => {
                let (selectors, taken) = without_namespaces(&entry.value);
                namespaces = taken;
                selectors
            }
            _ => entry.value.clone(),
        };
        out.push(Entry {
            key: entry.key.clone(),
            value,
        });
    }
    let spec = Node {
        span: spec.span,
        value: Value::Map(Shared::from(out)),
    };
    (spec, namespaces)
}

fn filter_seq(node: &Node, mut keep: impl FnMut(&Node) -> bool) -> Node {
    match node.as_seq() {
        Some(items) => Node {
            span: node.span,
            value: Value::Seq(items.iter().filter(|n| keep(n)).cloned().collect()),
        },
        None => node.clone(),
    }
}

/// Selectors without their `namespaces` field (which the generic selector decoding does not
/// know), and each selector's `namespaces`.
fn without_namespaces(selectors: &Node) -> (Node, SelectorNamespaces) {
    let Some(items) = selectors.as_seq() else {
        return (selectors.clone(), Vec::new());
    };
    let mut taken = Vec::with_capacity(items.len());
    let items: Vec<Node> = items
        .iter()
        .map(|item| match (item.get("namespaces"), item.as_map()) {
            (Some(namespaces), Some(entries)) => {
                taken.push(Some(namespaces.clone()));
                let kept: Vec<Entry> = entries
                    .iter()
                    .filter(|e| &*e.key.text != "namespaces")
                    .cloned()
                    .collect();
                Node {
                    span: item.span,
                    value: Value::Map(Shared::from(kept)),
                }
            }
            _ => {
                taken.push(None);
                item.clone()
            }
        })
        .collect();
    let node = Node {
        span: selectors.span,
        value: Value::Seq(items.into()),
    };
    (node, taken)
}

/// A selector's `namespaces` (`from: Same` — the default —, `All`, or `Selector` with a
/// Namespace label selector; the CRD has checked its shape): `None` for the policy's namespace
/// only.
fn cross_namespace(
    node: &Node,
    path: &FieldPath<'_>,
    fields: &mut Fields,
) -> Option<Box<CrossNamespace>> {
    let from = match node.get("from").and_then(Node::as_str).unwrap_or("Same") {
        "All" => NamespacesFrom::All,
        "Selector" => {
            let selector = node.get("selector")?;
            let at = path.key("selector");
            NamespacesFrom::Selector(
                decode::match_labels(fields, selector, &at),
                decode::match_expressions(fields, selector, &at),
            )
        }
        _ => return None,
    };
    Some(Box::new(CrossNamespace {
        from,
        grant_group: GROUP,
    }))
}

/// A selector's kind must be a target kind (CRD), and an empty selector selects everything.
fn check_selector(
    kind: &PolicyKind,
    selector: &crate::policy::TargetSelector,
    index: usize,
    fields: &mut Fields,
) {
    if !kind.target_kinds.contains(&selector.kind.as_str()) {
        let finding = InvalidTargetKind::Selected {
            policy_kind: kind,
            kind: &selector.kind,
        };
        let label = finding.label();
        fields.push(Diagnostic::from(finding).with_label(selector.span, label));
    }
    if selector.match_labels.is_empty() && selector.match_expressions.is_empty() {
        fields.report(
            Diagnostic::from(SelectorSelectsAll {
                index,
                kind: &selector.kind,
            })
            .with_label(selector.span, "selects everything"),
        );
    }
}
