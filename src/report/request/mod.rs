//! `dopol request`: which route rule a request reaches, and which of the effective policy rules
//! on that path apply to it (docs/semantics.md#9-request-simulation).
//!
//! Four steps, each its own module: [`input`] reads the request from the command line,
//! [`listener`] picks the Gateway and listener, [`routing`] ranks the candidate route rules by
//! Gateway API's precedence (a delegated rule with its root's hostnames and its matches on the
//! chain), [`backends`] says which backendRefs of the matched rule cannot be resolved. The matched path's effective policy is folded like `effective`
//! folds it — one path, not every path — and each family says which of its rules apply
//! ([`crate::policy::PolicyFamily::request_verdicts`]); this module names no family.

pub mod backends;
pub mod input;
pub mod listener;
pub mod routing;

use crate::diag::Diagnostic;
use crate::engine::Engine;
use crate::engine::fold::NoObserver;
use crate::policy::request::{
    EffectiveRule, KindRules, RequestContext, RoutingCaveat, RuleVerdict,
};
use crate::report::effective;
use input::Request;
use listener::{Chosen, ListenerChoice, ListenerReason};
use routing::{Routed, Step};
use serde::Serialize;
use std::collections::BTreeMap;

/// `listener` of the trace.
#[derive(Clone, Debug, Serialize)]
pub struct ListenerView {
    /// `ns/name`.
    pub gateway: String,
    /// `ns/gateway#listener`.
    pub listener: String,
    /// The listener's hostname.
    pub hostname: Option<String>,
    /// Why it serves the request.
    pub reason: ListenerReason,
    /// In words, with the less specific listeners that also matched.
    pub message: String,
}

/// `match` of the trace.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MatchView {
    /// The path id.
    pub path_id: String,
    /// `ns/name` of the route.
    pub route: String,
    /// `ns/route#rule`.
    pub rule: String,
    /// 0-based index of the match that decided in the rule's `matches`.
    pub match_index: usize,
    /// The precedence step that beat the best losing matched candidate.
    #[serde(serialize_with = "step_or_null")]
    pub decided_by: Option<Step>,
}

fn step_or_null<S: serde::Serializer>(step: &Option<Step>, s: S) -> Result<S::Ok, S::Error> {
    match step {
        Some(step) => s.serialize_str(step.as_str()),
        None => s.serialize_none(),
    }
}

/// `notFound` of the trace.
#[derive(Clone, Debug, Serialize)]
pub struct NotFound {
    /// `404`, or `"UNIMPLEMENTED"` for gRPC; `500` for a delegating rule without a valid child.
    pub status: serde_json::Value,
    /// `no-listener`, `conflicted-listeners`, `no-route`, `invalid-delegation`.
    pub reason: &'static str,
    /// The nearest miss, if any.
    pub nearest: Option<String>,
    /// In words.
    pub message: String,
}

/// One losing candidate.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CandidateView {
    /// The path id.
    pub path_id: String,
    /// Whether its rule matched (and lost on precedence).
    pub matched: bool,
    /// The precedence step, or the first failing condition.
    pub lost_because: &'static str,
    /// Failing conditions of its nearest match (non-matching candidates only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failing: Option<usize>,
    /// In words.
    pub message: String,
}

/// One rule of a kind's effective policy, with its verdict.
#[derive(Clone, Debug, Serialize)]
pub struct RuleView {
    /// The rule's value.
    pub value: crate::yaml::Node,
    /// Locator of the policy that gave it.
    pub source: String,
    /// The family's verdict (`applies`, `why`, `predicates`, `counter`).
    #[serde(flatten)]
    pub verdict: RuleVerdict,
}

/// One policy kind's effective policy on the matched path.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct KindView {
    /// The kind.
    pub policy_kind: &'static str,
    /// Sorted unique sources.
    pub sources: Vec<String>,
    /// Rule key → rule.
    pub rules: BTreeMap<String, RuleView>,
}

/// The `RequestTrace` document.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RequestTrace {
    /// `dopol/v1`.
    pub api_version: &'static str,
    /// `RequestTrace`.
    pub kind: &'static str,
    /// The request as dopol understood it.
    pub request: Request,
    /// The listener that serves it.
    pub listener: Option<ListenerView>,
    /// The matched rule.
    #[serde(rename = "match")]
    pub matched: Option<MatchView>,
    /// Why nothing matched.
    pub not_found: Option<NotFound>,
    /// The backendRefs of the matched rule, as far as dopol resolves them (empty on 404).
    pub backends: Vec<backends::BackendView>,
    /// The 500 that unresolvable backends cause, if any.
    pub backend_failure: Option<backends::BackendFailure>,
    /// Every other path through the chosen listener.
    pub candidates: Vec<CandidateView>,
    /// The effective policies of the matched path, with verdicts.
    pub policies: Vec<KindView>,
    /// Warnings about this answer.
    pub notes: Vec<String>,
}

