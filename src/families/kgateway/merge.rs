//! One merge step (docs/families.md §2.4): the accumulated, higher-priority side A and the incoming
//! side B of one rule key, under one [`Strategy`].
//!
//! Most fields are *plain*: a step takes one side whole. Four fields are *deep-capable*
//! (`transformation`, `extAuth`, `extProc`, `acl`): under a deep strategy, when both sides are set,
//! their contents are combined (the private `deep` module). Every step also says what it
//! did ([`How`]), for `explain` and lint; the lint-relevant quirk is
//! [`How::PreferParentKeptChild`] (kgateway#14724: `DeepMergePreferParent` keeps the child's plain
//! fields).
//!
//! **Origins.** A value taken whole keeps its side's origins. A deep-merged value lists the
//! preferred side's origins, then the other side's (AugmentedDeep prefers A, OverridableDeep
//! prefers B), except where the contract pins them otherwise (`extAuth`/`extProc` `disable`).
//! Repeated policy indices are dropped, first occurrence kept (see [`super::contribution`]).

use super::deep;
use std::fmt;

// The whole merge API in one place, as `crate::families::kgateway` also offers it.
pub use super::contribution::{Contribution, ProviderId, is_set};
pub use super::keys::rule_keys;
pub use super::scopes::{Combined, Direction, Scope, ScopeNote, combine_scopes};
pub use super::strategy::{MergeSettings, Strategy};

/// The result of one step.
#[derive(Clone, Debug)]
pub struct Step {
    /// The merged value; `None` when neither side is set.
    pub result: Option<Contribution>,
    /// What the step did.
    pub how: How,
}

/// One side of a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The accumulated, higher-priority side (earlier in a level, or the child route).
    A,
    /// The incoming side (later in a level, or the parent route).
    B,
}

impl Side {
    fn describe(self) -> &'static str {
        match self {
            Side::A => "higher-priority",
            Side::B => "incoming",
        }
    }
}

/// The provider fields that deep-merge (`mergeExtAuth`, `mergeExtProc`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ProviderKey {
    /// `extAuth`.
    ExtAuth,
    /// `extProc`.
    ExtProc,
}

impl ProviderKey {
    /// The rule key.
    pub fn as_str(self) -> &'static str {
        match self {
            ProviderKey::ExtAuth => "extAuth",
            ProviderKey::ExtProc => "extProc",
        }
    }
}

/// The singleton `acl` field two sides disagree on (`detectHttpACLMergeConflict`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AclConflict {
    /// `defaultAction` differs.
    DefaultAction,
    /// Both `denyResponse`s set different `statusCode`s.
    StatusCode,
    /// Both `denyResponse`s set different `blockedByHeaderName`s.
    BlockedByHeaderName,
}

impl AclConflict {
    /// The field's name.
    pub fn as_str(self) -> &'static str {
        match self {
            AclConflict::DefaultAction => "defaultAction",
            AclConflict::StatusCode => "denyResponse.statusCode",
            AclConflict::BlockedByHeaderName => "denyResponse.blockedByHeaderName",
        }
    }
}

/// What a step did. `Display` gives a short English sentence for `explain`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum How {
    /// Neither side is set: no value.
    Unset,
    /// Only this side is set: it is taken whole.
    OnlySet(Side),
    /// Both sides are set and the strategy took this one whole.
    Took(Side, Strategy),
    /// OverridableDeep kept A's plain field over a set B (kgateway#14724) \[controller\]: lint
    /// `deep-merge-plain-field`.
    PreferParentKeptChild,
    /// `transformation` lists concatenated.
    Transformation,
    /// B's providers added (at least one was new).
    ProvidersAdded(ProviderKey),
    /// A already has every provider of B: A kept, B is no origin.
    ProvidersKnown(ProviderKey),
    /// B is a `disable`: the value is B's, origins B's only (`SetOne`) \[controller\].
    Disabled(ProviderKey),
    /// A is a `disable` and stays so; B's new providers are not shown but B's origins are
    /// appended (`Append`) \[controller\].
    StillDisabled(ProviderKey),
    /// `acl` deep-merged.
    Acl,
    /// `acl` conflict: fell back to the shallow strategy of the same preference, which took this
    /// side whole.
    AclFallback(AclConflict, Side),
}

impl fmt::Display for How {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            How::Unset => f.write_str("neither side sets it"),
            How::OnlySet(side) => write!(f, "took the only value set ({} side)", side.describe()),
            How::Took(Side::A, s) => write!(f, "kept the higher-priority value ({s})"),
            How::Took(Side::B, s) => write!(f, "took the incoming value ({s})"),
            How::PreferParentKeptChild => f.write_str(
                "kept the child's value over the parent's: DeepMergePreferParent keeps plain fields (kgateway#14724)",
            ),
            How::Transformation => f.write_str("deep-merged transformation lists"),
            How::ProvidersAdded(k) => write!(f, "added B's {} providers", k.as_str()),
            How::ProvidersKnown(k) => write!(f, "kept {}: it already has every provider of B", k.as_str()),
            How::Disabled(k) => write!(f, "B disables {}", k.as_str()),
            How::StillDisabled(k) => write!(f, "{} stays disabled; B's providers are merged in but not shown", k.as_str()),
            How::Acl => f.write_str("deep-merged acl"),
            How::AclFallback(c, side) => write!(
                f,
                "acl conflict ({} differs): fell back to shallow, took the {} value",
                c.as_str(),
                side.describe()
            ),
        }
    }
}

/// One merge step for rule `key`: A = accumulated higher-priority side, B = incoming side.
pub fn step(
    key: &str,
    a: Option<&Contribution>,
    b: Option<&Contribution>,
    strategy: Strategy,
) -> Step {
    match (set(a), set(b)) {
        (None, None) => Step {
            result: None,
            how: How::Unset,
        },
        (Some(a), None) => whole(a, How::OnlySet(Side::A)),
        (None, Some(b)) => whole(b, How::OnlySet(Side::B)),
        (Some(a), Some(b)) if strategy.is_deep() => both_deep(key, a, b, strategy),
        (Some(a), Some(_)) if !strategy.prefers_b() => whole(a, How::Took(Side::A, strategy)),
        (Some(_), Some(b)) => whole(b, How::Took(Side::B, strategy)),
    }
}

/// The contribution if its value is set.
fn set(c: Option<&Contribution>) -> Option<&Contribution> {
    c.filter(|c| is_set(Some(&c.value)))
}

/// Both sides set, deep strategy.
fn both_deep(key: &str, a: &Contribution, b: &Contribution, strategy: Strategy) -> Step {
    match key {
        "transformation" => deep::transformation(a, b, strategy),
        "extAuth" => deep::providers(ProviderKey::ExtAuth, a, b, strategy),
        "extProc" => deep::providers(ProviderKey::ExtProc, a, b, strategy),
        "acl" => deep::acl(a, b, strategy),
        _ if strategy == Strategy::OverridableDeep => whole(a, How::PreferParentKeptChild),
        _ => whole(a, How::Took(Side::A, strategy)),
    }
}

/// A step that takes `side` whole.
pub(crate) fn whole(side: &Contribution, how: How) -> Step {
    Step {
        result: Some(side.clone()),
        how,
    }
}
