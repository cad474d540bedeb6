//! GEP-713's names for merge strategies (Gateway API, rewritten 2025-11): None, Atomic defaults,
//! Atomic overrides, Patch defaults, Patch overrides, Custom. The GEP asks status and tools to
//! use these names, so every family maps its own words to them ([`NamedStrategy`]), `explain`
//! and `status -o json` print both, and a families file may declare a kind by one of them alone.
//!
//! The names here are the GEP's; which family word maps to which is each family's to say
//! (`PolicyFamily::strategies`, docs/families.md "GEP-713 strategy names"). A Kuadrant-shaped
//! block says it by its kind and strategy ([`GepStrategy::of_block`]).

use super::{BlockKind, Strategy};
use serde::Serialize;

/// One of GEP-713's merge strategies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GepStrategy {
    /// No merge: at one target the established (oldest) policy wins and the others are rejected.
    None,
    /// The more specific spec replaces the less specific one whole.
    AtomicDefaults,
    /// The less specific spec replaces the more specific one whole.
    AtomicOverrides,
    /// The less specific spec, patched by the more specific one (the more specific wins clashes).
    PatchDefaults,
    /// The more specific spec, patched by the less specific one (the less specific wins clashes).
    PatchOverrides,
    /// An implementation's own merge, which none of the others describes.
    Custom,
}

impl GepStrategy {
    /// Every strategy, in the GEP's order of precedence when a kind does not say.
    pub const ALL: [GepStrategy; 6] = [
        GepStrategy::None,
        GepStrategy::AtomicDefaults,
        GepStrategy::PatchDefaults,
        GepStrategy::AtomicOverrides,
        GepStrategy::PatchOverrides,
        GepStrategy::Custom,
    ];

    /// The GEP's name (`Patch defaults`), as status and tools must print it.
    pub fn name(self) -> &'static str {
        match self {
            GepStrategy::None => "None",
            GepStrategy::AtomicDefaults => "Atomic defaults",
            GepStrategy::AtomicOverrides => "Atomic overrides",
            GepStrategy::PatchDefaults => "Patch defaults",
            GepStrategy::PatchOverrides => "Patch overrides",
            GepStrategy::Custom => "Custom",
        }
    }

    /// The name as one word (`PatchDefaults`), as a families file writes it.
    pub fn keyword(self) -> &'static str {
        match self {
            GepStrategy::None => "None",
            GepStrategy::AtomicDefaults => "AtomicDefaults",
            GepStrategy::AtomicOverrides => "AtomicOverrides",
            GepStrategy::PatchDefaults => "PatchDefaults",
            GepStrategy::PatchOverrides => "PatchOverrides",
            GepStrategy::Custom => "Custom",
        }
    }

    /// The strategy of a defaults/overrides block (Kuadrant's shape): atomic or merge, of
    /// defaults (bare rules are atomic defaults) or of overrides. A `spec` block has no
    /// strategy of its own: the family's merge decides, `Custom` until it says otherwise.
    pub fn of_block(kind: BlockKind, strategy: Strategy) -> GepStrategy {
        match (kind, strategy) {
            (BlockKind::Defaults | BlockKind::Bare, Strategy::Atomic) => {
                GepStrategy::AtomicDefaults
            }
            (BlockKind::Defaults | BlockKind::Bare, Strategy::Merge) => GepStrategy::PatchDefaults,
            (BlockKind::Overrides, Strategy::Atomic) => GepStrategy::AtomicOverrides,
            (BlockKind::Overrides, Strategy::Merge) => GepStrategy::PatchOverrides,
            (BlockKind::Spec, _) => GepStrategy::Custom,
        }
    }
}

impl std::fmt::Display for GepStrategy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for GepStrategy {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// A strategy a policy uses, in its family's words and in GEP-713's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NamedStrategy {
    /// What it applies to: a block (`defaults`, `bare`, `overrides`, `spec`) or a part of the
    /// spec a family merges on its own terms (agentgateway's `traffic`).
    pub block: &'static str,
    /// The family's own word (`merge`, `AugmentedShallow`, `StrategicMerge`, `Override`).
    pub strategy: &'static str,
    /// GEP-713's name.
    pub gep: GepStrategy,
}

impl NamedStrategy {
    /// A family's merge of a whole `spec` (no defaults/overrides blocks), in its words and the
    /// GEP's.
    pub fn of_spec(strategy: &'static str, gep: GepStrategy) -> NamedStrategy {
        NamedStrategy {
            block: BlockKind::Spec.as_str(),
            strategy,
            gep,
        }
    }

    /// A defaults/overrides block, named by its kind and strategy.
    pub fn of_block(kind: BlockKind, strategy: Strategy) -> NamedStrategy {
        NamedStrategy {
            block: kind.as_str(),
            strategy: strategy.as_str(),
            gep: GepStrategy::of_block(kind, strategy),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_name_the_four_defaults_and_overrides_strategies() {
        for (kind, strategy, name) in [
            (BlockKind::Bare, Strategy::Atomic, "Atomic defaults"),
            (BlockKind::Defaults, Strategy::Atomic, "Atomic defaults"),
            (BlockKind::Defaults, Strategy::Merge, "Patch defaults"),
            (BlockKind::Overrides, Strategy::Atomic, "Atomic overrides"),
            (BlockKind::Overrides, Strategy::Merge, "Patch overrides"),
            (BlockKind::Spec, Strategy::Merge, "Custom"),
        ] {
            assert_eq!(GepStrategy::of_block(kind, strategy).name(), name);
            assert_eq!(NamedStrategy::of_block(kind, strategy).gep.name(), name);
        }
    }

    #[test]
    fn names_and_keywords_are_the_geps() {
        let names: Vec<_> = GepStrategy::ALL.iter().map(|s| s.name()).collect();
        assert_eq!(
            names,
            [
                "None",
                "Atomic defaults",
                "Patch defaults",
                "Atomic overrides",
                "Patch overrides",
                "Custom"
            ]
        );
        for s in GepStrategy::ALL {
            assert_eq!(s.keyword(), s.name().replace(" d", "D").replace(" o", "O"));
            assert_eq!(serde_json::to_value(s).unwrap(), s.name());
        }
    }
}
