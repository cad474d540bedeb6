//! The deep merges of the four deep-capable fields, both sides set (docs/families.md §2.4;
//! kgateway `tp/merge.go` mergeTransformation, mergeExtAuth, mergeExtProc, mergeHttpACL).
//!
//! Under AugmentedDeep A is the preferred side, under OverridableDeep B. A value of the wrong
//! shape (not a mapping) cannot be merged: the preferred side is then taken whole.

use super::contribution::{
    Contribution, entries, is_set, join_origins, map_node, rekeyed, seq_node,
};
use super::merge::{AclConflict, How, ProviderKey, Side, Step, whole};
use super::strategy::Strategy;
use crate::yaml::{Entry, Node, Value};

/// The preferred side, the other side, and which side is preferred.
fn preference<'c>(
    a: &'c Contribution,
    b: &'c Contribution,
    strategy: Strategy,
) -> (&'c Contribution, &'c Contribution, Side) {
    if strategy.prefers_b() {
        (b, a, Side::B)
    } else {
        (a, b, Side::A)
    }
}

/// A merged value: origins preferred side first.
fn merged(value: Node, preferred: &Contribution, other: &Contribution, how: How) -> Step {
    let origins = join_origins(&preferred.origins, &other.origins);
    Step {
        result: Some(Contribution::built(value, origins)),
        how,
    }
}

/// Whether both values are mappings.
fn both_maps(x: &Node, y: &Node) -> bool {
    x.as_map().is_some() && y.as_map().is_some()
}

/// `transformation`: per `request`/`response` on both sides, `add`/`set`/`remove` concatenated
/// with the preferred side **last** (later items take effect last), `body` the preferred side's if
/// set; every other key from the side listed first (the non-preferred one).
pub(super) fn transformation(a: &Contribution, b: &Contribution, strategy: Strategy) -> Step {
    let (preferred, other, side) = preference(a, b, strategy);
    if !both_maps(&preferred.value, &other.value) {
        return whole(preferred, How::Took(side, strategy));
    }
    let value = with_sections(&other.value, &preferred.value);
    merged(value, preferred, other, How::Transformation)
}

/// `first`'s entries, each `request`/`response` merged with `last`'s; sections only `last` has
/// are appended.
fn with_sections(first: &Node, last: &Node) -> Node {
    const SECTIONS: [&str; 2] = ["request", "response"];
    let mut out: Vec<Entry> = Vec::new();
    for e in entries(first) {
        if !SECTIONS.contains(&&*e.key.text) {
            out.push(e.clone());
        } else if let Some(value) = section(Some(&e.value), last.get(&e.key.text)) {
            out.push(rekeyed(e, value));
        }
    }
    out.extend(only_in(last, first, &SECTIONS));
    map_node(out)
}

/// One `request` or `response`: merged when both are set, else the set one.
fn section(first: Option<&Node>, last: Option<&Node>) -> Option<Node> {
    let set = |n: &&Node| !n.is_null();
    match (first.filter(set), last.filter(set)) {
        (Some(f), Some(l)) if both_maps(f, l) => Some(with_lists(f, l)),
        (Some(_), Some(l)) => Some(l.clone()),
        (f, l) => f.or(l).cloned(),
    }
}

/// `first`'s entries with `add`/`set`/`remove` concatenated (first's items, then last's) and
/// `body` last's if set; lists and `body` only `last` has are appended.
fn with_lists(first: &Node, last: &Node) -> Node {
    const LISTS: [&str; 3] = ["add", "set", "remove"];
    let mut out: Vec<Entry> = entries(first)
        .iter()
        .map(|e| match &*e.key.text {
            key if LISTS.contains(&key) => rekeyed(e, concat(Some(&e.value), last.get(key))),
            "body" => rekeyed(e, prefer_set(last.get("body"), Some(&e.value))),
            _ => e.clone(),
        })
        .collect();
    out.extend(only_in(last, first, &["add", "set", "remove", "body"]));
    map_node(out)
}

/// `extAuth`/`extProc` (kgateway mergeExtAuth/mergeExtProc): providers are compared by
/// GatewayExtension. B's providers join A's (preferred side's first) and B's origins are added,
/// unless A already has every provider of B; once one is new, all of B's are added, so a merged B
/// can repeat a provider \[controller\]. A `disable` B wins with its own origins only (`SetOne`),
/// whatever A is \[controller\]; a `disable` A stays, B's new providers merged in unseen and B's
/// origins appended after A's (`Append`; A's value is shown, so A stays the source) \[controller\].
pub(super) fn providers(
    key: ProviderKey,
    a: &Contribution,
    b: &Contribution,
    strategy: Strategy,
) -> Step {
    let known = a.provider_ids();
    let incoming = b.provider_ids();
    let new = incoming.iter().any(|id| !known.contains(id));
    let seen = if new {
        [known, incoming].concat()
    } else {
        known
    };
    if b.is_disable() {
        let result = Contribution::disabled(b.value.clone(), b.origins.clone(), seen);
        return Step {
            result: Some(result),
            how: How::Disabled(key),
        };
    }
    if !new {
        return whole(a, How::ProvidersKnown(key));
    }
    if a.is_disable() {
        let origins = join_origins(&a.origins, &b.origins);
        let result = Contribution::disabled(a.value.clone(), origins, seen);
        return Step {
            result: Some(result),
            how: How::StillDisabled(key),
        };
    }
    let (preferred, other, _) = preference(a, b, strategy);
    let items = [preferred.provider_items(), other.provider_items()].concat();
    let origins = join_origins(&preferred.origins, &other.origins);
    Step {
        result: Some(Contribution::listed(items, origins)),
        how: How::ProvidersAdded(key),
    }
}

