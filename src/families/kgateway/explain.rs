//! `dopol explain` for TrafficPolicies: the policies in kgateway's merge order (route levels
//! leaf first, each its rule's policies then the route's, then the listener, then the Gateway
//! scope), why each sits where it does, and every merge step with its strategy and what it did
//! to each key.

use super::evaluate::{KgatewayEvaluator, StepNote};
use crate::model::Model;
use crate::policy::{
    ExplainedMerge, ExplainedPolicy, FamilyExplanation, GepStrategy, MergeChange, PathLevel,
    PathView, Via,
};
use crate::topology::Target;

/// The explanation of one path.
pub fn explain(evaluator: &KgatewayEvaluator<'_>, view: &PathView<'_>) -> FamilyExplanation {
    let split = evaluator.split(view.levels);
    let mut notes = Vec::new();
    let mut steps = Vec::new();
    evaluator.route_scope_traced(&split.routes, Some(&mut notes));
    steps.extend(group(
        evaluator.model(),
        "route",
        std::mem::take(&mut notes),
    ));
    evaluator.level_traced(&split.listener, Some(&mut notes));
    steps.extend(group(
        evaluator.model(),
        "listener",
        std::mem::take(&mut notes),
    ));
    evaluator.level_traced(&split.gateway, Some(&mut notes));
    steps.extend(group(evaluator.model(), "Gateway", notes));
    steps.push(combined(evaluator, view));
    FamilyExplanation {
        order: "in merge order (route levels leaf first, then the listener, then the Gateway scope; highest priority first in each)",
        policies: policies(evaluator, view.levels),
        steps,
    }
}

/// The last step: the three scopes combined per key, as Envoy resolves them (§2.5 step 3).
fn combined(evaluator: &KgatewayEvaluator<'_>, view: &PathView<'_>) -> ExplainedMerge {
    let scopes = evaluator.scopes(view.levels);
    let replaced = scopes.iter().find_map(|s| s.invalid);
    let changes = evaluator
        .effective(&scopes)
        .into_iter()
        .map(|(key, value)| MergeChange {
            key,
            action: "added",
            source: value.origins[0],
            by: value.origins[1..].to_vec(),
        })
        .collect();
    ExplainedMerge {
        policy: None,
        subject: "route, listener and Gateway scopes".into(),
        scope: "all",
        strategy: "per key",
        // The most specific scope's value of each key: the less specific ones patched by it.
        gep: GepStrategy::PatchDefaults,
        summary: "combined per key as Envoy resolves them: the most specific scope, timeouts per sub-field, cors per attribute, providers and header mutations of every scope".into(),
        skipped: replaced.map(|p| {
            format!(
                "{} is invalid: kgateway answers 500 and the path has no effective TrafficPolicy",
                evaluator.model().policies[p as usize].display()
            )
        }),
        changes,
    }
}

