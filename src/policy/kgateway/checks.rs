//! kgateway's own lint checks (docs/families.md §2.8) and their documentation: the traps of its
//! annotations (an invalid weight, an unknown or misplaced inheritance priority), attachments
//! that repeat, and selectors that select nothing — all silent in the controller.

use super::ScopeNote;
use super::evaluate::KgatewayEvaluator;
use super::evaluate::PRIORITY_ANNOTATION;
use super::family::WEIGHT_ANNOTATION;
use crate::diag::{Code, Diagnostic};
use crate::engine::observed::Observed;
use crate::lint::doc::CheckDoc;
use crate::model::Model;
use crate::model::gateway::GATEWAY_GROUP;
use crate::policy::PathLevel;
use crate::topology::Topology;
use std::collections::BTreeMap;

/// Documentation of kgateway's codes.
pub const DOCS: &[CheckDoc] = &[
    CheckDoc {
        code: Code::ExtensionRefNotFound,
        explanation: "A route rule filter `{type: ExtensionRef, extensionRef: {group: gateway.kgateway.dev, kind: TrafficPolicy, name: N}}` names a TrafficPolicy that is not in the route's namespace. kgateway records an error on the rule and answers it with a 500, so its paths have no effective TrafficPolicy.",
        fix: "Create the TrafficPolicy in the route's namespace, or fix the name in the filter.",
        example: "filters: [{type: ExtensionRef, extensionRef: {group: gateway.kgateway.dev, kind: TrafficPolicy, name: missing}}]",
    },
    CheckDoc {
        code: Code::RouteReplaced,
        explanation: "An invalid TrafficPolicy (an invalid weight, an ACL CIDR with host bits set) takes part in a scope of the path. kgateway skips it in the merge but carries its error into the scope, and with the default STANDARD route validation replaces the scope with a 500 direct response: a route scope the route, a listener scope its virtual hosts, a Gateway scope the whole route configuration.",
        fix: "Fix the invalid policy (see its own error) or detach it.",
        example: "metadata: {annotations: {kgateway.dev/policy-weight: high}}",
    },
    CheckDoc {
        code: Code::InvalidPolicyWeight,
        explanation: "`kgateway.dev/policy-weight` must be a base-10 int32 (it may be negative). Any other value does not count as 0: kgateway rejects the policy (Accepted=False, reason Invalid) and every scope it takes part in answers 500.",
        fix: "Write an integer, e.g. `kgateway.dev/policy-weight: \"10\"`, or remove the annotation.",
        example: "metadata: {annotations: {kgateway.dev/policy-weight: \"1.5\"}}",
    },
    CheckDoc {
        code: Code::UnknownInheritedPriority,
        explanation: "kgateway knows four values of `kgateway.dev/inherited-policy-priority` (ShallowMergePreferChild, ShallowMergePreferParent, DeepMergePreferChild, DeepMergePreferParent), exact case. Any other value silently means ShallowMergePreferChild: children's policies win over the parent's.",
        fix: "Use one of the four values, spelled exactly.",
        example: "metadata: {annotations: {kgateway.dev/inherited-policy-priority: PreferParent}}",
    },
    CheckDoc {
        code: Code::InheritedPriorityOnGateway,
        explanation: "kgateway reads `kgateway.dev/inherited-policy-priority` from HTTPRoutes only (where a route delegates). Its API doc mentions Gateways, but Gateway and listener policies never enter the route fold, so the annotation on a Gateway does nothing.",
        fix: "Move the annotation to the parent HTTPRoute that delegates, or remove it.",
        example: "kind: Gateway\nmetadata: {annotations: {kgateway.dev/inherited-policy-priority: ShallowMergePreferParent}}",
    },
    CheckDoc {
        code: Code::DuplicateAttachment,
        explanation: "A TrafficPolicy reaches one element several times (a targetRef and a selector to the same route, an ExtensionRef and a targetRef). kgateway does not de-duplicate: it merges the policy once per attachment, which repeats list items in deep merges (`acl.rules` twice).",
        fix: "Attach the policy one way only.",
        example: "targetRefs: [{kind: HTTPRoute, name: r}]\ntargetSelectors: [{kind: HTTPRoute, matchLabels: {app: r}}]",
    },
    CheckDoc {
        code: Code::GatewayDisablesRouteProvider,
        explanation: "kgateway installs one filter per extAuth/extProc/jwtAuth provider and enables it from every scope that names it; a `disable` value at any scope enables a global-disable filter that every provider of the field honours. A listener or Gateway policy with `disable` therefore switches off the providers a route policy names, although the route is more specific.",
        fix: "Remove the `disable` from the listener or Gateway policy, or disable providers per route instead.",
        example: "# Gateway policy: extAuth: {disable: {}}; route policy: extAuth: {extensionRef: {name: authz}}",
    },
    CheckDoc {
        code: Code::GatewayHeaderSetWins,
        explanation: "Envoy's header_mutation applies the mutations of every level, most specific first; later ones may override earlier ones, and kgateway never sets `most_specific_header_mutations_wins`. A header `set` by a route policy and by a listener or Gateway policy ends with the less specific value.",
        fix: "Set the header at one level only, or use `add` at the route.",
        example: "# route policy: headerModifiers.request.set [{name: x-env, value: route}]; Gateway policy: the same header, value gw",
    },
    CheckDoc {
        code: Code::SelectorSelectsNothing,
        explanation: "kgateway matches targetSelectors with istio's label matcher, which is false for an empty selector: `matchLabels: {}` selects nothing (in Kubernetes it would select everything).",
        fix: "Name the labels to select, or use targetRefs.",
        example: "targetSelectors: [{group: gateway.networking.k8s.io, kind: HTTPRoute, matchLabels: {}}]",
    },
];

