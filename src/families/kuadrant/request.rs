//! Which Kuadrant effective rules apply to one request (`dopol request`, docs/semantics.md#96-which-policy-rules-apply).
//!
//! The operator gates every rule of a kind behind its top-level `when` (T): limit actions
//! carry `topLevelPredicates.Extend(limit.When)`, and an AuthPolicy's top-level predicates
//! decide whether the wasm-shim calls Authorino at all. So a rule with its own `when` (W)
//! applies when T AND W holds, every other rule when T holds, in Kleene logic: an attribute
//! the request does not have makes a condition unknown, not false.
//!
//! Two evaluators: the wasm-shim evaluates T and limit `when`s and counters with the `cel`
//! crate; Authorino evaluates an AuthPolicy rule's own `when` (its `PatternExpressionOrRef`
//! items: CEL predicates, `selector`/`operator`/`value` patterns, `patternRef`s, `all`/`any`).
//! Every `why` names the one that decided. Counter keys follow the operator's
//! `LimitsNamespaceFromRoute` and `LimitNameToLimitadorIdentifier`, and the wasm-shim (≥ 0.13)
//! `string(...)` wrapping of counters.

use super::kleene::{self, Evaluator, Outcome};
use super::{AUTH_CONDITIONS_KEY, TOP_LEVEL_PREDICATES_KEY};
use crate::policy::request::{
    CounterKey, CounterValue, EffectiveRule, KindRules, KindVerdicts, PredicateResult,
    RequestContext, RuleVerdict, Truth,
};
use crate::yaml::Node;
use serde_json::{Map, Value as Json};
use sha2::{Digest, Sha256};

/// AuthPolicy rule groups whose values carry their own `when` (evaluated by Authorino).
const AUTH_GROUPS_WITH_WHEN: &[&str] = &[
    "authentication#",
    "metadata#",
    "authorization#",
    "callbacks#",
    "response.success.headers#",
    "response.success.metadata#",
];

/// How deeply Authorino `all`/`any`/`patternRef` items may nest before dopol gives up.
const MAX_PATTERN_DEPTH: usize = 16;

/// The verdicts for one Kuadrant kind on the matched path (see the module docs).
pub(super) fn verdicts(
    kind: &KindRules<'_>,
    path: &[KindRules<'_>],
    context: &RequestContext<'_>,
) -> KindVerdicts {
    let is_auth = kind.kind.kind == "AuthPolicy";
    let mut judge = Judge {
        attributes: context.attributes,
        rules: &kind.rules,
        auth_reads: Vec::new(),
    };
    let top_key = if is_auth {
        AUTH_CONDITIONS_KEY
    } else {
        TOP_LEVEL_PREDICATES_KEY
    };
    let top = kind
        .rules
        .iter()
        .find(|r| r.key == top_key)
        .map(|rule| judge.when_list(rule.value, Evaluator::WasmShim));
    let gate = Gate {
        top: top.as_ref(),
        consequence: if is_auth {
            "the auth service is not called (the request passes unauthenticated)"
        } else {
            "no limit of this kind counts the request"
        },
    };
    let rules = kind
        .rules
        .iter()
        .map(|rule| {
            if rule.key == top_key {
                return gate.top_verdict();
            }
            let own =
                own_when(rule, is_auth).map(|(list, evaluator)| judge.when_list(list, evaluator));
            let mut verdict = gate.rule_verdict(own);
            if !is_auth && verdict.applies != Truth::False {
                verdict.counter = Some(judge.counter_key(kind, rule, context.route));
            }
            verdict
        })
        .collect();
    let notes = if is_auth {
        Vec::new()
    } else {
        auth_notes(kind.kind.kind, &judge.auth_reads, path)
    };
    KindVerdicts { rules, notes }
}

/// The rule's own `when` list and who evaluates it, if it has one.
fn own_when<'n>(rule: &EffectiveRule<'n>, is_auth: bool) -> Option<(&'n Node, Evaluator)> {
    let list = rule.value.get("when").filter(|w| !w.is_null())?;
    if !is_auth {
        return Some((list, Evaluator::WasmShim));
    }
    AUTH_GROUPS_WITH_WHEN
        .iter()
        .any(|group| rule.key.starts_with(group))
        .then_some((list, Evaluator::Authorino))
}

