//! Running resolved cases: each expectation compared with what `dopol effective` (a paths
//! case) or `dopol request` (a request case) would show, path by path, stopping at the first
//! difference, which the result names with the path id, the expected and the actual value.

use super::select::{Expected, Resolved, ResolvedKind, Target};
use crate::engine::observed::Observed;
use crate::engine::{EffectiveSet, Engine};
use crate::model::Model;
use crate::policy::gate::{Capability, Provides};
use crate::policy::request::Truth;
use crate::yaml::Node;
use serde::Serialize;

/// How a case ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// Every expectation held on every path.
    Passed,
    /// One did not.
    Failed,
}

/// The first difference of a failed case.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Difference {
    /// The path it was found on (a request case: the path the request reached, if any).
    pub path_id: String,
    /// What differs (`RateLimitPolicy rule \`global\`: source`).
    pub subject: String,
    /// What the case expects.
    pub expected: String,
    /// What the input gives.
    pub actual: String,
}

/// One case's result.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CaseResult {
    /// The suite file.
    pub suite: String,
    /// The case's name.
    pub name: String,
    /// Where the case's name is written (1-based).
    pub line: u32,
    /// Its column.
    pub column: u32,
    /// Passed or failed.
    pub outcome: Outcome,
    /// How many paths it checked.
    pub paths: usize,
    /// The first difference, when it failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub difference: Option<Difference>,
}

/// One effective rule as a case compares it.
struct Actual<'a> {
    key: &'a str,
    value: &'a Node,
    source: &'a str,
    origins: Vec<&'a str>,
    applies: Option<Truth>,
}

/// What went wrong, before the path id is known.
type Miss = (String, String, String);

/// Runs one resolved case.
/// `observed`: the rules' outcomes, when some case expects one (`outcomes`).
pub fn run(
    engine: &Engine<'_>,
    set: &EffectiveSet<'_>,
    observed: Option<&Observed<'_, '_>>,
    case: &Resolved<'_>,
    sources: &crate::source::SourceMap,
) -> CaseResult {
    let at = sources.start_of(case.case.name.span);
    let (paths, difference) = match &case.target {
        Target::Paths(paths) => (
            paths.len(),
            paths
                .iter()
                .find_map(|&p| on_path(engine, set, observed, case, p)),
        ),
        Target::Request(request, gateway) => {
            (1, on_request(engine, case, request, gateway.as_deref()))
        }
    };
    CaseResult {
        suite: case.suite.file.clone(),
        name: case.case.name.text.clone(),
        line: at.line,
        column: at.column,
        outcome: if difference.is_some() {
            Outcome::Failed
        } else {
            Outcome::Passed
        },
        paths,
        difference,
    }
}

/// The effective rules of kind index `kind` on path `path`.
pub fn path_rules<'s, 'm>(
    set: &'s EffectiveSet<'m>,
    path: u32,
    kind: usize,
) -> Option<&'s crate::engine::fold::Effective<'m>> {
    let entries = &set.entries;
    let start = entries.partition_point(|e| e.path < path);
    entries[start..]
        .iter()
        .take_while(|e| e.path == path)
        .find(|e| set.kind(e) == kind)
        .map(|e| &set.folds[e.fold as usize].effective)
}

