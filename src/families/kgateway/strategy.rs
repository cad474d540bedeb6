//! The four merge strategies and where they come from (docs/families.md §2.3, §2.4).
//!
//! Within one level kgateway always merges AugmentedShallow (the first set value wins), except
//! `acl`, which it deep-merges by default, and the fields the controller setting `KGW_POLICY_MERGE`
//! (dopol: `--kgateway-policy-merge`) switches. Across delegated route levels the child route's
//! `kgateway.dev/inherited-policy-priority` annotation picks the strategy.

use crate::policy::{GepStrategy, NamedStrategy};
use std::fmt;

/// How one merge step combines the accumulated side A with the incoming side B (`sdk/merge.go`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// A if set, else B (`ShallowMergePreferChild`, and every same-level step by default).
    AugmentedShallow,
    /// B if set, else A (`ShallowMergePreferParent`).
    OverridableShallow,
    /// Deep-capable fields merged with A preferred; plain fields A if set (`DeepMergePreferChild`).
    AugmentedDeep,
    /// Deep-capable fields merged with B preferred; plain fields **still A if set**
    /// (`DeepMergePreferParent`, kgateway#14724) \[controller\].
    OverridableDeep,
}

/// The `kgateway.dev/inherited-policy-priority` values, in the annotation's spelling.
const ANNOTATION_VALUES: [(&str, Strategy); 4] = [
    ("ShallowMergePreferChild", Strategy::AugmentedShallow),
    ("ShallowMergePreferParent", Strategy::OverridableShallow),
    ("DeepMergePreferChild", Strategy::AugmentedDeep),
    ("DeepMergePreferParent", Strategy::OverridableDeep),
];

impl Strategy {
    /// From the `kgateway.dev/inherited-policy-priority` annotation value (`None` = absent): one
    /// of the four exact-case values; anything else is AugmentedShallow and flagged unknown
    /// (`true`), for lint `unknown-inherited-priority`.
    pub fn from_annotation(value: Option<&str>) -> (Strategy, bool) {
        let Some(value) = value else {
            return (Strategy::AugmentedShallow, false);
        };
        match ANNOTATION_VALUES.iter().find(|(text, _)| *text == value) {
            Some(&(_, strategy)) => (strategy, false),
            None => (Strategy::AugmentedShallow, true),
        }
    }

    /// kgateway's name (`AugmentedShallow`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Strategy::AugmentedShallow => "AugmentedShallow",
            Strategy::OverridableShallow => "OverridableShallow",
            Strategy::AugmentedDeep => "AugmentedDeep",
            Strategy::OverridableDeep => "OverridableDeep",
        }
    }

    /// GEP-713's name. The accumulated side A is the more specific (a child route's level, or
    /// within a level the policy first in order), so preferring A is Patch defaults and
    /// preferring the incoming B is Patch overrides; OverridableDeep prefers B for deep-capable
    /// fields but still A for plain ones, which no GEP strategy describes (Custom).
    pub fn gep(self) -> GepStrategy {
        match self {
            Strategy::AugmentedShallow | Strategy::AugmentedDeep => GepStrategy::PatchDefaults,
            Strategy::OverridableShallow => GepStrategy::PatchOverrides,
            Strategy::OverridableDeep => GepStrategy::Custom,
        }
    }

    /// The strategy as a policy's status names it (`strategies`), in both vocabularies.
    pub fn named(self) -> NamedStrategy {
        NamedStrategy::of_spec(self.as_str(), self.gep())
    }

    /// Whether deep-capable fields merge instead of being taken whole.
    pub fn is_deep(self) -> bool {
        matches!(self, Strategy::AugmentedDeep | Strategy::OverridableDeep)
    }

    /// Whether B (the incoming, parent side) is the preferred side.
    pub fn prefers_b(self) -> bool {
        matches!(
            self,
            Strategy::OverridableShallow | Strategy::OverridableDeep
        )
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `--kgateway-policy-merge` (controller setting `KGW_POLICY_MERGE`), parsed: per field, the
/// strategy of same-level steps when the setting names it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MergeSettings {
    ext_auth: Option<Strategy>,
    ext_proc: Option<Strategy>,
    transformation: Option<Strategy>,
    acl: Option<Strategy>,
}

