//! Decoding shared by the families: target references as the Gateway API policy attachment
//! CRDs define them: `targetRef`, `targetRefs` and `targetSelectors`, each family saying which
//! of them its kinds have ([`TargetFields`]).

use super::diags::InvalidTargetKind;
use super::{LabelOperator, LabelRequirement, PolicyKind, TargetRef, TargetSelector};
use crate::diag::Diagnostic;
use crate::load::fields::{FieldPath, Fields};
use crate::model::gateway::GATEWAY_GROUP;
use crate::name::Name;
use crate::yaml::Node;

/// One `targetRef`/`targetRefs` entry: a Gateway API object of a kind `kind` may target.
pub fn target_ref(
    fields: &mut Fields<'_>,
    policy_kind: &PolicyKind,
    node: &Node,
    path: &FieldPath<'_>,
) -> Option<TargetRef> {
    let entries = fields.map(node, path)?;
    fields.check_known(entries, path, &["group", "kind", "name", "sectionName"]);
    let group_node = fields.required(node, "group", path);
    let group = group_node.and_then(|n| fields.str(n, &path.key("group")));
    let kind_node = fields.required(node, "kind", path);
    let kind = kind_node.and_then(|n| fields.non_empty_str(n, &path.key("kind")));
    let name_node = fields.required(node, "name", path);
    let name = name_node.and_then(|n| fields.non_empty_str(n, &path.key("name")));
    let section_name = fields.opt_name(
        node,
        "sectionName",
        path,
        crate::load::names::NameRule::SectionName,
    );
    // The legacy XListenerSet is in the experimental channel's group.
    let legacy_set =
        |group: &str| kind.is_some_and(|kind| crate::model::gateway::is_listener_set(group, kind));
    if let (Some(group), Some(group_node)) = (group, group_node)
        && group != GATEWAY_GROUP
        && !legacy_set(group)
    {
        let finding = InvalidTargetKind::Group { group };
        let label = finding.label();
        fields.push(Diagnostic::from(finding).with_label(group_node.span, label));
    }
    if let (Some(kind), Some(kind_node)) = (kind, kind_node)
        && !policy_kind.target_kinds.contains(&kind)
    {
        let finding = InvalidTargetKind::Kind { policy_kind, kind };
        let label = finding.label();
        fields.push(Diagnostic::from(finding).with_label(kind_node.span, label));
    }
    Some(TargetRef {
        group: Name::new(group?),
        kind: Name::new(kind?),
        name: Name::new(name?),
        section_name: section_name.map(Name::new),
        span: node.span,
        name_span: name_node?.span,
        section_span: node.get("sectionName").map(|n| n.span),
    })
}

/// Which spec fields of a kind name its targets (docs/families.md §1, §4.2 `targets`, `sectionName`,
/// `targetSelectors`).
#[derive(Clone, Copy, Debug)]
pub struct TargetFields {
    /// `spec.targetRef` (singular; Kuadrant's only form, deprecated elsewhere).
    pub single: bool,
    /// `spec.targetRefs`.
    pub list: bool,
    /// Whether the object must name a target (`targetRef` is required by Kuadrant's CRDs).
    pub required: bool,
    /// Whether a `targetRef(s)` entry may carry a `sectionName`.
    pub section_name: bool,
    /// `spec.targetSelectors`, and how its entries are read.
    pub selectors: Option<SelectorFields>,
}

/// How a kind's `targetSelectors` entries are read.
#[derive(Clone, Copy, Debug)]
pub struct SelectorFields {
    /// `matchExpressions` is part of the schema (Envoy Gateway).
    pub match_expressions: bool,
    /// `sectionName` is part of the schema (kgateway); otherwise it is a shape error.
    pub section_name: bool,
    /// An empty selector selects nothing (kgateway) rather than everything (Kubernetes).
    pub empty_selects_nothing: bool,
}

