//! Which route rule serves the request (docs/semantics.md#93-the-route-rule): the candidates through the chosen
//! listener, each rule's matches (OR of ANDed conditions), and Gateway API's precedence between
//! the rules that match, step by step — so the answer can say which step beat each loser.

use super::input::Request;
use crate::load::Timestamp;
use crate::model::Model;
use crate::model::gateway::{Route, RouteKind};
use crate::model::matches::{GrpcMatch, HttpMatch, PathType, RuleMatches, ValueMatch, ValueType};
use crate::topology::hostname::hostnames_intersect;
use crate::topology::{Topology, links};
use std::cmp::Ordering;
use std::collections::HashMap;

/// A precedence step (docs/semantics.md#93-the-route-rule); its name is the `lostBecause` code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Step {
    /// Longest applicable precise hostname.
    HostnamePrecise,
    /// Longest applicable hostname, wildcard included.
    Hostname,
    /// `Exact` > `RegularExpression` > `PathPrefix`.
    PathType,
    /// Longer path value.
    PathLength,
    /// Has a method match.
    Method,
    /// gRPC: longer service value.
    ServiceLength,
    /// gRPC: longer method value.
    MethodLength,
    /// More header matches.
    HeaderCount,
    /// More query parameter matches.
    QueryCount,
    /// The older route.
    CreationTimestamp,
    /// `namespace/name` ascending.
    RouteName,
    /// The lower rule index in one route.
    RuleOrder,
}

impl Step {
    /// The contract's code.
    pub fn as_str(self) -> &'static str {
        match self {
            Step::HostnamePrecise => "hostname-precise",
            Step::Hostname => "hostname",
            Step::PathType => "path-type",
            Step::PathLength => "path-length",
            Step::Method => "method",
            Step::ServiceLength => "service-length",
            Step::MethodLength => "method-length",
            Step::HeaderCount => "header-count",
            Step::QueryCount => "query-count",
            Step::CreationTimestamp => "creation-timestamp",
            Step::RouteName => "route-name",
            Step::RuleOrder => "rule-order",
        }
    }
}

/// A condition a match failed, for non-matching candidates (`lostBecause` and `message`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// `hostname`, `path`, `method`, `headers`, `query`, `service`, `grpc-method`.
    pub code: &'static str,
    /// What failed, in words.
    pub message: String,
}

/// One candidate path and how it fared.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// Index into `Topology::paths`.
    pub path: usize,
    /// The index of the match that decided (its best, or its nearest miss).
    pub match_index: usize,
    /// Failing conditions of that match (empty when it matched).
    pub failures: Vec<Failure>,
    /// Precedence key (matched candidates only), in step order, larger wins.
    rank: Vec<(Step, Key)>,
    /// Whether the match uses a regular expression on the path (implementation-specific).
    pub regex_path: bool,
    /// Characters of the route's longest hostname that applies to the request (0 when it has
    /// none, or none applies).
    pub host_rank: usize,
}

impl Candidate {
    /// Whether the rule matched.
    pub fn matched(&self) -> bool {
        self.failures.is_empty()
    }
}

/// A comparable value of one precedence step (larger wins).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Key {
    Number(i64),
    /// Reversed: smaller text wins.
    Text(std::cmp::Reverse<String>),
    /// Older wins; no timestamp loses to any timestamp.
    Age(std::cmp::Reverse<(bool, Option<Timestamp>)>),
}

/// The routing answer.
#[derive(Debug)]
pub struct Routed {
    /// Every candidate: the winner first (when one matched), then matched losers in precedence
    /// order, then the non-matching ones nearest first.
    pub candidates: Vec<Candidate>,
    /// Compiled regular expressions that were invalid (notes).
    pub notes: Vec<String>,
    /// When no rule matched: the delegating rules that match the request but have no valid child
    /// on this listener, in words, with what the link's data plane answers instead.
    pub childless: Vec<String>,
}

