//! Resolving a suite against the input: selectors to paths, kinds to the registry's, policy
//! names to locators, requests to the simulator's. Every name that matches nothing is a
//! located error with the nearest name (`SuiteProblem::NoMatch`): a case that selects nothing
//! or names a rule no policy has would otherwise pass without checking anything.

use super::diags::SuiteProblem;
use super::index::PathIndex;
use super::{Case, CaseBody, KindExpect, OutcomeExpect, RuleExpect, Selector, Suite, Text};
use crate::diag::{Code, Diagnostic};
use crate::engine::Engine;
use crate::model::Model;
use crate::policy::PolicyKind;
use crate::policy::gate::Capability;
use crate::report::filter;
use crate::report::path_fields::PathParts;
use crate::report::request::input::{self, Request};

/// A case ready to run.
pub struct Resolved<'s> {
    /// Its suite.
    pub suite: &'s Suite,
    /// The case.
    pub case: &'s Case,
    /// What it runs on.
    pub target: Target,
    /// Its kind expectations, kinds resolved.
    pub kinds: Vec<ResolvedKind<'s>>,
    /// Its family-neutral checks.
    pub checks: Vec<(Capability, bool)>,
}

/// What a resolved case runs on.
pub enum Target {
    /// Indices into `Topology::paths`, in order.
    Paths(Vec<u32>),
    /// A request, and the Gateway named for it.
    Request(Box<Request>, Option<String>),
}

/// A kind expectation with its kind and policy names resolved.
pub struct ResolvedKind<'s> {
    /// The kind.
    pub kind: &'static PolicyKind,
    /// As written.
    pub expect: &'s KindExpect,
    /// Per rule expectation, in order.
    pub rules: Vec<ResolvedRule<'s>>,
    /// Its outcome expectations, in order.
    pub outcomes: Vec<ResolvedOutcome<'s>>,
}

/// A rule expectation with the locators its `source` may be, and those of its `origins`.
pub type ResolvedRule<'s> = (&'s RuleExpect, Option<Vec<String>>, Option<Vec<String>>);

/// Collects resolution errors.
struct Errors(Vec<Diagnostic>);

impl Errors {
    fn no_match(
        &mut self,
        code: Code,
        what: String,
        at: &Text,
        candidates: Vec<String>,
        label: &str,
    ) {
        let problem = SuiteProblem::NoMatch {
            code,
            what,
            name: &at.text,
            candidates,
        };
        self.0
            .push(Diagnostic::from(problem).with_label(at.span, label));
    }
}

/// Resolves every case of `suites` against `engine`'s input (those `run` keeps). `Err`: every
/// problem found.
pub fn resolve<'s>(
    suites: &[&'s Suite],
    engine: &Engine<'_>,
    run: impl Fn(&Case) -> bool,
) -> Result<Vec<Resolved<'s>>, Vec<Diagnostic>> {
    let mut index = PathIndex::new(engine);
    let mut errors = Errors(Vec::new());
    let mut resolved = Vec::new();
    for &suite in suites {
        for case in suite.cases.iter().filter(|c| run(c)) {
            let target = match &case.body {
                CaseBody::Paths { selector, except } => {
                    paths(engine, &mut index, selector, except, &mut errors).map(Target::Paths)
                }
                CaseBody::Request(spec) => request(engine.model, spec, &mut errors),
            };
            let kinds = case
                .expect
                .kinds
                .iter()
                .filter_map(|k| kind(engine.model, k, &mut errors))
                .collect();
            let checks = checks(case, &mut errors);
            if let Some(route) = &case.expect.route {
                known_route(engine.model, route, case.expect.rule.as_ref(), &mut errors);
            }
            if let Some(target) = target {
                resolved.push(Resolved {
                    suite,
                    case,
                    target,
                    kinds,
                    checks,
                });
            }
        }
    }
    if errors.0.is_empty() {
        Ok(resolved)
    } else {
        Err(errors.0)
    }
}

/// The family-neutral checks of a case.
fn checks(case: &Case, errors: &mut Errors) -> Vec<(Capability, bool)> {
    let mut found = Vec::new();
    for (name, present) in &case.expect.checks {
        match Capability::parse(&name.text) {
            Some(capability) => found.push((capability, *present)),
            None => {
                let candidates = expect_keys(case);
                errors.no_match(
                    Code::UNKNOWN_EXPECTATION,
                    "expectation".into(),
                    name,
                    candidates,
                    "no such check",
                );
            }
        }
    }
    found
}

