//! CEL inside policies, located: mapping an error inside an expression back to the exact
//! character of the YAML scalar that holds it (plain, quoted or block), and the syntax check of
//! Kuadrant request-time predicates and counters.
//!
//! Request-time expressions are never evaluated (they need a request); a syntax error would
//! only surface in the gateway, so dopol reports it at load time. Each distinct text is parsed
//! once, in parallel: real manifests repeat the same predicates many times.

use super::Policy;
use super::diags::PredicateInvalid;
use crate::diag::Diagnostic;
use crate::expr::{self, ExprError};
use crate::source::{SourceMap, Span};
use rayon::prelude::*;
use std::collections::BTreeMap;

/// The span in the file of the part of an expression an error points at.
pub fn expression_span(sources: &SourceMap, scalar: Span, error: &ExprError) -> Span {
    let text = sources.get(scalar.source).text();
    let scalar = crate::yaml::scalar_source_span(text, scalar);
    let source = sources.slice(scalar);
    if source.is_empty() {
        return scalar;
    }
    let start = expr::value_offset_to_source(source, error.offset).min(source.len());
    let last =
        expr::value_offset_to_source(source, error.offset + error.len.max(1) - 1).min(source.len());
    let end = last + source[last..].chars().next().map_or(0, char::len_utf8);
    Span::new(
        scalar.source,
        scalar.start + start as u32,
        scalar.start + end.max(start + 1).min(source.len()) as u32,
    )
}

/// Syntax-checks the request-time expressions of `policies` (read from `sources`): `found` holds
/// each as (policy, text, scalar), in policy order. They are gathered as each policy is decoded
/// ([`super::FamilyKinds::request_expressions`]), before a run that shows no rule value drops
/// the values (`crate::model::RuleValues`).
pub fn check_request_expressions(
    policies: &[Policy],
    sources: &SourceMap,
    found: &[(u32, Box<str>, Span)],
) -> Vec<Diagnostic> {
    let mut by_text: BTreeMap<&str, Vec<(Span, u32)>> = BTreeMap::new();
    for (policy, text, span) in found {
        by_text.entry(text).or_default().push((*span, *policy));
    }
    let texts: Vec<(&str, Vec<(Span, u32)>)> = by_text.into_iter().collect();
    // Each failing text with its error, the help for it, and where it is used.
    type Failure<'a> = (ExprError, Option<String>, &'a [(Span, u32)]);
    let failures: Vec<Failure<'_>> = texts
        .par_iter()
        .filter_map(|(text, uses)| {
            let error = expr::check_syntax(text).err()?;
            let help = expr::string_escape_help(text, &error);
            Some((error, help, uses.as_slice()))
        })
        .collect();
    let mut diagnostics = Vec::new();
    for (error, help, uses) in failures {
        for &(span, policy) in uses {
            let policy = &policies[policy as usize];
            let label = expression_span(sources, span, &error);
            diagnostics.push(
                Diagnostic::from(PredicateInvalid {
                    policy,
                    error: &error,
                    help: help.clone(),
                })
                .with_label(label, error.message.clone())
                .with_object(policy.display()),
            );
        }
    }
    diagnostics
}