impl Routed {
    /// The winner, if a rule matched.
    pub fn winner(&self) -> Option<&Candidate> {
        self.candidates.first().filter(|c| c.matched())
    }

    /// The first step where `loser` differs from the winner.
    pub fn lost_because(&self, loser: &Candidate) -> Option<Step> {
        let winner = self.winner()?;
        winner
            .rank
            .iter()
            .zip(&loser.rank)
            .find(|(a, b)| a.1 != b.1)
            .map(|(a, _)| a.0)
    }
}

/// Regular expressions, compiled once per text (`None`: invalid).
#[derive(Default)]
struct Regexes {
    cache: HashMap<String, Option<regex::Regex>>,
    invalid: Vec<String>,
}

impl Regexes {
    /// Whether `pattern` matches the whole of `text`.
    fn full_match(&mut self, pattern: &str, text: &str) -> bool {
        let invalid = &mut self.invalid;
        let compiled = self.cache.entry(pattern.to_string()).or_insert_with(|| {
            let built = regex::RegexBuilder::new(&format!("^(?:{pattern})$"))
                .size_limit(1 << 20)
                .build()
                .ok();
            if built.is_none() {
                invalid.push(format!(
                    "`{pattern}` is not a regular expression dopol can compile (Rust `regex` syntax); it matches nothing here"
                ));
            }
            built
        });
        compiled.as_ref().is_some_and(|r| r.is_match(text))
    }
}

/// The request as matching reads it: its query parameters decoded once, and the regular
/// expressions compiled once, for every candidate.
struct Probe<'r> {
    request: &'r Request,
    query: Vec<(String, String)>,
    regexes: Regexes,
}

/// The route's hostnames that apply to the request: they intersect the listener's hostname and
/// match the host. `None` when the route has hostnames and none applies.
fn applicable_hostnames<'r>(
    route: &'r Route,
    listener_hostname: Option<&str>,
    request: &Request,
) -> Option<Vec<&'r str>> {
    if route.hostnames.is_empty() {
        return Some(Vec::new());
    }
    let found: Vec<&str> = route
        .hostnames
        .iter()
        .map(String::as_str)
        .filter(|h| listener_hostname.is_none_or(|l| hostnames_intersect(l, h)))
        .filter(|h| request.host_matches(h))
        .collect();
    (!found.is_empty()).then_some(found)
}

/// Whether the path matches a path match.
fn path_matches(m: &HttpMatch, path: &str, regexes: &mut Regexes) -> bool {
    match m.path_type {
        PathType::Exact => path == m.path,
        PathType::RegularExpression => regexes.full_match(&m.path, path),
        PathType::PathPrefix => {
            let prefix = match m.path.strip_suffix('/') {
                Some(p) if !p.is_empty() => p,
                _ if m.path == "/" => return path.starts_with('/'),
                _ => m.path.as_str(),
            };
            path == prefix
                || path
                    .strip_prefix(prefix)
                    .is_some_and(|rest| rest.starts_with('/'))
        }
    }
}

/// Header matches, first entry per name (names case-insensitive).
fn distinct_by_name(matches: &[ValueMatch], case_insensitive: bool) -> Vec<&ValueMatch> {
    let mut seen: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for m in matches {
        let name = if case_insensitive {
            m.name.to_ascii_lowercase()
        } else {
            m.name.clone()
        };
        if !seen.contains(&name) {
            seen.push(name);
            out.push(m);
        }
    }
    out
}

/// Whether `got` is `want` (`Exact`) or wholly matches it (`RegularExpression`).
fn value_is(kind: ValueType, want: &str, got: &str, regexes: &mut Regexes) -> bool {
    match kind {
        ValueType::Exact => got == want,
        ValueType::RegularExpression => regexes.full_match(want, got),
    }
}

