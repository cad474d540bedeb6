//! The Kuadrant family: AuthPolicy, RateLimitPolicy, TokenRateLimitPolicy (docs/semantics.md#3-policy-kinds-and-rule-keys).
//!
//! Decoding follows the Kuadrant CRDs: a `targetRef` to a Gateway/HTTPRoute/GRPCRoute in the
//! policy's namespace, and rules either bare under `spec` (implicit atomic defaults) or in one
//! `defaults`/`overrides` block. Rules are keyed exactly as the operator keys them
//! (`authentication#<n>`, `patterns#<n>`, `conditions#`, a limit's name,
//! `###_TOP_LEVEL_PREDICATES_###`), so effective policies match the controller rule for rule.
//!
//! CRD rules the API server enforces on shape (types, enums, required fields, duration
//! patterns) reject the object. The cross-field rules (mutually exclusive blocks, an empty
//! active block) are reported as errors but the policy is still evaluated, blocks in the RFC
//! 0009 order, as docs/semantics.md#3-policy-kinds-and-rule-keys asks.

mod constraint;
pub mod decoder;
pub mod diags;
mod evaluate;
mod extensions;
mod fold;
mod gate;
pub mod granularity;
pub mod kleene;
pub mod listener_sets;
pub mod outcomes;
mod request;

pub use decoder::{BlockRules, Clash, RuleShape};
pub use evaluate::KuadrantEvaluator;

use crate::diag::Diagnostic;
use crate::load::Object;
use crate::load::fields::{FieldPath, Fields};
use crate::policy::FamilyEvaluation;
use crate::policy::FamilyHierarchy;
use crate::policy::{FamilyKinds, Policy, PolicyConditions, PolicyFamily, PolicyKind, Rule};
use crate::yaml::{Node, Value};
use decoder::named_rule;

/// The Kuadrant policy family.
pub struct Kuadrant;

/// The rule key of RateLimitPolicy/TokenRateLimitPolicy top-level `when` predicates.
pub const TOP_LEVEL_PREDICATES_KEY: &str = "###_TOP_LEVEL_PREDICATES_###";
/// The rule key of AuthPolicy top-level `when` predicates.
pub const AUTH_CONDITIONS_KEY: &str = "conditions#";

static KINDS: [PolicyKind; 3] = [
    PolicyKind {
        family: "kuadrant",
        group: "kuadrant.io",
        kind: "AuthPolicy",
        versions: &["v1"],
        unserved_versions: &["v1beta3"],
        target_kinds: &["Gateway", "HTTPRoute", "GRPCRoute"],
        target_kind_message: "Invalid targetRef.kind. The only supported values are 'HTTPRoute', 'GRPCRoute', and 'Gateway'",
    },
    PolicyKind {
        family: "kuadrant",
        group: "kuadrant.io",
        kind: "RateLimitPolicy",
        versions: &["v1"],
        unserved_versions: &["v1beta3"],
        target_kinds: &["Gateway", "HTTPRoute", "GRPCRoute"],
        target_kind_message: "Invalid targetRef.kind. The only supported values are 'HTTPRoute', 'GRPCRoute', and 'Gateway'",
    },
    PolicyKind {
        family: "kuadrant",
        group: "kuadrant.io",
        kind: "TokenRateLimitPolicy",
        versions: &["v1alpha1"],
        unserved_versions: &[],
        target_kinds: &["Gateway", "HTTPRoute"],
        target_kind_message: "Invalid targetRef.kind. The only supported values are 'HTTPRoute' and 'Gateway'",
    },
];

/// A required singular `targetRef` (listener and rule `sectionName`s allowed), no selectors.
pub const TARGET_FIELDS: crate::policy::decode::TargetFields =
    crate::policy::decode::TargetFields {
        single: true,
        list: false,
        required: true,
        section_name: true,
        selectors: None,
    };

/// Where a kind's rules live.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    /// AuthPolicy: `rules`, `patterns`, `when`.
    Auth,
    /// RateLimitPolicy and TokenRateLimitPolicy: `limits`, `when`.
    Limits,
}

impl Shape {
    fn of(kind: &PolicyKind) -> Shape {
        if kind.kind == "AuthPolicy" {
            Shape::Auth
        } else {
            Shape::Limits
        }
    }

