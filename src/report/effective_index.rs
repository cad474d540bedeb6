//! `dopol effective -o json --compact`: each distinct effective policy once, paths by id.
//!
//! In `EffectivePolicyList` every path repeats its rules, so the document grows to many times
//! the input (20× on the benchmark). Paths with the same policy list share one fold in the
//! engine, so the distinct effective policies are few: this form (`EffectivePolicyIndex`) lists
//! each of them once under `policies`, and `paths` maps every path id to the ids of its effective
//! policies by kind. Both are JSON objects, so a consumer finds a path in O(1)
//! (`jq '.paths["<pathId>"]'`) and its policy with one more lookup.

use crate::engine::fold::Effective;
use crate::policy::owned::OwnedItem;
use crate::report::effective::{EffectiveReport, RuleMap, sources_of};
use crate::report::owned::OwnedPolicyView;
use rustc_hash::FxHashMap;
use serde::ser::{SerializeMap, SerializeStruct};
use serde::{Serialize, Serializer};

/// The `kind` of the compact document.
pub const KIND: &str = "EffectivePolicyIndex";

/// `EffectivePolicyIndex`, a view over an effective report (same filters, same order).
pub struct EffectiveIndex<'r, 's, 'm> {
    report: &'r EffectiveReport<'s, 'm>,
    /// For each fold, its policy number (by first appearance in item order; folds with the same
    /// rules share one), or `u32::MAX`.
    number_of_fold: Vec<u32>,
    /// For each policy number, the index of the first item that has it.
    first_item: Vec<usize>,
    /// The items of the hierarchies families build themselves, in order.
    owned: Vec<&'r OwnedItem>,
    /// Per owned item, its policy number (numbered after the Gateway API policies; items
    /// with the same body share one).
    owned_number: Vec<u32>,
    /// Per owned policy number (from the first), the owned item that has it first.
    owned_first: Vec<usize>,
}

impl<'r, 's, 'm> EffectiveIndex<'r, 's, 'm> {
    /// Numbers the report's distinct effective policies in the order they first appear.
    pub fn new(report: &'r EffectiveReport<'s, 'm>) -> Self {
        let mut number_of_fold = vec![u32::MAX; report.fold_count()];
        let mut number_of_rules: FxHashMap<&Effective<'m>, u32> = FxHashMap::default();
        let mut first_item = Vec::new();
        for (index, item) in report.items.iter().enumerate() {
            if number_of_fold[item.fold as usize] != u32::MAX {
                continue;
            }
            // Different policy lists can fold to the same rules: those share one entry too.
            let next = first_item.len() as u32;
            let number = *number_of_rules
                .entry(report.effective(&item))
                .or_insert_with(|| {
                    first_item.push(index);
                    next
                });
            number_of_fold[item.fold as usize] = number;
        }
        let owned: Vec<&OwnedItem> = report
            .owned
            .iter()
            .flat_map(|o| o.items.iter().copied())
            .collect();
        let mut number_of_body: FxHashMap<String, u32> = FxHashMap::default();
        let mut owned_first = Vec::new();
        let owned_number = owned
            .iter()
            .enumerate()
            .map(|(index, item)| {
                let body = serde_json::to_string(&OwnedPolicyView(report.model(), item))
                    .unwrap_or_default();
                let next = (first_item.len() + owned_first.len()) as u32;
                *number_of_body.entry(body).or_insert_with(|| {
                    owned_first.push(index);
                    next
                })
            })
            .collect();
        EffectiveIndex {
            report,
            number_of_fold,
            first_item,
            owned,
            owned_number,
            owned_first,
        }
    }

    /// The numbers of each path's effective policies (`p<N>`), in kind order: by Gateway API
    /// path index, and by owned path id (`dopol view` embeds [`EffectiveIndex::policies`] and
    /// gives each path its numbers).
    pub fn numbers(&self) -> crate::report::view::EffectiveNumbers<'r> {
        let mut numbers = crate::report::view::EffectiveNumbers::default();
        for item in self.report.items.iter() {
            let number = self.number_of_fold[item.fold as usize];
            numbers
                .gateway_api
                .entry(item.path)
                .or_default()
                .push(number);
        }
        for (item, &number) in self.owned.iter().zip(&self.owned_number) {
            numbers
                .owned
                .entry(item.path_id.as_str())
                .or_default()
                .push(number);
        }
        numbers
    }

    /// `policies` alone: policy id → policy.
    pub fn policies(&self) -> impl Serialize + '_ {
        Policies(self)
    }

    /// How many distinct effective policies there are (`p0` … `p<N-1>`).
    pub fn policy_count(&self) -> usize {
        self.first_item.len() + self.owned_first.len()
    }

    /// Policy `p<number>` of `policies`, as it serializes there.
    pub fn policy(&self, number: usize) -> impl Serialize + '_ {
        NumberedPolicy(self, number)
    }

    /// The id of the policy a fold produced: `p` and its number.
    fn policy_id(&self, fold: u32) -> String {
        format!("p{}", self.number_of_fold[fold as usize])
    }
}