impl RequestTrace {
    /// The trace of `request` before any answer: the request and the notes on it.
    fn of(request: &Request) -> RequestTrace {
        let mut notes = request.notes.clone();
        if request.scheme == input::Scheme::Https {
            notes.push(
                "TLS is not modelled: certificates, SNI and 421 Misdirected Request play no part here"
                    .into(),
            );
        }
        RequestTrace {
            api_version: crate::report::API_VERSION,
            kind: "RequestTrace",
            request: request.clone(),
            listener: None,
            matched: None,
            not_found: None,
            backends: Vec::new(),
            backend_failure: None,
            candidates: Vec::new(),
            policies: Vec::new(),
            notes,
        }
    }
}

/// The answer when no rule of the chosen listener matches: a 500 when a delegating rule
/// matches with no valid child, else a 404 naming the nearest miss (and the routes listener
/// isolation keeps out).
fn no_match(
    engine: &Engine<'_>,
    routed: &routing::Routed,
    chosen: &Chosen,
    request: &Request,
    trace: &mut RequestTrace,
) {
    if !routed.childless.is_empty() {
        trace.not_found = Some(NotFound {
            status: serde_json::json!(500),
            reason: "invalid-delegation",
            nearest: None,
            message: routed.childless.join("; "),
        });
        return;
    }
    let nearest = routed.candidates.first();
    let message = match nearest {
        Some(c) => format!(
            "no rule through listener {} matches; the nearest miss is {} ({})",
            trace.listener.as_ref().map_or("", |l| l.listener.as_str()),
            engine.topology.path_id(c.path),
            failure_text(c)
        ),
        None => "no route is attached to the listener".into(),
    };
    let nearest = nearest.map(|c| engine.topology.path_id(c.path).to_string());
    trace.not_found = Some(not_found(request, "no-route", nearest, message));
    trace.notes.extend(isolated_routes(engine, chosen, request));
}

/// How much of the trace [`simulate`] writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detail {
    /// Everything `dopol request` prints.
    Full,
    /// The answer without the ranking (`dopol test`): listener, match, not-found, backends and
    /// policies as `Full` gives them, but no losing candidates, and notes only on the routes
    /// that could match. On a busy listener the candidates are most of the cost: every route's
    /// matches read, every loser's path id and message written.
    Answer,
}

/// Routes the request through the chosen listener: with [`Detail::Answer`], first among the
/// routes whose hostnames apply, and through every path only when none of them matched (so
/// that the not-found answer, its nearest miss and the childless delegations are `Full`'s).
fn route(engine: &Engine<'_>, chosen: &Chosen, request: &Request, detail: Detail) -> Routed {
    let (model, topology) = (engine.model, engine.topology);
    let at = (chosen.gateway, chosen.listener);
    if detail == Detail::Answer {
        let routed = routing::route(model, topology, at, request, routing::Ranked::HostMatches);
        if routed.winner().is_some() {
            return routed;
        }
    }
    routing::route(model, topology, at, request, routing::Ranked::Every)
}

/// Simulates `request`. `Err` is a usage error (an unknown or ambiguous Gateway).
pub fn simulate(
    engine: &Engine<'_>,
    request: &Request,
    gateway: Option<&str>,
    show_kind: impl Fn(usize) -> bool,
    detail: Detail,
) -> Result<(RequestTrace, Vec<Diagnostic>), String> {
    let mut trace = RequestTrace::of(request);
    let choice = listener::choose(engine.model, request, gateway)?;
    let chosen = match choice {
        ListenerChoice::Chosen(chosen) => chosen,
        ListenerChoice::NoListener(message) => {
            trace.not_found = Some(not_found(request, "no-listener", None, message));
            return Ok((trace, Vec::new()));
        }
        ListenerChoice::Conflicted(message) => {
            trace.not_found = Some(not_found(request, "conflicted-listeners", None, message));
            return Ok((trace, Vec::new()));
        }
    };
    trace.listener = Some(listener_view(engine, &chosen));
    if chosen.reason == ListenerReason::Assumed {
        trace.notes.push(
            "the Gateway is a --assume-gateways stand-in: its listener receives every request"
                .into(),
        );
    }
    let routed = route(engine, &chosen, request, detail);
    trace.notes.extend(routed.notes.iter().cloned());
    if detail == Detail::Full {
        trace.candidates = candidate_views(engine, &routed);
    }
    let diagnostics = match routed.winner() {
        Some(winner) => {
            trace.matched = Some(match_view(engine, &routed, &mut trace.notes));
            let path = winner.path;
            let p = engine.topology.paths[path];
            let route = &engine.model.routes[p.route as usize];
            (trace.backends, trace.backend_failure) = backends::check(engine.model, route, p.rule);
            policies(engine, path, request, &show_kind, &mut trace)
        }
        None => {
            no_match(engine, &routed, &chosen, request, &mut trace);
            Vec::new()
        }
    };
    Ok((trace, diagnostics))
}