    /// Fields holding rules (bare under `spec`, or inside a block).
    fn rule_fields(self) -> &'static [&'static str] {
        match self {
            Shape::Auth => &["rules", "patterns", "when"],
            Shape::Limits => &["limits", "when"],
        }
    }

    fn when_key(self) -> &'static str {
        match self {
            Shape::Auth => AUTH_CONDITIONS_KEY,
            Shape::Limits => TOP_LEVEL_PREDICATES_KEY,
        }
    }

    /// The field whose emptiness the CRD checks (`rules` / `limits`).
    fn required_field(self) -> &'static str {
        match self {
            Shape::Auth => "rules",
            Shape::Limits => "limits",
        }
    }
}

impl RuleShape for Shape {
    fn targets(&self) -> &crate::policy::decode::TargetFields {
        &TARGET_FIELDS
    }

    fn blocks(&self) -> &BlockRules {
        &decoder::BUILTIN_BLOCKS
    }

    fn is_rule_field(&self, field: &str) -> bool {
        self.rule_fields().contains(&field)
    }

    /// AuthPolicy's CRD names `patterns`, `when` and `rules`; the rate limit kinds' name only
    /// `limits` (`!(has(self.defaults) && has(self.limits))`), so their top-level `when` beside
    /// `defaults` or `overrides` is accepted, and ignored.
    fn clashes_with_blocks(&self, field: &str) -> bool {
        *self == Shape::Auth || field == "limits"
    }

    fn known_fields(&self) -> Option<Vec<&str>> {
        Some(self.rule_fields().to_vec())
    }

    fn cut(
        &self,
        fields: &mut Fields<'_>,
        block: &Node,
        path: &FieldPath<'_>,
        when_is_constraint: bool,
        rules: &mut Vec<Rule>,
    ) -> Option<()> {
        if let Some(when) = block
            .get("when")
            .filter(|n| !n.is_null() && !when_is_constraint)
        {
            check_predicates(fields, when, &path.key("when"))?;
            if !when.as_seq().unwrap_or_default().is_empty() {
                let key_span = block.entry("when").map_or(when.span, |e| e.key.span);
                rules.push(Rule {
                    key: crate::name::Name::new(self.when_key()),
                    value: when.clone(),
                    key_span,
                });
            }
        }
        match self {
            Shape::Limits => {
                if let Some(limits) = block.get("limits").filter(|n| !n.is_null()) {
                    let limits_path = path.key("limits");
                    for entry in fields.map(limits, &limits_path)? {
                        check_limit(fields, &entry.value, &limits_path.key(&entry.key.text));
                        rules.push(named_rule(entry.key.text.to_string(), entry));
                    }
                }
            }
            Shape::Auth => {
                if let Some(patterns) = block.get("patterns").filter(|n| !n.is_null()) {
                    for entry in fields.map(patterns, &path.key("patterns"))? {
                        rules.push(named_rule(format!("patterns#{}", entry.key.text), entry));
                    }
                }
                if let Some(auth_rules) = block.get("rules").filter(|n| !n.is_null()) {
                    decode_auth_rules(fields, auth_rules, &path.key("rules"), rules)?;
                }
            }
        }
        Some(())
    }

    fn counted_rules(&self, block: &Node) -> Result<(), Vec<String>> {
        let has_rules = match self {
            Shape::Limits => block
                .get("limits")
                .and_then(Node::as_map)
                .is_some_and(|m| !m.is_empty()),
            Shape::Auth => block.get("rules").is_some_and(auth_rules_non_empty),
        };
        if has_rules {
            Ok(())
        } else {
            Err(vec![self.required_field().to_string()])
        }
    }

    fn unset_key(&self, text: &str) -> Option<String> {
        unset_key(*self, text)
    }

    fn unset_forms(&self) -> String {
        let paths = match self {
            Shape::Auth => "`rules.authentication.a`, `patterns.p`, `when`",
            Shape::Limits => "`limits.a`, `when`",
        };
        format!("a rule key (`authentication#a`) or a spec path ({paths})")
    }

    fn clash_message(&self, clash: Clash) -> &'static str {
        let auth = *self == Shape::Auth;
        match clash {
            Clash::DefaultsOverrides if auth => {
                "Explicit overrides and explicit defaults are mutually exclusive"
            }
            Clash::DefaultsOverrides => "Overrides and explicit defaults are mutually exclusive",
            Clash::DefaultsBare => "Implicit and explicit defaults are mutually exclusive",
            Clash::OverridesBare if auth => {
                "Implicit defaults and explicit overrides are mutually exclusive"
            }
            Clash::OverridesBare => "Overrides and implicit defaults are mutually exclusive",
        }
    }

    fn spec_shape(&self, rules: &[(&str, &Node)]) -> serde_json::Value {
        decoder::spec_by_paths(rules, |key| spec_path_of_key(*self, key))
    }
}

