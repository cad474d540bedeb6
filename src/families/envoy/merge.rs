//! `mergeType` (docs/families.md §3.4) as pure functions over YAML nodes: a route policy (the patch)
//! merged into its parent's spec, the way Envoy Gateway's `internal/utils/merge.go` does.
//!
//! - [`json_merge`]: RFC 7396 JSON merge patch — mappings merge recursively, the patch wins on
//!   everything else, lists are replaced, a `null` in the patch deletes.
//! - [`strategic_merge`]: Kubernetes strategic merge patch with the Go types' list keys —
//!   mappings merge recursively, lists are replaced except the kind's keyed lists, whose items
//!   merge by key ([`keyed_list`]).
//!
//! Nulls never reach these functions from manifests (the API server prunes them, §3.4); the
//! RFC behaviour is kept so that the functions are total.

use crate::policy::{GepStrategy, NamedStrategy};
use crate::yaml::{Entry, Node, Shared, Value};

/// The two values of `spec.mergeType`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MergeType {
    /// Kubernetes strategic merge patch.
    StrategicMerge,
    /// RFC 7396 JSON merge patch.
    JsonMerge,
}

impl MergeType {
    /// Parses the field's value.
    pub fn parse(text: &str) -> Option<MergeType> {
        match text {
            "StrategicMerge" => Some(MergeType::StrategicMerge),
            "JSONMerge" => Some(MergeType::JsonMerge),
            _ => None,
        }
    }

    /// As written.
    pub fn as_str(self) -> &'static str {
        match self {
            MergeType::StrategicMerge => "StrategicMerge",
            MergeType::JsonMerge => "JSONMerge",
        }
    }

    /// GEP-713's name: a JSON merge patch of the parent by the route's policy is Patch
    /// defaults; a strategic merge patch, which merges keyed lists item by item, is a merge of
    /// Envoy Gateway's own (Custom).
    pub fn gep(self) -> GepStrategy {
        match self {
            MergeType::StrategicMerge => GepStrategy::Custom,
            MergeType::JsonMerge => GepStrategy::PatchDefaults,
        }
    }
}

/// The family's word for a policy without `mergeType`: the most specific slot's spec is the
/// effective policy whole (GEP-713 Atomic defaults).
pub const MOST_SPECIFIC_SLOT: &str = "most specific slot";

/// The strategy of a policy with `mergeType` `merge` (or without one).
pub fn named_strategy(merge: Option<MergeType>) -> NamedStrategy {
    let (strategy, gep) = match merge {
        Some(merge) => (merge.as_str(), merge.gep()),
        None => (MOST_SPECIFIC_SLOT, GepStrategy::AtomicDefaults),
    };
    NamedStrategy::of_spec(strategy, gep)
}

/// Keyed lists: a field path under the merged root and the key field of its items.
pub type ListKeys = [(Vec<String>, String)];

/// Merges `patch` into `parent` with `merge_type`; `keys` names StrategicMerge's keyed lists.
pub fn merge(merge_type: MergeType, parent: &Node, patch: &Node, keys: &ListKeys) -> Node {
    match merge_type {
        MergeType::JsonMerge => json_merge(parent, patch),
        MergeType::StrategicMerge => strategic_merge(parent, patch, &mut Vec::new(), keys),
    }
}

/// RFC 7396: a mapping patch merges into the target (a non-mapping target counts as `{}`),
/// a `null` member deletes, anything else replaces.
pub fn json_merge(target: &Node, patch: &Node) -> Node {
    let Some(entries) = patch.as_map() else {
        return patch.clone();
    };
    let base = target.as_map().unwrap_or_default();
    merge_maps(patch, base, entries, |existing, entry| {
        let null = Node::synthetic(Value::Null);
        json_merge(existing.unwrap_or(&null), &entry.value)
    })
}

/// `patch`'s mapping `entries` merged into `base`: a `null` member deletes, any other is
/// `merged(base's value, entry)`.
fn merge_maps(
    patch: &Node,
    base: &[Entry],
    entries: &[Entry],
    mut merged: impl FnMut(Option<&Node>, &Entry) -> Node,
) -> Node {
    let mut out: Vec<Entry> = base.to_vec();
    for entry in entries {
        let position = out.iter().position(|e| e.key.text == entry.key.text);
        if entry.value.is_null() {
            if let Some(i) = position {
                out.remove(i);
            }
            continue;
        }
        let value = merged(position.map(|i| &out[i].value), entry);
        match position {
            Some(i) => out[i].value = value,
            None => out.push(Entry {
                key: entry.key.clone(),
                value,
            }),
        }
    }
    map_node(patch, out)
}