/// A `when` list, evaluated: its Kleene AND and its items.
struct WhenList {
    truth: Truth,
    items: Vec<PredicateResult>,
    evaluator: Evaluator,
}

impl WhenList {
    /// The clause explaining the list's value: the first false item, else the first unknown.
    fn explain(&self) -> String {
        let label = evaluator_label(self.evaluator);
        let decisive = self.items.iter().find(|p| p.result == self.truth);
        match (self.truth, decisive) {
            (Truth::True, _) | (_, None) => format!("holds ({label})"),
            (Truth::False, Some(p)) => format!("`{}` is false ({label})", p.predicate),
            (Truth::Unknown, Some(p)) => unknown_clause(p, label),
        }
    }
}

fn evaluator_label(evaluator: Evaluator) -> &'static str {
    match evaluator {
        Evaluator::WasmShim => "wasm-shim CEL",
        Evaluator::Authorino => "Authorino",
    }
}

/// Why an unknown item is unknown, with the `--attr` that would decide it.
fn unknown_clause(item: &PredicateResult, label: &str) -> String {
    if item.needs.is_empty() {
        let error = item.error.as_deref().unwrap_or("cannot be evaluated");
        return format!(
            "`{}` fails ({label}): {error}; at run time the data plane fails that action and \
             its failure mode decides",
            item.predicate
        );
    }
    let hints: Vec<String> = item
        .needs
        .iter()
        .map(|need| format!("--attr {}=VALUE", attr_key(need)))
        .collect();
    format!(
        "`{}` needs {} ({label}); pass {}",
        item.predicate,
        item.needs.join(", "),
        hints.join(" ")
    )
}

/// The `--attr` key of an attribute as written: `auth.identity['x-y']` → `auth.identity.x-y`.
fn attr_key(need: &str) -> String {
    need.replace("['", ".")
        .replace("']", "")
        .replace('[', ".")
        .replace(']', "")
}

/// The top-level `when` (T) and what a false T means for the kind.
struct Gate<'a> {
    top: Option<&'a WhenList>,
    consequence: &'static str,
}

impl Gate<'_> {
    fn truth(&self) -> Truth {
        self.top.map_or(Truth::True, |t| t.truth)
    }

    fn top_verdict(&self) -> RuleVerdict {
        let Some(top) = self.top else {
            return verdict(Truth::True, "no top-level `when`".into(), Vec::new());
        };
        let why = match top.truth {
            Truth::False => format!("{}, so {}", top.explain(), self.consequence),
            Truth::True => format!("every top-level predicate {}", top.explain()),
            Truth::Unknown => top.explain(),
        };
        verdict(top.truth, why, top.items.clone())
    }

    /// T AND the rule's own `when`, if any.
    fn rule_verdict(&self, own: Option<WhenList>) -> RuleVerdict {
        let t = self.truth();
        let top_clause = |t: Truth| match (t, self.top) {
            (Truth::False, Some(top)) => format!(
                "the top-level `when` is false: {}, so {}",
                top.explain(),
                self.consequence
            ),
            (Truth::Unknown, Some(top)) => {
                format!("the top-level `when` is unknown: {}", top.explain())
            }
            _ => String::new(),
        };
        let Some(own) = own else {
            let why = match t {
                Truth::True if self.top.is_some() => {
                    "no own `when`; the top-level `when` holds".into()
                }
                Truth::True => "no request-time conditions".into(),
                _ => top_clause(t),
            };
            return verdict(t, why, Vec::new());
        };
        let applies = t.and(own.truth);
        let why = match (t, own.truth) {
            (Truth::False, _) => top_clause(t),
            (_, Truth::False) | (Truth::True, Truth::Unknown) => {
                format!("its `when`: {}", own.explain())
            }
            (Truth::Unknown, Truth::Unknown) => {
                format!("{}; its `when`: {}", top_clause(t), own.explain())
            }
            (Truth::Unknown, _) => top_clause(t),
            (Truth::True, Truth::True) if self.top.is_some() => format!(
                "the top-level `when` holds and its own `when` {}",
                own.explain()
            ),
            (Truth::True, Truth::True) => format!("its `when` {}", own.explain()),
        };
        verdict(applies, why, own.items)
    }
}

