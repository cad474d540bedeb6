//! One test per rule of docs/families.md §2.4.

use super::merge::{AclConflict, How, ProviderKey, Side, step};
use super::strategy::{MergeSettings, Strategy};
use super::testing::{j, shown, whole};
use super::{Contribution, ProviderId};

use Strategy::{AugmentedDeep, AugmentedShallow, OverridableDeep, OverridableShallow};

/// The step's value (JSON), origins and description.
fn run(
    key: &str,
    a: Option<&Contribution>,
    b: Option<&Contribution>,
    strategy: Strategy,
) -> (Option<(String, Vec<u32>)>, How) {
    let step = step(key, a, b, strategy);
    (shown(step.result.as_ref()), step.how)
}

/// The expected value and origins.
fn want(text: &str, origins: &[u32]) -> Option<(String, Vec<u32>)> {
    Some((j(text), origins.to_vec()))
}

/// A merged contribution, from a step that must produce one.
fn merged(key: &str, a: &Contribution, b: &Contribution, strategy: Strategy) -> Contribution {
    step(key, Some(a), Some(b), strategy).result.unwrap()
}

#[test]
fn augmented_shallow_takes_a_if_set() {
    let (a, b) = (whole("{}", 1), whole("{allowOrigins: [x]}", 2));
    let got = run("cors", Some(&a), Some(&b), AugmentedShallow);
    assert_eq!(
        got,
        (want("{}", &[1]), How::Took(Side::A, AugmentedShallow))
    );
    let got = run("cors", None, Some(&b), AugmentedShallow);
    assert_eq!(
        got,
        (want("{allowOrigins: [x]}", &[2]), How::OnlySet(Side::B))
    );
    let null = whole("null", 1);
    let got = run("cors", Some(&null), Some(&b), AugmentedShallow);
    assert_eq!(
        got,
        (want("{allowOrigins: [x]}", &[2]), How::OnlySet(Side::B))
    );
    assert_eq!(
        run("cors", Some(&null), None, AugmentedShallow),
        (None, How::Unset)
    );
    assert_eq!(
        run("cors", None, None, AugmentedShallow),
        (None, How::Unset)
    );
}

#[test]
fn overridable_shallow_takes_b_if_set() {
    let (a, b) = (whole("{request: 1s}", 1), whole("{}", 2));
    let got = run("timeouts", Some(&a), Some(&b), OverridableShallow);
    assert_eq!(
        got,
        (want("{}", &[2]), How::Took(Side::B, OverridableShallow))
    );
    let null = whole("null", 2);
    let got = run("timeouts", Some(&a), Some(&null), OverridableShallow);
    assert_eq!(got, (want("{request: 1s}", &[1]), How::OnlySet(Side::A)));
}

#[test]
fn augmented_deep_plain_field_takes_a_if_set() {
    let (a, b) = (whole("{request: 1s}", 1), whole("{streamIdle: 2s}", 2));
    let got = run("timeouts", Some(&a), Some(&b), AugmentedDeep);
    assert_eq!(
        got,
        (
            want("{request: 1s}", &[1]),
            How::Took(Side::A, AugmentedDeep)
        )
    );
    let got = run("timeouts", None, Some(&b), AugmentedDeep);
    assert_eq!(got, (want("{streamIdle: 2s}", &[2]), How::OnlySet(Side::B)));
}

#[test]
fn overridable_deep_plain_field_keeps_a_and_says_so() {
    let (a, b) = (whole("{}", 1), whole("{allowOrigins: [x]}", 2));
    let got = run("cors", Some(&a), Some(&b), OverridableDeep);
    assert_eq!(got, (want("{}", &[1]), How::PreferParentKeptChild));
    let got = run("cors", None, Some(&b), OverridableDeep);
    assert_eq!(
        got,
        (want("{allowOrigins: [x]}", &[2]), How::OnlySet(Side::B))
    );
    let null = whole("null", 1);
    let got = run("cors", Some(&null), Some(&b), OverridableDeep);
    assert_eq!(got.1, How::OnlySet(Side::B));
}