/// The targets of a policy: `targetRef`, then `targetRefs` (duplicates dropped), then
/// `targetSelectors`, read as `fields` says. Shape errors go to `fields`.
pub fn targets(
    fields: &mut Fields<'_>,
    kind: &PolicyKind,
    spec: &Node,
    spec_path: &FieldPath<'_>,
    shape: &TargetFields,
) -> (Vec<TargetRef>, Vec<TargetSelector>) {
    let mut targets: Vec<TargetRef> = Vec::new();
    let mut push = |fields: &mut Fields<'_>, node: &Node, path: &FieldPath<'_>| {
        if let Some(target) = target_ref(fields, kind, node, path) {
            if !shape.section_name
                && let Some(span) = target.section_span
            {
                fields.invalid(
                    span,
                    format!(
                        "`{path}.sectionName`: {} targets name whole objects",
                        kind.kind
                    ),
                    "sectionName is not allowed here",
                );
            }
            let same = |t: &TargetRef| {
                (&t.group, &t.kind, &t.name, &t.section_name)
                    == (
                        &target.group,
                        &target.kind,
                        &target.name,
                        &target.section_name,
                    )
            };
            if !targets.iter().any(same) {
                targets.push(target);
            }
        }
    };
    if shape.single
        && let Some(node) = spec.get("targetRef").filter(|n| !n.is_null())
    {
        push(fields, node, &spec_path.key("targetRef"));
    }
    if shape.list
        && let Some(list) = spec.get("targetRefs").filter(|n| !n.is_null())
    {
        let path = spec_path.key("targetRefs");
        for (i, node) in fields
            .seq(list, &path)
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            push(fields, node, &path.index(i));
        }
    }
    let selectors = match shape.selectors {
        Some(rules) => selectors(fields, spec, spec_path, rules),
        None => Vec::new(),
    };
    if shape.required && targets.is_empty() && selectors.is_empty() {
        let field = if shape.single {
            "targetRef"
        } else {
            "targetRefs"
        };
        fields.required(spec, field, spec_path);
    }
    (targets, selectors)
}

/// `targetSelectors`: `{group?, kind, matchLabels?, matchExpressions?, sectionName?}`.
fn selectors(
    fields: &mut Fields<'_>,
    spec: &Node,
    spec_path: &FieldPath<'_>,
    rules: SelectorFields,
) -> Vec<TargetSelector> {
    let Some(list) = spec.get("targetSelectors").filter(|n| !n.is_null()) else {
        return Vec::new();
    };
    let path = spec_path.key("targetSelectors");
    let mut known = vec!["group", "kind", "matchLabels"];
    if rules.match_expressions {
        known.push("matchExpressions");
    }
    if rules.section_name {
        known.push("sectionName");
    }
    let mut selectors = Vec::new();
    for (i, node) in fields
        .seq(list, &path)
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        let item = path.index(i);
        let Some(entries) = fields.map(node, &item) else {
            continue;
        };
        if !rules.section_name
            && let Some(section) = node.get("sectionName")
        {
            fields.invalid(
                section.span,
                format!("`{item}.sectionName`: a targetSelector selects whole objects"),
                "sectionName is not allowed in a selector",
            );
        }
        fields.check_known(
            entries,
            &item,
            &known
                .iter()
                .copied()
                .chain((!rules.section_name).then_some("sectionName"))
                .collect::<Vec<_>>(),
        );
        let kind = fields
            .required(node, "kind", &item)
            .and_then(|n| fields.non_empty_str(n, &item.key("kind")));
        let group = fields
            .opt_str(node, "group", &item)
            .unwrap_or(GATEWAY_GROUP);
        let match_labels = match_labels(fields, node, &item);
        let match_expressions = if rules.match_expressions {
            match_expressions(fields, node, &item)
        } else {
            Vec::new()
        };
        let section_name = if rules.section_name {
            fields
                .opt_str(node, "sectionName", &item)
                .map(str::to_string)
        } else {
            None
        };
        let Some(kind) = kind else { continue };
        selectors.push(TargetSelector {
            group: group.to_string(),
            kind: kind.to_string(),
            match_labels,
            match_expressions,
            section_name,
            empty_selects_nothing: rules.empty_selects_nothing,
            all_namespaces: false,
            cross_namespace: None,
            span: node.span,
        });
    }
    selectors
}