const AUTH_RULE_SECTIONS: &[&str] = &[
    "authentication",
    "metadata",
    "authorization",
    "callbacks",
    "response",
];
const AUTH_NAMED_SECTIONS: &[&str] = &["authentication", "metadata", "authorization", "callbacks"];
const LIMIT_FIELDS: &[&str] = &["rates", "counters", "when"];

impl FamilyKinds for Kuadrant {
    fn name(&self) -> &'static str {
        "kuadrant"
    }

    fn kinds(&self) -> &'static [PolicyKind] {
        &KINDS
    }

    fn decode(
        &self,
        kind: &'static PolicyKind,
        object: &Object,
        fields: &mut Fields,
    ) -> Option<Policy> {
        decoder::decode_policy(kind, &Shape::of(kind), object, fields)
    }

    fn crd_view(&self, object: &Node) -> Option<Node> {
        extensions_removed(object)
    }

    fn unserved_version(&self, kind: &'static PolicyKind, object: &Object) -> Option<Diagnostic> {
        let display = object.display();
        let deprecated = diags::DeprecatedApiVersion {
            object: &display,
            api_version: &object.api_version(),
            group: kind.group,
            current: kind.versions[0],
        };
        let diagnostic = Diagnostic::from(deprecated)
            .with_label(object.api_version_span(), "not served")
            .with_object(display);
        Some(diagnostic)
    }

    fn request_expressions<'p>(&self, policy: &'p Policy) -> Vec<(&'p str, crate::source::Span)> {
        let mut found = Vec::new();
        for (_, rule) in policy.rules() {
            collect_expressions(&rule.value, &mut found);
        }
        found
    }

    /// Kuadrant merges by rule key: a value is read only by an RFC 0009 block constraint (a
    /// CEL expression over the lower effective policy, values included).
    fn values_droppable(&self) -> bool {
        true
    }

    fn evaluation_reads_values(&self, policies: &[&Policy]) -> bool {
        policies
            .iter()
            .any(|p| p.blocks.iter().any(|b| b.constraint.is_some()))
    }
}

/// The Kuadrant operator and policy-machinery know no ListenerSet (docs/families.md): paths
/// through a ListenerSet's listeners take no Kuadrant policy, and lint says so
/// (`family-ignores-listenerset`).
impl FamilyHierarchy for Kuadrant {
    fn follows_listener_sets(&self) -> bool {
        false
    }
}

impl FamilyEvaluation for Kuadrant {
    fn evaluator<'m>(
        &self,
        model: &'m crate::model::Model,
        _topology: &'m crate::topology::Topology,
    ) -> (Box<dyn crate::policy::Evaluator<'m> + 'm>, Vec<Diagnostic>) {
        let (evaluator, diagnostics) = KuadrantEvaluator::new(model, &KINDS);
        (Box::new(evaluator), diagnostics)
    }
}

impl PolicyFamily for Kuadrant {
    /// The operator's defaults for Istio and Envoy Gateway (`ISTIO_GATEWAY_CONTROLLER_NAMES`
    /// and `ENVOY_GATEWAY_GATEWAY_CONTROLLER_NAMES` add to them).
    fn controllers(&self, _kind: &PolicyKind) -> &'static [&'static str] {
        &[
            "istio.io/gateway-controller",
            "gateway.envoyproxy.io/gatewayclass-controller",
        ]
    }

    /// "… has been partially enforced": the operator's status says some rule is overridden.
    fn status_admits_loss(&self, conditions: &PolicyConditions) -> bool {
        (conditions.all()).any(|c| c.kind == "Enforced" && c.message.ends_with(evaluate::PARTIALLY))
    }

    fn provides(
        &self,
        kind: &PolicyKind,
        key: &str,
        value: &Node,
        capability: crate::policy::gate::Capability,
    ) -> crate::policy::gate::Provides {
        gate::provides(kind, key, value, capability)
    }

    fn weakened(
        &self,
        kind: &PolicyKind,
        key: &str,
        old: &Node,
        new: Option<&Node>,
    ) -> crate::policy::gate::Strength {
        gate::weakened(kind, key, old, new)
    }

    fn codes(&self) -> &'static [crate::diag::Code] {
        diags::CODES
    }

    fn request_verdicts(
        &self,
        kind: &crate::policy::request::KindRules<'_>,
        path: &[crate::policy::request::KindRules<'_>],
        context: &crate::policy::request::RequestContext<'_>,
    ) -> crate::policy::request::KindVerdicts {
        request::verdicts(kind, path, context)
    }

    fn spec_shape(&self, kind: &PolicyKind, rules: &[(&str, &Node)]) -> serde_json::Value {
        Shape::of(kind).spec_shape(rules)
    }
}