/// The policies in merge order, with why each sits where it does.
fn policies(evaluator: &KgatewayEvaluator<'_>, levels: &[PathLevel<'_>]) -> Vec<ExplainedPolicy> {
    let model = evaluator.model();
    let targets = &evaluator.topology().targets;
    let listed = |level: &PathLevel<'_>, scope: &'static str| -> Vec<ExplainedPolicy> {
        let Some(&first) = level.policies.first() else {
            return Vec::new();
        };
        let kind = model
            .registry
            .kind_index(model.policies[first as usize].kind);
        let vias = targets.vias_on(level.target, kind);
        level
            .policies
            .iter()
            .zip(vias)
            .map(|(&policy, via)| ExplainedPolicy {
                policy,
                target: level.target,
                level: scope,
                why: why(model, policy, *via, level.target),
            })
            .collect()
    };
    let mut out = Vec::new();
    // Route levels come in pairs (route, rule), root first; merged leaf first.
    let pairs: Vec<&[PathLevel<'_>]> = levels
        .iter()
        .position(|l| matches!(l.target, Target::Route(_)))
        .map(|start| levels[start..].chunks(2).collect())
        .unwrap_or_default();
    for pair in pairs.iter().rev() {
        for level in pair.iter().rev() {
            out.extend(listed(level, "route"));
        }
    }
    let https = levels.iter().any(|l| match l.target {
        Target::Listener(g, i) => {
            model.gateways[g as usize].listeners[i as usize].protocol == "HTTPS"
        }
        _ => false,
    });
    // A ListenerSet listener's level is `S#L` then `S` (field-2026 §3.1).
    let listener_levels = (levels
        .iter()
        .filter(|l| matches!(l.target, Target::Listener(..))))
    .chain(
        levels
            .iter()
            .filter(|l| matches!(l.target, Target::ListenerSet(_))),
    );
    for level in listener_levels {
        out.extend(listed(level, if https { "Gateway" } else { "listener" }));
    }
    for level in levels
        .iter()
        .filter(|l| matches!(l.target, Target::Gateway(_)))
    {
        out.extend(listed(level, "Gateway"));
    }
    out
}

/// Why a policy sits where it does within its element.
fn why(model: &Model, policy: u32, via: Via, target: Target) -> String {
    let p = &model.policies[policy as usize];
    let on = match target {
        Target::RouteRule(..) => "the rule",
        Target::Route(_) => "the whole route",
        Target::Listener(..) => "the listener",
        Target::ListenerSet(_) => "the whole ListenerSet",
        Target::Gateway(_) => "the whole Gateway",
    };
    match via {
        Via::Extension(position) => format!(
            "ExtensionRef filter #{} of the rule: before every targetRef and selector",
            position + 1
        ),
        Via::TargetRef(_) | Via::Selector(_) => {
            let how = if matches!(via, Via::Selector(_)) {
                "selector"
            } else {
                "targetRef"
            };
            let created = p.creation_timestamp.map_or(
                "no creationTimestamp (counts as oldest)".to_string(),
                |_| "by creationTimestamp".to_string(),
            );
            format!(
                "{how} to {on}; weight {}, then {created}, then name",
                p.priority
            )
        }
    }
}

/// Consecutive notes of one incoming policy (or one step across route levels) as one step.
fn group(model: &Model, scope: &'static str, notes: Vec<StepNote>) -> Vec<ExplainedMerge> {
    let mut steps: Vec<ExplainedMerge> = Vec::new();
    for note in notes {
        let same = steps
            .last()
            .is_some_and(|s| s.policy == note.policy && s.subject == subject(model, &note));
        if !same {
            steps.push(start(model, scope, &note));
        }
        let step = steps.last_mut().expect("a step was just pushed");
        if !note.skipped
            && let Some(change) = change(&note)
        {
            step.changes.push(change);
        }
    }
    steps
}

fn subject(model: &Model, note: &StepNote) -> String {
    match note.parent {
        Some(route) => {
            let r = &model.routes[route as usize];
            format!("HTTPRoute {}/{}", r.namespace, r.name)
        }
        None => String::new(),
    }
}

fn start(model: &Model, scope: &'static str, note: &StepNote) -> ExplainedMerge {
    let summary = match (note.parent, note.skipped) {
        (_, true) => "invalid: skipped by every merge, and the scope answers 500".to_string(),
        (Some(route), _) => format!(
            "this parent route's level folded into its children's with {} ({})",
            note.strategy,
            super::annotations::priority_source(
                &model.objects[model.routes[route as usize].object as usize]
            )
        ),
        (None, _) => format!(
            "merged into the {scope} scope, {} within the level",
            note.strategy
        ),
    };
    ExplainedMerge {
        policy: note.policy,
        subject: subject(model, note),
        scope,
        strategy: note.strategy.as_str(),
        gep: note.strategy.gep(),
        summary,
        skipped: note.skipped.then(|| {
            let p = &model.policies[note.policy.unwrap_or_default() as usize];
            p.errors.join("; ")
        }),
        changes: Vec::new(),
    }
}

/// What a step did to its key: the incoming side added, merged, took over, or lost.
fn change(note: &StepNote) -> Option<MergeChange> {
    let after = note.after.as_ref()?;
    let source = *after.first()?;
    let (action, source, by) = match (&note.before, note.policy) {
        (None, _) => ("added", source, Vec::new()),
        (Some(before), _) if before == after => ("superseded", incoming(note)?, after.clone()),
        (Some(before), _) if after.len() > before.len() => ("merged", source, before.clone()),
        (Some(before), _) => ("replaced", before[0], after.clone()),
    };
    Some(MergeChange {
        key: note.key.clone(),
        action,
        source,
        by,
    })
}

/// The incoming side's policy: the note's policy, or (across route levels) unknown.
fn incoming(note: &StepNote) -> Option<u32> {
    note.policy
}