fn header_failures(matches: &[ValueMatch], probe: &mut Probe<'_>, out: &mut Vec<Failure>) {
    for m in distinct_by_name(matches, true) {
        let got = probe.request.headers.get(&m.name.to_ascii_lowercase());
        if !got.is_some_and(|v| value_is(m.kind, &m.value, v, &mut probe.regexes)) {
            out.push(Failure {
                code: "headers",
                message: match got {
                    None => format!(
                        "header {} is absent ({} {})",
                        m.name,
                        m.kind.as_str(),
                        m.value
                    ),
                    Some(v) => format!(
                        "header {}: `{v}` is not {} `{}`",
                        m.name,
                        m.kind.as_str(),
                        m.value
                    ),
                },
            });
        }
    }
}

/// The query parameters: split at `&` and the first `=`, percent-decoded, first value wins.
fn query_params(query: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for part in query.split('&').filter(|p| !p.is_empty()) {
        let (name, value) = part.split_once('=').unwrap_or((part, ""));
        let name = percent_decode(name);
        if !out.iter().any(|(n, _)| *n == name) {
            out.push((name, percent_decode(value)));
        }
    }
    out
}

/// `%XX` decoded (`+` stays `+`); invalid escapes are kept as written.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2]))
        {
            out.push((h * 16 + l) as u8);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The failing conditions of one HTTPRoute match.
fn http_failures(m: &HttpMatch, probe: &mut Probe<'_>) -> Vec<Failure> {
    let request = probe.request;
    let mut out = Vec::new();
    if !path_matches(m, &request.path, &mut probe.regexes) {
        let how = match m.path_type {
            PathType::Exact => "is not",
            PathType::PathPrefix => "is not under",
            PathType::RegularExpression => "does not match",
        };
        out.push(Failure {
            code: "path",
            message: format!(
                "path {} {how} {} {}",
                request.path,
                m.path_type.as_str(),
                m.path
            ),
        });
    }
    if let Some(method) = &m.method
        && *method != request.method
    {
        out.push(Failure {
            code: "method",
            message: format!("method {} is not {method}", request.method),
        });
    }
    header_failures(&m.headers, probe, &mut out);
    for q in distinct_by_name(&m.query, false) {
        let got = probe
            .query
            .iter()
            .find(|(n, _)| *n == q.name)
            .map(|(_, v)| v);
        if !got.is_some_and(|v| value_is(q.kind, &q.value, v, &mut probe.regexes)) {
            out.push(Failure {
                code: "query",
                message: match got {
                    None => format!("query parameter {} is absent", q.name),
                    Some(v) => format!(
                        "query parameter {}: `{v}` is not {} `{}`",
                        q.name,
                        q.kind.as_str(),
                        q.value
                    ),
                },
            });
        }
    }
    out
}

/// The failing conditions of one GRPCRoute match.
fn grpc_failures(m: &GrpcMatch, probe: &mut Probe<'_>) -> Vec<Failure> {
    let mut out = Vec::new();
    let call = probe.request.grpc.as_ref();
    let (service, method) = call.map_or(("", ""), |c| (c.service.as_str(), c.method.as_str()));
    for (code, what, want, got) in [
        ("service", "service", &m.service, service),
        ("grpc-method", "method", &m.method, method),
    ] {
        // An omitted part matches anything.
        let Some(want) = want else { continue };
        if !value_is(m.method_type, want, got, &mut probe.regexes) {
            out.push(Failure {
                code,
                message: format!("{what} {got} is not {} {want}", m.method_type.as_str()),
            });
        }
    }
    header_failures(&m.headers, probe, &mut out);
    out
}

fn count(n: usize) -> Key {
    Key::Number(n as i64)
}

/// The precedence key of a matching rule (docs/semantics.md#93-the-route-rule), steps in order.
/// `route` is the path's root route (a delegated rule is ranked as a rule of the route that
/// delegates to it, as the link's data plane flattens it there); `order` is the path's place in the topology's
/// display order, which for the paths of one root route is their rule order.
fn rank(route: &Route, hostnames: &[&str], order: usize, m: MatchRef<'_>) -> Vec<(Step, Key)> {
    let precise = hostnames
        .iter()
        .filter(|h| !h.starts_with('*'))
        .map(|h| h.len())
        .max();
    let any = hostnames.iter().map(|h| h.len()).max();
    let mut key = vec![
        (Step::HostnamePrecise, count(precise.unwrap_or(0))),
        (Step::Hostname, count(any.unwrap_or(0))),
    ];
    match m {
        MatchRef::Http(m) => key.extend([
            (
                Step::PathType,
                count(match m.path_type {
                    PathType::Exact => 2,
                    PathType::RegularExpression => 1,
                    PathType::PathPrefix => 0,
                }),
            ),
            (Step::PathLength, count(m.path.chars().count())),
            (Step::Method, count(usize::from(m.method.is_some()))),
            (
                Step::HeaderCount,
                count(distinct_by_name(&m.headers, true).len()),
            ),
            (
                Step::QueryCount,
                count(distinct_by_name(&m.query, false).len()),
            ),
        ]),
        MatchRef::Grpc(m) => key.extend([
            (
                Step::ServiceLength,
                count(m.map_or(0, |m| m.service.as_deref().map_or(0, |s| s.chars().count()))),
            ),
            (
                Step::MethodLength,
                count(m.map_or(0, |m| m.method.as_deref().map_or(0, |s| s.chars().count()))),
            ),
            (
                Step::HeaderCount,
                count(m.map_or(0, |m| distinct_by_name(&m.headers, true).len())),
            ),
        ]),
    }
    key.extend([
        (
            Step::CreationTimestamp,
            Key::Age(std::cmp::Reverse((
                route.creation_timestamp.is_none(),
                route.creation_timestamp,
            ))),
        ),
        (
            Step::RouteName,
            Key::Text(std::cmp::Reverse(format!(
                "{}/{}",
                route.namespace, route.name
            ))),
        ),
        (Step::RuleOrder, Key::Number(-(order as i64))),
    ]);
    key
}

/// One match of either kind (`Grpc(None)`: a GRPCRoute rule without matches).
#[derive(Clone, Copy)]
enum MatchRef<'a> {
    Http(&'a HttpMatch),
    Grpc(Option<&'a GrpcMatch>),
}

/// Evaluates one candidate path's rule (`rule_matches`: its matches on the path) under the
/// path's root `route`: its best match, or its nearest miss.
fn evaluate(
    route: &Route,
    hostnames: Option<&[&str]>,
    rule_matches: &RuleMatches,
    path: usize,
    probe: &mut Probe<'_>,
) -> Candidate {
    let request = probe.request;
    let matches: Vec<MatchRef<'_>> = match rule_matches {
        RuleMatches::Http(list) => list.iter().map(MatchRef::Http).collect(),
        RuleMatches::Grpc(list) if list.is_empty() => vec![MatchRef::Grpc(None)],
        RuleMatches::Grpc(list) => list.iter().map(|m| MatchRef::Grpc(Some(m))).collect(),
    };
    let mut best: Option<Candidate> = None;
    for (index, m) in matches.into_iter().enumerate() {
        let mut failures = Vec::new();
        if hostnames.is_none() {
            failures.push(Failure {
                code: "hostname",
                message: format!(
                    "host {} matches none of the route's hostnames ({})",
                    request.host,
                    route.hostnames.join(", ")
                ),
            });
        }
        failures.extend(match m {
            MatchRef::Http(m) => http_failures(m, probe),
            MatchRef::Grpc(Some(m)) => grpc_failures(m, probe),
            MatchRef::Grpc(None) => Vec::new(),
        });
        let candidate = Candidate {
            path,
            match_index: index,
            rank: if failures.is_empty() {
                rank(route, hostnames.unwrap_or(&[]), path, m)
            } else {
                Vec::new()
            },
            failures,
            regex_path: matches!(m, MatchRef::Http(h) if h.path_type == PathType::RegularExpression),
            host_rank: hostnames
                .and_then(|h| h.iter().map(|h| h.len()).max())
                .unwrap_or(0),
        };
        let better = match &best {
            None => true,
            Some(b) => compare(&candidate, b) == Ordering::Less,
        };
        if better {
            best = Some(candidate);
        }
    }
    best.expect("every rule has at least one match")
}

/// Candidate order: matched before not; matched by precedence (larger key first); others by
/// fewest failures, then path order (ties keep the lower match index: `Equal` keeps the first).
fn compare(a: &Candidate, b: &Candidate) -> Ordering {
    match (a.matched(), b.matched()) {
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        (true, true) => b.rank.cmp(&a.rank),
        (false, false) => a.failures.len().cmp(&b.failures.len()),
    }
}

/// The matches of each rule of route `route` reached through `chain` (its own, or for a
/// delegated route those it has on that chain).
fn matches_on(model: &Model, chain: &[(u32, u32)], route: u32) -> Vec<RuleMatches> {
    if chain.is_empty() {
        return crate::model::matches::of_route(model, &model.routes[route as usize]);
    }
    (links::matches_on_chain(model, chain, route).into_iter())
        .map(RuleMatches::Http)
        .collect()
}

/// Which candidates [`route`] ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ranked {
    /// Every path through the listener, each with its best match or nearest miss (what
    /// `dopol request` lists).
    Every,
    /// Only the paths whose route has a hostname that applies to the request (or none): the
    /// only ones that can match, so the winner and the matched losers are those of `Every`,
    /// without reading the matches of the thousands of routes of a busy listener. The
    /// non-matching candidates, the nearest miss and the notes on them are incomplete.
    HostMatches,
}