#[test]
fn shallow_strategies_take_deep_capable_fields_whole() {
    let a = whole("{request: {add: [{name: a, value: '1'}]}}", 1);
    let b = whole("{request: {add: [{name: b, value: '2'}]}}", 2);
    let got = run("transformation", Some(&a), Some(&b), AugmentedShallow);
    assert_eq!(
        got.0,
        want("{request: {add: [{name: a, value: '1'}]}}", &[1])
    );
    let got = run("transformation", Some(&a), Some(&b), OverridableShallow);
    assert_eq!(
        got.0,
        want("{request: {add: [{name: b, value: '2'}]}}", &[2])
    );
    let (x, y) = (
        whole("{extensionRef: {name: x}}", 1),
        whole("{extensionRef: {name: y}}", 2),
    );
    assert_eq!(
        run("extAuth", Some(&x), Some(&y), AugmentedShallow).0,
        want("{extensionRef: {name: x}}", &[1])
    );
}

const TRANSFORM_A: &str = "{request: {add: [{name: a1, value: x}], body: {parseAs: AsJson}}, response: {set: [{name: ra, value: x}]}}";
const TRANSFORM_B: &str = "{request: {add: [{name: b1, value: y}], set: [{name: b2, value: y}]}, response: {set: [{name: rb, value: y}]}}";

#[test]
fn transformation_augmented_deep_lists_b_then_a() {
    let (a, b) = (whole(TRANSFORM_A, 1), whole(TRANSFORM_B, 2));
    let got = run("transformation", Some(&a), Some(&b), AugmentedDeep);
    let value = "{request: {add: [{name: b1, value: y}, {name: a1, value: x}], set: [{name: b2, value: y}], \
                 body: {parseAs: AsJson}}, response: {set: [{name: rb, value: y}, {name: ra, value: x}]}}";
    assert_eq!(got, (want(value, &[1, 2]), How::Transformation));
}

#[test]
fn transformation_overridable_deep_lists_a_then_b() {
    let (a, b) = (whole(TRANSFORM_A, 1), whole(TRANSFORM_B, 2));
    let got = run("transformation", Some(&a), Some(&b), OverridableDeep);
    let value = "{request: {add: [{name: a1, value: x}, {name: b1, value: y}], body: {parseAs: AsJson}, \
                 set: [{name: b2, value: y}]}, response: {set: [{name: ra, value: x}, {name: rb, value: y}]}}";
    assert_eq!(got, (want(value, &[2, 1]), How::Transformation));
}

#[test]
fn transformation_body_is_the_preferred_sides() {
    let a = whole("{request: {body: {parseAs: AsJson}, x: a}}", 1);
    let b = whole("{request: {body: {parseAs: AsString}, x: b}}", 2);
    // Other keys come from the side listed first: the non-preferred one.
    let got = run("transformation", Some(&a), Some(&b), AugmentedDeep);
    assert_eq!(
        got.0,
        want("{request: {body: {parseAs: AsJson}, x: b}}", &[1, 2])
    );
    let got = run("transformation", Some(&a), Some(&b), OverridableDeep);
    assert_eq!(
        got.0,
        want("{request: {body: {parseAs: AsString}, x: a}}", &[2, 1])
    );
}

#[test]
fn transformation_one_sided_sections_are_taken_whole() {
    let a = whole("{request: {add: [{name: a, value: '1'}]}}", 1);
    let b = whole("{response: {remove: [server]}}", 2);
    let got = run("transformation", Some(&a), Some(&b), AugmentedDeep);
    let value = "{response: {remove: [server]}, request: {add: [{name: a, value: '1'}]}}";
    assert_eq!(got, (want(value, &[1, 2]), How::Transformation));
    let got = run("transformation", Some(&a), Some(&b), OverridableDeep);
    let value = "{request: {add: [{name: a, value: '1'}]}, response: {remove: [server]}}";
    assert_eq!(got, (want(value, &[2, 1]), How::Transformation));
}