/// Strategic merge of `patch` into `parent` at `path` (map keys from the root).
pub fn strategic_merge(
    parent: &Node,
    patch: &Node,
    path: &mut Vec<String>,
    keys: &ListKeys,
) -> Node {
    match (&parent.value, &patch.value) {
        (Value::Map(base), Value::Map(entries)) => {
            merge_maps(patch, base, entries, |existing, entry| match existing {
                Some(existing) => {
                    path.push(entry.key.text.to_string());
                    let merged = strategic_merge(existing, &entry.value, path, keys);
                    path.pop();
                    merged
                }
                None => entry.value.clone(),
            })
        }
        (Value::Seq(base), Value::Seq(items)) => match list_key(path, keys) {
            Some(key) => Node {
                span: patch.span,
                value: Value::Seq(keyed_list(base, items, key, path, keys).into()),
            },
            None => patch.clone(),
        },
        _ => patch.clone(),
    }
}

/// The key field of the keyed list at `path`, if it is one.
fn list_key<'k>(path: &[String], keys: &'k ListKeys) -> Option<&'k str> {
    keys.iter()
        .find(|(at, _)| at.as_slice() == path)
        .map(|(_, key)| key.as_str())
}

/// A keyed list merged: items with the same key merge (the patch's item wins); order: the
/// patch's items in their order, each parent-only item (in parent order) just before the first
/// patch item not yet placed that the parent list holds at a later position, the rest last.
pub fn keyed_list(
    parent: &[Node],
    patch: &[Node],
    key: &str,
    path: &mut Vec<String>,
    keys: &ListKeys,
) -> Vec<Node> {
    let key_of = |n: &Node| n.get(key).map(|k| k.to_json());
    let parent_position = |n: &Node| {
        let k = key_of(n)?;
        parent.iter().position(|p| key_of(p).as_ref() == Some(&k))
    };
    let in_patch =
        |n: &Node| key_of(n).is_some_and(|k| patch.iter().any(|p| key_of(p).as_ref() == Some(&k)));
    let mut merged_patch: Vec<Node> = patch
        .iter()
        .map(|item| match parent_position(item) {
            Some(i) => strategic_merge(&parent[i], item, path, keys),
            None => item.clone(),
        })
        .collect();
    let mut out = Vec::new();
    let mut tail = Vec::new();
    let mut next = 0;
    for (i, item) in parent.iter().enumerate() {
        if in_patch(item) {
            continue;
        }
        let anchor = (next..patch.len())
            .find(|&j| parent_position(&patch[j]).is_some_and(|position| position > i));
        match anchor {
            Some(j) => {
                out.extend(merged_patch.drain(..j - next));
                next = j;
                out.push(item.clone());
            }
            None => tail.push(item.clone()),
        }
    }
    out.append(&mut merged_patch);
    out.append(&mut tail);
    out
}

fn map_node(like: &Node, entries: Vec<Entry>) -> Node {
    Node {
        span: like.span,
        value: Value::Map(Shared::from(entries)),
    }
}

/// `node` without `null` mapping members, at any depth, and the spans of those removed
/// (the API server prunes them from these CRDs).
pub fn prune_nulls(node: &Node, pruned: &mut Vec<crate::source::Span>) -> Node {
    match &node.value {
        Value::Map(entries) => {
            let kept: Vec<Entry> = entries
                .iter()
                .filter_map(|e| {
                    if e.value.is_null() {
                        pruned.push(e.key.span);
                        return None;
                    }
                    Some(Entry {
                        key: e.key.clone(),
                        value: prune_nulls(&e.value, pruned),
                    })
                })
                .collect();
            map_node(node, kept)
        }
        Value::Seq(items) => Node {
            span: node.span,
            value: Value::Seq(items.iter().map(|i| prune_nulls(i, pruned)).collect()),
        },
        _ => node.clone(),
    }
}
