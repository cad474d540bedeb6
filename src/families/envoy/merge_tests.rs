//! `mergeType` merges (docs/families.md §3.4) on small documents: RFC 7396 and strategic merge,
//! lists, nulls, nested maps and keyed lists.

use super::merge::{MergeType, json_merge, merge, prune_nulls};
use crate::families::kgateway::testing::yaml;

fn json(node: &crate::yaml::Node) -> String {
    node.to_json().to_string()
}

fn j(text: &str) -> String {
    json(&yaml(text))
}

fn keys() -> Vec<(Vec<String>, String)> {
    vec![
        (vec!["httpUpgrade".into()], "type".into()),
        (
            vec!["extAuth".into(), "contextExtensions".into()],
            "name".into(),
        ),
    ]
}

fn strategic(parent: &str, patch: &str) -> String {
    json(&merge(
        MergeType::StrategicMerge,
        &yaml(parent),
        &yaml(patch),
        &keys(),
    ))
}

#[test]
fn json_merge_merges_maps_recursively_and_the_patch_wins_on_scalars() {
    let out = json_merge(
        &yaml("{timeout: {http: {requestTimeout: 10s, idle: 5s}}, retry: {numRetries: 3}}"),
        &yaml("{timeout: {http: {requestTimeout: 2s}}}"),
    );
    assert_eq!(
        json(&out),
        j("{timeout: {http: {requestTimeout: 2s, idle: 5s}}, retry: {numRetries: 3}}")
    );
}

#[test]
fn json_merge_replaces_lists_and_null_deletes() {
    let out = json_merge(
        &yaml("{a: [1, 2], b: {c: 1, d: 2}}"),
        &yaml("{a: [3], b: {c: null}}"),
    );
    assert_eq!(json(&out), j("{a: [3], b: {d: 2}}"));
}

#[test]
fn json_merge_of_a_non_map_patch_is_the_patch() {
    assert_eq!(json(&json_merge(&yaml("{a: 1}"), &yaml("[1]"))), "[1]");
    assert_eq!(
        json(&json_merge(&yaml("[1]"), &yaml("{a: 1}"))),
        j("{a: 1}")
    );
}

#[test]
fn strategic_merge_replaces_unkeyed_lists_and_merges_nested_maps() {
    assert_eq!(
        strategic(
            "{cors: {allowOrigins: [a, b], maxAge: 1s}}",
            "{cors: {allowOrigins: [c]}}"
        ),
        j("{cors: {allowOrigins: [c], maxAge: 1s}}")
    );
}

#[test]
fn strategic_merge_puts_new_route_items_of_a_keyed_list_first() {
    assert_eq!(
        strategic(
            "{httpUpgrade: [{type: websocket}]}",
            "{httpUpgrade: [{type: spdy/3.1}]}"
        ),
        j("{httpUpgrade: [{type: spdy/3.1}, {type: websocket}]}")
    );
}

#[test]
fn strategic_merge_merges_items_with_the_same_key_the_route_winning() {
    assert_eq!(
        strategic(
            "{extAuth: {contextExtensions: [{name: a, value: p, type: Value}, {name: b, value: p}]}}",
            "{extAuth: {contextExtensions: [{name: a, value: r}]}}"
        ),
        j(
            "{extAuth: {contextExtensions: [{name: a, value: r, type: Value}, {name: b, value: p}]}}"
        )
    );
}

#[test]
fn strategic_merge_places_parent_only_items_before_the_next_shared_route_item() {
    // Parent [x, y, z], route [z', w]: x and y precede z (which the parent holds later),
    // then the new w.
    assert_eq!(
        strategic(
            "{httpUpgrade: [{type: x}, {type: y}, {type: z}]}",
            "{httpUpgrade: [{type: z, n: 1}, {type: w}]}"
        ),
        j("{httpUpgrade: [{type: x}, {type: y}, {type: z, n: 1}, {type: w}]}")
    );
    // Parent [a, b, q], route [b, c]: a goes before b; q has no later route item: last.
    assert_eq!(
        strategic(
            "{httpUpgrade: [{type: a}, {type: b}, {type: q}]}",
            "{httpUpgrade: [{type: b}, {type: c}]}"
        ),
        j("{httpUpgrade: [{type: a}, {type: b}, {type: c}, {type: q}]}")
    );
}

#[test]
fn strategic_merge_only_keys_lists_at_their_path() {
    // `httpUpgrade` below another field is not the keyed list.
    assert_eq!(
        strategic(
            "{other: {httpUpgrade: [{type: a}]}}",
            "{other: {httpUpgrade: [{type: b}]}}"
        ),
        j("{other: {httpUpgrade: [{type: b}]}}")
    );
}