impl MergeSettings {
    /// Parses `{"trafficPolicy": {"extAuth"|"extProc"|"transformation": "DeepMerge", "acl":
    /// "ShallowMerge"|"DeepMerge"}}`. `Err(message)` when the JSON is malformed or not of that
    /// shape (a usage error; kgateway then merges nothing). Other values are warnings (returned)
    /// and mean shallow; an empty value means unset, as in kgateway; unknown fields are ignored
    /// with a warning. An empty text is no setting.
    pub fn parse(json: &str) -> Result<(MergeSettings, Vec<String>), String> {
        let mut settings = MergeSettings::default();
        let mut warnings = Vec::new();
        if json.is_empty() {
            return Ok((settings, warnings));
        }
        let root: serde_json::Value =
            serde_json::from_str(json).map_err(|e| format!("malformed JSON: {e}"))?;
        let fields = traffic_policy_fields(&root)?;
        for (field, value) in fields {
            let value = match value {
                serde_json::Value::Null => continue,
                serde_json::Value::String(text) => text.as_str(),
                other => {
                    return Err(format!(
                        "trafficPolicy.{field}: expected a string, found {other}"
                    ));
                }
            };
            settings.set(field, value, &mut warnings);
        }
        Ok((settings, warnings))
    }

    /// The strategy of same-level steps for rule `key`: AugmentedShallow, except `acl`
    /// (AugmentedDeep by default) and the fields the settings name.
    pub fn same_level(&self, key: &str) -> Strategy {
        let setting = match key {
            "extAuth" => self.ext_auth,
            "extProc" => self.ext_proc,
            "transformation" => self.transformation,
            "acl" => return self.acl.unwrap_or(Strategy::AugmentedDeep),
            _ => None,
        };
        setting.unwrap_or(Strategy::AugmentedShallow)
    }

    /// Records one field's value.
    fn set(&mut self, field: &str, value: &str, warnings: &mut Vec<String>) {
        let slot = match field {
            "extAuth" => &mut self.ext_auth,
            "extProc" => &mut self.ext_proc,
            "transformation" => &mut self.transformation,
            "acl" => &mut self.acl,
            _ => {
                warnings.push(format!("trafficPolicy.{field}: unknown field, ignored"));
                return;
            }
        };
        if value.is_empty() {
            return;
        }
        *slot = Some(match value {
            "DeepMerge" => Strategy::AugmentedDeep,
            "ShallowMerge" if field == "acl" => Strategy::AugmentedShallow,
            _ => {
                let allowed = if field == "acl" {
                    "ShallowMerge or DeepMerge"
                } else {
                    "DeepMerge"
                };
                warnings.push(format!(
                    "trafficPolicy.{field}: unsupported value {value:?} (allowed: {allowed}); shallow merge is used"
                ));
                Strategy::AugmentedShallow
            }
        });
    }
}