fn verdict(applies: Truth, why: String, predicates: Vec<PredicateResult>) -> RuleVerdict {
    RuleVerdict {
        applies,
        why,
        predicates,
        counter: None,
    }
}

/// Evaluates conditions against the request, remembering which `auth.*` attributes are read.
struct Judge<'a> {
    attributes: &'a Map<String, Json>,
    /// The kind's rules (AuthPolicy `patternRef`s name `patterns#<n>` among them).
    rules: &'a [EffectiveRule<'a>],
    /// `auth.*` paths read by predicates and counters.
    auth_reads: Vec<String>,
}

impl Judge<'_> {
    /// A `when` list: the AND of its items.
    fn when_list(&mut self, list: &Node, evaluator: Evaluator) -> WhenList {
        let items: Vec<PredicateResult> = list
            .as_seq()
            .unwrap_or_default()
            .iter()
            .map(|item| self.item(item, evaluator, 0))
            .collect();
        let truth = items
            .iter()
            .fold(Truth::True, |acc, item| acc.and(item.result));
        WhenList {
            truth,
            items,
            evaluator,
        }
    }

    /// One item: `{predicate}` for either evaluator; Authorino also takes patterns.
    fn item(&mut self, item: &Node, evaluator: Evaluator, depth: usize) -> PredicateResult {
        if let Some(text) = item.get("predicate").and_then(Node::as_str) {
            return self.cel(text, evaluator);
        }
        if evaluator == Evaluator::WasmShim {
            return failed(render(item), "not a `{predicate: <CEL>}` item");
        }
        if depth >= MAX_PATTERN_DEPTH {
            return failed(render(item), "conditions nested too deeply");
        }
        if let Some(selector) = item.get("selector").and_then(Node::as_str) {
            let operator = item.get("operator").and_then(Node::as_str).unwrap_or("");
            let value = item.get("value").map(Node::to_json).unwrap_or(Json::Null);
            return self.pattern(selector, operator, &value);
        }
        if let Some(name) = item.get("patternRef").and_then(Node::as_str) {
            return self.pattern_ref(name, depth);
        }
        for (field, any) in [("all", false), ("any", true)] {
            if let Some(list) = item.get(field).and_then(Node::as_seq) {
                let items: Vec<PredicateResult> = list
                    .iter()
                    .map(|i| self.item(i, evaluator, depth + 1))
                    .collect();
                return combine(
                    format!("{field}: {}", render(item.get(field).unwrap_or(item))),
                    &items,
                    any,
                );
            }
        }
        failed(render(item), "not a condition Authorino knows")
    }

    fn cel(&mut self, text: &str, evaluator: Evaluator) -> PredicateResult {
        let outcome = kleene::predicate(text, self.attributes, evaluator);
        self.note_reads(&outcome);
        PredicateResult {
            predicate: text.to_string(),
            result: match outcome.value {
                Some(true) => Truth::True,
                Some(false) => Truth::False,
                None => Truth::Unknown,
            },
            needs: outcome.needs,
            error: outcome.error,
        }
    }

    fn note_reads<T>(&mut self, outcome: &Outcome<T>) {
        let auth = outcome.reads.iter().filter(|r| r.starts_with("auth."));
        self.auth_reads.extend(auth.cloned());
    }

    /// `{patternRef: n}`: the AND of `patterns#n`'s `allOf`.
    fn pattern_ref(&mut self, name: &str, depth: usize) -> PredicateResult {
        let label = format!("patternRef: {name}");
        let key = format!("patterns#{name}");
        let rules = self.rules;
        let Some(rule) = rules.iter().find(|r| r.key == key) else {
            return failed(
                label,
                &format!("no pattern `{name}` in the effective AuthPolicy"),
            );
        };
        let Some(list) = rule.value.get("allOf").and_then(Node::as_seq) else {
            return failed(label, &format!("pattern `{name}` has no `allOf` list"));
        };
        let items: Vec<PredicateResult> = list
            .iter()
            .map(|i| self.item(i, Evaluator::Authorino, depth + 1))
            .collect();
        combine(label, &items, false)
    }

    /// `{selector, operator, value}`, as Authorino's JSON pattern matching does it.
    fn pattern(&self, selector: &str, operator: &str, expected: &Json) -> PredicateResult {
        let label = format!("{selector} {operator} {}", gjson_string(Some(expected)));
        let resolved = match resolve_selector(self.attributes, selector) {
            Ok(resolved) => resolved,
            Err(Missing::Unsupplied) => {
                return PredicateResult {
                    predicate: label,
                    result: Truth::Unknown,
                    needs: vec![selector.to_string()],
                    error: None,
                };
            }
            Err(Missing::Unsupported(message)) => return failed(label, &message),
        };
        let expected = gjson_string(Some(expected));
        let result = match operator {
            "eq" => Ok(gjson_string(resolved) == expected),
            "neq" => Ok(gjson_string(resolved) != expected),
            "incl" => Ok(gjson_array(resolved).contains(&expected)),
            "excl" => Ok(!gjson_array(resolved).contains(&expected)),
            "matches" => regex::Regex::new(&expected)
                .map(|re| re.is_match(&gjson_string(resolved)))
                .map_err(|e| format!("invalid regular expression: {e}")),
            other => Err(format!("unknown operator `{other}`")),
        };
        match result {
            Ok(b) => PredicateResult {
                predicate: label,
                result: if b { Truth::True } else { Truth::False },
                needs: Vec::new(),
                error: None,
            },
            Err(message) => failed(label, &message),
        }
    }

    /// The Limitador key a limit counts this request under.
    fn counter_key(
        &mut self,
        kind: &KindRules<'_>,
        rule: &EffectiveRule<'_>,
        route: &str,
    ) -> CounterKey {
        let prefix = if kind.kind.kind == "TokenRateLimitPolicy" {
            "tokenlimit."
        } else {
            "limit."
        };
        let counters = rule
            .value
            .get("counters")
            .and_then(Node::as_seq)
            .unwrap_or_default()
            .iter()
            .filter_map(|c| c.get("expression").and_then(Node::as_str))
            .map(|expression| {
                let outcome = kleene::counter(expression, self.attributes);
                self.note_reads(&outcome);
                CounterValue {
                    expression: expression.to_string(),
                    value: outcome.value,
                    needs: outcome.needs,
                    error: outcome.error,
                }
            })
            .collect();
        CounterKey {
            namespace: route.to_string(),
            limit: limitador_identifier(prefix, &rule.source.namespaced_name(), rule.key),
            counters,
        }
    }
}