/// Notes on the routes that name the request's host but are attached only to less specific
/// listeners of the chosen Gateway: listener isolation keeps them out (lint DPL4014).
fn isolated_routes(engine: &Engine<'_>, chosen: &Chosen, request: &Request) -> Vec<String> {
    let model = engine.model;
    let gateway = &model.gateways[chosen.gateway as usize];
    let serving = &gateway.listeners[chosen.listener as usize].name;
    let mut notes = Vec::new();
    for (r, route) in model.routes.iter().enumerate() {
        let attached = &engine.topology.route_listeners[r];
        if attached.contains(&(chosen.gateway, chosen.listener))
            || !route.hostnames.iter().any(|h| request.host_matches(h))
        {
            continue;
        }
        let elsewhere: Vec<&str> = attached
            .iter()
            .filter(|&&(g, _)| g == chosen.gateway)
            .map(|&(_, l)| &gateway.listeners[l as usize])
            .filter(|l| {
                l.port == i64::from(request.port) && l.protocol == request.scheme.protocol()
            })
            .map(|l| l.name.as_str())
            .collect();
        if !elsewhere.is_empty() {
            notes.push(format!(
                "{} lists host {} but is attached to `{}`, not to `{serving}`, the more specific listener that serves it (listener isolation; lint DPL4014)",
                route.display(),
                request.host,
                elsewhere.join("`, `")
            ));
        }
    }
    notes
}

fn not_found(
    request: &Request,
    reason: &'static str,
    nearest: Option<String>,
    message: String,
) -> NotFound {
    NotFound {
        status: if request.grpc.is_some() {
            serde_json::json!("UNIMPLEMENTED")
        } else {
            serde_json::json!(404)
        },
        reason,
        nearest,
        message,
    }
}

fn listener_view(engine: &Engine<'_>, chosen: &Chosen) -> ListenerView {
    let gateway = &engine.model.gateways[chosen.gateway as usize];
    let listener = &gateway.listeners[chosen.listener as usize];
    ListenerView {
        gateway: format!("{}/{}", gateway.namespace, gateway.name),
        listener: gateway.listener_key(listener),
        hostname: listener.hostname.clone(),
        reason: chosen.reason,
        message: chosen.message.clone(),
    }
}

fn failure_text(c: &routing::Candidate) -> String {
    c.failures
        .iter()
        .map(|f| f.message.as_str())
        .collect::<Vec<_>>()
        .join("; ")
}

/// `ns/route#rule` of a path.
fn rule_name(engine: &Engine<'_>, path: usize) -> (String, String) {
    let p = engine.topology.paths[path];
    let route = &engine.model.routes[p.route as usize];
    let name = format!("{}/{}", route.namespace, route.name);
    let rule = format!("{name}#{}", route.rules[p.rule as usize].name);
    (name, rule)
}

/// What the families' data planes do differently in `caveat`, each after `; `, once.
fn caveats(engine: &Engine<'_>, caveat: RoutingCaveat) -> String {
    let mut texts: Vec<&str> = (engine.model.registry.families())
        .filter_map(|family| family.routing_caveat(caveat))
        .collect();
    texts.sort_unstable();
    texts.dedup();
    texts.iter().map(|text| format!("; {text}")).collect()
}

