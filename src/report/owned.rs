//! The reports' view of the hierarchies families build themselves ([`crate::policy::owned`]):
//! which of their items the filters show, and their JSON shapes.
//!
//! An owned item's JSON is a Gateway API item's without the path's parts (`gateway`,
//! `listener`, `route`, `rule`: an owned path has its own, opaque in its id), with the family's
//! fields after `sources` (`mergedFrom`, `conf`, `fallbackFrom` for Kuma).
//!
//! Which paths show is decided as for every hierarchy ([`Filters::shows_owned`], the same test
//! as [`Filters::shows_on`]); what stays a branch of its own is the item: a Gateway API item is
//! a (path, fold) pair whose rules the engine shares between paths and whose JSON names the
//! path's parts, an owned item is built whole by its family with fields of its own, and each
//! keeps the JSON shape its schema (`docs/schema/`) gives it.

use crate::engine::Engine;
use crate::model::Model;
use crate::policy::owned::{OwnedItem, OwnedPaths, OwnedRule};
use crate::report::filter::Filters;
use serde::ser::{SerializeMap, SerializeStruct};
use serde::{Serialize, Serializer};

/// The items of one owned hierarchy that a report shows, in the hierarchy's order.
#[derive(Clone, Debug)]
pub struct OwnedShown<'e> {
    /// The hierarchy.
    pub paths: &'e OwnedPaths,
    /// Its items the filters keep.
    pub items: Vec<&'e OwnedItem>,
}

/// The shown items of every owned hierarchy of `engine` (hierarchies without one left out).
pub fn shown<'e>(engine: &'e Engine<'_>, filters: &Filters) -> Vec<OwnedShown<'e>> {
    engine
        .owned()
        .map(|paths| OwnedShown {
            paths,
            items: (paths.items.iter())
                .filter(|item| filters.shows_owned(paths, item))
                .collect(),
        })
        .filter(|shown| !shown.items.is_empty())
        .collect()
}

/// How many items `shown` holds in all.
pub fn count(shown: &[OwnedShown<'_>]) -> usize {
    shown.iter().map(|s| s.items.len()).sum()
}

/// The sorted unique source locators of an owned item's rules.
pub fn sources<'m>(model: &'m Model, rules: &[OwnedRule]) -> Vec<&'m str> {
    let mut sources: Vec<&str> = rules.iter().map(|r| locator(model, r.source)).collect();
    sources.sort_unstable();
    sources.dedup();
    sources
}

/// The locator of policy number `policy`.
pub fn locator(model: &Model, policy: u32) -> &str {
    &model.policies[policy as usize].locator
}

/// An owned item's rules as a JSON object: key → `{value, source, origins}`.
pub struct OwnedRules<'a>(pub &'a Model, pub &'a [OwnedRule]);

impl Serialize for OwnedRules<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        struct One<'a>(&'a Model, &'a OwnedRule);
        impl Serialize for One<'_> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let (model, rule) = (self.0, self.1);
                let origins: Vec<&str> = rule.origins.iter().map(|&p| locator(model, p)).collect();
                let mut s = serializer.serialize_struct("Rule", 3)?;
                s.serialize_field("value", &rule.value)?;
                s.serialize_field("source", locator(model, rule.source))?;
                s.serialize_field("origins", &origins)?;
                s.end()
            }
        }
        let mut map = serializer.serialize_map(Some(self.1.len()))?;
        for rule in self.1 {
            map.serialize_entry(&rule.key, &One(self.0, rule))?;
        }
        map.end()
    }
}

/// An owned item's body: `rules`, `sources`, then the family's fields.
fn serialize_body<S: SerializeMap>(
    map: &mut S,
    model: &Model,
    item: &OwnedItem,
) -> Result<(), S::Error> {
    map.serialize_entry("rules", &OwnedRules(model, &item.rules))?;
    map.serialize_entry("sources", &sources(model, &item.rules))?;
    for (name, value) in &item.extra {
        map.serialize_entry(name, value)?;
    }
    Ok(())
}

/// One owned item as an `EffectivePolicyList` item.
pub struct OwnedItemView<'a>(pub &'a Model, pub &'a OwnedItem);

impl Serialize for OwnedItemView<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (model, item) = (self.0, self.1);
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("policyKind", item.kind.kind)?;
        map.serialize_entry("policyGroup", item.kind.group)?;
        map.serialize_entry("pathId", &item.path_id)?;
        serialize_body(&mut map, model, item)?;
        map.end()
    }
}

/// One owned item as an `EffectivePolicyIndex` policy: kind, then the body.
pub struct OwnedPolicyView<'a>(pub &'a Model, pub &'a OwnedItem);

impl Serialize for OwnedPolicyView<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (model, item) = (self.0, self.1);
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("policyKind", item.kind.kind)?;
        serialize_body(&mut map, model, item)?;
        map.end()
    }
}
