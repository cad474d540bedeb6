//! Decoding shared by the families: target references as the Gateway API policy attachment
//! CRDs define them.

use super::{PolicyKind, TargetRef};
use crate::diag::{Code, Diagnostic};
use crate::load::fields::{FieldPath, Fields};
use crate::model::gateway::GATEWAY_GROUP;
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
    if let (Some(group), Some(group_node)) = (group, group_node)
        && group != GATEWAY_GROUP
    {
        fields.push(
            Diagnostic::new(
                Code::InvalidTargetKind,
                "Invalid targetRef.group. The only supported value is 'gateway.networking.k8s.io'",
            )
            .with_label(group_node.span, format!("`{group}` is not allowed")),
        );
    }
    if let (Some(kind), Some(kind_node)) = (kind, kind_node)
        && !policy_kind.target_kinds.contains(&kind)
    {
        fields.push(
            Diagnostic::new(Code::InvalidTargetKind, policy_kind.target_kind_message).with_label(
                kind_node.span,
                format!("{} may not target a {kind}", policy_kind.kind),
            ),
        );
    }
    Some(TargetRef {
        group: group?.to_string(),
        kind: kind?.to_string(),
        name: name?.to_string(),
        section_name: section_name.map(str::to_string),
        span: node.span,
        name_span: name_node?.span,
        section_span: node.get("sectionName").map(|n| n.span),
    })
}