/// The first difference of a paths case on one path.
fn on_path(
    engine: &Engine<'_>,
    set: &EffectiveSet<'_>,
    observed: Option<&Observed<'_, '_>>,
    case: &Resolved<'_>,
    path: u32,
) -> Option<Difference> {
    let model = engine.model;
    let outcomes = || {
        let observed = observed?;
        (case.kinds.iter()).find_map(|k| check_outcomes(observed, k, path))
    };
    let miss = case.kinds.iter().find_map(|k| {
        let effective = path_rules(set, path, model.registry.kind_index(k.kind));
        let rules = effective
            .map(|e| crate::report::effective::rules_of(model, e))
            .unwrap_or_default();
        let actual: Vec<Actual<'_>> = rules
            .iter()
            .map(|r| Actual {
                key: r.key,
                value: r.value,
                source: r.source,
                origins: r.origins.clone(),
                applies: None,
            })
            .collect();
        check_kind(model, k, &actual)
    });
    let miss = miss.or_else(outcomes).or_else(|| {
        // Every kind's rules, read only for a case with capability checks.
        if case.checks.is_empty() {
            return None;
        }
        let kinds: Vec<(&'static crate::policy::PolicyKind, Vec<(&str, &Node)>)> =
            (0..model.registry.kind_count())
                .filter_map(|k| {
                    let effective = path_rules(set, path, k)?;
                    Some((
                        model.registry.kind(k),
                        effective
                            .iter()
                            .map(|(key, r)| (*key, r.value(model)))
                            .collect(),
                    ))
                })
                .collect();
        check_capabilities(model, &case.checks, &kinds)
    });
    miss.map(|(subject, expected, actual)| Difference {
        path_id: engine.topology.path_id(path as usize).to_string(),
        subject,
        expected,
        actual,
    })
}

/// The first difference of a request case.
fn on_request(
    engine: &Engine<'_>,
    case: &Resolved<'_>,
    request: &crate::report::request::input::Request,
    gateway: Option<&str>,
) -> Option<Difference> {
    let model = engine.model;
    let trace = match crate::report::request::simulate(
        engine,
        request,
        gateway,
        |_| true,
        crate::report::request::Detail::Answer,
    ) {
        Ok((trace, _)) => trace,
        Err(message) => {
            return Some(difference(
                "",
                "request".into(),
                "a Gateway to receive it".into(),
                message,
            ));
        }
    };
    let Some(matched) = &trace.matched else {
        let why = trace
            .not_found
            .as_ref()
            .map_or_else(|| "no route".to_string(), |n| n.message.clone());
        return Some(difference(
            "",
            "route".into(),
            expected_route(case),
            format!("none: {why}"),
        ));
    };
    let miss = routed(case, matched).or_else(|| request_policies(model, case, &trace));
    miss.map(|(subject, expected, actual)| difference(&matched.path_id, subject, expected, actual))
}

/// Whether a request landed on the route and rule its case expects.
fn routed(case: &Resolved<'_>, matched: &crate::report::request::MatchView) -> Option<Miss> {
    let rule = (matched.rule.rsplit_once('#')).map_or(matched.rule.as_str(), |(_, r)| r);
    let (namespace, name) = matched
        .route
        .split_once('/')
        .unwrap_or(("", &matched.route));
    let wanted = &case.case.expect;
    if let Some(route) = &wanted.route
        && !crate::report::filter::matches_name(&route.text, namespace, name)
    {
        return Some(("route".into(), route.text.clone(), matched.route.clone()));
    }
    match &wanted.rule {
        Some(expected) if expected.text != rule => {
            Some(("rule".into(), expected.text.clone(), rule.to_string()))
        }
        _ => None,
    }
}

/// The first expectation on the policies of a request's path that they do not meet.
fn request_policies(
    model: &Model,
    case: &Resolved<'_>,
    trace: &crate::report::request::RequestTrace,
) -> Option<Miss> {
    let miss = case.kinds.iter().find_map(|k| {
        let view = trace.policies.iter().find(|v| v.policy_kind == k.kind.kind);
        let actual: Vec<Actual<'_>> = (view.iter().flat_map(|v| &v.rules))
            .map(|(key, r)| Actual {
                key,
                value: &r.value,
                source: &r.source,
                origins: vec![r.source.as_str()],
                applies: Some(r.verdict.applies),
            })
            .collect();
        check_kind(model, k, &actual)
    });
    miss.or_else(|| {
        let kinds: Vec<_> = (trace.policies.iter())
            .filter_map(|v| {
                let rules = v
                    .rules
                    .iter()
                    .map(|(k, r)| (k.as_str(), &r.value))
                    .collect();
                Some((model.registry.find_by_name(v.policy_kind)?, rules))
            })
            .collect();
        check_capabilities(model, &case.checks, &kinds)
    })
}

fn difference(path_id: &str, subject: String, expected: String, actual: String) -> Difference {
    Difference {
        path_id: path_id.to_string(),
        subject,
        expected,
        actual,
    }
}

/// The route (and rule) a request case expects, in words.
fn expected_route(case: &Resolved<'_>) -> String {
    let expect = &case.case.expect;
    match (&expect.route, &expect.rule) {
        (Some(route), Some(rule)) => format!("{}#{}", route.text, rule.text),
        (Some(route), None) => route.text.clone(),
        _ => "a route".into(),
    }
}

/// The first expectation of one kind that `actual` does not meet.
fn check_kind(model: &Model, expect: &ResolvedKind<'_>, actual: &[Actual<'_>]) -> Option<Miss> {
    let kind = expect.kind.kind;
    if let Some(present) = expect.expect.present
        && present == actual.is_empty()
    {
        let has = |yes: bool| {
            if yes {
                format!("an effective {kind}")
            } else {
                format!("no effective {kind}")
            }
        };
        let keys: Vec<&str> = actual.iter().map(|a| a.key).collect();
        let found = if actual.is_empty() {
            has(false)
        } else {
            format!("{} ({})", has(true), keys.join(", "))
        };
        return Some((kind.to_string(), has(present), found));
    }
    expect.rules.iter().find_map(|(rule, source, origins)| {
        let subject = |what: &str| format!("{kind} rule `{}`: {what}", rule.key.text);
        let found = actual.iter().find(|a| a.key == rule.key.text);
        let Some(found) = found else {
            return (!rule.absent).then(|| (subject("present"), "present".into(), "absent".into()));
        };
        if rule.absent {
            return Some((
                subject("absent"),
                "absent".into(),
                format!("present, from {}", found.source),
            ));
        }
        check_rule(model, rule, source.as_deref(), origins.as_deref(), found)
            .map(|(what, e, a)| (subject(&what), e, a))
    })
}

