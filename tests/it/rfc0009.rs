//! The RFC 0009 examples of docs/semantics.md#4-the-fold (A1–D2): the higher policy on the Gateway, the lower on the
//! HTTPRoute. Values carry an owner marker (`plain.selector`, `opa.rego`) so the assertions check
//! both value and source.

use crate::common::{effective, owners, triples};

const PATH: &str = "kuadrant|infra/gw|infra/gw#http|app/route|app/route#rule-1";
const G: &str = "infra/gw-auth";
const R: &str = "app/route-auth";

fn check(example: &str, expected: &[(&str, &str, &str)]) {
    let out = effective(&[&format!("testdata/rfc0009/{example}")], &[]);
    out.code(0);
    assert_eq!(
        owners(&out.json(), "AuthPolicy", PATH),
        triples(expected),
        "example {example}"
    );
}

#[test]
fn a1_atomic_defaults_lose_to_any_lower_rule() {
    check("a1", &[("authentication#c", "route", R)]);
}

#[test]
fn b1_merge_defaults_add_missing_rules() {
    check(
        "b1",
        &[
            ("authentication#a", "gateway", G),
            ("authentication#c", "route", R),
            ("authorization#b", "gateway", G),
        ],
    );
}

#[test]
fn b2_merge_defaults_lose_clashes() {
    check(
        "b2",
        &[
            ("authentication#a", "route", R),
            ("authorization#b", "gateway", G),
        ],
    );
}

#[test]
fn c1_atomic_overrides_replace_everything() {
    check(
        "c1",
        &[
            ("authentication#a", "gateway", G),
            ("authorization#b", "gateway", G),
        ],
    );
}

#[test]
fn d1_merge_overrides_keep_lower_rules() {
    check(
        "d1",
        &[
            ("authentication#a", "gateway", G),
            ("authentication#c", "route", R),
            ("authorization#b", "gateway", G),
        ],
    );
}

#[test]
fn d2_merge_overrides_win_clashes() {
    check(
        "d2",
        &[
            ("authentication#a", "gateway", G),
            ("authorization#b", "gateway", G),
            ("authorization#d", "route", R),
        ],
    );
}