/// Every `predicate: <CEL>` (in `when` lists and authorization patterns) and every counter
/// `expression: <CEL>` under a node.
fn collect_expressions<'n>(node: &'n Node, found: &mut Vec<(&'n str, crate::source::Span)>) {
    match &node.value {
        Value::Map(entries) => {
            for entry in entries.iter() {
                match (&*entry.key.text, &entry.value.value) {
                    ("predicate", Value::String(text)) => found.push((text, entry.value.span)),
                    ("counters", Value::Seq(counters)) => {
                        for counter in counters.iter() {
                            if let Some(expression) =
                                counter.get("expression").filter(|e| e.as_str().is_some())
                            {
                                found.push((
                                    expression.as_str().unwrap_or_default(),
                                    expression.span,
                                ));
                            }
                        }
                    }
                    _ => collect_expressions(&entry.value, found),
                }
            }
        }
        Value::Seq(items) => items
            .iter()
            .for_each(|item| collect_expressions(item, found)),
        _ => {}
    }
}

/// The spec path (field names) where a rule key lives, for rendering the spec shape.
fn spec_path_of_key(shape: Shape, key: &str) -> Vec<String> {
    let owned = |parts: &[&str]| parts.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    match shape {
        Shape::Limits if key == TOP_LEVEL_PREDICATES_KEY => owned(&["when"]),
        Shape::Limits => owned(&["limits", key]),
        Shape::Auth => {
            let (group, name) = key.split_once('#').unwrap_or((key, ""));
            match group {
                "conditions" => owned(&["when"]),
                "patterns" => owned(&["patterns", name]),
                "response.unauthenticated" | "response.unauthorized" => {
                    let section = group.trim_start_matches("response.");
                    owned(&["rules", "response", section])
                }
                "response.success.headers" => {
                    owned(&["rules", "response", "success", "headers", name])
                }
                "response.success.metadata" => {
                    owned(&["rules", "response", "success", "filters", name])
                }
                section => owned(&["rules", section, name]),
            }
        }
    }
}

/// Normalizes an `unset` entry (spec path like `rules.authentication.a` / `limits.a`, or a rule
/// key like `authentication#a`) into a rule key.
fn unset_key(shape: Shape, text: &str) -> Option<String> {
    if text.contains('#') {
        return Some(text.to_string());
    }
    let text = text.strip_prefix("spec.").unwrap_or(text);
    let parts: Vec<&str> = text.split('.').collect();
    match shape {
        // Limit names may contain dots: `limits.<rest>` names the limit `<rest>`, and anything
        // else but `when` is a limit name (the rule key form).
        Shape::Limits => match text {
            "when" => Some(TOP_LEVEL_PREDICATES_KEY.to_string()),
            _ => Some(text.strip_prefix("limits.").unwrap_or(text).to_string()),
        },
        Shape::Auth => match parts.as_slice() {
            ["when"] => Some(AUTH_CONDITIONS_KEY.to_string()),
            ["patterns", name] => Some(format!("patterns#{name}")),
            [
                "rules",
                "response",
                section @ ("unauthenticated" | "unauthorized"),
            ] => Some(format!("response.{section}#")),
            ["rules", "response", "success", "headers", name] => {
                Some(format!("response.success.headers#{name}"))
            }
            ["rules", "response", "success", "filters", name] => {
                Some(format!("response.success.metadata#{name}"))
            }
            ["rules", section, name] if AUTH_NAMED_SECTIONS.contains(section) => {
                Some(format!("{section}#{name}"))
            }
            _ => None,
        },
    }
}