/// The first expectation of one present rule that it does not meet.
fn check_rule(
    model: &Model,
    rule: &super::RuleExpect,
    source: Option<&[String]>,
    origins: Option<&[String]>,
    found: &Actual<'_>,
) -> Option<Miss> {
    if let Some(source) = source
        && !source.iter().any(|s| s == found.source)
    {
        return Some((
            "source".into(),
            source.join(" or "),
            found.source.to_string(),
        ));
    }
    if let Some(value) = &rule.value
        && value.to_json() != found.value.to_json()
    {
        return Some(("value".into(), compact(value), compact(found.value)));
    }
    if let Some(origins) = origins
        && origins
            .iter()
            .map(String::as_str)
            .ne(found.origins.iter().copied())
    {
        return Some((
            "origins".into(),
            origins.join(", "),
            found.origins.join(", "),
        ));
    }
    if let Some(miss) = check_block(model, rule, found) {
        return Some(miss);
    }
    match (rule.applies, found.applies) {
        (Some(expected), Some(truth))
            if truth != if expected { Truth::True } else { Truth::False } =>
        {
            Some((
                "applies".into(),
                expected.to_string(),
                truth_word(truth).into(),
            ))
        }
        _ => None,
    }
}

/// The block and strategy of the source's block that holds the rule, against `block` and
/// `strategy`.
fn check_block(model: &Model, rule: &super::RuleExpect, found: &Actual<'_>) -> Option<Miss> {
    let block = (model.policies.iter())
        .find(|p| p.locator == found.source)
        .and_then(|p| p.blocks.iter().find(|b| b.rule(found.key).is_some()));
    let kind = block.map(|b| b.kind.as_str());
    let strategy = block.map(|b| b.strategy.as_str());
    [
        ("block", &rule.block, kind),
        ("strategy", &rule.strategy, strategy),
    ]
    .into_iter()
    .find_map(|(what, expected, actual)| {
        let expected = expected.as_ref()?;
        (Some(expected.text.as_str()) != actual).then(|| {
            let actual = actual.unwrap_or("(unknown)").to_string();
            (what.into(), expected.text.clone(), actual)
        })
    })
}