/// An item that cannot be evaluated.
fn failed(predicate: String, error: &str) -> PredicateResult {
    PredicateResult {
        predicate,
        result: Truth::Unknown,
        needs: Vec::new(),
        error: Some(error.to_string()),
    }
}

/// `all` (AND) or `any` (OR) of items, with their needs and first error.
fn combine(predicate: String, items: &[PredicateResult], any: bool) -> PredicateResult {
    let start = if any { Truth::False } else { Truth::True };
    let result = items.iter().fold(start, |acc, item| {
        if any {
            acc.or(item.result)
        } else {
            acc.and(item.result)
        }
    });
    let mut needs: Vec<String> = Vec::new();
    let mut error = None;
    if result == Truth::Unknown {
        for item in items.iter().filter(|i| i.result == Truth::Unknown) {
            needs.extend(item.needs.iter().cloned());
            error = error.or_else(|| item.error.clone());
        }
        needs.sort();
        needs.dedup();
    }
    PredicateResult {
        predicate,
        result,
        needs,
        error,
    }
}

/// A readable rendering of a condition node.
fn render(node: &Node) -> String {
    node.to_json().to_string()
}

/// Why a selector has no value.
enum Missing {
    /// The attribute was not supplied.
    Unsupplied,
    /// The selector names no attribute of docs/semantics.md#94-attributes.
    Unsupported(String),
}

