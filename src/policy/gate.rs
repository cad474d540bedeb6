//! What `dopol test` asks of a family beyond the fold: whether a rule gives a family-neutral
//! capability ("has authentication" across Kuadrant, kgateway and Envoy Gateway), and whether a
//! change to a rule weakens a path (the no-weakening gate, `--against`).
//!
//! Both answers are the family's: only it knows that kgateway's `jwtAuth` authenticates or that
//! a Kuadrant limit of 100 per minute allows more than 10 per minute. A family that cannot
//! answer keeps the defaults of [`crate::policy::PolicyFamily`], which say so
//! ([`Provides::CannotSay`], [`Strength::CannotSay`]), and the suite reports it as such: a
//! question nobody can answer never passes silently.

use crate::yaml::Node;

/// A family-neutral capability a suite may require of a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Capability {
    /// Requests are authenticated (an identity is checked).
    Authentication,
    /// Requests are authorized (an allow/deny decision beyond identity).
    Authorization,
    /// Requests are rate limited.
    RateLimit,
}

impl Capability {
    /// Every capability, in the order suites list them.
    pub const ALL: [Capability; 3] = [
        Capability::Authentication,
        Capability::Authorization,
        Capability::RateLimit,
    ];

    /// The name a suite writes (`authentication`, `authorization`, `rate-limit`).
    pub fn name(self) -> &'static str {
        match self {
            Capability::Authentication => "authentication",
            Capability::Authorization => "authorization",
            Capability::RateLimit => "rate-limit",
        }
    }

    /// The capability a suite names, if any.
    pub fn parse(name: &str) -> Option<Capability> {
        Capability::ALL.into_iter().find(|c| c.name() == name)
    }
}

/// Whether one effective rule gives a capability.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Provides {
    /// It does.
    Yes,
    /// It does not.
    No,
    /// The family cannot say (the default of a family that does not implement the hook).
    CannotSay,
}

/// What a change to one effective rule of a path does to the path's protection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Strength {
    /// Not weaker (the same, stricter, or a rule that protects nothing).
    Kept,
    /// Weaker, and why in words (`the limit allows 100/1m, was 10/1m`).
    Weaker(String),
    /// The family cannot rank the two (said, never passed).
    CannotSay(String),
}

/// A limit as `(count, seconds)`, from `limit` and a Kuadrant-style `window` (`10s`, `1m`,
/// `2h`, `1d`, `500ms`): the families' shared arithmetic for "allows more".
pub fn rate(limit: i64, window: &str) -> Option<(i64, f64)> {
    let digits = window.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let unit = &window[digits.len()..];
    let count: f64 = digits.parse().ok()?;
    let seconds = match unit {
        "ms" => count / 1000.0,
        "s" => count,
        "m" => count * 60.0,
        "h" => count * 3600.0,
        "d" => count * 86400.0,
        _ => return None,
    };
    (seconds > 0.0).then_some((limit, seconds))
}

/// Whether the rate `new` allows more requests than `old` (more per second).
pub fn allows_more(old: (i64, f64), new: (i64, f64)) -> bool {
    (new.0 as f64) / new.1 > (old.0 as f64) / old.1
}

/// The default answers of the hook: a family that does not rank its rules.
pub fn cannot_rank(key: &str, new: Option<&Node>) -> Strength {
    match new {
        None => Strength::CannotSay(format!(
            "`{key}` is gone; this family cannot say what that weakens"
        )),
        Some(_) => Strength::CannotSay(format!(
            "`{key}` changed; this family cannot say whether the new value is weaker"
        )),
    }
}

/// The common part of a family's [`Strength`]: a rule that gave a capability and is gone is
/// weaker, one that gave none is kept, an unchanged one is kept; `None` leaves a changed
/// protecting rule to the family.
pub fn unchanged_or_gone(
    key: &str,
    old: &Node,
    new: Option<&Node>,
    protects: bool,
) -> Option<Strength> {
    match new {
        None if protects => Some(Strength::Weaker(format!("`{key}` is gone"))),
        Some(new) if !old.same_value(new) && protects => None,
        _ => Some(Strength::Kept),
    }
}