/// The keys `expect` may have besides kinds.
fn expect_keys(case: &Case) -> Vec<String> {
    let mut keys: Vec<String> = Capability::ALL
        .iter()
        .map(|c| c.name().to_string())
        .collect();
    if matches!(case.body, CaseBody::Request(_)) {
        keys.extend(["route".to_string(), "rule".to_string()]);
    }
    keys
}

/// Whether a `[ns/]name` pattern names `namespace/name`.
fn named(pattern: &str, namespace: &str, name: &str) -> bool {
    filter::matches_name(filter::route_pattern(pattern).0, namespace, name)
}

/// The paths a selector names, less `except`'s.
fn paths(
    engine: &Engine<'_>,
    index: &mut PathIndex,
    selector: &Selector,
    except: &[Selector],
    errors: &mut Errors,
) -> Option<Vec<u32>> {
    let selected = selected_within(engine, index, selector, None, errors)?;
    let mut kept = selected.clone();
    for excluded in except {
        let Some(out) = selected_within(engine, index, excluded, Some(&selected), errors) else {
            continue;
        };
        kept.retain(|p| out.binary_search(p).is_err());
    }
    Some(kept)
}

/// Whether the Gateway a selector or request names is in the input; else reported under
/// `code` with the nearest name.
fn known_gateway(model: &Model, gateway: &Text, code: Code, errors: &mut Errors) -> bool {
    let gateways = &model.gateways;
    if gateways
        .iter()
        .any(|g| named(&gateway.text, &g.namespace, &g.name))
    {
        return true;
    }
    let names = gateways
        .iter()
        .map(|g| format!("{}/{}", g.namespace, g.name))
        .collect();
    errors.no_match(code, "Gateway".into(), gateway, names, "no such Gateway");
    false
}

/// The routes a `--route`-like name names; none is reported under `code` with the nearest.
fn known_routes<'m>(
    model: &'m Model,
    route: &Text,
    code: Code,
    errors: &mut Errors,
) -> Vec<&'m crate::model::gateway::Route> {
    let found: Vec<_> = model
        .routes
        .iter()
        .filter(|r| filter::matches_route(&route.text, r))
        .collect();
    if found.is_empty() {
        let names = model
            .routes
            .iter()
            .map(|r| format!("{}/{}", r.namespace, r.name))
            .collect();
        errors.no_match(code, "route".into(), route, names, "no such route");
    }
    found
}

/// The paths (among `within`, if given) a selector names, every part checked against the input.
fn selected_within(
    engine: &Engine<'_>,
    index: &mut PathIndex,
    selector: &Selector,
    within: Option<&[u32]>,
    errors: &mut Errors,
) -> Option<Vec<u32>> {
    let model = engine.model;
    let code = Code::SELECTS_NOTHING;
    let gateway_known =
        (selector.gateway.as_ref()).is_none_or(|g| known_gateway(model, g, code, errors));
    let route_known =
        (selector.route.as_ref()).is_none_or(|r| !known_routes(model, r, code, errors).is_empty());
    if !(gateway_known && route_known) {
        return None;
    }
    let gateway = selector.gateway.as_ref().map(|t| t.text.as_str());
    let route = selector.route.as_ref().map(|t| t.text.as_str());
    let mut by_names = index.through(engine, gateway, route);
    if let Some(within) = within {
        by_names.retain(|p| within.binary_search(p).is_ok());
    }
    known_parts(engine, selector, &by_names, errors)?;
    let chosen: Vec<u32> = by_names
        .into_iter()
        .filter(|&p| {
            let parts = PathParts::of(model, engine.topology, p);
            (selector.listener.as_ref()).is_none_or(|l| l.text == parts.listener)
                && selector.rule.as_ref().is_none_or(|r| r.text == parts.rule)
        })
        .collect();
    if chosen.is_empty() {
        let problem = SuiteProblem::Shape {
            code,
            message: "the selector's parts together match no path".into(),
        };
        errors.0.push(
            Diagnostic::from(problem)
                .with_label(selector.span, "no path has all of these")
                .with_help("`dopol topology` shows which listeners accept which routes"),
        );
        return None;
    }
    Some(chosen)
}