const AUTH1: &str = "{extensionRef: {name: auth1}}";
const AUTH2: &str = "{extensionRef: {name: auth2}}";
const AUTH3: &str = "{extensionRef: {name: auth3}}";
const EXT_AUTH: ProviderKey = ProviderKey::ExtAuth;

#[test]
fn ext_auth_new_provider_is_added() {
    let (a, b) = (whole(AUTH1, 1), whole(AUTH2, 2));
    let got = run("extAuth", Some(&a), Some(&b), AugmentedDeep);
    let value = format!("{{providers: [{AUTH1}, {AUTH2}]}}");
    assert_eq!(got, (want(&value, &[1, 2]), How::ProvidersAdded(EXT_AUTH)));
    let got = run("extAuth", Some(&a), Some(&b), OverridableDeep);
    let value = format!("{{providers: [{AUTH2}, {AUTH1}]}}");
    assert_eq!(got, (want(&value, &[2, 1]), How::ProvidersAdded(EXT_AUTH)));
}

#[test]
fn ext_auth_all_known_provider_b_is_no_origin() {
    let a = merged("extAuth", &whole(AUTH1, 1), &whole(AUTH2, 2), AugmentedDeep);
    let b = whole(
        "{extensionRef: {name: auth1, namespace: ns}, contextExtensions: {k: v}}",
        3,
    );
    let got = run("extAuth", Some(&a), Some(&b), AugmentedDeep);
    let value = format!("{{providers: [{AUTH1}, {AUTH2}]}}");
    assert_eq!(got, (want(&value, &[1, 2]), How::ProvidersKnown(EXT_AUTH)));
    // Another namespace is another GatewayExtension.
    let other = whole("{extensionRef: {name: auth1, namespace: other}}", 3);
    let got = run("extAuth", Some(&a), Some(&other), AugmentedDeep);
    assert_eq!(got.1, How::ProvidersAdded(EXT_AUTH));
    assert_eq!(got.0.unwrap().1, [1, 2, 3]);
}

#[test]
fn ext_auth_merged_b_with_one_new_provider_adds_all_of_b() {
    let a = whole(AUTH1, 1);
    let b = merged("extAuth", &whole(AUTH1, 2), &whole(AUTH3, 3), AugmentedDeep);
    let got = run("extAuth", Some(&a), Some(&b), AugmentedDeep);
    let value = format!("{{providers: [{AUTH1}, {AUTH1}, {AUTH3}]}}");
    assert_eq!(
        got,
        (want(&value, &[1, 2, 3]), How::ProvidersAdded(EXT_AUTH))
    );
    let ids: Vec<String> = step("extAuth", Some(&a), Some(&b), AugmentedDeep)
        .result
        .unwrap()
        .provider_ids()
        .iter()
        .map(ProviderId::to_string)
        .collect();
    assert_eq!(ids, ["ns/auth1", "ns/auth1", "ns/auth3"]);
}

#[test]
fn ext_auth_disable_b_sets_one() {
    let a = merged("extAuth", &whole(AUTH1, 1), &whole(AUTH2, 2), AugmentedDeep);
    let disable = whole("{disable: {}}", 3);
    let got = run("extAuth", Some(&a), Some(&disable), AugmentedDeep);
    assert_eq!(got, (want("{disable: {}}", &[3]), How::Disabled(EXT_AUTH)));
    let got = run("extAuth", Some(&a), Some(&disable), OverridableDeep);
    assert_eq!(got, (want("{disable: {}}", &[3]), How::Disabled(EXT_AUTH)));
    let a_disable = whole("{disable: {}}", 1);
    let got = run("extAuth", Some(&a_disable), Some(&disable), AugmentedDeep);
    assert_eq!(got, (want("{disable: {}}", &[3]), How::Disabled(EXT_AUTH)));
}

