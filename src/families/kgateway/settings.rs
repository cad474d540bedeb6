//! kgateway's controller settings as the family's options (`--kgateway-policy-merge`,
//! `--kgateway-global-policy-namespace`): declared here, turned into flags by the front end, and
//! read back here when the registry is built.

use super::{Kgateway, MergeSettings};
use crate::policy::options::{Configured, FamilyOption, OptionError, OptionScope, OptionValues};

/// `KGW_POLICY_MERGE`.
pub const POLICY_MERGE: FamilyOption = FamilyOption {
    flag: "kgateway-policy-merge",
    value_name: "JSON",
    help: "kgateway's KGW_POLICY_MERGE setting, e.g. `{\"trafficPolicy\": {\"extAuth\": \"DeepMerge\", \"acl\": \"ShallowMerge\"}}`",
    default: None,
    possible_values: &[],
    scope: OptionScope::Setting,
    repeatable: false,
};

/// `KGW_GLOBAL_POLICY_NAMESPACE`.
pub const GLOBAL_POLICY_NAMESPACE: FamilyOption = FamilyOption {
    flag: "kgateway-global-policy-namespace",
    value_name: "NS",
    help: "kgateway's KGW_GLOBAL_POLICY_NAMESPACE setting: targetSelectors of TrafficPolicies in this namespace select objects in every namespace",
    default: None,
    possible_values: &[],
    scope: OptionScope::Setting,
    repeatable: false,
};

/// The family's options, in the order of their flags.
pub const OPTIONS: &[FamilyOption] = &[POLICY_MERGE, GLOBAL_POLICY_NAMESPACE];

/// The built-in family with the controller settings `values` give: a malformed merge setting is
/// an error, an unknown strategy in it a warning (read as the default).
pub fn configured(values: &OptionValues) -> Result<Configured<Kgateway>, OptionError> {
    let mut family = Kgateway::default();
    let mut warnings = Vec::new();
    if let Some(json) = values.get(&POLICY_MERGE) {
        let error = |message| OptionError {
            flag: POLICY_MERGE.flag,
            message,
        };
        let (settings, parse_warnings) = MergeSettings::parse(json).map_err(error)?;
        warnings.extend(parse_warnings.into_iter().map(error));
        family.settings = settings;
    }
    family.global_namespace = global_namespace(values);
    Ok(Configured { family, warnings })
}

/// The namespace whose TrafficPolicies (and declared kinds of the `kgateway` model) select in
/// every namespace.
pub fn global_namespace(values: &OptionValues) -> Option<String> {
    values.get(&GLOBAL_POLICY_NAMESPACE).map(str::to_string)
}
