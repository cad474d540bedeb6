//! The kgateway annotations dopol reads, and the near misses kgateway does not read
//! (docs/families.md §2.3, §2.6).
//!
//! kgateway reads an annotation by its exact key and the inheritance priority by its exact
//! value; anything else is silently the default. Two traps are common enough to name: a key
//! one typo (or one rename) away from a real one — kgateway's own delegation guide still writes
//! kgateway 2.0's `delegation.kgateway.dev/inherited-policy-priority`, renamed
//! `kgateway.dev/inherited-policy-priority` in 2.1 — and 2.0's priority values `PreferParent` and
//! `PreferChild` (2.0 `api/annotations`: `DelegationInheritedPolicyPriorityPreferParent`,
//! `…PreferChild`), which 2.1 replaced by the four `ShallowMerge…`/`DeepMerge…` values.

use super::delegation::INHERIT_MATCHER_ANNOTATION;
use super::evaluate::PRIORITY_ANNOTATION;
use super::family::WEIGHT_ANNOTATION;
use crate::load::Object;
use crate::source::Span;
use crate::yaml::Node;

/// The annotation keys kgateway reads that dopol models.
pub const KNOWN_KEYS: [&str; 3] = [
    PRIORITY_ANNOTATION,
    WEIGHT_ANNOTATION,
    INHERIT_MATCHER_ANNOTATION,
];

/// kgateway 2.0's inheritance priority values and the 2.1 value with the same meaning.
pub const V2_0_PRIORITY_VALUES: [(&str, &str); 2] = [
    ("PreferParent", "ShallowMergePreferParent"),
    ("PreferChild", "ShallowMergePreferChild"),
];

/// The 2.1 value of a 2.0 priority value (`PreferChild` → `ShallowMergePreferChild`).
pub fn current_priority_value(value: &str) -> Option<&'static str> {
    V2_0_PRIORITY_VALUES
        .iter()
        .find(|(old, _)| *old == value)
        .map(|&(_, new)| new)
}

/// The text after the last `/` of a key (the whole key without a prefix).
fn last_segment(key: &str) -> &str {
    key.rsplit('/').next().unwrap_or(key)
}

/// Whether a key's prefix is kgateway's, or a typo of it: `example.com/policy-weight` or a
/// bare `policy-weight` belong to someone else.
fn kgateway_prefix(key: &str) -> bool {
    let Some((prefix, _)) = key.rsplit_once('/') else {
        return false;
    };
    prefix.contains("kgateway")
        || crate::suggest::closest(prefix, ["kgateway.dev", "delegation.kgateway.dev"]).is_some()
}

/// The known key an annotation key nearly is, if any: the same last segment under another
/// prefix (`delegation.kgateway.dev/inherited-policy-priority`), or a kgateway key a plausible
/// typo away (`kgateway.dev/policy-wieght`). A known key is no near miss of itself.
pub fn near_miss(key: &str) -> Option<&'static str> {
    if KNOWN_KEYS.contains(&key) || !kgateway_prefix(key) {
        return None;
    }
    let same_segment = KNOWN_KEYS
        .iter()
        .find(|known| last_segment(known) == last_segment(key));
    if let Some(known) = same_segment {
        return Some(known);
    }
    let closest = crate::suggest::closest(key, KNOWN_KEYS)?;
    KNOWN_KEYS.iter().copied().find(|k| *k == closest)
}

/// An annotation whose key is a near miss of a known key.
pub struct NearMiss<'o> {
    /// The key as written.
    pub key: &'o str,
    /// Its value as written (`""` when it is not a string).
    pub value: &'o str,
    /// The known key it nearly is.
    pub known: &'static str,
    /// Where the key is written.
    pub span: Span,
}

/// Every annotation of an object whose key is a near miss, in written order.
pub fn near_misses(object: &Object) -> Vec<NearMiss<'_>> {
    let entries = object
        .metadata("annotations")
        .and_then(Node::as_map)
        .unwrap_or_default();
    entries
        .iter()
        .filter_map(|e| {
            let key = &*e.key.text;
            near_miss(key).map(|known| NearMiss {
                key,
                value: e.value.as_str().unwrap_or(""),
                known,
                span: e.key.span,
            })
        })
        .collect()
}

/// Where a parent route's merge strategy across route levels comes from, in words for
/// `explain`: the annotation and its value, the default when it is absent (naming a near-miss
/// key kgateway does not read), or the default for a value kgateway does not know.
pub fn priority_source(object: &Object) -> String {
    match object.annotation(PRIORITY_ANNOTATION) {
        None => match near_misses(object)
            .into_iter()
            .find(|miss| miss.known == PRIORITY_ANNOTATION)
        {
            Some(miss) => format!(
                "default; no annotation: kgateway does not read `{}`",
                miss.key
            ),
            None => "default; no annotation".to_string(),
        },
        Some(value) if super::Strategy::from_annotation(Some(value)).1 => {
            format!("default: `{PRIORITY_ANNOTATION}: {value}` is not a value kgateway knows")
        }
        Some(value) => format!("its `{PRIORITY_ANNOTATION}: {value}`"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_misses_are_renamed_or_misspelled_kgateway_keys() {
        assert_eq!(
            near_miss("delegation.kgateway.dev/inherited-policy-priority"),
            Some(PRIORITY_ANNOTATION)
        );
        assert_eq!(
            near_miss("kgateway.dev/inherit-parent-matcher"),
            Some(INHERIT_MATCHER_ANNOTATION)
        );
        assert_eq!(
            near_miss("kgateway.dev/policy-wieght"),
            Some(WEIGHT_ANNOTATION)
        );
        assert_eq!(near_miss("kgateway.dev/inherited-policy-priority"), None);
        assert_eq!(
            near_miss("kubectl.kubernetes.io/last-applied-configuration"),
            None
        );
        assert_eq!(near_miss("example.com/weight"), None);
        // Another project's key with a kgateway key's last segment is not kgateway's.
        assert_eq!(near_miss("example.com/policy-weight"), None);
        assert_eq!(
            near_miss("argocd.argoproj.io/inherited-policy-priority"),
            None
        );
        assert_eq!(near_miss("policy-weight"), None);
        assert_eq!(
            near_miss("kgatway.dev/policy-weight"),
            Some(WEIGHT_ANNOTATION)
        );
        assert_eq!(
            current_priority_value("PreferChild"),
            Some("ShallowMergePreferChild")
        );
        assert_eq!(current_priority_value("preferchild"), None);
    }
}
