//! One test per rule of docs/families.md §2.5 step 3.

use super::merge::step;
use super::scopes::{Direction, Scope, ScopeNote, combine_scopes};
use super::strategy::Strategy;
use super::testing::{j, shown, whole};
use super::{Contribution, ProviderId};

type Shown = Option<(String, Vec<u32>)>;

/// The combined value (JSON) and origins, and the notes.
fn run(key: &str, scopes: [Option<&Contribution>; 3]) -> (Shown, Vec<ScopeNote>) {
    let [route, listener, gateway] = scopes;
    let combined = combine_scopes(key, route, listener, gateway);
    (shown(combined.result.as_ref()), combined.notes)
}

/// The value only.
fn value(key: &str, scopes: [Option<&Contribution>; 3]) -> Shown {
    run(key, scopes).0
}

fn want(text: &str, origins: &[u32]) -> Shown {
    Some((j(text), origins.to_vec()))
}

fn deep(key: &str, a: &Contribution, b: &Contribution) -> Contribution {
    step(key, Some(a), Some(b), Strategy::AugmentedDeep)
        .result
        .unwrap()
}

#[test]
fn timeouts_fill_unset_sub_fields() {
    let route = whole("{request: 5s}", 1);
    let listener = whole("{request: 10s, streamIdle: 30s}", 2);
    let gateway = whole("{streamIdle: 60s}", 3);
    let got = value("timeouts", [Some(&route), Some(&listener), Some(&gateway)]);
    assert_eq!(got, want("{request: 5s, streamIdle: 30s}", &[1, 2]));
    let full = whole("{request: 1s, streamIdle: 2s}", 1);
    let got = value("timeouts", [Some(&full), Some(&listener), Some(&gateway)]);
    assert_eq!(got, want("{request: 1s, streamIdle: 2s}", &[1]));
    let empty = whole("{}", 1);
    let got = value("timeouts", [Some(&empty), None, Some(&gateway)]);
    assert_eq!(got, want("{streamIdle: 60s}", &[3]));
}

#[test]
fn retry_and_internal_redirect_are_the_most_specific_whole() {
    let route = whole("{attempts: 3}", 1);
    let gateway = whole("{attempts: 5, perTryTimeout: 1s}", 3);
    assert_eq!(
        value("retry", [Some(&route), None, Some(&gateway)]),
        want("{attempts: 3}", &[1])
    );
    assert_eq!(
        value("retry", [None, None, Some(&gateway)]),
        want("{attempts: 5, perTryTimeout: 1s}", &[3])
    );
    let listener = whole("{maxInternalRedirects: 2}", 2);
    let got = value("internalRedirect", [None, Some(&listener), Some(&gateway)]);
    assert_eq!(got, want("{maxInternalRedirects: 2}", &[2]));
}

#[test]
fn filters_take_the_most_specific_whole_disable_included() {
    let route = whole("{disable: {}}", 1);
    let gateway = whole("{secretRef: {name: users}}", 3);
    assert_eq!(
        value("basicAuth", [Some(&route), None, Some(&gateway)]),
        want("{disable: {}}", &[1])
    );
    let listener = whole("{maxRequestSize: 1Mi}", 2);
    assert_eq!(
        value("buffer", [None, Some(&listener), Some(&gateway)]),
        want("{maxRequestSize: 1Mi}", &[2])
    );
    let acl = deep(
        "acl",
        &whole("{defaultAction: deny}", 4),
        &whole("{defaultAction: deny, rules: []}", 5),
    );
    assert_eq!(
        value("acl", [None, Some(&acl), Some(&gateway)]),
        want("{defaultAction: deny, rules: []}", &[4, 5])
    );
    assert_eq!(value("transformation", [None, None, None]), None);
}

#[test]
fn unknown_keys_are_the_most_specific_whole() {
    let (listener, gateway) = (whole("{a: 1}", 2), whole("{b: 2}", 3));
    assert_eq!(
        value("futureField", [None, Some(&listener), Some(&gateway)]),
        want("{a: 1}", &[2])
    );
    assert_eq!(
        value("rateLimit.other", [None, None, Some(&gateway)]),
        want("{b: 2}", &[3])
    );
}

#[test]
fn route_only_keys_are_the_route_scopes() {
    let (route, listener) = (whole("{hostname: a}", 1), whole("{hostname: b}", 2));
    assert_eq!(
        value("urlRewrite", [Some(&route), Some(&listener), None]),
        want("{hostname: a}", &[1])
    );
    assert_eq!(value("urlRewrite", [None, Some(&listener), None]), None);
}