/// DPL5008 and DPL5009: what the scopes of each path do to the route's providers and headers.
pub fn scope_checks(
    evaluator: &KgatewayEvaluator<'_>,
    observed: &Observed<'_, '_>,
) -> Vec<Diagnostic> {
    let model = evaluator.model();
    let engine = observed.engine;
    // (code, policy, what) → paths.
    let mut found: BTreeMap<(Code, u32, String), usize> = BTreeMap::new();
    for entry in &observed.shared.entries {
        if !std::ptr::eq(
            model.registry.kind(observed.shared.kind(entry)),
            evaluator.kind(),
        ) {
            continue;
        }
        let levels = engine.levels(
            &engine.topology.paths[entry.path as usize],
            observed.shared.kind(entry),
        );
        let view = PathLevel::borrow_all(&levels);
        for (note, policy) in evaluator.scope_notes(&view) {
            let (code, what) = match note {
                ScopeNote::DisablesRouteProviders { scope, providers } => (
                    Code::GatewayDisablesRouteProvider,
                    format!(
                        "its {} scope `disable` switches off the route's providers ({})",
                        scope.as_str(),
                        providers
                            .iter()
                            .map(ToString::to_string)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ),
                ScopeNote::HeaderSetWins {
                    direction,
                    header,
                    winner,
                    over,
                } => (
                    Code::GatewayHeaderSetWins,
                    format!(
                        "its {} scope sets {} header `{header}`, which the {} scope also sets; the {} value is the one that stays",
                        winner.as_str(),
                        direction.as_str(),
                        over.as_str(),
                        winner.as_str()
                    ),
                ),
            };
            *found.entry((code, policy, what)).or_default() += 1;
        }
    }
    found
        .into_iter()
        .map(|((code, policy, what), paths)| {
            let p = &model.policies[policy as usize];
            Diagnostic::new(
                code,
                format!(
                    "{}: {what}, on {}",
                    p.display(),
                    crate::words::counted(paths, "path")
                ),
            )
            .with_label(p.name_span, "decides it")
            .with_object(p.display())
        })
        .collect()
}

/// Every finding of these checks about the evaluator's kind (the route annotations are
/// TrafficPolicy's: a declared kind does not report them again).
pub fn check(evaluator: &KgatewayEvaluator<'_>) -> Vec<Diagnostic> {
    let (model, topology) = (evaluator.model(), evaluator.topology());
    let mut diagnostics = Vec::new();
    for (index, policy) in model.policies.iter().enumerate() {
        if !std::ptr::eq(policy.kind, evaluator.kind()) {
            continue;
        }
        for error in &policy.errors {
            if error.contains(WEIGHT_ANNOTATION) {
                diagnostics.push(
                    Diagnostic::new(
                        Code::InvalidPolicyWeight,
                        format!("{}: {error}", policy.display()),
                    )
                    .with_label(policy.name_span, "rejected by kgateway")
                    .with_object(policy.display()),
                );
            }
        }
        for selector in &policy.selectors {
            if selector.match_labels.is_empty() && selector.match_expressions.is_empty() {
                diagnostics.push(
                    Diagnostic::new(
                        Code::SelectorSelectsNothing,
                        format!(
                            "a targetSelector of {} has no labels: kgateway selects nothing with it",
                            policy.display()
                        ),
                    )
                    .with_label(selector.span, "selects nothing")
                    .with_object(policy.display()),
                );
            }
        }
        diagnostics.extend(duplicates(model, topology, index as u32));
    }
    if !evaluator.plain() {
        diagnostics.extend(annotations(model));
    }
    diagnostics
}

/// DPL5006: the elements a policy reaches more than once.
fn duplicates(model: &Model, topology: &Topology, policy: u32) -> Vec<Diagnostic> {
    let p = &model.policies[policy as usize];
    let kind = model.registry.kind_index(p.kind);
    topology.targets.of_policy[policy as usize]
        .iter()
        .filter(|&&target| {
            topology
                .targets
                .on(target, kind)
                .iter()
                .filter(|&&q| q == policy)
                .count()
                > 1
        })
        .map(|target| {
            Diagnostic::new(
                Code::DuplicateAttachment,
                format!(
                    "{} attaches to {} more than once; kgateway merges it once per attachment",
                    p.display(),
                    target.describe(model)
                ),
            )
            .with_label(p.name_span, "attached several times")
            .with_object(p.display())
        })
        .collect()
}

/// DPL5004 and DPL5005: the inheritance annotation where it is unknown or has no effect.
fn annotations(model: &Model) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    for object in &model.objects {
        let Some(value) = object.annotation(PRIORITY_ANNOTATION) else {
            continue;
        };
        let span = object
            .metadata("annotations")
            .and_then(|annotations| annotations.get(PRIORITY_ANNOTATION))
            .map_or(object.name_span(), |n| n.span);
        let on_gateway = &*object.group == GATEWAY_GROUP && &*object.kind == "Gateway";
        let on_route = &*object.group == GATEWAY_GROUP && &*object.kind == "HTTPRoute";
        if on_gateway {
            diagnostics.push(
                Diagnostic::new(
                    Code::InheritedPriorityOnGateway,
                    format!(
                        "{} has `{PRIORITY_ANNOTATION}: {value}`, which kgateway ignores on a Gateway",
                        object.display()
                    ),
                )
                .with_label(span, "no effect on a Gateway")
                .with_object(object.display()),
            );
        } else if on_route && super::Strategy::from_annotation(Some(value)).1 {
            diagnostics.push(
                Diagnostic::new(
                    Code::UnknownInheritedPriority,
                    format!(
                        "{} has `{PRIORITY_ANNOTATION}: {value}`, which kgateway does not know; it means ShallowMergePreferChild",
                        object.display()
                    ),
                )
                .with_label(span, "unknown value")
                .with_object(object.display())
                .with_help("use ShallowMergePreferChild, ShallowMergePreferParent, DeepMergePreferChild or DeepMergePreferParent (exact case)"),
            );
        }
    }
    diagnostics
}
