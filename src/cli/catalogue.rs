//! The catalogue of codes: every code dopol reports, collected from where each is declared.
//!
//! There is no global table of codes to keep in step with the checks: each module that reports
//! findings declares its codes (with their documentation) and lists them in its `CODES`, and
//! each built-in family lists its own through `PolicyFamily::codes`. `dopol lint --list`,
//! `--explain`, SARIF's rules, `--ignore` and shell completions all read this one list.
//!
//! It lives in the front end because it is the one place that composes every floor (the codes of
//! `cli::config` and of the built-in families among them): [`Code::all`] is defined here, so that
//! `diag` below names no module above it.

use crate::diag::Code;
use std::sync::OnceLock;

/// The codes of the modules that are not a family, from loading up to lint's own checks.
const COMMON: &[&[Code]] = &[
    crate::yaml::diags::CODES,
    crate::load::diags::CODES,
    crate::crd::diags::CODES,
    crate::model::diags::CODES,
    crate::topology::diags::CODES,
    crate::policy::diags::CODES,
    crate::policy::outcomes::CODES,
    crate::families::declared::diags::CODES,
    crate::lint::checks::ordering::CODES,
    crate::lint::checks::suppression::CODES,
    crate::lint::checks::listeners::CODES,
    crate::lint::checks::listener_sets::CODES,
    crate::lint::checks::effect::CODES,
    crate::lint::checks::controller::CODES,
    crate::cli::config::CODES,
    crate::report::suite::diags::CODES,
];

impl Code {
    /// Every code, in catalogue order ([`codes`]).
    pub fn all() -> impl Iterator<Item = Code> {
        codes().iter().copied()
    }

    /// Every code, sorted by identifier: SARIF's rules index into it.
    pub fn catalogue() -> &'static [Code] {
        codes()
    }
}

/// Every code, sorted by identifier (`DPL1001` first).
pub fn codes() -> &'static [Code] {
    static CODES: OnceLock<Vec<Code>> = OnceLock::new();
    CODES.get_or_init(|| {
        let registry = crate::policy::Registry::builtin();
        let families = registry.families().flat_map(|family| family.codes().iter());
        let mut codes: Vec<Code> = COMMON
            .iter()
            .copied()
            .flatten()
            .chain(families)
            .copied()
            .collect();
        codes.sort();
        codes
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_is_declared_once_and_documented() {
        let codes = codes();
        for pair in codes.windows(2) {
            assert!(pair[0] != pair[1], "{} is listed twice", pair[0]);
        }
        assert!(codes.len() >= 69, "{} codes", codes.len());
        for code in codes {
            let def = code.def();
            assert!(def.id.starts_with("DPL") && def.id.len() == 7, "{code}");
            assert!(
                !def.summary.is_empty() && !def.explanation.is_empty(),
                "{code}"
            );
            assert!(!def.fix.is_empty(), "{code}");
        }
    }
}
