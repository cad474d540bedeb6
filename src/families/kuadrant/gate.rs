//! Kuadrant's answers to `dopol test` ([`crate::policy::gate`]): an AuthPolicy's
//! `authentication#…` rules authenticate and its `authorization#…` rules authorize; every
//! limit of a RateLimitPolicy or TokenRateLimitPolicy rate limits. A limit is weaker when its
//! strictest rate allows more requests per second, an authentication rule when it became
//! `anonymous`; other changes to auth rules cannot be ranked offline and are said so.

use crate::policy::PolicyKind;
use crate::policy::gate::{self, Capability, Provides, Strength};
use crate::yaml::Node;

/// What a rule of `kind` gives.
/// (The value does not matter: a Kuadrant rule that is written is enforced.)
pub fn provides(kind: &PolicyKind, key: &str, _value: &Node, capability: Capability) -> Provides {
    let gives = match capability {
        Capability::Authentication => {
            kind.kind == "AuthPolicy" && key.starts_with("authentication#")
        }
        Capability::Authorization => kind.kind == "AuthPolicy" && key.starts_with("authorization#"),
        Capability::RateLimit => kind.kind != "AuthPolicy" && !key.starts_with("###"),
    };
    if gives { Provides::Yes } else { Provides::No }
}

/// Whether rule `key` of `kind` going from `old` to `new` weakens the path.
pub fn weakened(kind: &PolicyKind, key: &str, old: &Node, new: Option<&Node>) -> Strength {
    let protects = Capability::ALL
        .into_iter()
        .any(|c| provides(kind, key, old, c) == Provides::Yes);
    if let Some(answer) = gate::unchanged_or_gone(key, old, new, protects) {
        return answer;
    }
    let new = new.expect("a changed rule has a new value");
    if kind.kind == "AuthPolicy" {
        auth_changed(key, new)
    } else {
        limit_changed(key, old, new)
    }
}

/// An auth rule that changed: `anonymous` identity is weaker; anything else cannot be ranked.
fn auth_changed(key: &str, new: &Node) -> Strength {
    if new.get("anonymous").is_some() {
        Strength::Weaker(format!("`{key}` now accepts anonymous requests"))
    } else {
        gate::cannot_rank(key, Some(new))
    }
}

/// A limit that changed: compared by its strictest rate; a changed `when` or counters cannot be
/// ranked.
fn limit_changed(key: &str, old: &Node, new: &Node) -> Strength {
    let same = |field: &str| match (old.get(field), new.get(field)) {
        (None, None) => true,
        (Some(a), Some(b)) => a.same_value(b),
        _ => false,
    };
    let (Some(old_rate), Some(new_rate)) = (strictest(old), strictest(new)) else {
        return gate::cannot_rank(key, Some(new));
    };
    if gate::allows_more(old_rate, new_rate) {
        return Strength::Weaker(format!(
            "`{key}` allows {} per {}s, was {} per {}s",
            new_rate.0, new_rate.1, old_rate.0, old_rate.1
        ));
    }
    if same("when") && same("counters") {
        Strength::Kept
    } else {
        gate::cannot_rank(key, Some(new))
    }
}

/// The rate of `rates` that allows the fewest requests per second.
fn strictest(limit: &Node) -> Option<(i64, f64)> {
    let rates = limit.get("rates")?.as_seq()?;
    let mut found: Option<(i64, f64)> = None;
    for rate in rates {
        let parsed = gate::rate(rate.get("limit")?.as_i64()?, rate.get("window")?.as_str()?)?;
        if found.is_none_or(|f| gate::allows_more(parsed, f)) {
            found = Some(parsed);
        }
    }
    found
}