/// `matchLabels`, sorted by key.
pub fn match_labels(
    fields: &mut Fields<'_>,
    node: &Node,
    item: &FieldPath<'_>,
) -> Vec<(String, String)> {
    let Some(labels) = node.get("matchLabels").filter(|n| !n.is_null()) else {
        return Vec::new();
    };
    let path = item.key("matchLabels");
    let mut pairs: Vec<(String, String)> = fields
        .map(labels, &path)
        .unwrap_or_default()
        .iter()
        .filter_map(|e| {
            let value = fields.str(&e.value, &path.key(&e.key.text))?;
            Some((e.key.text.to_string(), value.to_string()))
        })
        .collect();
    pairs.sort();
    pairs
}

/// `matchExpressions`: `{key, operator: In|NotIn|Exists|DoesNotExist, values?}`, checked as the
/// API server checks a label selector (values required for In/NotIn, forbidden otherwise).
pub fn match_expressions(
    fields: &mut Fields<'_>,
    node: &Node,
    item: &FieldPath<'_>,
) -> Vec<LabelRequirement> {
    let Some(list) = node.get("matchExpressions").filter(|n| !n.is_null()) else {
        return Vec::new();
    };
    let path = item.key("matchExpressions");
    let mut requirements = Vec::new();
    for (i, entry) in fields
        .seq(list, &path)
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        let at = path.index(i);
        let Some(entries) = fields.map(entry, &at) else {
            continue;
        };
        fields.check_known(entries, &at, &["key", "operator", "values"]);
        let key = fields
            .required(entry, "key", &at)
            .and_then(|n| fields.non_empty_str(n, &at.key("key")));
        let operator_node = fields.required(entry, "operator", &at);
        let operator = operator_node.and_then(|n| {
            let text = fields.str(n, &at.key("operator"))?;
            let operator = match text {
                "In" => LabelOperator::In,
                "NotIn" => LabelOperator::NotIn,
                "Exists" => LabelOperator::Exists,
                "DoesNotExist" => LabelOperator::DoesNotExist,
                other => {
                    fields.invalid(
                        n.span,
                        format!("`{at}.operator`: Unsupported value: \"{other}\": supported values: \"In\", \"NotIn\", \"Exists\", \"DoesNotExist\""),
                        "not a label selector operator",
                    );
                    return None;
                }
            };
            Some(operator)
        });
        let values: Vec<String> = match entry.get("values").filter(|n| !n.is_null()) {
            Some(values) => fields
                .seq(values, &at.key("values"))
                .unwrap_or_default()
                .iter()
                .enumerate()
                .filter_map(|(j, v)| {
                    fields
                        .str(v, &at.key("values").index(j))
                        .map(str::to_string)
                })
                .collect(),
            None => Vec::new(),
        };
        let (Some(key), Some(operator), Some(operator_node)) = (key, operator, operator_node)
        else {
            continue;
        };
        let needs_values = matches!(operator, LabelOperator::In | LabelOperator::NotIn);
        if needs_values == values.is_empty() {
            let message = if needs_values {
                format!("`{at}.values`: must be specified when `operator` is 'In' or 'NotIn'")
            } else {
                format!(
                    "`{at}.values`: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"
                )
            };
            fields.invalid(operator_node.span, message, "operator and values disagree");
            continue;
        }
        requirements.push(LabelRequirement {
            key: key.to_string(),
            operator,
            values,
        });
    }
    requirements
}

/// The value at spec `path` below `map` (rendering rules back into a spec shape), made (as null) when missing; intermediate values become
/// objects.
pub fn json_slot<'j>(
    map: &'j mut serde_json::Map<String, serde_json::Value>,
    path: &[String],
) -> &'j mut serde_json::Value {
    let (last, parents) = path.split_last().expect("spec paths are never empty");
    let mut current = map;
    for part in parents {
        let entry = current
            .entry(part.clone())
            .or_insert_with(|| serde_json::Value::Object(serde_json::Map::new()));
        if !entry.is_object() {
            *entry = serde_json::Value::Object(serde_json::Map::new());
        }
        current = entry.as_object_mut().expect("just made an object");
    }
    current
        .entry(last.clone())
        .or_insert(serde_json::Value::Null)
}
