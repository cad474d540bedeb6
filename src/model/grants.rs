//! ReferenceGrants (Gateway API `gateway.networking.k8s.io/v1beta1`): whether an object in one
//! namespace may reference one in another. dopol keeps ReferenceGrants as objects only; the
//! readers that need a permission — `request` for a route's cross-namespace backendRef, the
//! topology for an Envoy Gateway selector's match in another namespace — ask here.

use super::Model;
use super::gateway::GATEWAY_GROUP;
use crate::yaml::Node;

/// What an item of a ReferenceGrant's list must say: group, kind, and a third field with its
/// value (`namespace` for `from`, `name` for `to`).
pub type GrantItem<'a> = (&'a str, &'a str, (&'a str, &'a str));

/// Whether an item of a ReferenceGrant's `from` or `to` list matches `(group, kind, (key,
/// value))`, the third field being `namespace` for `from` and `name` for `to` (absent: any).
fn item_matches(item: &Node, (group, kind, (key, value)): GrantItem<'_>) -> bool {
    let text = |key: &str| item.get(key).and_then(Node::as_str);
    text("group").unwrap_or("") == group
        && text("kind") == Some(kind)
        && match text(key) {
            Some(written) => written == value,
            None => key == "name",
        }
}

/// The name of the ReferenceGrant in namespace `to_namespace` whose `from` has an item matching
/// `from` and whose `to` has one matching `to`.
pub fn permitting<'m>(
    model: &'m Model,
    from: GrantItem<'_>,
    to_namespace: &str,
    to: GrantItem<'_>,
) -> Option<&'m str> {
    model
        .objects
        .iter()
        .filter(|o| {
            &*o.group == GATEWAY_GROUP
                && &*o.kind == "ReferenceGrant"
                && o.namespace.as_deref() == Some(to_namespace)
        })
        .find(|o| {
            let spec = model.tree(o).get("spec");
            let list = |key: &str| {
                spec.and_then(|s| s.get(key))
                    .and_then(Node::as_seq)
                    .unwrap_or_default()
            };
            list("from").iter().any(|i| item_matches(i, from))
                && list("to").iter().any(|i| item_matches(i, to))
        })
        .map(|o| &*o.name)
}
