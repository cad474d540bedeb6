//! What a family says about its effective rules for one request (`dopol request`).
//!
//! The request simulator finds the matched path and folds its effective policy like `effective`
//! does; whether each rule *applies to this request* is the family's business (Kuadrant has
//! request-time `when` predicates and counters; families without request-time conditions say
//! every rule applies). These types are the contract between the two: the request's attributes
//! go in, a [`RuleVerdict`] per effective rule comes out.

use super::{Policy, PolicyKind};
use crate::yaml::Node;
use serde::Serialize;

/// Three-valued (Kleene) truth: a condition that reads an attribute the request does not have
/// is neither true nor false.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Truth {
    /// Holds.
    True,
    /// Does not hold.
    False,
    /// Cannot be decided offline (a missing attribute, or an evaluation error).
    Unknown,
}

impl Truth {
    /// Kleene AND.
    pub fn and(self, other: Truth) -> Truth {
        match (self, other) {
            (Truth::False, _) | (_, Truth::False) => Truth::False,
            (Truth::True, Truth::True) => Truth::True,
            _ => Truth::Unknown,
        }
    }

    /// Kleene OR.
    pub fn or(self, other: Truth) -> Truth {
        match (self, other) {
            (Truth::True, _) | (_, Truth::True) => Truth::True,
            (Truth::False, Truth::False) => Truth::False,
            _ => Truth::Unknown,
        }
    }

    /// `true`, `false` or `unknown`, for tables.
    pub fn as_str(self) -> &'static str {
        match self {
            Truth::True => "true",
            Truth::False => "false",
            Truth::Unknown => "unknown",
        }
    }
}

impl std::ops::Not for Truth {
    type Output = Truth;

    /// Kleene NOT.
    fn not(self) -> Truth {
        match self {
            Truth::True => Truth::False,
            Truth::False => Truth::True,
            Truth::Unknown => Truth::Unknown,
        }
    }
}

impl Serialize for Truth {
    /// JSON `true`, `false`, or the string `"unknown"` (docs/json.md#requesttrace).
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Truth::True => serializer.serialize_bool(true),
            Truth::False => serializer.serialize_bool(false),
            Truth::Unknown => serializer.serialize_str("unknown"),
        }
    }
}

/// The request as request-time conditions see it.
#[derive(Debug)]
pub struct RequestContext<'a> {
    /// Attribute roots (`request`, `source`, `auth`, ...) → values, as JSON. `request` holds the
    /// well-known attributes of the request (docs/semantics.md#94-attributes) plus any `--attr request.*` extras;
    /// every other root only what `--attr` supplied. A path absent from this tree is *unknown*.
    pub attributes: &'a serde_json::Map<String, serde_json::Value>,
    /// `<namespace>/<name>` of the matched route (Kuadrant's limits namespace).
    pub route: &'a str,
}

/// One rule of the matched path's effective policy.
#[derive(Clone, Copy, Debug)]
pub struct EffectiveRule<'a> {
    /// Rule key (`authentication#jwt`, a limit name, `conditions#`, ...).
    pub key: &'a str,
    /// The rule's value.
    pub value: &'a Node,
    /// The policy that declared it.
    pub source: &'a Policy,
}

/// The effective policy of one kind on the matched path.
#[derive(Clone, Debug)]
pub struct KindRules<'a> {
    /// The kind.
    pub kind: &'static PolicyKind,
    /// Its rules, in key order.
    pub rules: Vec<EffectiveRule<'a>>,
}

/// One item of a rule's own `when` list, evaluated.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PredicateResult {
    /// The predicate as written (for Authorino patterns, a readable rendering of the item).
    pub predicate: String,
    /// Its value.
    pub result: Truth,
    /// Unsupplied attributes it reads, as written (`auth.identity.userid`), when unknown.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub needs: Vec<String>,
    /// Why it could not be evaluated, when it failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// One counter of a limit, evaluated.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CounterValue {
    /// The expression as written.
    pub expression: String,
    /// The descriptor value the data plane sends, or `None` when unknown.
    pub value: Option<String>,
    /// Unsupplied attributes it reads.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub needs: Vec<String>,
    /// Why it could not be evaluated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// The key a request is counted under (Kuadrant limits).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CounterKey {
    /// Limitador namespace: `<route namespace>/<route name>`.
    pub namespace: String,
    /// Limitador limit identifier (`limit.<name>__<hash>`).
    pub limit: String,
    /// The counters, in order.
    pub counters: Vec<CounterValue>,
}

/// What a family says about one effective rule for this request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RuleVerdict {
    /// Whether the rule applies to this request.
    pub applies: Truth,
    /// One sentence: what made it true, false or unknown (naming the predicate or the missing
    /// attribute and the `--attr` to pass).
    pub why: String,
    /// The items of the rule's own `when`, evaluated.
    pub predicates: Vec<PredicateResult>,
    /// For a limit that applies or may apply: the key it counts the request under.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counter: Option<CounterKey>,
}

impl RuleVerdict {
    /// The verdict for a family without request-time conditions.
    pub fn unconditional() -> RuleVerdict {
        RuleVerdict {
            applies: Truth::True,
            why: "this family has no request-time conditions".into(),
            predicates: Vec::new(),
            counter: None,
        }
    }
}

/// The verdicts for one kind: one per rule of [`KindRules::rules`], in the same order, plus notes
/// about this answer (e.g. a RateLimitPolicy counter reading `auth.*` that no AuthPolicy on the
/// path exports).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KindVerdicts {
    /// Per rule, parallel to the rules.
    pub rules: Vec<RuleVerdict>,
    /// Notes for the trace's `notes`.
    pub notes: Vec<String>,
}

impl KindVerdicts {
    /// Every rule of `kind` applies (families without request-time conditions).
    pub fn unconditional(kind: &KindRules<'_>) -> KindVerdicts {
        KindVerdicts {
            rules: kind
                .rules
                .iter()
                .map(|_| RuleVerdict::unconditional())
                .collect(),
            notes: Vec::new(),
        }
    }
}

/// A routing situation whose outcome differs between data planes: `request` notes it in the
/// words of the families that know theirs ([`super::PolicyFamily::routing_caveat`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoutingCaveat {
    /// A route with a more specific hostname applies to the host but none of its rules matches,
    /// so a route with a less specific hostname serves the request (Gateway API's precedence).
    HostFallback,
}

#[cfg(test)]
mod tests {
    use super::Truth::*;

    #[test]
    fn kleene_logic() {
        assert_eq!(False.and(Unknown), False);
        assert_eq!(True.and(Unknown), Unknown);
        assert_eq!(True.or(Unknown), True);
        assert_eq!(False.or(Unknown), Unknown);
        assert_eq!(!Unknown, Unknown);
        assert_eq!(!True, False);
        assert_eq!(serde_json::to_string(&Unknown).unwrap(), "\"unknown\"");
        assert_eq!(serde_json::to_string(&True).unwrap(), "true");
    }
}
