//! Envoy Gateway's answers to `dopol test` ([`crate::policy::gate`]): SecurityPolicy's `jwt`,
//! `oidc`, `basicAuth`, `apiKeyAuth` and `extAuth` authenticate, its `authorization`
//! authorizes, BackendTrafficPolicy's `rateLimit` rate limits. An `authorization` whose
//! `defaultAction` became `Allow` is weaker, as is a rate limit whose strictest rule allows
//! more; other changes cannot be ranked offline and are said so. Kinds declared with the
//! envoy-gateway model in a families file are not ranked.

use crate::policy::PolicyKind;
use crate::policy::gate::{self, Capability, Provides, Strength};
use crate::yaml::Node;

/// The `(kind, fields)` giving each capability.
fn fields(capability: Capability) -> (&'static str, &'static [&'static str]) {
    match capability {
        Capability::Authentication => (
            "SecurityPolicy",
            &["jwt", "oidc", "basicAuth", "apiKeyAuth", "extAuth"],
        ),
        Capability::Authorization => ("SecurityPolicy", &["authorization"]),
        Capability::RateLimit => ("BackendTrafficPolicy", &["rateLimit"]),
    }
}

/// Whether `kind` is one of Envoy Gateway's own kinds (not a declared one).
fn builtin(kind: &PolicyKind) -> bool {
    kind.group == "gateway.envoyproxy.io"
}

/// What rule `key` of `kind` gives.
pub fn provides(kind: &PolicyKind, key: &str, _value: &Node, capability: Capability) -> Provides {
    if !builtin(kind) {
        return Provides::CannotSay;
    }
    let (owner, keys) = fields(capability);
    if kind.kind == owner && keys.contains(&key) {
        Provides::Yes
    } else {
        Provides::No
    }
}

/// Whether rule `key` of `kind` going from `old` to `new` weakens the path.
pub fn weakened(kind: &PolicyKind, key: &str, old: &Node, new: Option<&Node>) -> Strength {
    if !builtin(kind) {
        return gate::cannot_rank(key, new);
    }
    let protects = Capability::ALL
        .into_iter()
        .any(|c| provides(kind, key, old, c) == Provides::Yes);
    if let Some(answer) = gate::unchanged_or_gone(key, old, new, protects) {
        return answer;
    }
    let new = new.expect("a changed rule has a new value");
    let action = |n: &Node| {
        n.get("defaultAction")
            .and_then(Node::as_str)
            .unwrap_or("Deny")
            .to_string()
    };
    if key == "authorization" && action(old) == "Deny" && action(new) == "Allow" {
        return Strength::Weaker("`authorization` now allows by default".into());
    }
    if key == "rateLimit"
        && let (Some(old_rate), Some(new_rate)) = (strictest(old), strictest(new))
    {
        return if gate::allows_more(old_rate, new_rate) {
            Strength::Weaker(format!(
                "`rateLimit` allows {} per {}s, was {} per {}s",
                new_rate.0, new_rate.1, old_rate.0, old_rate.1
            ))
        } else {
            Strength::Kept
        };
    }
    gate::cannot_rank(key, Some(new))
}

/// The strictest limit of a `rateLimit` (its `global` and `local` rules).
fn strictest(rate_limit: &Node) -> Option<(i64, f64)> {
    let mut found: Option<(i64, f64)> = None;
    for scope in ["global", "local"] {
        let rules = rate_limit
            .get(scope)
            .and_then(|s| s.get("rules"))
            .and_then(Node::as_seq);
        for rule in rules.unwrap_or_default() {
            let limit = rule.get("limit")?;
            let window = match limit.get("unit")?.as_str()? {
                "Second" => "1s",
                "Minute" => "1m",
                "Hour" => "1h",
                "Day" => "1d",
                _ => return None,
            };
            let parsed = gate::rate(limit.get("requests")?.as_i64()?, window)?;
            if found.is_none_or(|f| gate::allows_more(parsed, f)) {
                found = Some(parsed);
            }
        }
    }
    found
}