/// One distinct effective policy: its kind, rules and sources.
struct PolicyView<'a, 'r, 's, 'm>(&'a EffectiveIndex<'r, 's, 'm>, usize);

impl Serialize for PolicyView<'_, '_, '_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let item = &self.0.report.items.get(self.1);
        let rules = self.0.report.rules(item);
        let mut s = serializer.serialize_struct("EffectivePolicy", 3)?;
        s.serialize_field("policyKind", item.kind.kind)?;
        s.serialize_field("rules", &RuleMap(&rules))?;
        s.serialize_field("sources", &sources_of(&rules))?;
        s.end()
    }
}

/// Policy `p<N>`: a Gateway API fold's or an owned item's.
struct NumberedPolicy<'a, 'r, 's, 'm>(&'a EffectiveIndex<'r, 's, 'm>, usize);

impl Serialize for NumberedPolicy<'_, '_, '_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (index, number) = (self.0, self.1);
        match index.first_item.get(number) {
            Some(&item) => PolicyView(index, item).serialize(serializer),
            None => {
                let item = index.owned_first[number - index.first_item.len()];
                OwnedPolicyView(index.report.model(), index.owned[item]).serialize(serializer)
            }
        }
    }
}

/// `policies`: policy id → policy, in order of first appearance.
struct Policies<'a, 'r, 's, 'm>(&'a EffectiveIndex<'r, 's, 'm>);

impl Serialize for Policies<'_, '_, '_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let index = self.0;
        let mut map = serializer.serialize_map(Some(index.policy_count()))?;
        for number in 0..index.policy_count() {
            map.serialize_entry(&format!("p{number}"), &NumberedPolicy(index, number))?;
        }
        map.end()
    }
}

/// One path's entry: policy kind → policy id, for the items of that path.
struct PathView<'a, 'r, 's, 'm>(&'a EffectiveIndex<'r, 's, 'm>, &'a [usize]);

impl Serialize for PathView<'_, '_, '_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.1.len()))?;
        for &index in self.1 {
            let item = &self.0.report.items.get(index);
            map.serialize_entry(item.kind.kind, &self.0.policy_id(item.fold))?;
        }
        map.end()
    }
}

/// `paths`: path id → its policies by kind, in path order.
struct Paths<'a, 'r, 's, 'm>(&'a EffectiveIndex<'r, 's, 'm>);

impl Serialize for Paths<'_, '_, '_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let items = &self.0.report.items;
        let mut map = serializer.serialize_map(None)?;
        let mut group: Vec<usize> = Vec::with_capacity(4);
        for index in 0..items.len() {
            group.push(index);
            let item = items.get(index);
            let last_of_path = index + 1 == items.len() || items.get(index + 1).path != item.path;
            if last_of_path {
                map.serialize_entry(&self.0.report.path_id(&item), &PathView(self.0, &group))?;
                group.clear();
            }
        }
        let owned = &self.0.owned;
        let mut start = 0;
        for end in 1..=owned.len() {
            if end < owned.len() && owned[end].path_id == owned[start].path_id {
                continue;
            }
            let kinds: Vec<(&str, String)> = (start..end)
                .map(|i| (owned[i].kind.kind, format!("p{}", self.0.owned_number[i])))
                .collect();
            map.serialize_entry(&owned[start].path_id, &KindIds(&kinds))?;
            start = end;
        }
        map.end()
    }
}

/// An owned path's entry: policy kind → policy id.
struct KindIds<'a>(&'a [(&'a str, String)]);

impl Serialize for KindIds<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (kind, id) in self.0 {
            map.serialize_entry(kind, id)?;
        }
        map.end()
    }
}

impl Serialize for EffectiveIndex<'_, '_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("EffectivePolicyIndex", 4)?;
        s.serialize_field("apiVersion", crate::report::API_VERSION)?;
        s.serialize_field("kind", KIND)?;
        s.serialize_field("policies", &Policies(self))?;
        s.serialize_field("paths", &Paths(self))?;
        s.end()
    }
}
