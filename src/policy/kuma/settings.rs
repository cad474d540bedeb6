//! The Kuma control plane's settings that change what policies resolve to: the mode it runs in,
//! its zone and its system namespace (docs/families.md, "Kuma"), and the outbounds a run looks up
//! beyond the keys the policies name (`--kuma-outbound`).

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
