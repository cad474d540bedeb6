//! The Kuma control plane settings dopol evaluates under (stub: the kuma family's own file
//! replaces this one at merge).

/// The control plane's mode (`--kuma-mode`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// A zone control plane (Kuma's default).
    #[default]
    Zone,
    /// The global control plane of a multi-zone deployment.
    Global,
}

/// The settings of one run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KumaSettings {
    /// `--kuma-mode`.
    pub mode: Mode,
    /// `--kuma-zone`: the local zone (`None`: not given).
    pub zone: Option<String>,
    /// `--kuma-system-namespace`.
    pub system_namespace: String,
    /// `--kuma-outbound`: the KRIs to look up.
    pub outbounds: Vec<String>,
}

impl Default for KumaSettings {
    fn default() -> Self {
        KumaSettings {
            mode: Mode::Zone,
            zone: None,
            system_namespace: "kuma-system".into(),
            outbounds: Vec::new(),
        }
    }
}