/// The listener and rule a selector names are on some of the paths its Gateway and route
/// select (`None` after reporting one that is not).
fn known_parts(
    engine: &Engine<'_>,
    selector: &Selector,
    paths: &[u32],
    errors: &mut Errors,
) -> Option<()> {
    let parts = |p: u32| PathParts::of(engine.model, engine.topology, p);
    let listener: for<'a> fn(&PathParts<'a>) -> &'a str = |p| p.listener;
    let rule: for<'a> fn(&PathParts<'a>) -> &'a str = |p| p.rule;
    for (part, text, of) in [
        ("listener", &selector.listener, listener),
        ("rule", &selector.rule, rule),
    ] {
        let Some(text) = text else { continue };
        if paths.iter().any(|&p| of(&parts(p)) == text.text) {
            continue;
        }
        let mut names: Vec<String> = paths.iter().map(|&p| of(&parts(p)).to_string()).collect();
        names.sort();
        names.dedup();
        let label = format!("no such {part} on the paths selected");
        errors.no_match(Code::SELECTS_NOTHING, part.into(), text, names, &label);
        return None;
    }
    Some(())
}

/// A request case's request, parsed as `dopol request` parses it.
fn request(model: &Model, spec: &super::RequestSpec, errors: &mut Errors) -> Option<Target> {
    let args = input::RequestArgs {
        method_url: Some((spec.method.text.clone(), spec.url.text.clone())),
        grpc: None,
        authority: None,
        tls: false,
        headers: spec.headers.clone(),
        attributes: spec.attributes.clone(),
    };
    if let Some(gateway) = &spec.gateway
        && !known_gateway(model, gateway, Code::INVALID_SUITE_REQUEST, errors)
    {
        return None;
    }
    match input::parse(&args) {
        Ok(request) => Some(Target::Request(
            Box::new(request),
            spec.gateway.as_ref().map(|g| g.text.clone()),
        )),
        Err(message) => {
            let problem = SuiteProblem::Shape {
                code: Code::INVALID_SUITE_REQUEST,
                message: format!("the request is not valid: {message}"),
            };
            errors.0.push(
                Diagnostic::from(problem).with_label(spec.span, "as `dopol request` reads it"),
            );
            None
        }
    }
}

/// An expected route (and rule) that the input has.
fn known_route(model: &Model, route: &Text, rule: Option<&Text>, errors: &mut Errors) {
    let found = known_routes(model, route, Code::INVALID_SUITE_REQUEST, errors);
    if let Some(rule) = rule
        && !found.is_empty()
        && !found
            .iter()
            .any(|r| r.rules.iter().any(|x| x.name == rule.text))
    {
        let names = found
            .iter()
            .flat_map(|r| r.rules.iter().map(|x| x.name.to_string()))
            .collect();
        errors.no_match(
            Code::INVALID_SUITE_REQUEST,
            "rule".into(),
            rule,
            names,
            "no such rule on the route",
        );
    }
}

/// A kind expectation resolved: the kind, its rule keys and policy names.
fn kind<'s>(
    model: &Model,
    expect: &'s KindExpect,
    errors: &mut Errors,
) -> Option<ResolvedKind<'s>> {
    let Some(kind) = model.registry.find_by_name(&expect.kind.text) else {
        let mut names: Vec<String> = model.registry.kinds().map(|k| k.kind.to_string()).collect();
        names.extend(Capability::ALL.iter().map(|c| c.name().to_string()));
        errors.no_match(
            Code::UNKNOWN_EXPECTATION,
            "policy kind".into(),
            &expect.kind,
            names,
            "no such kind",
        );
        return None;
    };
    let keys = rule_keys(model, kind);
    let rules = expect
        .rules
        .iter()
        .map(|rule| {
            if keys.binary_search(&rule.key.text.as_str()).is_err() {
                let names = keys.iter().map(|k| k.to_string()).collect();
                errors.no_match(
                    Code::UNKNOWN_RULE_KEY,
                    format!("{} rule key", kind.kind),
                    &rule.key,
                    names,
                    "no policy of the kind has it",
                );
            }
            let source = rule
                .source
                .as_ref()
                .and_then(|s| locators(model, kind, s, errors));
            let origins = rule.origins.as_ref().map(|o| {
                o.iter()
                    .filter_map(|s| {
                        locators(model, kind, s, errors).and_then(|l| l.into_iter().next())
                    })
                    .collect()
            });
            (rule, source, origins)
        })
        .collect();
    let outcomes = (expect.outcomes.iter())
        .filter_map(|o| outcome(model, kind, o, errors))
        .collect();
    Some(ResolvedKind {
        kind,
        expect,
        rules,
        outcomes,
    })
}

/// The rule keys the policies of `kind` declare, sorted.
fn rule_keys<'m>(model: &'m Model, kind: &PolicyKind) -> Vec<&'m str> {
    keys_of((model.policies.iter()).filter(|p| std::ptr::eq(p.kind, kind)))
}