fn decode_auth_rules(
    fields: &mut Fields<'_>,
    node: &Node,
    path: &FieldPath<'_>,
    rules: &mut Vec<Rule>,
) -> Option<()> {
    let entries = fields.map(node, path)?;
    fields.check_known(entries, path, AUTH_RULE_SECTIONS);
    for section in AUTH_NAMED_SECTIONS {
        if let Some(named) = node.get(section).filter(|n| !n.is_null()) {
            for entry in fields.map(named, &path.key(section))? {
                rules.push(named_rule(format!("{section}#{}", entry.key.text), entry));
            }
        }
    }
    let Some(response) = node.get("response").filter(|n| !n.is_null()) else {
        return Some(());
    };
    let response_path = path.key("response");
    let response_entries = fields.map(response, &response_path)?;
    fields.check_known(
        response_entries,
        &response_path,
        &["unauthenticated", "unauthorized", "success"],
    );
    for section in ["unauthenticated", "unauthorized"] {
        if let Some(entry) = response.entry(section).filter(|e| !e.value.is_null()) {
            rules.push(named_rule(format!("response.{section}#"), entry));
        }
    }
    if let Some(success) = response.get("success").filter(|n| !n.is_null()) {
        let success_path = response_path.key("success");
        let success_entries = fields.map(success, &success_path)?;
        fields.check_known(success_entries, &success_path, &["headers", "filters"]);
        for (field, key_group) in [
            ("headers", "response.success.headers"),
            ("filters", "response.success.metadata"),
        ] {
            if let Some(named) = success.get(field).filter(|n| !n.is_null()) {
                for entry in fields.map(named, &success_path.key(field))? {
                    rules.push(named_rule(format!("{key_group}#{}", entry.key.text), entry));
                }
            }
        }
    }
    Some(())
}

/// `when` predicate lists: `[{predicate: "<CEL>"}]`.
fn check_predicates(fields: &mut Fields<'_>, when: &Node, path: &FieldPath<'_>) -> Option<()> {
    for (i, item) in fields.seq(when, path)?.iter().enumerate() {
        let item_path = path.index(i);
        let entries = fields.map(item, &item_path)?;
        fields.check_known(entries, &item_path, &["predicate"]);
        let predicate = fields.required(item, "predicate", &item_path)?;
        fields.non_empty_str(predicate, &item_path.key("predicate"))?;
    }
    Some(())
}

/// A limit: `rates` (`limit` integer, `window` a Gateway API duration), `counters`, `when`.
fn check_limit(fields: &mut Fields<'_>, limit: &Node, path: &FieldPath<'_>) -> Option<()> {
    let entries = fields.map(limit, path)?;
    fields.check_known(entries, path, LIMIT_FIELDS);
    if let Some(rates) = limit.get("rates").filter(|n| !n.is_null()) {
        let rates_path = path.key("rates");
        for (i, rate) in fields.seq(rates, &rates_path)?.iter().enumerate() {
            let rate_path = rates_path.index(i);
            let entries = fields.map(rate, &rate_path)?;
            fields.check_known(entries, &rate_path, &["limit", "window"]);
            if let Some(n) = fields.required(rate, "limit", &rate_path) {
                fields.int(n, &rate_path.key("limit"));
            }
            if let Some(n) = fields.required(rate, "window", &rate_path) {
                let window_path = rate_path.key("window");
                if let Some(window) = fields.str(n, &window_path)
                    && !is_gateway_duration(window)
                {
                    fields.invalid(
                        n.span,
                        format!(
                            "`{window_path}` must match ^([0-9]{{1,5}}(h|m|s|ms)){{1,4}}$ (e.g. 30s, 1m, 1h30m), found `{window}`"
                        ),
                        "not a Gateway API duration",
                    );
                }
            }
        }
    }
    if let Some(counters) = limit.get("counters").filter(|n| !n.is_null()) {
        let counters_path = path.key("counters");
        for (i, counter) in fields.seq(counters, &counters_path)?.iter().enumerate() {
            let counter_path = counters_path.index(i);
            let entries = fields.map(counter, &counter_path)?;
            fields.check_known(entries, &counter_path, &["expression"]);
            if let Some(n) = fields.required(counter, "expression", &counter_path) {
                fields.non_empty_str(n, &counter_path.key("expression"));
            }
        }
    }
    if let Some(when) = limit.get("when").filter(|n| !n.is_null()) {
        check_predicates(fields, when, &path.key("when"));
    }
    Some(())
}

/// Whether an AuthPolicy `rules` node holds a rule the CRD counts (patterns and `when` do not).
fn auth_rules_non_empty(rules: &Node) -> bool {
    let non_empty_map = |n: Option<&Node>| n.and_then(Node::as_map).is_some_and(|m| !m.is_empty());
    AUTH_NAMED_SECTIONS
        .iter()
        .any(|s| non_empty_map(rules.get(s)))
        || rules.get("response").is_some_and(|r| {
            r.get("unauthenticated").is_some_and(|n| !n.is_null())
                || r.get("unauthorized").is_some_and(|n| !n.is_null())
                || non_empty_map(r.get_path(&["success", "headers"]))
                || non_empty_map(r.get_path(&["success", "filters"]))
        })
}