#[test]
fn ext_auth_disable_a_stays_but_b_origins_are_appended() {
    let a = whole("{disable: {}}", 1);
    let got = run("extAuth", Some(&a), Some(&whole(AUTH1, 2)), AugmentedDeep);
    assert_eq!(
        got,
        (want("{disable: {}}", &[1, 2]), How::StillDisabled(EXT_AUTH))
    );
    let got = run("extAuth", Some(&a), Some(&whole(AUTH1, 2)), OverridableDeep);
    assert_eq!(
        got,
        (want("{disable: {}}", &[1, 2]), How::StillDisabled(EXT_AUTH))
    );
    // The provider merged in under the disable is still known to later steps.
    let disabled = merged("extAuth", &a, &whole(AUTH1, 2), AugmentedDeep);
    let got = run(
        "extAuth",
        Some(&disabled),
        Some(&whole(AUTH1, 3)),
        AugmentedDeep,
    );
    assert_eq!(
        got,
        (
            want("{disable: {}}", &[1, 2]),
            How::ProvidersKnown(EXT_AUTH)
        )
    );
    let got = run(
        "extAuth",
        Some(&disabled),
        Some(&whole(AUTH2, 3)),
        AugmentedDeep,
    );
    assert_eq!(
        got,
        (
            want("{disable: {}}", &[1, 2, 3]),
            How::StillDisabled(EXT_AUTH)
        )
    );
}

#[test]
fn ext_proc_merges_like_ext_auth() {
    let (a, b) = (whole(AUTH1, 1), whole(AUTH2, 2));
    let got = run("extProc", Some(&a), Some(&b), AugmentedDeep);
    let value = format!("{{providers: [{AUTH1}, {AUTH2}]}}");
    assert_eq!(
        got,
        (
            want(&value, &[1, 2]),
            How::ProvidersAdded(ProviderKey::ExtProc)
        )
    );
}

#[test]
fn a_policy_attached_twice_is_one_origin() {
    let a = whole(AUTH1, 1);
    let b = merged("extAuth", &whole(AUTH2, 1), &whole(AUTH3, 2), AugmentedDeep);
    let got = run("extAuth", Some(&a), Some(&b), AugmentedDeep);
    assert_eq!(got.0.unwrap().1, [1, 2]);
}

const ACL_A: &str = "{defaultAction: deny, rules: [{cidrs: [10.0.0.0/8], action: allow}], \
                     denyResponse: {statusCode: 403, headers: [{name: X-A, value: a}]}}";
const ACL_B: &str = "{defaultAction: deny, rules: [{cidrs: [192.168.0.0/16], action: allow}], \
                     denyResponse: {headers: [{name: X-B, value: b}], blockedByHeaderName: X-Blocked-By}}";

#[test]
fn acl_augmented_deep_merges_onto_a() {
    let (a, b) = (whole(ACL_A, 1), whole(ACL_B, 2));
    let got = run("acl", Some(&a), Some(&b), AugmentedDeep);
    let value = "{defaultAction: deny, rules: [{cidrs: [10.0.0.0/8], action: allow}, \
                 {cidrs: [192.168.0.0/16], action: allow}], denyResponse: {statusCode: 403, \
                 headers: [{name: X-A, value: a}, {name: X-B, value: b}], blockedByHeaderName: X-Blocked-By}}";
    assert_eq!(got, (want(value, &[1, 2]), How::Acl));
}

#[test]
fn acl_overridable_deep_merges_onto_b_and_never_fills_status_code() {
    let (a, b) = (whole(ACL_A, 1), whole(ACL_B, 2));
    let got = run("acl", Some(&a), Some(&b), OverridableDeep);
    let value = "{defaultAction: deny, rules: [{cidrs: [192.168.0.0/16], action: allow}, \
                 {cidrs: [10.0.0.0/8], action: allow}], denyResponse: {headers: [{name: X-B, value: b}, \
                 {name: X-A, value: a}], blockedByHeaderName: X-Blocked-By}}";
    assert_eq!(got, (want(value, &[2, 1]), How::Acl));
}

