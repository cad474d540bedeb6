//! The checks, one module per theme: each holds its codes' documentation and, for the checks
//! that exist only for `lint` (outcomes, ordering, granularity), their logic.

pub mod attachment;
pub mod extensions;
pub mod granularity;
pub mod input;
pub mod ordering;
pub mod outcomes;
pub mod suppression;
pub mod targets;

use super::doc::CheckDoc;

/// Every code's documentation: the common checks', then each built-in family's own.
pub fn all_docs() -> impl Iterator<Item = &'static CheckDoc> {
    let families: Vec<&'static [CheckDoc]> = crate::policy::Registry::builtin()
        .families()
        .flat_map(|f| f.check_docs().iter().copied())
        .collect();
    [
        input::DOCS,
        attachment::DOCS,
        targets::DOCS,
        outcomes::DOCS,
        ordering::DOCS,
        granularity::DOCS,
        suppression::DOCS,
        extensions::DOCS,
        crate::policy::declared::DOCS,
    ]
    .into_iter()
    .chain(families)
    .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Code;

    #[test]
    fn every_code_has_exactly_one_doc() {
        for code in Code::ALL {
            let count = all_docs().filter(|d| d.code == *code).count();
            assert_eq!(count, 1, "{code} has {count} docs");
            let doc = all_docs().find(|d| d.code == *code).unwrap();
            assert!(!doc.explanation.is_empty() && !doc.fix.is_empty(), "{code}");
        }
    }
}