fn match_view(engine: &Engine<'_>, routed: &Routed, notes: &mut Vec<String>) -> MatchView {
    let winner = routed.winner().expect("called with a winner");
    let runner_up = routed.candidates.get(1).filter(|c| c.matched());
    let decided_by = runner_up.and_then(|c| routed.lost_because(c));
    let (route, rule) = rule_name(engine, winner.path);
    let by_name: Vec<String> = routed.candidates[1..]
        .iter()
        .filter(|c| c.matched() && routed.lost_because(c) == Some(Step::RouteName))
        .map(|c| rule_name(engine, c.path).0)
        .collect();
    if !by_name.is_empty() {
        notes.push(format!(
            "{route} beat {} on names only (same or no creationTimestamp): offline manifests usually lack timestamps, so the cluster may order them otherwise",
            by_name.join(", ")
        ));
    }
    let fell_back = routed.candidates.iter().any(|c| {
        !c.matched()
            && c.host_rank > winner.host_rank
            && c.failures.iter().all(|f| f.code != "hostname")
    });
    if fell_back {
        let caveats = caveats(engine, RoutingCaveat::HostFallback);
        notes.push(format!(
            "a route with a more specific hostname applies to this host but has no matching rule, so {route} serves it{caveats}"
        ));
    }
    if winner.regex_path {
        notes.push(
            "a RegularExpression path match decided: regular expressions are implementation-specific (dopol uses Rust `regex` syntax, whole-path)"
                .into(),
        );
    }
    MatchView {
        path_id: engine.topology.path_id(winner.path).to_string(),
        route,
        rule,
        match_index: winner.match_index,
        decided_by,
    }
}

fn candidate_views(engine: &Engine<'_>, routed: &Routed) -> Vec<CandidateView> {
    let skip = usize::from(routed.winner().is_some());
    // With its delegation chain: one child rule reached through two parents is two candidates,
    // and the message must not say that a rule beat itself.
    let winner = routed
        .winner()
        .map(|w| {
            let path = &engine.topology.paths[w.path];
            engine.topology.rule_label(engine.model, path)
        })
        .unwrap_or_default();
    routed.candidates[skip..]
        .iter()
        .map(|c| {
            let path_id = engine.topology.path_id(c.path).to_string();
            if c.matched() {
                let step = routed.lost_because(c).unwrap_or(Step::RuleOrder);
                CandidateView {
                    path_id,
                    matched: true,
                    lost_because: step.as_str(),
                    failing: None,
                    message: format!("matched, but {winner} wins at step {}", step.as_str()),
                }
            } else {
                CandidateView {
                    path_id,
                    matched: false,
                    lost_because: c.failures[0].code,
                    failing: Some(c.failures.len()),
                    message: failure_text(c),
                }
            }
        })
        .collect()
}

/// Folds the matched path's effective policy of every kind and asks each family for the
/// verdicts of its shown kinds (a family may read another kind's rules: a RateLimitPolicy reads
/// what the AuthPolicy exports, `--kind RateLimitPolicy` or not); returns the constraint
/// warnings of the shown kinds' folds.
fn policies(
    engine: &Engine<'_>,
    path: usize,
    request: &Request,
    show_kind: &impl Fn(usize) -> bool,
    trace: &mut RequestTrace,
) -> Vec<Diagnostic> {
    let model = engine.model;
    let topology_path = engine.topology.paths[path];
    let mut diagnostics = Vec::new();
    let mut kinds: Vec<KindRules<'_>> = Vec::new();
    let mut sources: Vec<Vec<&str>> = Vec::new();
    let mut folds = Vec::new();
    let mut shown = Vec::new();
    for (k, kind) in model.registry.kinds().enumerate() {
        let levels = engine.levels(&topology_path, k);
        if levels.iter().all(|(_, p)| p.is_empty()) {
            continue;
        }
        let (_, folded) = engine.fold_levels(path as u32, k, &levels, &mut NoObserver);
        if show_kind(k) {
            for failure in &folded.failures {
                diagnostics.push(engine.fold_warning(path as u32, k, failure));
            }
        }
        if !folded.effective.is_empty() {
            folds.push((kind, folded));
            shown.push(show_kind(k));
        }
    }
    for (kind, folded) in &folds {
        let kind = *kind;
        let found = effective::rules_of(model, &folded.effective);
        sources.push(effective::sources_of(&found));
        let rules = found
            .iter()
            .map(|r| EffectiveRule {
                key: r.key,
                value: r.value,
                source: &model.policies[r.policy as usize],
            })
            .collect();
        kinds.push(KindRules { kind, rules });
    }
    let attributes = request.attribute_roots();
    let (route, _) = rule_name(engine, path);
    let context = RequestContext {
        attributes: &attributes,
        route: &route,
    };
    let shown_kinds = kinds.iter().zip(sources).zip(shown);
    for ((kind_rules, sources), _) in shown_kinds.filter(|(_, shown)| *shown) {
        let family = model.registry.family_of(kind_rules.kind);
        let verdicts = family.request_verdicts(kind_rules, &kinds, &context);
        trace.notes.extend(verdicts.notes);
        trace
            .policies
            .push(kind_view(kind_rules, sources, verdicts.rules));
    }
    trace.policies.sort_by_key(|k| k.policy_kind);
    diagnostics
}