#[test]
fn acl_keeps_the_preferred_blocked_by_header_and_takes_a_lone_deny_response() {
    let a = whole(
        "{defaultAction: allow, denyResponse: {blockedByHeaderName: X-By}}",
        1,
    );
    let b = whole(
        "{defaultAction: allow, rules: [{cidrs: [10.0.0.0/8], action: deny}], denyResponse: {statusCode: 451}}",
        2,
    );
    let got = run("acl", Some(&a), Some(&b), AugmentedDeep);
    let value = "{defaultAction: allow, denyResponse: {blockedByHeaderName: X-By}, \
                 rules: [{cidrs: [10.0.0.0/8], action: deny}]}";
    assert_eq!(got, (want(value, &[1, 2]), How::Acl));
    let lone = whole("{defaultAction: allow}", 3);
    let got = run("acl", Some(&lone), Some(&a), AugmentedDeep);
    let value = "{defaultAction: allow, denyResponse: {blockedByHeaderName: X-By}}";
    assert_eq!(got, (want(value, &[3, 1]), How::Acl));
}

#[test]
fn acl_conflicts_fall_back_to_shallow() {
    let cases = [
        (
            "{defaultAction: allow}",
            "{defaultAction: deny}",
            AclConflict::DefaultAction,
        ),
        (
            "{defaultAction: deny, denyResponse: {statusCode: 403}}",
            "{defaultAction: deny, denyResponse: {statusCode: 451}}",
            AclConflict::StatusCode,
        ),
        (
            "{defaultAction: deny, denyResponse: {blockedByHeaderName: X-A}}",
            "{defaultAction: deny, denyResponse: {blockedByHeaderName: X-B}}",
            AclConflict::BlockedByHeaderName,
        ),
    ];
    for (a_text, b_text, conflict) in cases {
        let (a, b) = (whole(a_text, 1), whole(b_text, 2));
        let got = run("acl", Some(&a), Some(&b), AugmentedDeep);
        assert_eq!(
            got,
            (want(a_text, &[1]), How::AclFallback(conflict, Side::A))
        );
        let got = run("acl", Some(&a), Some(&b), OverridableDeep);
        assert_eq!(
            got,
            (want(b_text, &[2]), How::AclFallback(conflict, Side::B))
        );
    }
}

#[test]
fn acl_one_sided_status_code_is_no_conflict() {
    let a = whole("{defaultAction: deny, denyResponse: {statusCode: 403}}", 1);
    let b = whole(
        "{defaultAction: deny, denyResponse: {headers: [{name: X, value: y}]}}",
        2,
    );
    let got = run("acl", Some(&a), Some(&b), AugmentedDeep);
    let value =
        "{defaultAction: deny, denyResponse: {statusCode: 403, headers: [{name: X, value: y}]}}";
    assert_eq!(got, (want(value, &[1, 2]), How::Acl));
}

#[test]
fn acl_is_deep_within_a_level_unless_set_shallow() {
    let (a, b) = (whole(ACL_A, 1), whole(ACL_B, 2));
    let strategy = MergeSettings::default().same_level("acl");
    assert_eq!(run("acl", Some(&a), Some(&b), strategy).1, How::Acl);
    let (settings, _) =
        MergeSettings::parse(r#"{"trafficPolicy": {"acl": "ShallowMerge"}}"#).unwrap();
    let got = run("acl", Some(&a), Some(&b), settings.same_level("acl"));
    assert_eq!(
        got,
        (want(ACL_A, &[1]), How::Took(Side::A, AugmentedShallow))
    );
}

#[test]
fn how_reads_as_a_sentence() {
    assert_eq!(
        How::Took(Side::A, AugmentedShallow).to_string(),
        "kept the higher-priority value (AugmentedShallow)"
    );
    assert_eq!(
        How::Transformation.to_string(),
        "deep-merged transformation lists"
    );
    assert_eq!(
        How::AclFallback(AclConflict::DefaultAction, Side::A).to_string(),
        "acl conflict (defaultAction differs): fell back to shallow, took the higher-priority value"
    );
    assert_eq!(How::Disabled(EXT_AUTH).to_string(), "B disables extAuth");
}