/// The fields of `trafficPolicy`, if the root and it are objects (`null` = none).
fn traffic_policy_fields(
    root: &serde_json::Value,
) -> Result<Vec<(&str, &serde_json::Value)>, String> {
    let Some(root) = root.as_object() else {
        return Err(format!("expected a JSON object, found {root}"));
    };
    match root.get("trafficPolicy") {
        None | Some(serde_json::Value::Null) => Ok(Vec::new()),
        Some(serde_json::Value::Object(fields)) => {
            Ok(fields.iter().map(|(k, v)| (k.as_str(), v)).collect())
        }
        Some(other) => Err(format!("trafficPolicy: expected an object, found {other}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn annotation_values() {
        let cases = [
            (
                Some("ShallowMergePreferChild"),
                Strategy::AugmentedShallow,
                false,
            ),
            (
                Some("ShallowMergePreferParent"),
                Strategy::OverridableShallow,
                false,
            ),
            (Some("DeepMergePreferChild"), Strategy::AugmentedDeep, false),
            (
                Some("DeepMergePreferParent"),
                Strategy::OverridableDeep,
                false,
            ),
            (None, Strategy::AugmentedShallow, false),
            (Some("PreferParent"), Strategy::AugmentedShallow, true),
            (
                Some("deepmergepreferparent"),
                Strategy::AugmentedShallow,
                true,
            ),
            (Some(""), Strategy::AugmentedShallow, true),
        ];
        for (value, strategy, unknown) in cases {
            assert_eq!(
                Strategy::from_annotation(value),
                (strategy, unknown),
                "{value:?}"
            );
        }
        assert_eq!(Strategy::OverridableDeep.as_str(), "OverridableDeep");
    }

    #[test]
    fn same_level_defaults() {
        let settings = MergeSettings::default();
        assert_eq!(settings.same_level("acl"), Strategy::AugmentedDeep);
        for key in [
            "extAuth",
            "extProc",
            "transformation",
            "cors",
            "rateLimit.local",
        ] {
            assert_eq!(
                settings.same_level(key),
                Strategy::AugmentedShallow,
                "{key}"
            );
        }
    }

    #[test]
    fn same_level_with_settings() {
        let json = r#"{"trafficPolicy": {"extAuth": "DeepMerge", "transformation": "DeepMerge", "acl": "ShallowMerge"}}"#;
        let (settings, warnings) = MergeSettings::parse(json).unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(settings.same_level("extAuth"), Strategy::AugmentedDeep);
        assert_eq!(
            settings.same_level("transformation"),
            Strategy::AugmentedDeep
        );
        assert_eq!(settings.same_level("extProc"), Strategy::AugmentedShallow);
        assert_eq!(settings.same_level("acl"), Strategy::AugmentedShallow);
        let (settings, _) = MergeSettings::parse(
            r#"{"trafficPolicy": {"extProc": "DeepMerge", "acl": "DeepMerge"}}"#,
        )
        .unwrap();
        assert_eq!(settings.same_level("extProc"), Strategy::AugmentedDeep);
        assert_eq!(settings.same_level("acl"), Strategy::AugmentedDeep);
    }

    #[test]
    fn settings_unknown_values_warn_and_mean_shallow() {
        let json = r#"{"trafficPolicy": {"extAuth": "ShallowMerge", "acl": "Deep", "extProc": "", "cors": "DeepMerge"}}"#;
        let (settings, warnings) = MergeSettings::parse(json).unwrap();
        assert_eq!(settings.same_level("extAuth"), Strategy::AugmentedShallow);
        assert_eq!(settings.same_level("acl"), Strategy::AugmentedShallow);
        assert_eq!(settings.same_level("extProc"), Strategy::AugmentedShallow);
        assert_eq!(settings.same_level("cors"), Strategy::AugmentedShallow);
        assert_eq!(warnings.len(), 3, "{warnings:?}");
        assert!(
            warnings[0].contains("trafficPolicy.extAuth"),
            "{warnings:?}"
        );
    }

    #[test]
    fn settings_malformed_is_an_error() {
        for json in [
            "{",
            "[]",
            r#"{"trafficPolicy": 1}"#,
            r#"{"trafficPolicy": {"acl": 1}}"#,
        ] {
            assert!(MergeSettings::parse(json).is_err(), "{json}");
        }
        assert_eq!(
            MergeSettings::parse("").unwrap().0,
            MergeSettings::default()
        );
        assert_eq!(
            MergeSettings::parse("{}").unwrap().0,
            MergeSettings::default()
        );
    }
}