/// The rule keys some policies declare, sorted.
fn keys_of<'m>(policies: impl Iterator<Item = &'m crate::policy::Policy>) -> Vec<&'m str> {
    let mut keys: Vec<&str> = policies
        .flat_map(|p| p.blocks.iter())
        .flat_map(|b| b.rules.iter())
        .map(|r| r.key.as_str())
        .collect();
    keys.sort_unstable();
    keys.dedup();
    keys
}

/// The policies of `kind` a reference names (as `--policy` reads it); none is reported with
/// the nearest name.
fn policies(
    model: &Model,
    kind: &PolicyKind,
    reference: &Text,
    errors: &mut Errors,
) -> Option<Vec<u32>> {
    let found: Vec<u32> = (filter::resolve_policy_ref(model, &reference.text).unwrap_or_default())
        .into_iter()
        .filter(|&p| std::ptr::eq(model.policies[p as usize].kind, kind))
        .collect();
    if found.is_empty() {
        let names = (model.policies.iter())
            .filter(|p| std::ptr::eq(p.kind, kind))
            .map(|p| p.namespaced_name())
            .collect();
        let what = format!("{} policy", kind.kind);
        errors.no_match(
            Code::UNKNOWN_SUITE_POLICY,
            what,
            reference,
            names,
            "no such policy",
        );
        return None;
    }
    Some(found)
}

/// The locators of the policies of `kind` a reference names.
fn locators(
    model: &Model,
    kind: &PolicyKind,
    reference: &Text,
    errors: &mut Errors,
) -> Option<Vec<String>> {
    let found = policies(model, kind, reference, errors)?;
    Some(
        found
            .into_iter()
            .map(|p| model.policies[p as usize].locator.clone())
            .collect(),
    )
}

/// The outcome words of a rule on a path, as `dopol overridden` and `status` write them.
pub const RULE_OUTCOMES: &[&str] = &[
    "effective",
    "superseded",
    "overridden",
    "deactivated",
    "merged",
    "not-applied",
];

/// What an outcome expectation asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expected {
    /// This outcome word for the rule on every selected path.
    Rule(&'static str),
    /// The policy is `conflicted` (Envoy Gateway's status: another policy holds its target).
    Conflicted,
}

/// An outcome expectation resolved.
pub struct ResolvedOutcome<'s> {
    /// As written.
    pub expect: &'s OutcomeExpect,
    /// The policies it names.
    pub policies: Vec<u32>,
    /// What it asks.
    pub expected: Expected,
}

/// Whether `policies` declare rule `rule` (`None` after reporting that they do not).
fn policy_rule(
    model: &Model,
    policies: &[u32],
    policy: &Text,
    rule: &Text,
    errors: &mut Errors,
) -> Option<()> {
    let keys = keys_of(policies.iter().map(|&p| &model.policies[p as usize]));
    if keys.contains(&rule.text.as_str()) {
        return Some(());
    }
    let names = keys.iter().map(|k| k.to_string()).collect();
    let what = format!("rule key of {}", policy.text);
    errors.no_match(
        Code::UNKNOWN_RULE_KEY,
        what,
        rule,
        names,
        "the policy has no such rule",
    );
    None
}

/// An outcome expectation resolved: its policy, word and rule key checked.
fn outcome<'s>(
    model: &Model,
    kind: &PolicyKind,
    expect: &'s OutcomeExpect,
    errors: &mut Errors,
) -> Option<ResolvedOutcome<'s>> {
    let policies = policies(model, kind, &expect.policy, errors)?;
    let word = expect.outcome.text.as_str();
    let expected = match RULE_OUTCOMES.iter().find(|w| **w == word) {
        Some(word) => Expected::Rule(word),
        None if word == "conflicted" => Expected::Conflicted,
        None => {
            let words = RULE_OUTCOMES
                .iter()
                .chain(&["conflicted"])
                .map(|w| w.to_string())
                .collect();
            errors.no_match(
                Code::UNKNOWN_EXPECTATION,
                "outcome".into(),
                &expect.outcome,
                words,
                "no such outcome",
            );
            return None;
        }
    };
    match (expected, &expect.rule) {
        (Expected::Rule(_), Some(rule)) => {
            policy_rule(model, &policies, &expect.policy, rule, errors)?
        }
        (Expected::Rule(_), None) => {
            let problem = SuiteProblem::Shape {
                code: Code::INVALID_SUITE,
                message: format!("outcome `{word}` is a rule's: name the `rule`"),
            };
            let label = "of which rule?";
            errors
                .0
                .push(Diagnostic::from(problem).with_label(expect.outcome.span, label));
            return None;
        }
        (Expected::Conflicted, _) => {}
    }
    Some(ResolvedOutcome {
        expect,
        policies,
        expected,
    })
}