/// Routes the request through the chosen listener.
pub fn route(
    model: &Model,
    topology: &Topology,
    (gateway, listener): (u32, u32),
    request: &Request,
    ranked: Ranked,
) -> Routed {
    let kind = match request.grpc {
        Some(_) => RouteKind::Grpc,
        None => RouteKind::Http,
    };
    let listener_hostname = model.gateways[gateway as usize].listeners[listener as usize]
        .hostname
        .as_deref();
    let mut probe = Probe {
        request,
        query: query_params(request.query.as_deref().unwrap_or("")),
        regexes: Regexes::default(),
    };
    // Per root route, once: the hostnames that apply to the request. Per (chain, route), once:
    // its rules' matches on that chain (the model does not keep them).
    let mut hostnames: HashMap<u32, Option<Vec<&str>>> = HashMap::new();
    let mut matches: HashMap<(u32, u32), Vec<RuleMatches>> = HashMap::new();
    let mut candidates = Vec::new();
    for (i, p) in topology.paths.iter().enumerate() {
        let route = &model.routes[p.route as usize];
        if p.gateway != gateway || p.listener != listener || route.kind != kind {
            continue;
        }
        let chain = topology
            .chains
            .get(p.chain as usize)
            .map_or(&[][..], Vec::as_slice);
        // A delegated rule answers for the route that delegates to it: the root's hostnames.
        let root = chain.first().map_or(p.route, |&(r, _)| r);
        let root_route = &model.routes[root as usize];
        let hostnames = hostnames
            .entry(root)
            .or_insert_with(|| applicable_hostnames(root_route, listener_hostname, request));
        if ranked == Ranked::HostMatches && hostnames.is_none() {
            continue;
        }
        let rules = (matches.entry((p.chain, p.route)))
            .or_insert_with(|| matches_on(model, chain, p.route));
        let Some(rule) = rules.get(p.rule as usize) else {
            continue;
        };
        candidates.push(evaluate(
            root_route,
            hostnames.as_deref(),
            rule,
            i,
            &mut probe,
        ));
    }
    candidates.sort_by(|a, b| {
        compare(a, b).then_with(|| topology.path_id(a.path).cmp(&topology.path_id(b.path)))
    });
    let mut childless = Vec::new();
    if !candidates.first().is_some_and(Candidate::matched) {
        childless = childless_delegations(model, topology, (gateway, listener), &mut probe);
    }
    Routed {
        candidates,
        notes: std::mem::take(&mut probe.regexes.invalid),
        childless,
    }
}

