//! The fold of entries (§K7, ✓ `rules/merge/merge.go`): each entry's conf applied in order as
//! an RFC 7396 merge patch, `append*` lists concatenated; the result's leaves are the rule keys,
//! each with the entry that set it last, and every leaf a later entry replaced is a loss.

use super::duration::normalize;
use serde_json::{Map, Value as Json};
use std::collections::BTreeMap;

/// One leaf of a fold.
#[derive(Clone, Debug, PartialEq)]
pub struct Leaf {
    /// Its value.
    pub value: Json,
    /// The step (index of the contribution) that set it last.
    pub source: usize,
    /// Every contributing step, in merge order (one, but for append lists).
    pub origins: Vec<usize>,
}

/// A leaf a later step replaced.
#[derive(Clone, Debug, PartialEq)]
pub struct Loss {
    /// Its rule key.
    pub key: String,
    /// Its value.
    pub value: Json,
    /// The step that set it.
    pub step: usize,
    /// The step whose value is effective at that key (or replaced it, when nothing is).
    pub winner: usize,
}

/// What one step did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Step {
    /// The rule keys it set for the first time.
    pub added: Vec<String>,
    /// The rule keys whose earlier value it replaced.
    pub replaced: Vec<String>,
}

/// The result of a fold.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Fold {
    /// The merged conf.
    pub conf: Json,
    /// The leaves by dotted key.
    pub leaves: BTreeMap<String, Leaf>,
    /// The leaves replaced.
    pub losses: Vec<Loss>,
    /// Per step.
    pub steps: Vec<Step>,
}

/// Whether `key` is `other` or one of them lies under the other.
fn overlaps(key: &str, other: &str) -> bool {
    let under =
        |a: &str, b: &str| a.len() > b.len() && a.starts_with(b) && a.as_bytes()[b.len()] == b'.';
    key == other || under(key, other) || under(other, key)
}

/// Whether a field name is an append list's.
fn is_append(key: &str) -> bool {
    key.rsplit('.')
        .next()
        .is_some_and(|last| last.starts_with("append"))
}

/// Folds `confs` in order; `durations` names the duration fields.
pub fn fold(confs: &[&Json], durations: &[&str]) -> Fold {
    let mut result = Fold {
        conf: Json::Object(Map::new()),
        ..Fold::default()
    };
    for (s, conf) in confs.iter().enumerate() {
        let mut patch = (*conf).clone();
        normalize(&mut patch, None, None, durations);
        result.conf = merge_patch(std::mem::take(&mut result.conf), &patch);
        let mut step = Step::default();
        let mut leaves = Vec::new();
        flatten(&patch, String::new(), &mut leaves);
        for (key, value) in leaves {
            result.apply(s, key, value, &mut step);
        }
        result.steps.push(step);
    }
    result.resolve_winners();
    result
}

impl Fold {
    fn apply(&mut self, s: usize, key: String, value: Json, step: &mut Step) {
        let prefix = format!("{key}.");
        if value.as_object().is_some_and(Map::is_empty)
            && self.leaves.keys().any(|k| k.starts_with(&prefix))
        {
            return;
        }
        if is_append(&key) {
            if let Some(Leaf {
                value: Json::Array(old),
                source,
                origins,
            }) = self.leaves.get_mut(&key)
            {
                if let Json::Array(more) = value {
                    old.extend(more);
                    *source = s;
                    origins.push(s);
                    return;
                }
            }
        }
        let replaced: Vec<String> = (self.leaves.keys())
            .filter(|k| overlaps(&key, k))
            .cloned()
            .collect();
        if replaced.is_empty() {
            step.added.push(key.clone());
        }
        for old in replaced {
            let leaf = self.leaves.remove(&old).expect("listed");
            self.losses.push(Loss {
                key: old.clone(),
                value: leaf.value,
                step: leaf.source,
                winner: s,
            });
            step.replaced.push(old);
        }
        self.leaves.insert(
            key,
            Leaf {
                value,
                source: s,
                origins: vec![s],
            },
        );
    }

    /// Each loss's winner: the step whose leaf is effective at its key (or over or under it).
    fn resolve_winners(&mut self) {
        for loss in &mut self.losses {
            if let Some((_, leaf)) = self.leaves.iter().find(|(k, _)| overlaps(&loss.key, k)) {
                loss.winner = leaf.source;
            }
        }
    }
}

/// The leaves of `value` (scalars, arrays, empty objects) by dotted key.
fn flatten(value: &Json, key: String, out: &mut Vec<(String, Json)>) {
    match value {
        Json::Object(map) if !map.is_empty() => {
            for (k, v) in map {
                let path = if key.is_empty() {
                    k.clone()
                } else {
                    format!("{key}.{k}")
                };
                flatten(v, path, out);
            }
        }
        _ if key.is_empty() => {}
        _ => out.push((key, value.clone())),
    }
}

/// RFC 7396 merge patch, with `append*` lists concatenated.
pub fn merge_patch(target: Json, patch: &Json) -> Json {
    let Json::Object(patch) = patch else {
        return patch.clone();
    };
    let mut target = match target {
        Json::Object(map) => map,
        _ => Map::new(),
    };
    for (key, value) in patch {
        if value.is_null() {
            target.shift_remove(key);
            continue;
        }
        let slot = target.entry(key.clone()).or_insert(Json::Null);
        let old = std::mem::take(slot);
        *slot = match (old, value) {
            (Json::Array(mut old), Json::Array(more)) if key.starts_with("append") => {
                old.extend(more.iter().cloned());
                Json::Array(old)
            }
            (old, value) => merge_patch(old, value),
        };
    }
    Json::Object(target)
}
