//! The families built into dopol, each in its own folder, and the registry's built-in list:
//! the one place that names them all. The family contract (`PolicyFamily`, `Evaluator`,
//! `Registry`, ...) is [`crate::policy`]; nothing below the reports names a family.

pub mod agentgateway;
pub mod declared;
pub mod envoy;
pub mod kgateway;
pub mod kuadrant;
pub mod kuma;

use crate::policy::options::{Configured, FamilyOption, OptionError, OptionValues};
use crate::policy::{PolicyFamily, Registry};
use std::sync::Arc;

/// A family built from the values of its options, or the first malformed one.
pub type Built = Result<Configured<Arc<dyn PolicyFamily>>, OptionError>;

/// A built-in family: the options it declares and how it is built from their values.
pub struct Builtin {
    /// Its options (flags), in order.
    pub options: &'static [FamilyOption],
    /// The family, from the values given for its options.
    pub build: fn(&OptionValues) -> Built,
}

/// The families built into dopol, in registration order.
const BUILTIN: &[Builtin] = &[
    Builtin {
        options: &[],
        build: |_| Ok(plain(kuadrant::Kuadrant)),
    },
    Builtin {
        options: kgateway::settings::OPTIONS,
        build: |values| {
            let configured = kgateway::settings::configured(values)?;
            Ok(Configured {
                family: Arc::new(configured.family),
                warnings: configured.warnings,
            })
        },
    },
    Builtin {
        options: &[],
        build: |_| Ok(plain(envoy::EnvoyGateway::builtin())),
    },
    Builtin {
        options: kuma::settings::OPTIONS,
        build: |values| Ok(plain(kuma::Kuma::new(kuma::settings::configured(values)?))),
    },
    Builtin {
        options: &[],
        build: |_| Ok(plain(agentgateway::Agentgateway)),
    },
    Builtin {
        options: &[],
        build: |_| Ok(plain(kgateway::listener::ListenerPolicies)),
    },
    Builtin {
        options: &[],
        build: |_| Ok(plain(kgateway::backend::BackendConfigPolicies)),
    },
];

/// A family without options.
fn plain(family: impl PolicyFamily + 'static) -> Configured<Arc<dyn PolicyFamily>> {
    Configured {
        family: Arc::new(family),
        warnings: Vec::new(),
    }
}

impl Default for Registry {
    fn default() -> Self {
        Registry::builtin()
    }
}

impl Registry {
    /// The families built into dopol, with their options' defaults.
    pub fn builtin() -> Registry {
        let mut registry = Registry::empty();
        for builtin in BUILTIN {
            // No value given: every family takes its defaults, which are valid.
            if let Ok(configured) = (builtin.build)(&OptionValues::default()) {
                registry.add(configured.family);
            }
        }
        registry
    }

    /// Every option of the built-in families, in registration order: what the front end turns
    /// into flags.
    pub fn options() -> impl Iterator<Item = &'static FamilyOption> {
        BUILTIN.iter().flat_map(|builtin| builtin.options)
    }

    /// The built-in families, each built from the values given for its options; the first
    /// malformed value is an error.
    pub fn configured(values: &OptionValues) -> Result<Configured<Registry>, OptionError> {
        let mut registry = Registry::empty();
        let mut warnings = Vec::new();
        for builtin in BUILTIN {
            let configured = (builtin.build)(values)?;
            warnings.extend(configured.warnings);
            registry.add(configured.family);
        }
        Ok(Configured {
            family: registry,
            warnings,
        })
    }
}
