//! The one field Envoy Gateway merges outside the generic merge of two specs (docs/families.md
//! §3.4): a BackendTrafficPolicy's `rateLimit` when the route policy (with `mergeType`) and its
//! parent both set it.
//!
//! Envoy Gateway (`translateBackendTrafficPolicyForRouteWithMerge`, "Handle rate limit merging
//! cases") builds each policy's rate limit on its own — each rule named
//! `<namespace>/<name>/rule/<index>`, so no two rules of different policies share a name — and
//! merges the two built rate limits with the route's `mergeType`, their rule lists keyed by
//! that name. What the merged rate limit enforces, said in the API's own terms, is what
//! [`merge_rate_limit`] returns:
//!
//! - a block (`global`, `local`) only one side has is that side's;
//! - `global` on both: StrategicMerge enforces the route's rules, then the parent's; JSONMerge
//!   the route's rules (the parent's only when the route's list is empty);
//! - `local` on both: the route's rule without `clientSelectors` is the default limit, and the
//!   route's default always replaces the parent's (a route without one makes the default
//!   unlimited); rules with selectors merge as for `global`;
//! - `type` (deprecated) picks the block a side builds: a side with `type: Local` contributes
//!   its `local` block only, whatever else it sets. The result keeps the route's `type` when it
//!   holds one block, and none when it holds both;
//! - a side whose `type` names a block it does not set fails to build in Envoy Gateway; the
//!   generic merge stands then (`None`).
//!
//! When only one side sets `rateLimit` the generic merge already gives that side's value (Envoy
//! Gateway keeps the parent's rule names in that case, which dopol does not show).

use super::merge::MergeType;
use crate::yaml::{Entry, Node, Shared, Value};

/// A BackendTrafficPolicy's `rateLimit` as Envoy Gateway builds it: the blocks it enforces.
struct Limits<'a> {
    type_entry: Option<&'a Entry>,
    global: Option<&'a Entry>,
    local: Option<&'a Entry>,
}

impl<'a> Limits<'a> {
    /// The blocks `node` enforces, or `None` when its `type` names a block it lacks (or is not
    /// `Global`/`Local`), which Envoy Gateway fails to build.
    fn of(node: &'a Node) -> Option<Limits<'a>> {
        let entries = node.as_map()?;
        let entry = |key: &str| entries.iter().find(|e| *e.key.text == *key);
        let type_entry = entry("type");
        let (global, local) = (entry("global"), entry("local"));
        let (global, local) = match type_entry.and_then(|e| e.value.as_str()) {
            Some("Global") => (Some(global?), None),
            Some("Local") => (None, Some(local?)),
            Some(_) => return None,
            None => (global, local),
        };
        Some(Limits {
            type_entry,
            global,
            local,
        })
    }
}

/// The `rateLimit` Envoy Gateway enforces when a route policy with `merge_type` and its parent
/// both set one (see the module documentation); `None` when either fails to build.
pub fn merge_rate_limit(merge_type: MergeType, parent: &Node, route: &Node) -> Option<Node> {
    let (p, r) = (Limits::of(parent)?, Limits::of(route)?);
    let global = merge_block(merge_type, p.global, r.global, BlockKind::Global);
    let local = merge_block(merge_type, p.local, r.local, BlockKind::Local);
    let mut entries: Vec<Entry> = Vec::new();
    if let (Some(type_entry), 1) = (r.type_entry, global.iter().chain(&local).count()) {
        entries.push(type_entry.clone());
    }
    entries.extend(global);
    entries.extend(local);
    Some(Node {
        span: route.span,
        value: Value::Map(Shared::from(entries)),
    })
}

/// `global` or `local`: whether a rule without `clientSelectors` is the default limit.
#[derive(Clone, Copy, PartialEq, Eq)]
enum BlockKind {
    Global,
    Local,
}

/// One block merged: a side's own when the other lacks it, else the route's block with the
/// merged rule list.
fn merge_block(
    merge_type: MergeType,
    parent: Option<&Entry>,
    route: Option<&Entry>,
    kind: BlockKind,
) -> Option<Entry> {
    let (parent, route) = match (parent, route) {
        (Some(parent), Some(route)) => (parent, route),
        (one, other) => return one.or(other).cloned(),
    };
    let route_rules = rules(&route.value);
    // The rules Envoy Gateway builds into a named list: in `local`, those with selectors (the
    // route's default replaces the parent's whatever the merge type).
    let listed = |rule: &&Node| kind == BlockKind::Global || has_selectors(rule);
    let parent_listed = rules(&parent.value).iter().filter(listed);
    let route_lists_any = route_rules.iter().any(|r| listed(&r));
    let mut merged: Vec<Node> = route_rules.to_vec();
    if merge_type == MergeType::StrategicMerge || !route_lists_any {
        merged.extend(parent_listed.cloned());
    }
    Some(Entry {
        key: route.key.clone(),
        value: with_rules(&route.value, merged),
    })
}

/// A block's `rules` (empty when absent).
fn rules(block: &Node) -> &[Node] {
    block
        .get("rules")
        .and_then(Node::as_seq)
        .unwrap_or_default()
}

/// Whether a rule has at least one client selector.
fn has_selectors(rule: &Node) -> bool {
    rule.get("clientSelectors")
        .and_then(Node::as_seq)
        .is_some_and(|s| !s.is_empty())
}

/// `block` with its `rules` replaced by `items` (added last when absent).
fn with_rules(block: &Node, items: Vec<Node>) -> Node {
    let mut entries: Vec<Entry> = block.as_map().unwrap_or_default().to_vec();
    let span = entries
        .iter()
        .find(|e| *e.key.text == *"rules")
        .map_or(block.span, |e| e.value.span);
    let value = Node {
        span,
        value: Value::Seq(items.into()),
    };
    match entries.iter_mut().find(|e| *e.key.text == *"rules") {
        Some(entry) => entry.value = value,
        None => entries.push(Entry {
            key: crate::yaml::Key {
                text: crate::name::Name::new("rules"),
                span: block.span,
            },
            value,
        }),
    }
    Node {
        span: block.span,
        value: Value::Map(Shared::from(entries)),
    }
}