/// The value a selector reads: `Some`, or `None` when the request lacks it (an absent header:
/// Authorino sees an empty value).
fn resolve_selector<'t>(
    tree: &'t Map<String, Json>,
    selector: &str,
) -> Result<Option<&'t Json>, Missing> {
    let segments: Vec<&str> = selector.split('.').collect();
    let root = segments.first().copied().unwrap_or_default();
    if selector.contains(['@', '#', '*', '?', '|']) || !crate::expr::ATTRIBUTE_ROOTS.contains(&root)
    {
        return Err(Missing::Unsupported(format!(
            "`{selector}` names no request attribute dopol knows (GJSON modifiers, `context.…` \
             and other Authorino-only paths are not simulated)"
        )));
    }
    let mut node = tree.get(root).ok_or(Missing::Unsupplied)?;
    let mut at = 1;
    while at < segments.len() {
        let Json::Object(map) = node else {
            return Ok(node
                .as_array()
                .and_then(|a| segments[at].parse::<usize>().ok().and_then(|i| a.get(i))));
        };
        // A key may itself hold dots (a header name): the longest key present wins.
        let found = (at + 1..=segments.len())
            .rev()
            .find_map(|end| map.get(&segments[at..end].join(".")).map(|n| (n, end)));
        match found {
            Some((next, end)) => (node, at) = (next, end),
            None if root == "request" && at == 2 && segments[1] == "headers" => return Ok(None),
            None => return Err(Missing::Unsupplied),
        }
    }
    Ok(Some(node))
}