/// `^([0-9]{1,5}(h|m|s|ms)){1,4}$`: the Gateway API duration format.
fn is_gateway_duration(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut i = 0;
    let mut groups = 0;
    while i < bytes.len() {
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let digits = i - start;
        if digits == 0 || digits > 5 {
            return false;
        }
        match bytes.get(i) {
            Some(b'h') | Some(b's') => i += 1,
            Some(b'm') if bytes.get(i + 1) == Some(&b's') => i += 2,
            Some(b'm') => i += 1,
            _ => return false,
        }
        groups += 1;
    }
    (1..=4).contains(&groups)
}

/// The RFC 0009 extensions dopol reads beyond the Kuadrant CRD (docs/semantics.md#41-constraints-and-deactivation): `spec.unset`,
/// `spec.remove`, and a `when` CEL string on a `defaults`/`overrides` block (a list of
/// predicates there is the CRD's own `when`). The object without them, for CRD validation;
/// `None` when it uses none. Their use is linted separately (`rfc-extension`).
pub fn extensions_removed(object: &Node) -> Option<Node> {
    let spec = object.get("spec")?.as_map()?;
    let is_extension = |key: &str, value: &Node| match key {
        "unset" | "remove" => true,
        "defaults" | "overrides" => value
            .get("when")
            .is_some_and(|w| matches!(w.value, Value::String(_))),
        _ => false,
    };
    if !spec.iter().any(|e| is_extension(&e.key.text, &e.value)) {
        return None;
    }
    let entries: Vec<crate::yaml::Entry> = spec
        .iter()
        .filter(|e| !matches!(&*e.key.text, "unset" | "remove"))
        .map(|e| match (&*e.key.text, e.value.as_map()) {
            ("defaults" | "overrides", Some(block)) if is_extension(&e.key.text, &e.value) => {
                crate::yaml::Entry {
                    key: e.key.clone(),
                    value: Node {
                        span: e.value.span,
                        value: Value::Map(
                            block
                                .iter()
                                .filter(|b| &*b.key.text != "when")
                                .cloned()
                                .collect::<Vec<_>>()
                                .into(),
                        ),
                    },
                }
            }
            _ => e.clone(),
        })
        .collect();
    Some(object.with_entry(
        "spec",
        Node {
            span: object.get("spec")?.span,
            value: Value::Map(entries.into()),
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        for ok in ["1s", "30s", "1m", "1h30m", "500ms", "1h1m1s1ms", "99999s"] {
            assert!(is_gateway_duration(ok), "{ok}");
        }
        for bad in ["", "1d", "1", "m", "1.5s", "100000s", "1h1m1s1ms1h", "1 m"] {
            assert!(!is_gateway_duration(bad), "{bad}");
        }
    }

    #[test]
    fn unset_entries_become_keys() {
        let cases = [
            (
                Shape::Auth,
                "rules.authentication.a",
                Some("authentication#a"),
            ),
            (Shape::Auth, "authorization#b", Some("authorization#b")),
            (
                Shape::Auth,
                "rules.response.success.filters.x",
                Some("response.success.metadata#x"),
            ),
            (
                Shape::Auth,
                "rules.response.unauthorized",
                Some("response.unauthorized#"),
            ),
            (Shape::Auth, "when", Some("conditions#")),
            (Shape::Limits, "limits.a", Some("a")),
            (Shape::Limits, "spec.limits.a", Some("a")),
            (Shape::Limits, "limits.per.user", Some("per.user")),
            (Shape::Limits, "per.user", Some("per.user")),
            (Shape::Limits, "when", Some(TOP_LEVEL_PREDICATES_KEY)),
            (Shape::Auth, "rules.bogus.x", None),
        ];
        for (shape, entry, key) in cases {
            assert_eq!(unset_key(shape, entry).as_deref(), key, "{entry}");
        }
    }

    #[test]
    fn spec_shape_round_trips_keys() {
        for key in [
            "authentication#a",
            "patterns#p",
            "conditions#",
            "response.unauthorized#",
            "response.success.metadata#m",
        ] {
            let path = spec_path_of_key(Shape::Auth, key);
            let text = path.join(".");
            assert_eq!(
                unset_key(Shape::Auth, &text).as_deref(),
                Some(key),
                "{text}"
            );
        }
    }
}