/// `acl` (kgateway mergeHttpACL): on a conflict, the shallow strategy of the same preference
/// (the preferred side whole); otherwise the preferred side is the base, `rules` and
/// `denyResponse` merged with the other's.
pub(super) fn acl(a: &Contribution, b: &Contribution, strategy: Strategy) -> Step {
    let (preferred, other, side) = preference(a, b, strategy);
    if !both_maps(&preferred.value, &other.value) {
        return whole(preferred, How::Took(side, strategy));
    }
    if let Some(conflict) = acl_conflict(&a.value, &b.value) {
        return whole(preferred, How::AclFallback(conflict, side));
    }
    let value = merge_acl(&preferred.value, &other.value);
    merged(value, preferred, other, How::Acl)
}

/// A differing `defaultAction`, or, both having `denyResponse`, differing `statusCode`s or
/// `blockedByHeaderName`s that both set. A field one side lacks is no conflict.
fn acl_conflict(a: &Node, b: &Node) -> Option<AclConflict> {
    if both_differ(a, b, "defaultAction") {
        return Some(AclConflict::DefaultAction);
    }
    let (x, y) = (set_field(a, "denyResponse")?, set_field(b, "denyResponse")?);
    if both_differ(x, y, "statusCode") {
        Some(AclConflict::StatusCode)
    } else if both_differ(x, y, "blockedByHeaderName") {
        Some(AclConflict::BlockedByHeaderName)
    } else {
        None
    }
}

/// Whether both set `field` to different values.
fn both_differ(x: &Node, y: &Node, field: &str) -> bool {
    match (set_field(x, field), set_field(y, field)) {
        (Some(p), Some(q)) => !p.same_value(q),
        _ => false,
    }
}

/// `preferred`'s entries with `rules` = preferred's then other's and `denyResponse` merged;
/// `rules`/`denyResponse` only `other` has are appended.
fn merge_acl(preferred: &Node, other: &Node) -> Node {
    let mut out: Vec<Entry> = entries(preferred)
        .iter()
        .map(|e| match &*e.key.text {
            "rules" => rekeyed(e, concat(Some(&e.value), other.get("rules"))),
            "denyResponse" => rekeyed(e, deny_response(&e.value, other.get("denyResponse"))),
            _ => e.clone(),
        })
        .collect();
    out.extend(only_in(other, preferred, &["rules", "denyResponse"]));
    map_node(out)
}

/// The only `denyResponse` set, or the preferred one with `headers` = preferred's then other's
/// and `blockedByHeaderName` filled from the other when it lacks one; `statusCode` is never filled.
fn deny_response(preferred: &Node, other: Option<&Node>) -> Node {
    let other = match other.filter(|o| !o.is_null()) {
        Some(o) if !preferred.is_null() && both_maps(preferred, o) => o,
        Some(o) if preferred.is_null() => return o.clone(),
        _ => return preferred.clone(),
    };
    let mut out: Vec<Entry> = entries(preferred)
        .iter()
        .map(|e| match &*e.key.text {
            "headers" => rekeyed(e, concat(Some(&e.value), other.get("headers"))),
            "blockedByHeaderName" => rekeyed(
                e,
                prefer_set(Some(&e.value), other.get("blockedByHeaderName")),
            ),
            _ => e.clone(),
        })
        .collect();
    out.extend(only_in(
        other,
        preferred,
        &["headers", "blockedByHeaderName"],
    ));
    map_node(out)
}

/// `node.field` if set.
fn set_field<'n>(node: &'n Node, field: &str) -> Option<&'n Node> {
    node.get(field).filter(|n| !n.is_null())
}

/// The set entries of `from` named in `keys` that `other` does not have at all.
fn only_in(from: &Node, other: &Node, keys: &[&str]) -> Vec<Entry> {
    entries(from)
        .iter()
        .filter(|e| keys.contains(&&*e.key.text) && other.get(&e.key.text).is_none())
        .filter(|e| is_set(Some(&e.value)))
        .cloned()
        .collect()
}

/// `first`'s items then `last`'s when both are lists; otherwise the first set side.
fn concat(first: Option<&Node>, last: Option<&Node>) -> Node {
    match (first.and_then(Node::as_seq), last.and_then(Node::as_seq)) {
        (Some(f), Some(l)) => seq_node(f.iter().chain(l).cloned().collect()),
        _ => prefer_set(first, last),
    }
}

/// `x` if set, else `y` if set, else null.
fn prefer_set(x: Option<&Node>, y: Option<&Node>) -> Node {
    [x, y]
        .into_iter()
        .flatten()
        .find(|n| !n.is_null())
        .cloned()
        .unwrap_or_else(|| Node::synthetic(Value::Null))
}
