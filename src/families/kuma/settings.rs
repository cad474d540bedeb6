//! The Kuma control plane's settings that change what policies resolve to: the mode it runs in,
//! its zone and its system namespace (docs/families.md, "Kuma"), and the outbounds a run looks up
//! beyond the keys the policies name (`--kuma-outbound`).

use crate::policy::options::{FamilyOption, OptionError, OptionScope, OptionValues};

/// Where the control plane runs (`kuma-cp` `mode`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// A zone control plane (the default of `kuma-cp.defaults.yaml`).
    #[default]
    Zone,
    /// The global control plane of a multizone deployment.
    Global,
}

/// The settings of the control plane whose view is computed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KumaSettings {
    /// `--kuma-mode`.
    pub mode: Mode,
    /// `--kuma-zone`: the local zone (when `None`: the one zone of the input's local
    /// Dataplanes, else `default`).
    pub zone: Option<String>,
    /// `--kuma-system-namespace`.
    pub system_namespace: String,
    /// `--kuma-outbound`: KRIs to look up on every Dataplane (§K5 end).
    pub outbounds: Vec<String>,
}

impl Default for KumaSettings {
    fn default() -> Self {
        KumaSettings {
            mode: Mode::Zone,
            zone: None,
            system_namespace: "kuma-system".to_string(),
            outbounds: Vec::new(),
        }
    }
}

/// `--kuma-mode`.
pub const MODE: FamilyOption = FamilyOption {
    flag: "kuma-mode",
    value_name: "MODE",
    help: "The Kuma control plane's mode whose view is computed: `zone` (the default) or `global`",
    default: None,
    possible_values: &["zone", "global"],
    scope: OptionScope::Setting,
    repeatable: false,
};

/// `--kuma-zone`.
pub const ZONE: FamilyOption = FamilyOption {
    flag: "kuma-zone",
    value_name: "NAME",
    help: "The local zone of a Kuma zone control plane (default: the one zone of the input's local Dataplanes, else `default`)",
    default: None,
    possible_values: &[],
    scope: OptionScope::Setting,
    repeatable: false,
};

/// `--kuma-system-namespace`.
pub const SYSTEM_NAMESPACE: FamilyOption = FamilyOption {
    flag: "kuma-system-namespace",
    value_name: "NS",
    help: "The Kuma control plane's system namespace (default `kuma-system`): its policies have the `system` role",
    default: None,
    possible_values: &[],
    scope: OptionScope::Setting,
    repeatable: false,
};

/// `--kuma-outbound`.
pub const OUTBOUND: FamilyOption = FamilyOption {
    flag: "kuma-outbound",
    value_name: "KRI",
    help: "Also look up this Kuma destination (a MeshService, MeshMultiZoneService or MeshExternalService KRI) on every Dataplane of its mesh, as the proxy does: the key itself, else without its section, else the Mesh key. Repeatable",
    default: None,
    possible_values: &[],
    scope: OptionScope::Setting,
    repeatable: true,
};

/// `--mesh`.
pub const MESH: FamilyOption = FamilyOption {
    flag: "mesh",
    value_name: "NAME",
    help: "Only the Kuma paths of this mesh",
    default: None,
    possible_values: &[],
    scope: OptionScope::Filter,
    repeatable: false,
};

/// `--dataplane`.
pub const DATAPLANE: FamilyOption = FamilyOption {
    flag: "dataplane",
    value_name: "[NS/]NAME",
    help: "Only the Kuma paths of this Dataplane",
    default: None,
    possible_values: &[],
    scope: OptionScope::Filter,
    repeatable: false,
};

/// The family's options, in the order of their flags.
pub const OPTIONS: &[FamilyOption] = &[MODE, ZONE, SYSTEM_NAMESPACE, OUTBOUND, MESH, DATAPLANE];

/// The settings `values` give (the flags' values are checked by the front end: `--kuma-mode`
/// takes only its two values); a `--kuma-outbound` that is not a KRI is an error (it would look
/// up nothing and look like an answer).
pub fn configured(values: &OptionValues) -> Result<KumaSettings, OptionError> {
    if let Some(bad) = (values.get_all(&OUTBOUND)).find(|kri| super::lookup::parts(kri).is_none()) {
        return Err(OptionError {
            flag: OUTBOUND.flag,
            message: format!(
                "`{bad}` is not a KRI (`kri_<kind>_<mesh>_<zone>_<namespace>_<name>_<section>`, as `kri_msvc_default_zone-1_kuma-demo_backend_http`)"
            ),
        });
    }
    let defaults = KumaSettings::default();
    Ok(KumaSettings {
        mode: match values.get(&MODE) {
            Some("global") => Mode::Global,
            _ => Mode::Zone,
        },
        zone: values.get(&ZONE).map(str::to_string),
        system_namespace: (values.get(&SYSTEM_NAMESPACE))
            .map_or(defaults.system_namespace, str::to_string),
        outbounds: values.get_all(&OUTBOUND).map(str::to_string).collect(),
    })
}