fn kind_view(rules: &KindRules<'_>, sources: Vec<&str>, verdicts: Vec<RuleVerdict>) -> KindView {
    KindView {
        policy_kind: rules.kind.kind,
        sources: sources.into_iter().map(str::to_string).collect(),
        rules: rules
            .rules
            .iter()
            .zip(
                verdicts
                    .into_iter()
                    .chain(std::iter::repeat_with(RuleVerdict::unconditional)),
            )
            .map(|(rule, verdict)| {
                (
                    rule.key.to_string(),
                    RuleView {
                        value: rule.value.clone(),
                        source: rule.source.locator.clone(),
                        verdict,
                    },
                )
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::{InputOptions, evaluate_files};
    use serde_json::Value;
    use std::path::Path;

    /// A YAML file as JSON.
    fn yaml_file(path: &Path) -> Value {
        let text = std::fs::read_to_string(path).unwrap();
        let mut diagnostics = Vec::new();
        let source = crate::source::SourceId(0);
        let documents = crate::yaml::parse_chunk(source, &text, 0..text.len(), &mut diagnostics);
        assert!(diagnostics.is_empty(), "{path:?}");
        documents[0].root.to_json()
    }

    /// The request of one conformance case, as `dopol request` reads it.
    fn request_of(case: &Value) -> Request {
        let text = |key: &str| case[key].as_str().map(str::to_string);
        let headers = (case["headers"].as_object().into_iter().flatten())
            .map(|(name, value)| format!("{name}: {}", value.as_str().unwrap()))
            .collect();
        let args = input::RequestArgs {
            method_url: match case["grpc"].is_null() {
                true => Some((text("method").unwrap_or("GET".into()), text("url").unwrap())),
                false => None,
            },
            grpc: text("grpc"),
            authority: text("authority"),
            tls: false,
            headers,
            attributes: Vec::new(),
        };
        input::parse(&args).unwrap()
    }

    /// `Detail::Answer` (what `dopol test` asks) answers every Gateway API conformance request
    /// exactly as `Detail::Full` does — listener, match and its deciding step, not-found and its
    /// nearest miss, backends, policies, notes — and lists no losing candidates.
    #[test]
    fn the_answer_alone_is_the_full_trace_without_its_losers() {
        let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/request/conformance");
        let mut dirs: Vec<_> = (std::fs::read_dir(&base).unwrap())
            .map(|e| e.unwrap().path())
            .filter(|p| p.join("expect.yaml").exists())
            .collect();
        dirs.sort();
        let (mut answered, mut with_losers) = (0, 0);
        for dir in dirs {
            let files = ["manifests.yaml", "base.yaml"].map(|f| dir.join(f));
            let options = InputOptions {
                files: (files.iter().filter(|f| f.exists()))
                    .map(|f| f.to_string_lossy().into_owned())
                    .collect(),
                ..InputOptions::default()
            };
            let evaluated = evaluate_files(&options);
            let (engine, _) = Engine::new(&evaluated.model, &evaluated.topology);
            let expect = yaml_file(&dir.join("expect.yaml"));
            let gateway = expect["gateway"].as_str();
            for case in expect["cases"].as_array().unwrap() {
                let request = request_of(&case["request"]);
                let run = |detail| {
                    let (trace, _) =
                        simulate(&engine, &request, gateway, |_| true, detail).unwrap();
                    serde_json::to_value(&trace).unwrap()
                };
                let (mut full, answer) = (run(Detail::Full), run(Detail::Answer));
                assert_eq!(answer["candidates"], Value::Array(Vec::new()));
                with_losers += usize::from(full["candidates"] != answer["candidates"]);
                full["candidates"] = Value::Array(Vec::new());
                assert_eq!(full, answer, "{}: {}", dir.display(), case["request"]);
                answered += 1;
            }
        }
        assert_eq!(answered, 175, "conformance requests");
        assert!(
            with_losers > 100,
            "only {with_losers} requests had losers to leave out"
        );
    }
}