/// The rules of routes attached to the listener that match the request but have no path there:
/// delegating rules none of whose children is valid (the link says what the data plane answers),
/// in words. Without a link every rule of an attached route has a path.
fn childless_delegations(
    model: &Model,
    topology: &Topology,
    (gateway, listener): (u32, u32),
    probe: &mut Probe<'_>,
) -> Vec<String> {
    let Some(link) = links::of_model(model) else {
        return Vec::new();
    };
    let on_listener = |p: &&crate::topology::Path| p.gateway == gateway && p.listener == listener;
    let with_path: std::collections::HashSet<(u32, u32)> = topology
        .paths
        .iter()
        .filter(on_listener)
        .map(|p| {
            let chain = topology.chains.get(p.chain as usize);
            chain
                .and_then(|c| c.first().copied())
                .unwrap_or((p.route, p.rule))
        })
        .collect();
    let listener_hostname = model.gateways[gateway as usize].listeners[listener as usize]
        .hostname
        .as_deref();
    let mut notes = Vec::new();
    for (r, route) in model.routes.iter().enumerate() {
        let r = r as u32;
        let attached = topology.route_listeners[r as usize].contains(&(gateway, listener));
        let orphans: Vec<u32> = (0..route.rules.len() as u32)
            .filter(|&k| !with_path.contains(&(r, k)))
            .collect();
        if !attached || route.kind != RouteKind::Http || orphans.is_empty() {
            continue;
        }
        let hostnames = applicable_hostnames(route, listener_hostname, probe.request);
        let rules = crate::model::matches::of_route(model, route);
        for k in orphans {
            let Some(matches) = rules.get(k as usize) else {
                continue;
            };
            if evaluate(route, hostnames.as_deref(), matches, 0, probe).matched() {
                notes.push(format!(
                    "{} matches this request but delegates to no valid child here (lint {} says why): {}",
                    links::rule_name(model, r, k),
                    link.dropped_code(),
                    link.dead_end()
                ));
            }
        }
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prefix(value: &str) -> HttpMatch {
        HttpMatch {
            path: value.into(),
            ..HttpMatch::everything()
        }
    }

    #[test]
    fn path_prefix_is_element_wise() {
        let mut r = Regexes::default();
        let m = prefix("/abc");
        for (path, expected) in [
            ("/abc", true),
            ("/abc/", true),
            ("/abc/def", true),
            ("/abcd", false),
            ("/", false),
        ] {
            assert_eq!(path_matches(&m, path, &mut r), expected, "{path}");
        }
        assert!(path_matches(&prefix("/abc/"), "/abc", &mut r));
        assert!(path_matches(&prefix("/"), "/anything", &mut r));
        let exact = HttpMatch {
            path_type: PathType::Exact,
            ..prefix("/abc")
        };
        assert!(!path_matches(&exact, "/abc/", &mut r));
        let regex = HttpMatch {
            path_type: PathType::RegularExpression,
            ..prefix("/v[0-9]+")
        };
        assert!(path_matches(&regex, "/v12", &mut r));
        assert!(!path_matches(&regex, "/v12/x", &mut r));
    }

    #[test]
    fn query_params_decode_and_keep_the_first() {
        assert_eq!(
            query_params("a=1&b&a=2&c%20d=x%2Fy+z"),
            [
                ("a".to_string(), "1".to_string()),
                ("b".into(), "".into()),
                ("c d".into(), "x/y+z".into())
            ]
        );
        assert_eq!(percent_decode("%zz%4"), "%zz%4");
    }
}
