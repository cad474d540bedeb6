//! Tables sized to the terminal: `COLUMNS` (or the terminal's width) bounds every line, free
//! text such as VALUE takes the room the identifiers leave and is cut with `…`, identifiers
//! never are; without a terminal nothing is cut; `-o wide` keeps whole values and names every
//! row's whole path.

use crate::common::{at_width, dopol};

const SHOP: &str = "testdata/examples/shop";

fn widest(text: &str) -> usize {
    text.lines().map(|l| l.chars().count()).max().unwrap_or(0)
}

/// At 80 columns the identifiers of the shop (listener, route rule, kind, rule key, source)
/// take 99: listener and route rule become a heading per path, and VALUE goes on a line of its
/// own, cut to the width. No line is wider than 80.
const SHOP_80: &str = "\
Gateway infra/public (class istio)
KIND             RULE KEY                      SOURCE
    VALUE
listener http, route rule shop/cart#checkout
AuthPolicy       authentication#jwt            shop/cart-auth
    {apiKey: {selector: {matchLabels: {app: cart}}, allNamespaces: false}, cred…
                 authorization#deny-anonymous  infra/platform-auth
    {patternMatching: {patterns: [{predicate: auth.identity.anonymous == false}…
RateLimitPolicy  global                        infra/platform-limits
    {rates: [{limit: 1000, window: 1s}]}
                 per-client                    infra/http-limits
    {rates: [{limit: 10, window: 1s}], counters: [{expression: source.address}]}
                 per-user                      shop/checkout-limits
    {rates: [{limit: 5, window: 1m}], counters: [{expression: auth.identity.sub…
listener http, route rule shop/cart#rule-2
AuthPolicy       authentication#jwt            shop/cart-auth
    {apiKey: {selector: {matchLabels: {app: cart}}, allNamespaces: false}, cred…
                 authorization#deny-anonymous  infra/platform-auth
    {patternMatching: {patterns: [{predicate: auth.identity.anonymous == false}…
RateLimitPolicy  global                        infra/platform-limits
    {rates: [{limit: 1000, window: 1s}]}
                 per-client                    infra/http-limits
    {rates: [{limit: 10, window: 1s}], counters: [{expression: source.address}]}
listener https, route rule shop/cart#checkout
AuthPolicy       authentication#jwt            shop/cart-auth
    {apiKey: {selector: {matchLabels: {app: cart}}, allNamespaces: false}, cred…
                 authorization#deny-anonymous  infra/platform-auth
    {patternMatching: {patterns: [{predicate: auth.identity.anonymous == false}…
RateLimitPolicy  global                        infra/platform-limits
    {rates: [{limit: 1000, window: 1s}]}
                 per-user                      shop/checkout-limits
    {rates: [{limit: 5, window: 1m}], counters: [{expression: auth.identity.sub…
listener https, route rule shop/cart#rule-2
AuthPolicy       authentication#jwt            shop/cart-auth
    {apiKey: {selector: {matchLabels: {app: cart}}, allNamespaces: false}, cred…
                 authorization#deny-anonymous  infra/platform-auth
    {patternMatching: {patterns: [{predicate: auth.identity.anonymous == false}…
RateLimitPolicy  global                        infra/platform-limits
    {rates: [{limit: 1000, window: 1s}]}
listener https, route rule shop/catalog#rule-1
AuthPolicy       authentication#jwt            infra/platform-auth
    {jwt: {issuerUrl: https://sso.example.com/realms/shop}, metrics: false, pri…
                 authorization#deny-anonymous  infra/platform-auth
    {patternMatching: {patterns: [{predicate: auth.identity.anonymous == false}…
RateLimitPolicy  global                        infra/platform-limits
    {rates: [{limit: 1000, window: 1s}]}
";

/// At 200 columns the table keeps its columns and VALUE takes every column left, up to 200.
const SHOP_200: &str = "\
Gateway infra/public (class istio)
LISTENER  ROUTE RULE           KIND             RULE KEY                      SOURCE                 VALUE
http      shop/cart#checkout   AuthPolicy       authentication#jwt            shop/cart-auth         {apiKey: {selector: {matchLabels: {app: cart}}, allNamespaces: false}, credentials: {authorization…
                                                authorization#deny-anonymous  infra/platform-auth    {patternMatching: {patterns: [{predicate: auth.identity.anonymous == false}]}, metrics: false, pri…
                               RateLimitPolicy  global                        infra/platform-limits  {rates: [{limit: 1000, window: 1s}]}
                                                per-client                    infra/http-limits      {rates: [{limit: 10, window: 1s}], counters: [{expression: source.address}]}
                                                per-user                      shop/checkout-limits   {rates: [{limit: 5, window: 1m}], counters: [{expression: auth.identity.sub}]}
http      shop/cart#rule-2     AuthPolicy       authentication#jwt            shop/cart-auth         {apiKey: {selector: {matchLabels: {app: cart}}, allNamespaces: false}, credentials: {authorization…
                                                authorization#deny-anonymous  infra/platform-auth    {patternMatching: {patterns: [{predicate: auth.identity.anonymous == false}]}, metrics: false, pri…
                               RateLimitPolicy  global                        infra/platform-limits  {rates: [{limit: 1000, window: 1s}]}
                                                per-client                    infra/http-limits      {rates: [{limit: 10, window: 1s}], counters: [{expression: source.address}]}
https     shop/cart#checkout   AuthPolicy       authentication#jwt            shop/cart-auth         {apiKey: {selector: {matchLabels: {app: cart}}, allNamespaces: false}, credentials: {authorization…
                                                authorization#deny-anonymous  infra/platform-auth    {patternMatching: {patterns: [{predicate: auth.identity.anonymous == false}]}, metrics: false, pri…
                               RateLimitPolicy  global                        infra/platform-limits  {rates: [{limit: 1000, window: 1s}]}
                                                per-user                      shop/checkout-limits   {rates: [{limit: 5, window: 1m}], counters: [{expression: auth.identity.sub}]}
https     shop/cart#rule-2     AuthPolicy       authentication#jwt            shop/cart-auth         {apiKey: {selector: {matchLabels: {app: cart}}, allNamespaces: false}, credentials: {authorization…
                                                authorization#deny-anonymous  infra/platform-auth    {patternMatching: {patterns: [{predicate: auth.identity.anonymous == false}]}, metrics: false, pri…
                               RateLimitPolicy  global                        infra/platform-limits  {rates: [{limit: 1000, window: 1s}]}
https     shop/catalog#rule-1  AuthPolicy       authentication#jwt            infra/platform-auth    {jwt: {issuerUrl: https://sso.example.com/realms/shop}, metrics: false, priority: 0}
                                                authorization#deny-anonymous  infra/platform-auth    {patternMatching: {patterns: [{predicate: auth.identity.anonymous == false}]}, metrics: false, pri…
                               RateLimitPolicy  global                        infra/platform-limits  {rates: [{limit: 1000, window: 1s}]}
";

#[test]
fn effective_fits_80_columns() {
    let out = at_width(80, &["effective", "-f", SHOP]);
    out.code(0);
    assert_eq!(out.stdout, SHOP_80);
    assert!(widest(&out.stdout) <= 80, "{}", out.stdout);
}

#[test]
fn effective_gives_200_columns_to_value() {
    let out = at_width(200, &["effective", "-f", SHOP]);
    out.code(0);
    assert_eq!(out.stdout, SHOP_200);
    assert_eq!(widest(&out.stdout), 200, "VALUE takes the room");
}

#[test]
fn every_width_bounds_every_table_whose_identifiers_fit() {
    // The shop's narrowest identifiers (kind, rule key, source) take 70 columns.
    for width in [80, 100, 120, 160, 200] {
        for command in ["effective", "overridden", "status"] {
            let out = at_width(width, &[command, "-f", SHOP]);
            out.code(0);
            assert!(
                widest(&out.stdout) <= width,
                "{command} at {width}:\n{}",
                out.stdout
            );
        }
    }
}

#[test]
fn identifiers_are_never_cut_and_rows_may_then_overflow() {
    // 30 columns: the identifiers alone do not fit; they are whole, values keep a minimum.
    let out = at_width(30, &["effective", "-f", SHOP]);
    out.code(0);
    out.stdout_has(&[
        "listener https, route rule shop/catalog#rule-1\n",
        "                 authorization#deny-anonymous  infra/platform-auth    {patternMatching: {patterns: [{…\n",
    ]);
}

#[test]
fn without_a_terminal_nothing_is_cut() {
    let out = dopol(&["effective", "-f", SHOP]);
    out.code(0);
    out.stdout_has(&[
        "shop/cart-auth         {apiKey: {selector: {matchLabels: {app: cart}}, allNamespaces: false}, credentials: {authorizationHeader: {prefix: APIKEY}}, metrics: false, priority: 0}\n",
    ]);
    assert!(!out.stdout.contains('…'), "{}", out.stdout);
}

#[test]
fn wide_names_the_whole_path_on_every_row() {
    let out = at_width(80, &["effective", "-f", SHOP, "-o", "wide"]);
    out.code(0);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(
        lines[0],
        "GATEWAY       LISTENER  ROUTE RULE           KIND             RULE KEY                      SOURCE                 VALUE"
    );
    assert_eq!(lines.len(), 20, "a header and 19 rules:\n{}", out.stdout);
    assert!(
        lines[1..]
            .iter()
            .all(|l| l.starts_with("infra/public  http"))
    );
    let per_user: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.contains("per-user"))
        .collect();
    assert_eq!(
        per_user,
        [
            "infra/public  http      shop/cart#checkout   RateLimitPolicy  per-user                      shop/checkout-limits   {rates: [{limit: 5, window: 1m}], counters: [{expression: auth.identity.sub}]}",
            "infra/public  https     shop/cart#checkout   RateLimitPolicy  per-user                      shop/checkout-limits   {rates: [{limit: 5, window: 1m}], counters: [{expression: auth.identity.sub}]}",
        ]
    );
    assert!(!out.stdout.contains('…'), "wide never cuts");
}

#[test]
fn overridden_wide_has_one_row_per_path() {
    let out = dopol(&["overridden", "-f", SHOP, "-o", "wide"]);
    out.code(0);
    assert_eq!(
        out.stdout.lines().nth(2),
        Some(
            "AuthPolicy infra/platform-auth (defaults)    authentication#jwt  superseded  shop/cart-auth         istio|infra/public|infra/public#http|shop/cart|shop/cart#rule-2"
        )
    );
    assert_eq!(out.stdout.lines().count(), 7);
}

#[test]
fn headers_are_unambiguous() {
    for command in ["effective", "overridden", "status"] {
        let out = dopol(&[command, "-f", SHOP]);
        out.code(0);
        for line in out.stdout.lines().filter(|l| l.contains("RULE")) {
            assert!(
                !line.split("  ").any(|h| h.trim() == "RULE"),
                "{command}: a bare RULE header in {line:?}"
            );
        }
        out.stdout_has(&["RULE KEY"]);
    }
}

#[test]
fn status_at_80_columns_heads_each_policy_with_its_kind_and_name() {
    let out = at_width(80, &["status", "-f", SHOP]);
    out.code(0);
    assert!(
        out.stdout.starts_with(
            "CONDITION  STATUS  REASON    MESSAGE\nkind AuthPolicy, policy infra/platform-auth\nAccepted   True    Accepted  AuthPolicy has been accepted\nEnforced   True    Enforced  AuthPolicy has been partially enforced\n"
        ),
        "{}",
        out.stdout
    );
}