#[test]
fn pruning_removes_nulls_at_every_depth() {
    let mut pruned = Vec::new();
    let out = prune_nulls(
        &yaml("{a: null, b: {c: null, d: 1}, e: [{f: null}]}"),
        &mut pruned,
    );
    assert_eq!(json(&out), j("{b: {d: 1}, e: [{}]}"));
    assert_eq!(pruned.len(), 3);
}

#[test]
fn merge_type_values_are_exact() {
    assert_eq!(MergeType::parse("JSONMerge"), Some(MergeType::JsonMerge));
    assert_eq!(
        MergeType::parse("StrategicMerge"),
        Some(MergeType::StrategicMerge)
    );
    assert_eq!(MergeType::parse("jsonmerge"), None);
}

fn rate_limit(merge_type: MergeType, parent: &str, route: &str) -> Option<String> {
    super::ratelimit::merge_rate_limit(merge_type, &yaml(parent), &yaml(route)).map(|n| json(&n))
}

const G1: &str =
    "{clientSelectors: [{headers: [{name: x, value: one}]}], limit: {requests: 5, unit: Hour}}";
const G2: &str =
    "{clientSelectors: [{headers: [{name: x, value: two}]}], limit: {requests: 9, unit: Hour}}";
const DEFAULT: &str = "{limit: {requests: 100, unit: Second}}";

#[test]
fn rate_limit_rules_of_both_policies_are_enforced_route_first_under_strategic_merge() {
    for block in ["global", "local"] {
        let out = rate_limit(
            MergeType::StrategicMerge,
            &format!(
                "{{type: {t}, {block}: {{rules: [{G2}]}}}}",
                t = title(block)
            ),
            &format!(
                "{{type: {t}, {block}: {{rules: [{G1}]}}}}",
                t = title(block)
            ),
        );
        assert_eq!(
            out.unwrap(),
            j(&format!(
                "{{type: {t}, {block}: {{rules: [{G1}, {G2}]}}}}",
                t = title(block)
            )),
            "{block}"
        );
    }
}

fn title(block: &str) -> &'static str {
    if block == "global" { "Global" } else { "Local" }
}

#[test]
fn json_merge_keeps_the_route_rules_and_the_parents_only_when_the_route_lists_none() {
    assert_eq!(
        rate_limit(
            MergeType::JsonMerge,
            &format!("{{global: {{rules: [{G2}]}}}}"),
            &format!("{{global: {{rules: [{G1}]}}}}"),
        )
        .unwrap(),
        j(&format!("{{global: {{rules: [{G1}]}}}}"))
    );
    // A local block whose only rule is the default lists no rule: the parent's stay.
    assert_eq!(
        rate_limit(
            MergeType::JsonMerge,
            &format!("{{local: {{rules: [{G2}]}}}}"),
            &format!("{{local: {{rules: [{DEFAULT}]}}}}"),
        )
        .unwrap(),
        j(&format!("{{local: {{rules: [{DEFAULT}, {G2}]}}}}"))
    );
}

#[test]
fn the_route_default_replaces_the_parents_and_a_block_one_side_has_is_kept() {
    // The parent's default limit goes even when the route has none (unlimited then).
    assert_eq!(
        rate_limit(
            MergeType::StrategicMerge,
            &format!("{{local: {{rules: [{DEFAULT}, {G2}]}}}}"),
            &format!("{{local: {{rules: [{G1}]}}}}"),
        )
        .unwrap(),
        j(&format!("{{local: {{rules: [{G1}, {G2}]}}}}"))
    );
    // One local, one global: both blocks, no `type` (it would pick one).
    assert_eq!(
        rate_limit(
            MergeType::JsonMerge,
            &format!("{{type: Global, global: {{rules: [{G2}]}}}}"),
            &format!("{{type: Local, local: {{rules: [{G1}]}}}}"),
        )
        .unwrap(),
        j(&format!(
            "{{global: {{rules: [{G2}]}}, local: {{rules: [{G1}]}}}}"
        ))
    );
    // `type` selects the block a side builds: the parent's `local` is not enforced.
    assert_eq!(
        rate_limit(
            MergeType::StrategicMerge,
            &format!("{{type: Global, global: {{rules: [{G2}]}}, local: {{rules: [{G2}]}}}}"),
            &format!("{{type: Global, global: {{rules: [{G1}]}}}}"),
        )
        .unwrap(),
        j(&format!(
            "{{type: Global, global: {{rules: [{G1}, {G2}]}}}}"
        ))
    );
}

#[test]
fn a_side_that_fails_to_build_leaves_the_generic_merge() {
    assert_eq!(
        rate_limit(
            MergeType::StrategicMerge,
            &format!("{{type: Local, global: {{rules: [{G2}]}}}}"),
            &format!("{{global: {{rules: [{G1}]}}}}"),
        ),
        None
    );
}