#[test]
fn cors_takes_each_attribute_from_the_most_specific_scope() {
    let route = whole("{allowOrigins: [a], maxAge: 10}", 1);
    let listener = whole(
        "{allowMethods: [GET], allowCredentials: true, maxAge: 20}",
        2,
    );
    let gateway = whole(
        "{allowOrigins: [b], allowHeaders: [h], exposeHeaders: [e], allowCredentials: false}",
        3,
    );
    let got = value("cors", [Some(&route), Some(&listener), Some(&gateway)]);
    let expected = "{allowOrigins: [a], allowMethods: [GET], allowHeaders: [h], exposeHeaders: [e], \
                    allowCredentials: true, maxAge: 10}";
    assert_eq!(got, want(expected, &[1, 2, 3]));
}

#[test]
fn cors_max_age_comes_from_the_deciding_scope_only() {
    let route = whole("{allowOrigins: [a]}", 1);
    let gateway = whole("{allowMethods: [GET], maxAge: 50}", 3);
    let got = value("cors", [Some(&route), None, Some(&gateway)]);
    assert_eq!(
        got,
        want("{allowOrigins: [a], allowMethods: [GET]}", &[1, 3])
    );
    // An empty cors still decides, and is the first origin.
    let empty = whole("{}", 1);
    let got = value("cors", [Some(&empty), None, Some(&gateway)]);
    assert_eq!(got, want("{allowMethods: [GET]}", &[1, 3]));
    // Only the deciding scope contributes: its value verbatim.
    assert_eq!(
        value("cors", [None, None, Some(&gateway)]),
        want("{allowMethods: [GET], maxAge: 50}", &[3])
    );
}

#[test]
fn cors_allow_credentials_counts_only_when_true() {
    let route = whole("{allowOrigins: [a], allowCredentials: false}", 1);
    let gateway = whole("{allowCredentials: true}", 3);
    let got = value("cors", [Some(&route), None, Some(&gateway)]);
    assert_eq!(
        got,
        want("{allowOrigins: [a], allowCredentials: true}", &[1, 3])
    );
}

#[test]
fn cors_disable_in_the_deciding_scope_turns_cors_off() {
    let route = whole("{disable: {}}", 1);
    let gateway = whole("{allowOrigins: [b]}", 3);
    assert_eq!(
        value("cors", [Some(&route), None, Some(&gateway)]),
        want("{disable: {}}", &[1])
    );
    // A less specific disable gives no attribute.
    let allow = whole("{allowOrigins: [a]}", 1);
    let listener = whole("{disable: {}}", 2);
    let methods = whole("{allowMethods: [GET]}", 3);
    let got = value("cors", [Some(&allow), Some(&listener), Some(&methods)]);
    assert_eq!(
        got,
        want("{allowOrigins: [a], allowMethods: [GET]}", &[1, 3])
    );
}

const AUTH1: &str = "{extensionRef: {name: auth1}}";
const AUTH2: &str = "{extensionRef: {name: auth2}}";
const AUTH3: &str = "{extensionRef: {name: auth3}}";

#[test]
fn providers_of_every_scope_run_each_once_at_the_most_specific() {
    let route = deep("extAuth", &whole(AUTH1, 1), &whole(AUTH2, 2));
    let listener = whole(
        "{extensionRef: {name: auth2}, contextExtensions: {k: v}}",
        3,
    );
    let gateway = whole(AUTH3, 4);
    let got = run("extAuth", [Some(&route), Some(&listener), Some(&gateway)]);
    assert_eq!(
        got,
        (
            want(
                &format!("{{providers: [{AUTH1}, {AUTH2}, {AUTH3}]}}"),
                &[1, 2, 4]
            ),
            vec![]
        )
    );
    // One contributing scope: its value verbatim.
    let again = whole(AUTH1, 5);
    let single = whole(AUTH1, 1);
    assert_eq!(
        value("extAuth", [Some(&single), None, Some(&again)]),
        want(AUTH1, &[1])
    );
}

#[test]
fn other_provider_fields_combine_the_same_way() {
    let route = whole(
        "{extensionRef: {name: rl}, descriptors: [{entries: [{type: RemoteAddress}]}]}",
        1,
    );
    let gateway = whole("{extensionRef: {name: rl2}}", 3);
    let expected = "{providers: [{extensionRef: {name: rl}, descriptors: [{entries: [{type: RemoteAddress}]}]}, \
                    {extensionRef: {name: rl2}}]}";
    for key in ["rateLimit.global", "jwtAuth", "oauth2", "extProc"] {
        assert_eq!(
            value(key, [Some(&route), None, Some(&gateway)]),
            want(expected, &[1, 3]),
            "{key}"
        );
    }
}