fn truth_word(truth: Truth) -> &'static str {
    match truth {
        Truth::True => "true",
        Truth::False => "false",
        Truth::Unknown => "unknown (an attribute the request does not give)",
    }
}

/// A value on one line, as JSON.
fn compact(node: &Node) -> String {
    node.to_json().to_string()
}

/// The first family-neutral check the rules of a path (`(kind, keys)`) do not meet. A family
/// that cannot say makes an unproven "yes" a failure, and a "no" one too: never a pass.
fn check_capabilities(
    model: &Model,
    checks: &[(Capability, bool)],
    kinds: &[(&'static crate::policy::PolicyKind, Vec<(&str, &Node)>)],
) -> Option<Miss> {
    checks.iter().find_map(|&(capability, present)| {
        let mut unknown: Vec<&str> = Vec::new();
        let mut has = false;
        for (kind, keys) in kinds {
            let family = model.registry.family_of(kind);
            for (key, value) in keys {
                match family.provides(kind, key, value, capability) {
                    Provides::Yes => has = true,
                    Provides::No => {}
                    Provides::CannotSay => unknown.push(kind.kind),
                }
            }
        }
        unknown.dedup();
        let word = |yes: bool| {
            if yes {
                format!("has {}", capability.name())
            } else {
                format!("no {}", capability.name())
            }
        };
        if has == present && (has || unknown.is_empty()) {
            return None;
        }
        let actual = if has || unknown.is_empty() {
            word(has)
        } else {
            format!(
                "cannot say: the family of {} cannot tell whether its rules give {}",
                unknown.join(", "),
                capability.name()
            )
        };
        Some((capability.name().to_string(), word(present), actual))
    })
}

/// The first outcome expectation of one kind not met on `path`.
fn check_outcomes(
    observed: &Observed<'_, '_>,
    expect: &ResolvedKind<'_>,
    path: u32,
) -> Option<Miss> {
    expect.outcomes.iter().find_map(|o| {
        let policy = &o.expect.policy.text;
        match (o.expected, &o.expect.rule) {
            (Expected::Conflicted, _) => {
                let conflicted = (o.policies.iter()).any(|&p| conflicted(&observed.conditions(p)));
                let subject = format!("{policy}: outcome");
                (!conflicted).then(|| (subject, "conflicted".into(), "not conflicted".into()))
            }
            (Expected::Rule(word), Some(rule)) => {
                let mut found: Vec<&str> = (o.policies.iter())
                    .flat_map(|&p| observed.each_observation(p))
                    .filter(|ob| ob.path == path && ob.key == rule.text)
                    .map(|ob| ob.outcome.as_str())
                    .collect();
                found.dedup();
                let subject = format!("{policy} rule `{}`: outcome", rule.text);
                let actual = if found.is_empty() {
                    "not on this path".into()
                } else {
                    found.join(", ")
                };
                (!found.contains(&word)).then(|| (subject, word.to_string(), actual))
            }
            (Expected::Rule(_), None) => None,
        }
    })
}

/// Whether a policy's status says another policy holds its target (`Conflicted`).
pub(crate) fn conflicted(conditions: &crate::policy::PolicyConditions) -> bool {
    let top = conditions.conditions.iter();
    let ancestors = conditions
        .ancestors
        .iter()
        .flatten()
        .flat_map(|a| &a.conditions);
    top.chain(ancestors).any(|c| c.reason == "Conflicted")
}
