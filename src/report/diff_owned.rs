//! `dopol diff` over the hierarchies families build themselves ([`crate::policy::owned`]): the
//! values that differ per path id, kind and rule key. A change of the contributions alone (Kuma's
//! `mergedFrom`) with the same value, source and origins is not a change.

use super::diff::ChangeKind;
use crate::engine::Engine;
use crate::report::filter::Filters;
use serde::Serialize;
use serde::ser::SerializeStruct;
use serde_json::Value as Json;
use std::collections::BTreeMap;

/// One side of a changed owned value.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OwnedVersion {
    /// The value.
    pub value: Json,
    /// The source policy's locator.
    pub source: String,
    /// Every contributing policy's locator, when more than the source.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub origins: Vec<String>,
}

/// A changed value on a path of an owned hierarchy.
#[derive(Clone, Debug, PartialEq)]
pub struct OwnedChange {
    /// The name of its hierarchy (`mesh`), for summaries.
    pub hierarchy: &'static str,
    /// The path id.
    pub path_id: String,
    /// The policy kind.
    pub policy_kind: &'static str,
    /// The rule key.
    pub key: String,
    /// What changed.
    pub change: ChangeKind,
    /// Before (absent when added).
    pub before: Option<OwnedVersion>,
    /// After (absent when removed).
    pub after: Option<OwnedVersion>,
}

impl Serialize for OwnedChange {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("OwnedChange", 8)?;
        s.serialize_field("pathId", &self.path_id)?;
        s.serialize_field("policyKind", self.policy_kind)?;
        s.serialize_field("key", &self.key)?;
        s.serialize_field("change", self.change.as_str())?;
        if let Some(before) = &self.before {
            s.serialize_field("before", before)?;
        }
        if let Some(after) = &self.after {
            s.serialize_field("after", after)?;
        }
        if let (Some(b), Some(a)) = (&self.before, &self.after) {
            s.serialize_field("valueChanged", &(b.value != a.value))?;
            s.serialize_field("sourceChanged", &(b.source != a.source))?;
        }
        s.end()
    }
}

/// (path id, kind, key) → the hierarchy's name and the value there.
type Values = BTreeMap<(String, &'static str, String), (&'static str, OwnedVersion)>;

/// The owned values of one side that `filters` shows.
fn values(engine: &Engine<'_>, filters: &Filters) -> Values {
    let locator = |p: u32| super::owned::locator(engine.model, p).to_string();
    let mut values = BTreeMap::new();
    for paths in engine.owned() {
        for item in paths.items.iter().filter(|i| filters.shows_owned(paths, i)) {
            for rule in &item.rules {
                let origins = match rule.origins.len() {
                    0 | 1 => Vec::new(),
                    _ => rule.origins.iter().map(|&p| locator(p)).collect(),
                };
                let version = OwnedVersion {
                    value: rule.value.clone(),
                    source: locator(rule.source),
                    origins,
                };
                let key = (item.path_id.clone(), item.kind.kind, rule.key.clone());
                values.insert(key, (paths.name, version));
            }
        }
    }
    values
}

/// How the owned values differ between the two sides, by path id, kind and key.
pub fn changes(
    old: &Engine<'_>,
    new: &Engine<'_>,
    filters: (&Filters, &Filters),
) -> Vec<OwnedChange> {
    let mut before = values(old, filters.0);
    let mut after = values(new, filters.1);
    let mut keys: Vec<_> = before.keys().chain(after.keys()).cloned().collect();
    keys.sort();
    keys.dedup();
    let mut changes = Vec::new();
    for key in keys {
        let (b, a) = (before.remove(&key), after.remove(&key));
        let hierarchy = a.as_ref().or(b.as_ref()).map_or("", |(name, _)| *name);
        let (b, a) = (b.map(|(_, v)| v), a.map(|(_, v)| v));
        let change = match (&b, &a) {
            (None, Some(_)) => ChangeKind::Added,
            (Some(_), None) => ChangeKind::Removed,
            (Some(b), Some(a)) if b != a => ChangeKind::Changed,
            _ => continue,
        };
        let (path_id, policy_kind, key) = key;
        changes.push(OwnedChange {
            hierarchy,
            path_id,
            policy_kind,
            key,
            change,
            before: b,
            after: a,
        });
    }
    changes
}