#[test]
fn a_disable_at_any_scope_wins_and_notes_route_providers() {
    let route = deep("extAuth", &whole(AUTH1, 1), &whole(AUTH2, 2));
    let listener = whole(AUTH3, 3);
    let gateway = whole("{disable: {}}", 4);
    let (got, notes) = run("extAuth", [Some(&route), Some(&listener), Some(&gateway)]);
    assert_eq!(got, want("{disable: {}}", &[4]));
    let providers = ["auth1", "auth2"].map(|name| ProviderId::Extension {
        namespace: "ns".into(),
        name: name.into(),
    });
    let note = ScopeNote::DisablesRouteProviders {
        scope: Scope::Gateway,
        providers: providers.to_vec(),
    };
    assert_eq!(notes, [note]);
    // The most specific disable is the value; a route disable is no note.
    let listener_off = whole("{disable: {}}", 3);
    let got = run("jwtAuth", [None, Some(&listener_off), Some(&gateway)]);
    assert_eq!(got, (want("{disable: {}}", &[3]), vec![]));
    let route_off = whole("{disable: {}}", 1);
    let got = run(
        "extProc",
        [Some(&route_off), Some(&listener), Some(&gateway)],
    );
    assert_eq!(got, (want("{disable: {}}", &[1]), vec![]));
}

#[test]
fn header_modifiers_concatenate_route_listener_gateway() {
    let route = whole(
        "{request: {set: [{name: X-Env, value: route}], add: [{name: A, value: '1'}]}}",
        1,
    );
    let listener = whole("{response: {remove: [Server]}}", 2);
    let gateway = whole(
        "{request: {set: [{name: x-env, value: gw}], remove: [Foo]}}",
        3,
    );
    let (got, notes) = run(
        "headerModifiers",
        [Some(&route), Some(&listener), Some(&gateway)],
    );
    let expected = "{request: {set: [{name: X-Env, value: route}, {name: x-env, value: gw}], \
                    add: [{name: A, value: '1'}], remove: [Foo]}, response: {remove: [Server]}}";
    assert_eq!(got, want(expected, &[1, 2, 3]));
    let note = ScopeNote::HeaderSetWins {
        direction: Direction::Request,
        header: "x-env".into(),
        winner: Scope::Gateway,
        over: Scope::Route,
    };
    assert_eq!(notes, [note]);
}

#[test]
fn header_set_to_the_same_value_twice_is_no_note() {
    let route = whole("{response: {set: [{name: X, value: v}]}}", 1);
    let listener = whole("{response: {set: [{name: X, value: v}]}}", 2);
    let (got, notes) = run("headerModifiers", [Some(&route), Some(&listener), None]);
    assert_eq!(
        got,
        want(
            "{response: {set: [{name: X, value: v}, {name: X, value: v}]}}",
            &[1, 2]
        )
    );
    assert!(notes.is_empty(), "{notes:?}");
    let (got, notes) = run("headerModifiers", [None, None, Some(&route)]);
    assert_eq!(
        (got, notes),
        (
            want("{response: {set: [{name: X, value: v}]}}", &[1]),
            vec![]
        )
    );
}

#[test]
fn compression_per_codec_until_the_first_disable() {
    let key = "compression.responseCompression";
    let route = whole("{libraries: [Brotli]}", 1);
    let listener = whole("{}", 2);
    let gateway = whole("{libraries: [Gzip, Zstd]}", 3);
    let got = value(key, [Some(&route), Some(&listener), Some(&gateway)]);
    assert_eq!(got, want("{libraries: [Brotli, Gzip, Zstd]}", &[1, 2, 3]));
    let off = whole("{disable: {}}", 2);
    assert_eq!(
        value(key, [Some(&route), Some(&off), Some(&gateway)]),
        want("{libraries: [Brotli]}", &[1])
    );
    assert_eq!(
        value(key, [Some(&off), None, Some(&gateway)]),
        want("{disable: {}}", &[2])
    );
    let default = whole("{}", 1);
    let got = value(
        "compression.requestDecompression",
        [Some(&default), None, Some(&gateway)],
    );
    assert_eq!(got, want("{libraries: [Gzip, Zstd]}", &[1, 3]));
}
