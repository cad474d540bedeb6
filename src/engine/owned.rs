//! Paths a family builds over a hierarchy of its own.
//!
//! The Gateway API hierarchy (GatewayClass → Gateway → listener → route → rule, see
//! [`crate::topology`]) is the one most families attach to, and the engine folds its paths for
//! them. A family whose policies configure something else — Kuma's policies configure proxies,
//! per destination and per inbound (docs/families.md, "Kuma") — brings its own hierarchy: it
//! builds its paths, orders and merges their contributions itself, and hands the reports the
//! result in the shape below. The reports know nothing of the hierarchy beyond what it declares:
//! its table columns ([`OwnedPaths::columns`]), its filters ([`OwnedFilter`]), and per path an
//! opaque id with one display segment per column.

use crate::kinds::PolicyKind;
use serde_json::Value as Json;

/// A filter flag a hierarchy answers (`--mesh`, `--dataplane`), and the segment it tests.
#[derive(Clone, Copy, Debug)]
pub struct OwnedFilter {
    /// The flag, without dashes (`dataplane`).
    pub flag: &'static str,
    /// The segment of [`OwnedItem::segments`] it is matched against.
    pub segment: usize,
}

/// Every path of one family's own hierarchy, with its effective policies.
#[derive(Debug, Default)]
pub struct OwnedPaths {
    /// The hierarchy's name, for headings (`mesh`).
    pub name: &'static str,
    /// The column headings of its path tables, one per segment (`MESH`, `DATAPLANE`, ...).
    pub columns: &'static [&'static str],
    /// The filters it answers.
    pub filters: &'static [OwnedFilter],
    /// The effective policy of every path and kind that has one, sorted by path id, then by
    /// the kind's position in the registry.
    pub items: Vec<OwnedItem>,
    /// The elements of the hierarchy as a tree, for `dopol topology`.
    pub tree: Vec<OwnedNode>,
    /// How the hierarchy was built where the input left a choice (Kuma: how the local zone
    /// was chosen), printed at `-v`; empty when the input has nothing of the hierarchy.
    pub notes: Vec<String>,
}

/// The effective policy of one kind on one path of an owned hierarchy.
#[derive(Debug, Clone)]
pub struct OwnedItem {
    /// The path id (opaque to the reports; unique per kind).
    pub path_id: String,
    /// One display value per [`OwnedPaths::columns`] entry.
    pub segments: Vec<String>,
    /// The policy kind.
    pub kind: &'static PolicyKind,
    /// The effective rules, sorted by key.
    pub rules: Vec<OwnedRule>,
    /// The values that lost on this path (for `overridden` and rule outcomes).
    pub lost: Vec<OwnedLoss>,
    /// Family fields printed after `rules` and `sources` in JSON items, in order
    /// (`mergedFrom`, `conf`, `fallbackFrom`).
    pub extra: Vec<(&'static str, Json)>,
    /// Every policy that takes part on this path (index into `Model::policies`), highest
    /// priority first.
    pub policies: Vec<u32>,
    /// How the value came about, for `dopol explain`.
    pub explanation: OwnedExplanation,
}

/// One effective rule of an owned path.
#[derive(Debug, Clone, PartialEq)]
pub struct OwnedRule {
    /// The rule key (a dotted leaf path, `http.requestTimeout`).
    pub key: String,
    /// The value, as the controller would apply it.
    pub value: Json,
    /// The policy that gave it (index into `Model::policies`).
    pub source: u32,
    /// Every policy that contributed, highest priority first (`[source]` for a value taken
    /// whole from one policy).
    pub origins: Vec<u32>,
}

/// A value a policy set on a path that a later one replaced.
#[derive(Debug, Clone, PartialEq)]
pub struct OwnedLoss {
    /// The rule key.
    pub key: String,
    /// The value that lost.
    pub value: Json,
    /// The policy that set it.
    pub policy: u32,
    /// The policy whose value is effective.
    pub winner: u32,
}

/// How an owned path's value came about: the ordered contributions and each merge step.
#[derive(Debug, Clone, Default)]
pub struct OwnedExplanation {
    /// What orders the contributions, for the heading.
    pub order: String,
    /// The columns of each contribution's sort key (`top`, `origin`, `role`, `to`, `name`).
    pub key_columns: Vec<&'static str>,
    /// The contributions, lowest priority first (the order they are merged in).
    pub steps: Vec<OwnedStep>,
    /// Further remarks (a fallback chain tried, a tie broken by dopol).
    pub notes: Vec<String>,
}

/// One contribution to an owned path and what merging it did.
#[derive(Debug, Clone, Default)]
pub struct OwnedStep {
    /// The policy.
    pub policy: u32,
    /// Which part of it (`to[0]`, `rules[1]`, `default`).
    pub entry: String,
    /// Its sort key, one value per [`OwnedExplanation::key_columns`] entry.
    pub key: Vec<String>,
    /// Why it is relevant to this path (`Mesh`, `whole service`, `exact`).
    pub relevance: String,
    /// The rule keys it set for the first time.
    pub added: Vec<String>,
    /// The rule keys whose earlier value it replaced.
    pub replaced: Vec<String>,
}

/// One element of an owned hierarchy's tree (`dopol topology`).
#[derive(Debug, Clone, Default)]
pub struct OwnedNode {
    /// What it is (`Mesh`, `Dataplane`, `inbound`, `outbound`).
    pub kind: String,
    /// Its name.
    pub name: String,
    /// The policies attached to or selecting it (index into `Model::policies`).
    pub policies: Vec<u32>,
    /// Its children.
    pub children: Vec<OwnedNode>,
    /// The ids of the paths ending at it (so that `topology` keeps, under the hierarchy's
    /// filters, the elements of the paths they show).
    pub paths: Vec<String>,
}
