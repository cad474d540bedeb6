//! kgateway's answers to `dopol test` ([`crate::policy::gate`]): TrafficPolicy's `extAuth`,
//! `jwtAuth`, `basicAuth`, `apiKeyAuth` and `oauth2` authenticate, `rbac` authorizes,
//! `rateLimit.local` and `rateLimit.global` rate limit. An `extAuth` that became `disable` is
//! weaker, as is a local token bucket that refills faster or holds more tokens; other changes
//! cannot be ranked offline and are said so.

use crate::policy::gate::{self, Capability, Provides, Strength};
use crate::yaml::Node;

/// The fields giving each capability.
fn fields(capability: Capability) -> &'static [&'static str] {
    match capability {
        Capability::Authentication => &["extAuth", "jwtAuth", "basicAuth", "apiKeyAuth", "oauth2"],
        Capability::Authorization => &["rbac"],
        Capability::RateLimit => &["rateLimit.local", "rateLimit.global"],
    }
}

/// What TrafficPolicy rule `key` with `value` gives (a `disable` gives nothing: it turns the
/// filter off).
pub fn provides(key: &str, value: &Node, capability: Capability) -> Provides {
    if fields(capability).contains(&key) && value.get("disable").is_none() {
        Provides::Yes
    } else {
        Provides::No
    }
}

/// Whether TrafficPolicy rule `key` going from `old` to `new` weakens the path.
pub fn weakened(key: &str, old: &Node, new: Option<&Node>) -> Strength {
    let protects = Capability::ALL
        .into_iter()
        .any(|c| provides(key, old, c) == Provides::Yes);
    if let Some(answer) = gate::unchanged_or_gone(key, old, new, protects) {
        return answer;
    }
    let new = new.expect("a changed rule has a new value");
    if new.get("disable").is_some() && old.get("disable").is_none() {
        return Strength::Weaker(format!("`{key}` is now disabled"));
    }
    if key == "rateLimit.local"
        && let (Some(old_bucket), Some(new_bucket)) = (bucket(old), bucket(new))
    {
        return if gate::allows_more(old_bucket.0, new_bucket.0) || new_bucket.1 > old_bucket.1 {
            Strength::Weaker(format!(
                "`{key}` refills {} tokens per {}s and holds {}, was {} per {}s holding {}",
                new_bucket.0.0,
                new_bucket.0.1,
                new_bucket.1,
                old_bucket.0.0,
                old_bucket.0.1,
                old_bucket.1
            ))
        } else {
            Strength::Kept
        };
    }
    gate::cannot_rank(key, Some(new))
}

/// A local limit's token bucket: its refill rate and its size.
fn bucket(limit: &Node) -> Option<((i64, f64), i64)> {
    let bucket = limit.get("tokenBucket")?;
    let tokens = bucket.get("tokensPerFill").map_or(Some(1), Node::as_i64)?;
    let interval = bucket.get("fillInterval")?.as_str()?;
    Some((
        gate::rate(tokens, interval)?,
        bucket.get("maxTokens")?.as_i64()?,
    ))
}
