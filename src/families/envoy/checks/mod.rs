//! Envoy Gateway's lint checks (docs/families.md §3.6), one module per check, each with its
//! documentation. Findings about how a policy is written (`null-pruned`,
//! `deprecated-target-ref`, `selector-selects-all`) are reported while
//! decoding ([`super::decode`]); their documentation lives in [`written`]. A selector's match in
//! another namespace without a ReferenceGrant is [`granted`]'s; CTP's Gateway `sectionName` on a
//! ListenerSet's listener is [`quirk`]'s. The generic `target-not-found` comes from the topology (and from
//! [`untargeted`] for a policy that names no target), and so does `section-not-found` (and from
//! [`set_sections`] for a ListenerSet listener target);
//! `policy-unreachable` and `policy-overridden` are computed here from the family's own outcomes
//! ([`reach`]), since Envoy Gateway has no `Enforced` condition.

mod auth;
mod conflicts;
mod granted;
mod quirk;
mod reach;
mod set_sections;
mod untargeted;
pub mod written;

use super::evaluate::EnvoyEvaluator;
use crate::diag::Diagnostic;
use crate::engine::observed::Observed;

/// Every finding of the family's checks.
pub fn check(evaluator: &EnvoyEvaluator<'_>, observed: &Observed<'_, '_>) -> Vec<Diagnostic> {
    let mut diagnostics = conflicts::check(evaluator);
    diagnostics.extend(auth::check(evaluator, observed));
    diagnostics.extend(reach::check(evaluator, observed));
    diagnostics.extend(untargeted::check(evaluator));
    diagnostics.extend(set_sections::check(evaluator));
    diagnostics.extend(granted::check(evaluator));
    diagnostics.extend(quirk::check(evaluator));
    diagnostics
}