/// A value as GJSON's `String()` renders it: strings as is, other JSON as text, nothing as "".
fn gjson_string(value: Option<&Json>) -> String {
    match value {
        None | Some(Json::Null) => String::new(),
        Some(Json::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    }
}

/// A value as GJSON's `Array()` sees it: a list's items, a scalar alone, nothing empty.
fn gjson_array(value: Option<&Json>) -> Vec<String> {
    match value {
        Some(Json::Array(items)) => items.iter().map(|i| gjson_string(Some(i))).collect(),
        None | Some(Json::Null) => Vec::new(),
        Some(other) => vec![gjson_string(Some(other))],
    }
}

/// The operator's `LimitNameToLimitadorIdentifier`: `prefix`, the limit name with every char
/// that is not a letter, digit or `_` replaced by `_`, `__`, and the first 4 bytes (hex) of
/// SHA-256 of `<policy ns>/<policy name>/<limit name>`. Go's `unicode.IsLetter`/`IsDigit` are
/// approximated with Rust's Unicode `is_alphabetic`/`is_numeric` (exact for ASCII).
pub(super) fn limitador_identifier(prefix: &str, policy: &str, limit: &str) -> String {
    let sanitized: String = limit
        .chars()
        .map(|c| {
            if c.is_alphabetic() || c.is_numeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let hash = Sha256::digest(format!("{policy}/{limit}").as_bytes());
    let hex: String = hash[..4].iter().map(|b| format!("{b:02x}")).collect();
    format!("{prefix}{sanitized}__{hex}")
}

/// One note per `auth.<name>` a RateLimitPolicy/TokenRateLimitPolicy reads: the data plane has
/// it only when the AuthPolicy on the same path exports it (`response.success.filters.<name>`,
/// the rule `response.success.metadata#<name>`).
fn auth_notes(kind: &str, reads: &[String], path: &[KindRules<'_>]) -> Vec<String> {
    let auth = path.iter().find(|k| k.kind.kind == "AuthPolicy");
    let mut names: Vec<&str> = reads
        .iter()
        .filter_map(|read| read.strip_prefix("auth.")?.split(['.', '[']).next())
        .collect();
    names.sort();
    names.dedup();
    names
        .into_iter()
        .map(|name| {
            let exported = auth.and_then(|a| {
                let key = format!("response.success.metadata#{name}");
                a.rules.iter().find(|r| r.key == key)
            });
            let status = match (auth, exported) {
                (None, _) => "there is no effective AuthPolicy on this path".to_string(),
                (Some(_), Some(rule)) => format!(
                    "the effective AuthPolicy exports it (response.success.filters.{name}, from {})",
                    rule.source.locator
                ),
                (Some(_), None) => format!(
                    "the effective AuthPolicy on this path does not export it (no \
                     response.success.filters.{name})"
                ),
            };
            format!(
                "{kind} reads auth.{name}: the data plane has it only when an AuthPolicy on the \
                 same path exports it in its success response; {status}"
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::{Policy, PolicyKind, TargetRef};
    use crate::source::Span;
    use crate::yaml::{Entry, Key, Value};
    use serde_json::json;

    /// A YAML node holding `value`.
    fn node(value: &Json) -> Node {
        Node::synthetic(match value {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(*b),
            Json::Number(n) => n
                .as_i64()
                .map_or(Value::Float(n.as_f64().unwrap_or(0.0)), Value::Int),
            Json::String(s) => Value::String(s.as_str().into()),
            Json::Array(items) => Value::Seq(items.iter().map(node).collect()),
            Json::Object(map) => Value::Map(
                map.iter()
                    .map(|(k, v)| Entry {
                        key: Key {
                            text: k.as_str().into(),
                            span: Span::default(),
                        },
                        value: node(v),
                    })
                    .collect(),
            ),
        })
    }

    fn kind(name: &str) -> &'static PolicyKind {
        super::super::KINDS
            .iter()
            .find(|k| k.kind == name)
            .expect("a Kuadrant kind")
    }

    fn policy(kind_name: &str, namespace: &str, name: &str) -> Policy {
        let kind = kind(kind_name);
        Policy {
            kind,
            namespace: namespace.into(),
            namespace_defaulted: false,
            name: name.into(),
            creation_timestamp: None,
            locator: format!("{}:{namespace}/{name}", kind.locator_prefix()),
            targets: thin_vec::thin_vec![TargetRef {
                group: "gateway.networking.k8s.io".into(),
                kind: "HTTPRoute".into(),
                name: "cart".into(),
                section_name: None,
                span: Span::default(),
                name_span: Span::default(),
                section_span: None,
            }],
            selectors: thin_vec::ThinVec::new(),
            priority: 0,
            errors: thin_vec::ThinVec::new(),
            unmodelled_targets: thin_vec::ThinVec::new(),
            blocks: thin_vec::ThinVec::new(),
            unset: thin_vec::ThinVec::new(),
            spec: None,
            name_span: Span::default(),
        }
    }

    /// Rule keys and values, as stored nodes.
    fn values(rules: &[(&str, Json)]) -> Vec<(String, Node)> {
        rules
            .iter()
            .map(|(k, v)| (k.to_string(), node(v)))
            .collect()
    }

    fn rules<'a>(
        kind_name: &str,
        values: &'a [(String, Node)],
        source: &'a Policy,
    ) -> KindRules<'a> {
        KindRules {
            kind: kind(kind_name),
            rules: values
                .iter()
                .map(|(key, value)| EffectiveRule { key, value, source })
                .collect(),
        }
    }

    fn attributes(value: Json) -> Map<String, Json> {
        value.as_object().cloned().unwrap_or_default()
    }

    fn get_request() -> Map<String, Json> {
        attributes(json!({"request": {"method": "GET", "url_path": "/cart",
            "headers": {"x-team": "blue", "x-groups": "a,b"}}}))
    }

    fn judge(
        kind: &KindRules<'_>,
        path: &[KindRules<'_>],
        attrs: &Map<String, Json>,
    ) -> KindVerdicts {
        verdicts(
            kind,
            path,
            &RequestContext {
                attributes: attrs,
                route: "shop/cart",
            },
        )
    }

    #[test]
    fn limitador_identifiers_match_the_operator() {
        assert_eq!(
            limitador_identifier("limit.", "testNS/rlpA", "foo"),
            "limit.foo__1da6e70a"
        );
        let id = limitador_identifier("tokenlimit.", "testNS/rlpA", "per-user.x");
        assert!(id.starts_with("tokenlimit.per_user_x__"), "{id}");
        assert_eq!(id.len(), "tokenlimit.per_user_x__".len() + 8);
    }

    #[test]
    fn limits_apply_under_the_top_level_when_and_carry_counters() {
        let rlp = policy("RateLimitPolicy", "shop", "rl");
        let stored = values(&[
            (
                TOP_LEVEL_PREDICATES_KEY,
                json!([{"predicate": "request.method == 'GET'"}]),
            ),
            (
                "per-team",
                json!({"counters": [{"expression": "request.headers['x-team']"}]}),
            ),
            (
                "per-user",
                json!({
                "when": [{"predicate": "auth.identity.userid != ''"}],
                "counters": [{"expression": "auth.identity.userid"}]}),
            ),
            (
                "posts",
                json!({"when": [{"predicate": "request.method == 'POST'"}]}),
            ),
        ]);
        let kind = rules("RateLimitPolicy", &stored, &rlp);
        let result = judge(&kind, &[], &get_request());
        let applies: Vec<Truth> = result.rules.iter().map(|r| r.applies).collect();
        assert_eq!(
            applies,
            [Truth::True, Truth::True, Truth::Unknown, Truth::False]
        );
        let team = result.rules[1].counter.as_ref().expect("a counter");
        assert_eq!(team.namespace, "shop/cart");
        assert_eq!(
            team.limit,
            limitador_identifier("limit.", "shop/rl", "per-team")
        );
        assert_eq!(team.counters[0].value.as_deref(), Some("blue"));
        let user = &result.rules[2];
        assert_eq!(user.predicates[0].needs, vec!["auth.identity.userid"]);
        assert!(
            user.why.contains("--attr auth.identity.userid=VALUE"),
            "{}",
            user.why
        );
        assert!(user.why.contains("wasm-shim CEL"), "{}", user.why);
        let counter = user
            .counter
            .as_ref()
            .expect("an unknown limit still has a key");
        assert_eq!(counter.counters[0].value, None);
        assert_eq!(counter.counters[0].needs, vec!["auth.identity.userid"]);
        assert!(result.rules[3].counter.is_none());
        assert_eq!(result.notes.len(), 1);
        assert!(
            result.notes[0].contains("no effective AuthPolicy"),
            "{:?}",
            result.notes
        );

        let mut attrs = get_request();
        attrs.insert("auth".into(), json!({"identity": {"userid": "bob"}}));
        let result = judge(&kind, &[], &attrs);
        assert_eq!(result.rules[2].applies, Truth::True);
        let counter = result.rules[2].counter.as_ref().expect("a counter");
        assert_eq!(counter.counters[0].value.as_deref(), Some("bob"));
    }

    #[test]
    fn a_false_top_level_when_turns_everything_off() {
        let rlp = policy("TokenRateLimitPolicy", "shop", "tl");
        let stored = values(&[
            (
                TOP_LEVEL_PREDICATES_KEY,
                json!([{"predicate": "request.method == 'POST'"}]),
            ),
            ("a", json!({"counters": [{"expression": "request.method"}]})),
            ("b", json!({"when": [{"predicate": "auth.x == 1"}]})),
        ]);
        let kind = rules("TokenRateLimitPolicy", &stored, &rlp);
        let result = judge(&kind, &[], &get_request());
        assert!(
            result
                .rules
                .iter()
                .all(|r| r.applies == Truth::False && r.counter.is_none())
        );
        assert!(
            result.rules[1].why.contains("no limit of this kind counts"),
            "{}",
            result.rules[1].why
        );
        assert!(
            result.rules[0]
                .why
                .contains("`request.method == 'POST'` is false")
        );
    }

    #[test]
    fn authorino_patterns() {
        let ap = policy("AuthPolicy", "shop", "auth");
        let rule = |when: Json| {
            (
                format!("authorization#{}", when),
                node(&json!({"when": [when]})),
            )
        };
        let mut stored = values(&[
            (
                AUTH_CONDITIONS_KEY,
                json!([{"predicate": "request.method == 'GET'"}]),
            ),
            (
                "patterns#blue",
                json!({"allOf": [
                {"selector": "request.headers.x-team", "operator": "eq", "value": "blue"}]}),
            ),
        ]);
        let sel = |selector: &str, operator: &str, value: &str| json!({"selector": selector, "operator": operator, "value": value});
        let team = "request.headers.x-team";
        let cases = [
            (sel(team, "eq", "blue"), Truth::True),
            (sel(team, "neq", "blue"), Truth::False),
            (sel("request.headers.x-absent", "eq", ""), Truth::True),
            (sel("auth.identity.groups", "incl", "a"), Truth::Unknown),
            (sel(team, "matches", "^bl"), Truth::True),
            (sel(team, "excl", "blue"), Truth::False),
            (sel("context.request.http.path", "eq", "/"), Truth::Unknown),
            (json!({"patternRef": "blue"}), Truth::True),
            (json!({"patternRef": "missing"}), Truth::Unknown),
            (
                json!({"any": [{"predicate": "auth.q == 1"}, {"patternRef": "blue"}]}),
                Truth::True,
            ),
            (
                json!({"all": [{"predicate": "auth.q == 1"}, {"patternRef": "blue"}]}),
                Truth::Unknown,
            ),
            (
                json!({"predicate": "request.url_path == '/cart'"}),
                Truth::True,
            ),
        ];
        stored.extend(cases.iter().map(|(when, _)| rule(when.clone())));
        let kind = rules("AuthPolicy", &stored, &ap);
        let result = judge(&kind, &[], &get_request());
        for ((key, _), verdict) in stored.iter().zip(&result.rules).skip(2) {
            let expected = cases
                .iter()
                .find(|(w, _)| format!("authorization#{w}") == *key)
                .map(|c| c.1);
            assert_eq!(Some(verdict.applies), expected, "{key}: {verdict:?}");
            assert!(
                verdict.why.contains("Authorino") || verdict.applies == Truth::Unknown,
                "{verdict:?}"
            );
        }
        let incl = result
            .rules
            .iter()
            .find(|r| r.predicates.iter().any(|p| p.predicate.contains("incl")));
        assert_eq!(
            incl.map(|r| r.predicates[0].needs.clone()),
            Some(vec!["auth.identity.groups".to_string()])
        );
        assert!(result.notes.is_empty());

        let mut attrs = get_request();
        attrs.insert("auth".into(), json!({"identity": {"groups": ["a", "b"]}}));
        let result = judge(&kind, &[], &attrs);
        assert!(result.rules.iter().any(|r| {
            r.predicates
                .iter()
                .any(|p| p.predicate.contains("incl") && p.result == Truth::True)
        }));
    }

    #[test]
    fn a_false_auth_top_level_when_skips_the_auth_service() {
        let ap = policy("AuthPolicy", "shop", "auth");
        let stored = values(&[
            (
                AUTH_CONDITIONS_KEY,
                json!([{"predicate": "request.method == 'POST'"}]),
            ),
            (
                "authentication#jwt",
                json!({"jwt": {}, "when": [{"predicate": "auth.x == 1"}]}),
            ),
            ("response.unauthorized#", json!({"code": 403})),
        ]);
        let kind = rules("AuthPolicy", &stored, &ap);
        let result = judge(&kind, &[], &get_request());
        assert!(result.rules.iter().all(|r| r.applies == Truth::False));
        assert!(
            result.rules[1].why.contains("auth service is not called"),
            "{}",
            result.rules[1].why
        );
    }

    #[test]
    fn auth_notes_say_whether_the_auth_policy_exports() {
        let rlp = policy("RateLimitPolicy", "shop", "rl");
        let ap = policy("AuthPolicy", "shop", "auth");
        let limits = values(&[(
            "per-user",
            json!({"counters": [{"expression": "auth.identity.userid"}]}),
        )]);
        let auth = values(&[("response.success.metadata#identity", json!({"json": {}}))]);
        let kind = rules("RateLimitPolicy", &limits, &rlp);
        let path = [
            rules("AuthPolicy", &auth, &ap),
            rules("RateLimitPolicy", &limits, &rlp),
        ];
        let notes = judge(&kind, &path, &get_request()).notes;
        assert_eq!(notes.len(), 1);
        assert!(
            notes[0].contains("exports it (response.success.filters.identity"),
            "{notes:?}"
        );
        let other = values(&[("response.success.metadata#other", json!({"json": {}}))]);
        let path = [rules("AuthPolicy", &other, &ap)];
        let notes = judge(&kind, &path, &get_request()).notes;
        assert!(notes[0].contains("does not export"), "{notes:?}");
    }
}
